"""A session's end or the daily closing time left unknown or given as a range (issue 15): the certain and possible
conclusions equal those of every completion evaluated one by one, the questions name the closing times that
decide, and a bad range is refused with the field named."""
from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest
from click.testing import CliRunner

from reasoner.events.sun import end_minutes, readings
from reasoner.cli import main
from reasoner.evaluate import evaluate
from reasoner.events.loading import EventFileError, parse_events
from reasoner.unknowns import evaluate_uncertain, questions, unknowns_of
from reasoner.law.locator import encoded_ordinances
from reasoner.modes.whatif import whatif

ORDINANCES = encoded_ordinances()
BASE = {"id": "u", "kinds": ["festival"], "attendance": {"expected_max": 2600},
        "flags": ["open_to_public", "admission_fee", "amplified_sound"]}


def event(schedule: dict, **fields):
    [parsed] = parse_events({**BASE, "schedule": schedule, **fields}, "test")
    return parsed


def minutes(low: datetime, high: datetime) -> list[datetime]:
    return [low + timedelta(minutes=m) for m in range(int((high - low).total_seconds() // 60) + 1)]


def key(c: dict, with_value: bool = False) -> tuple:
    """A conclusion; with its amounts, for those certain (a conclusion whose amount varies is certain in none)."""
    fields = ("kind", "name", "modality", "clauses", "holds") + (("value", "required", "provided", "min", "max") if with_value else ())
    return tuple(json.dumps(c.get(f)) for f in fields)


def brute_force(completed: list) -> dict:
    """Per ordinance: the conclusions (with their amounts) of every completion, and those of some."""
    results = evaluate(completed, ORDINANCES)
    found = {}
    for ordinance in ORDINANCES:
        mine = [r["conclusions"] for r in results if r["ordinance"] == ordinance]
        found[ordinance] = (set.intersection(*({key(c, c["kind"] != "obligation") for c in cs} for cs in mine)),
                            set.union(*({key(c) for c in cs} for cs in mine)))
    return found


def over_completions(e) -> dict:
    return {r["ordinance"]: ({key(c, c["kind"] != "obligation") for c in r["conclusions"] if c["certainty"] == "certain"},
                             {key(c) for c in r["conclusions"]}) for r in evaluate_uncertain(e, ORDINANCES)}


def same(e, completed: list) -> None:
    want, have = brute_force(completed), over_completions(e)
    for ordinance in ORDINANCES:
        assert have[ordinance][1] == want[ordinance][1], (ordinance, "possible", have[ordinance][1] ^ want[ordinance][1])
        assert have[ordinance][0] == want[ordinance][0], (ordinance, "certain", have[ordinance][0] ^ want[ordinance][0])


DAILY = {"first_day": "2027-07-16", "last_day": "2027-07-18", "open": "10:00"}


@pytest.mark.parametrize("low, high", [("21:45", "22:15"), ("23:50", "00:10"), ("00:50", "01:10")])
def test_a_daily_closing_range_equals_every_closing_minute_evaluated_one_by_one(low, high):
    """Across 12 hours (22:00), midnight, and 1:00 a.m.: every minute of the range, each a plain event."""
    first = datetime(2027, 7, 16, *map(int, low.split(":")))
    first += timedelta(days=1) if first.hour < 10 else timedelta()
    last = datetime(2027, 7, 16, *map(int, high.split(":")))
    last += timedelta(days=1) if last.hour < 10 else timedelta()
    completed = [event({"daily": {**DAILY, "close": t.strftime("%H:%M")}}) for t in minutes(first, last)]
    same(event({"daily": {**DAILY, "close": {"min": low, "max": high}}}), completed)


def test_a_session_end_range_equals_every_end_evaluated_one_by_one():
    """The second of two sessions, ending somewhere from 23:40 to 01:20: touches midnight, 1:00 a.m. and the
    darkness hours."""
    first = {"start": "2027-07-16T12:00", "end": "2027-07-16T20:00"}
    low, high = datetime(2027, 7, 17, 23, 40), datetime(2027, 7, 18, 1, 20)
    completed = [event({"sessions": [first, {"start": "2027-07-17T14:00", "end": t.isoformat()}]}) for t in minutes(low, high)]
    same(event({"sessions": [first, {"start": "2027-07-17T14:00", "end": {"min": low.isoformat(), "max": high.isoformat()}}]}),
         completed)


def test_an_end_touching_the_next_session_joins_the_stretch():
    """The first session may end as the second begins (one 12-hour stretch) or a minute before (two of 6)."""
    completed = [event({"sessions": [{"start": "2027-07-17T08:00", "end": t.isoformat()},
                                     {"start": "2027-07-17T14:00", "end": "2027-07-17T20:00"}]})
                 for t in minutes(datetime(2027, 7, 17, 13, 50), datetime(2027, 7, 17, 14, 0))]
    open_end = event({"sessions": [{"start": "2027-07-17T08:00", "end": {"min": "2027-07-17T13:50", "max": "2027-07-17T14:00"}},
                                   {"start": "2027-07-17T14:00", "end": "2027-07-17T20:00"}]})
    same(open_end, completed)
    [trempealeau] = evaluate_uncertain(open_end, ["trempealeau"])
    assert trempealeau["status"] == "possibly_required"


def test_questions_say_from_which_closing_time_a_license_is_needed():
    """Trempealeau 6.01(2)(a): 12 consecutive hours from a 10:00 opening is 22:00."""
    e = event({"daily": {**DAILY, "close": {"min": "21:00", "max": "23:30"}}})
    [question] = [q for q in questions(e, ["trempealeau"])["questions"] if q["fact"] == "schedule.daily.close"]
    assert [(a["from"], a["to"], a["permit"]["trempealeau"]) for a in question["answers"]] == \
        [("21:00", "21:59", "not_required"), ("22:00", "23:30", "required")]


def test_an_unknown_closing_time_runs_from_a_minute_after_opening_to_a_minute_before_it():
    e = event({"daily": {**DAILY, "close": "unknown"}})
    [unknown] = unknowns_of(e, 1, ("trempealeau",))
    values = [v for v, _ in unknown.values]
    assert values[0] == "10:01" and values[-1] == "09:59"
    assert {"21:59", "22:00", "00:59", "01:00", "01:01"} <= set(values)
    [result] = evaluate_uncertain(e, ["trempealeau"])
    assert result["status"] == "possibly_required" and result["unknown"] == ["schedule.daily.close"]


def test_an_unknown_end_lies_within_a_day_and_before_the_next_session():
    e = event({"sessions": [{"start": "2027-07-16T18:00", "end": "unknown"}, {"start": "2027-07-17T10:00", "end": "2027-07-17T12:00"}]})
    assert e.schedule.runs[0].open_end.max == datetime(2027, 7, 17, 10, 0)
    alone = event({"start": "2027-07-16T18:00", "end": "unknown"})
    assert alone.schedule.runs[0].open_end.max == datetime(2027, 7, 17, 18, 0)
    assert alone.schedule.open_ends() == (("schedule.end", (0,)),)


def test_a_stated_close_decides_what_the_range_left_open():
    """Both ends of the range, stated, give the two answers the range holds open (Trempealeau: 21:00 no, 22:00 yes)."""
    statuses = {close: evaluate([event({"daily": {**DAILY, "close": close}})], ["trempealeau"])[0]["status"]
                for close in ("21:59", "22:00")}
    assert statuses == {"21:59": "not_regulated", "22:00": "permit_required"}


def test_darkness_follows_the_candidate_end():
    """The lighting clauses read darkness from the sun: a close from 16:00 to 23:00 may or may not be dark, and
    where it changes (the minute darkness begins at each corner of each text's extent, and the minute after) every
    completion agrees with the plain event."""
    e = event({"start": "2027-07-17T09:00", "end": {"min": "2027-07-17T16:00", "max": "2027-07-17T23:00"}})
    light = event({"start": "2027-07-17T09:00", "end": "2027-07-17T16:00"})
    dark = event({"start": "2027-07-17T09:00", "end": "2027-07-17T23:00"})
    start, until = datetime(2027, 7, 17, 9), datetime(2027, 7, 17, 23)
    edges = sorted({t.strftime("%H:%M") for o in readings() for t in end_minutes(o, start, until) if start < t <= until})
    assert len(edges) >= 8
    same(e, [light, dark] + [event({"start": "2027-07-17T09:00", "end": f"2027-07-17T{h}"}) for h in edges])


def test_whatif_keeps_the_schedule_when_an_end_is_unknown():
    e = event({"daily": {**DAILY, "close": {"min": "21:00", "max": "23:00"}}})
    report = whatif(e, "trempealeau", "permit_required")
    assert "schedule" in report["kept"]
    assert report["decided_by"][0]["fact"] == "schedule.daily.close"


def test_a_total_attendance_range_or_unknown_is_reasoned_over():
    """Fulton reads the peak; a total that may or may not pass 500 is said to be possibly not counted."""
    for total in ({"min": 450, "max": 600}, "unknown"):
        e = event({"daily": {**DAILY, "close": "22:00"}}, attendance={"expected_max": 400, "total": total})
        [result] = evaluate_uncertain(e, ["fulton"])
        notes = [c for c in result["conclusions"] if c["name"] == "total_over_days_not_counted"]
        assert notes and notes[0]["certainty"] == "possible", total
    below = event({"daily": {**DAILY, "close": "22:00"}}, attendance={"expected_max": 400, "total": {"min": 400, "max": 500}})
    [result] = evaluate_uncertain(below, ["fulton"])
    assert not [c for c in result["conclusions"] if c["name"] == "total_over_days_not_counted"]


@pytest.mark.parametrize("schedule, said", [
    ({"daily": {**DAILY, "close": {"min": "01:00", "max": "21:00"}}},
     "schedule.daily: close: min (01:00) comes after max (21:00), counted from the opening at 10:00"),
    ({"daily": {**DAILY, "close": {"min": "10:00", "max": "21:00"}}}, "open and close are the same time"),
    ({"start": "2027-07-16T10:00", "end": {"min": "2027-07-16T22:00", "max": "2027-07-16T21:00"}},
     "min (2027-07-16T22:00) is after max (2027-07-16T21:00)"),
    ({"start": "2027-07-16T10:00", "end": {"min": "2027-07-16T09:00", "max": "2027-07-16T21:00"}},
     "must be after start"),
    ({"sessions": [{"start": "2027-07-16T10:00", "end": {"min": "2027-07-16T20:00", "max": "2027-07-17T11:00"}},
                   {"start": "2027-07-17T10:00", "end": "2027-07-17T20:00"}]},
     "the latest end of a range may not pass the next session's start"),
    ({"sessions": [{"start": "2027-07-16T10:00", "end": {"min": "2027-07-16T20:00", "max": "2027-07-16T21:00"},
                    "end_occurrence": "earlier"}]}, "end_occurrence goes with a known end"),
    ({"daily": {**DAILY, "close": {"min": "21:00"}}}, "schedule.daily.close"),
])
def test_a_bad_end_range_exits_2_naming_the_field(tmp_path, schedule, said):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**BASE, "schedule": schedule}))
    result = CliRunner().invoke(main, ["evaluate", str(path), "-o", "trempealeau"])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and str(path) in result.output
    assert said in " ".join(result.output.split()), result.output
    with pytest.raises(EventFileError):
        parse_events({**BASE, "schedule": schedule}, "test")


def test_the_json_schema_takes_a_range_or_unknown_for_ends_and_closing_times():
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(CliRunner().invoke(main, ["schema"]).output)
    for schedule, attendance in (({"daily": {**DAILY, "close": "unknown"}}, {"expected_max": "unknown", "total": "unknown"}),
                                 ({"daily": {**DAILY, "close": {"min": "21:00", "max": "01:00"}}}, {"expected_max": 10}),
                                 ({"start": "2027-07-16T10:00", "end": "unknown"}, {"expected_max": {"min": 1, "max": 9}}),
                                 ({"sessions": [{"start": "2027-07-16T10:00", "end": {"min": "2027-07-16T20:00",
                                                                                      "max": "2027-07-16T21:00"}}]}, {"expected_max": 10}),
                                 ({"daily": {**DAILY, "close": "22:00", "expected_max": {"2027-07-17": 5}}}, {"expected_max": 10})):
        record = {**BASE, "schedule": schedule, "attendance": attendance}
        jsonschema.validate(record, schema)
        parse_events(record, "test")
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**BASE, "schedule": {"daily": {**DAILY, "close": {"min": "21:00"}}}}, schema)
    with pytest.raises(jsonschema.ValidationError):  # a day's count is keyed by its date
        jsonschema.validate({**BASE, "schedule": {"daily": {**DAILY, "close": "22:00", "expected_max": {"Saturday": 5}}}}, schema)


def test_questions_print_the_closing_times_that_decide(tmp_path):
    path = tmp_path / "fair.json"
    path.write_text(json.dumps({**BASE, "schedule": {"daily": {**DAILY, "close": {"min": "21:00", "max": "23:30"}}}}))
    result = CliRunner().invoke(main, ["questions", str(path), "-o", "trempealeau"])
    assert result.exit_code == 0, result.output
    assert "schedule.daily.close" in result.output
    assert "21:00–21:59 → trempealeau: not required" in result.output
    assert "22:00–23:30 → trempealeau: required" in result.output
