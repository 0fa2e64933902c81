"""Events as they really run (issue 15): sessions, real clocks, and the properties the law's words imply.

Splitting a session into two that touch changes no conclusion; putting time between sessions never adds a
duty that rests on continuous hours; durations count real time in each ordinance's zone; explanations name
the session that triggered a rule; what-if, sweep and batch take sessions.
"""
from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reasoner.evaluate import evaluate
from reasoner.modes.explain import explain
from reasoner.events.loading import EventFileError, parse_events
from reasoner.law.locator import encoded_ordinances
from reasoner.modes.whatif import whatif

ORDINANCES = list(encoded_ordinances())
DAY = datetime(2027, 7, 16)


def event(sessions, **fields):
    record = {"id": "e", "attendance": {"expected_max": 3000}, "kinds": ["festival"],
              "flags": ["open_to_public", "admission_fee", "amplified_sound"],
              "schedule": {"sessions": [{"start": s.isoformat(), "end": e.isoformat()} for s, e in sessions]}, **fields}
    [parsed] = parse_events(record, "test")
    return parsed


def conclusions(e, ordinances=ORDINANCES):
    return {r["ordinance"]: json.dumps(r["conclusions"], sort_keys=True) for r in evaluate([e], ordinances)}


spans = st.tuples(st.integers(0, 2 * 1440), st.integers(30, 40 * 60))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(span=spans, cut=st.floats(0.01, 0.99))
def test_splitting_a_session_into_two_that_touch_changes_nothing(span, cut):
    offset, length = span
    start = DAY + timedelta(minutes=offset)
    end = start + timedelta(minutes=length)
    middle = start + timedelta(minutes=max(1, min(length - 1, int(length * cut))))
    assert conclusions(event([(start, end)])) == conclusions(event([(start, middle), (middle, end)]))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(span=spans, cut=st.floats(0.01, 0.99), gap=st.integers(1, 600))
def test_time_between_sessions_never_adds_a_duty_that_rests_on_continuous_hours(span, cut, gap):
    offset, length = span
    start = DAY + timedelta(minutes=offset)
    middle = start + timedelta(minutes=max(1, min(length - 1, int(length * cut))))
    end = start + timedelta(minutes=length)
    # the first part ends earlier and the second keeps its clock times: only the continuity (and a shorter first
    # part) changes, so no permit resting on continuous hours may appear
    first = middle - start
    gap = min(timedelta(minutes=gap), first - timedelta(minutes=1))
    joined = event([(start, middle), (middle, end)])
    apart = event([(start, middle - gap), (middle, end)]) if gap > timedelta(0) else joined
    before = {r["ordinance"]: r for r in evaluate([joined], ["trempealeau", "village"])}
    after = {r["ordinance"]: r for r in evaluate([apart], ["trempealeau", "village"])}
    for ordinance in ("trempealeau", "village"):
        assert not (after[ordinance]["permit_required"] and not before[ordinance]["permit_required"]), ordinance


def test_a_twelve_hour_day_needs_a_license_and_three_eleven_hour_days_do_not():
    day = [(DAY.replace(hour=10), DAY.replace(hour=22))]
    three = [(DAY.replace(hour=10) + timedelta(days=d), DAY.replace(hour=21) + timedelta(days=d)) for d in range(3)]
    [one] = evaluate([event(day)], ["trempealeau"])
    [many] = evaluate([event(three)], ["trempealeau"])
    assert one["permit_required"] is True and many["permit_required"] is False


def test_the_explanation_names_the_session_that_runs_into_the_early_morning_hours():
    sessions = [(DAY.replace(hour=18), DAY.replace(hour=23)), (DAY.replace(hour=18) + timedelta(days=1), DAY + timedelta(days=2, hours=2))]
    report = explain(event(sessions, attendance={"expected_max": 2500}), "trempealeau", "permit_required")
    text = json.dumps(report)
    assert "The session of 2027-07-17 from 6:00 p.m. continues into the early-morning hours the license duty names (1:00 a.m. to 7:00 a.m.)" in text


def test_the_explanation_names_the_stretch_that_lasts_twelve_hours():
    sessions = [(DAY.replace(hour=10), DAY.replace(hour=16)), (DAY.replace(hour=16), DAY.replace(hour=22))]
    text = json.dumps(explain(event(sessions), "trempealeau", "permit_required"))
    assert "runs without a break for 12 hours from its session of 2027-07-16 at 10:00" in text


@pytest.mark.parametrize("start, end, occurrence, minutes", [
    ("2027-03-14T01:30", "2027-03-14T03:31", None, 61),      # spring forward: an hour is skipped
    ("2027-11-07T00:30", "2027-11-07T02:15", None, 165),     # fall back: an hour happens twice
    ("2027-11-07T00:30", "2027-11-07T01:30", "earlier", 60),
    ("2027-11-07T00:30", "2027-11-07T01:30", "later", 120),
])
def test_durations_count_real_time_in_each_ordinance_zone(start, end, occurrence, minutes):
    from reasoner.events.atoms import event_facts
    from reasoner.law.ordinances import ordinance_time_zones

    record = {"id": "dst", "attendance": {"expected_max": 10},
              "schedule": {"start": start, "end": end, **({"end_occurrence": occurrence} if occurrence else {})}}
    [e] = parse_events(record, "t")
    clocks = [args for name, args in event_facts(1, e) if name == "session_clock"]
    # one clock per time zone the encoded texts keep (Washington's Pacific among them)
    assert {str(a[5]) for a in clocks} == {f'"{zone}"' for zone in ordinance_time_zones().values()}
    assert {'"America/Boise"', '"America/Chicago"', '"America/Denver"', '"America/New_York"', '"America/Los_Angeles"'} <= {str(a[5]) for a in clocks}
    assert {a[7] - a[6] for a in clocks} == {minutes}


def test_an_occurrence_where_the_time_happens_once_changes_nothing():
    record = {"id": "x", "attendance": {"expected_max": 10},
              "schedule": {"start": "2027-07-16T10:00", "end": "2027-07-16T12:00", "end_occurrence": "later"}}
    [e] = parse_events(record, "t")   # accepted, and it changes nothing: the time happens once
    assert e.schedule.runs[0].end == datetime(2027, 7, 16, 12)


def test_daily_hours_past_midnight_end_the_next_day():
    record = {"id": "x", "attendance": {"expected_max": 10},
              "schedule": {"daily": {"first_day": "2027-07-16", "last_day": "2027-07-17", "open": "18:00", "close": "02:00"}}}
    [e] = parse_events(record, "t")
    assert [(s.start, s.end) for s in e.schedule.runs] == [
        (datetime(2027, 7, 16, 18), datetime(2027, 7, 17, 2)), (datetime(2027, 7, 17, 18), datetime(2027, 7, 18, 2))]


def test_whatif_says_which_session_to_shorten():
    sessions = [(DAY.replace(hour=10), DAY.replace(hour=20)), (DAY.replace(hour=10) + timedelta(days=1), DAY.replace(hour=23) + timedelta(days=1))]
    report = whatif(event(sessions), "trempealeau", "permit_required")
    assert report["verified"]
    assert [c["fact"] for c in report["changes"]] == ["schedule.sessions[1].end"]
    assert report["changes"][0]["to"] == "2027-07-17T21:59"


def test_a_total_range_is_reasoned_over():
    from reasoner.unknowns import evaluate_uncertain

    record = {"id": "x", "attendance": {"expected_max": 400, "total": {"min": 450, "max": 600}}, "kinds": ["festival"],
              "schedule": {"daily": {"first_day": "2027-08-13", "last_day": "2027-08-15", "open": "12:00", "close": "22:00"}}}
    [e] = parse_events(record, "t")
    [result] = evaluate_uncertain(e, ["fulton"])
    notes = [c for c in result["conclusions"] if c["name"] == "total_over_days_not_counted"]
    assert notes and notes[0]["certainty"] == "possible"


def test_batch_reads_the_daily_shorthand_from_csv_columns_and_sessions_from_jsonl(tmp_path):
    from reasoner.batch.run import BatchOptions, run

    csv_in = tmp_path / "in.csv"
    csv_in.write_text("id,attendance.expected_max,schedule.daily.first_day,schedule.daily.last_day,schedule.daily.open,"
                      "schedule.daily.close\nlong,2500,2027-07-16,2027-07-18,10:00,22:00\nshort,2500,2027-07-16,2027-07-18,10:00,21:00\n")
    jsonl_in = tmp_path / "in.jsonl"
    jsonl_in.write_text("".join(json.dumps({"id": name, "attendance": {"expected_max": 2500}, "schedule": {"sessions": [
        {"start": f"2027-07-{16 + d}T10:00", "end": f"2027-07-{16 + d}T{close}"} for d in range(3)]}}) + "\n"
        for name, close in (("long", "22:00"), ("short", "21:00"))))
    for source in (csv_in, jsonl_in):
        out = tmp_path / (source.stem + source.suffix + ".out.jsonl")
        run(BatchOptions(str(source), str(out), ("trempealeau",), workers=0))
        rows = {row["event"]: row["status"] for row in map(json.loads, out.read_text().splitlines())}
        assert rows == {"long": "permit_required", "short": "not_regulated"}, source


def test_overlapping_sessions_are_refused():
    with pytest.raises(EventFileError, match="sessions overlap"):
        event([(DAY.replace(hour=10), DAY.replace(hour=18)), (DAY.replace(hour=17), DAY.replace(hour=20))])


FAIR_DAYS = {"first_day": "2027-08-12", "last_day": "2027-08-14", "open": "03:00", "close": "23:00"}


@pytest.mark.parametrize("counts, said", [
    ({"2027-08-15": 10}, "schedule.daily: expected_max: 2027-08-15 is not a day from first_day (2027-08-12) to last_day (2027-08-14)"),
    ({"2027-08-13": 7000}, "schedule.daily.expected_max: 2027-08-13 (7,000) is above the event's peak, attendance.expected_max (6,000)"),
    ({"2027-08-12": 4000, "2027-08-13": 4999, "2027-08-14": 300},
     "attendance.expected_max (6,000) is above every session's peak, the largest being schedule.daily.expected_max: 2027-08-13 (4,999)"),
    ({"2027-08-13": "many"}, "schedule.daily.expected_max: 2027-08-13: must be a whole number, not text"),
    ({"2027-08-13": -1}, "expected_max: 2027-08-13: must be a whole number from 0 to 10,000,000"),
    ({"13 August": 10}, "schedule.daily.expected_max"),
])
def test_a_bad_count_for_a_day_exits_2_naming_the_field(tmp_path, counts, said):
    from click.testing import CliRunner

    from reasoner.cli import main

    path = tmp_path / "fair.json"
    path.write_text(json.dumps({"id": "f", "attendance": {"expected_max": 6000},
                                "schedule": {"daily": {**FAIR_DAYS, "expected_max": counts}}}))
    result = CliRunner().invoke(main, ["evaluate", str(path), "-o", "wyoming"])
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert str(path) in result.output and said in " ".join(result.output.split()), result.output


def test_a_day_s_count_is_the_peak_of_the_session_that_opens_that_day():
    [e] = parse_events({"id": "f", "attendance": {"expected_max": 6000},
                        "schedule": {"daily": {**FAIR_DAYS, "expected_max": {"2027-08-13": 4999}}}}, "t")
    assert [s.expected_max for s in e.schedule.runs] == [None, 4999, None]
    from reasoner.events.atoms import event_atoms

    counts = [str(a) for a in event_atoms(1, e) if a.name == "session_attendance"]
    assert counts == [f"session_attendance(1,{datetime(2027, 8, 13).toordinal()},180,4999)"]


@pytest.mark.parametrize("sessions", [
    [{"start": "2027-08-12T08:00", "end": "2027-08-13T06:00", "expected_max": 4000},
     {"start": "2027-08-13T18:00", "end": "2027-08-13T21:00"}],   # the concert's peak is left to the event's
    [{"start": "2027-08-12T08:00", "end": "2027-08-13T06:00", "expected_max": 6000},
     {"start": "2027-08-13T18:00", "end": "2027-08-13T21:00", "expected_max": 4000}],
])
def test_an_event_peak_some_session_reaches_or_leaves_open_is_accepted(sessions):
    [e] = parse_events({"id": "f", "attendance": {"expected_max": 6000}, "schedule": {"sessions": sessions}}, "t")
    assert [s.expected_max for s in e.schedule.runs] == [s.get("expected_max") for s in sessions]


@pytest.mark.parametrize("ordinance, sessions, name", [
    # Village 6-16: a lunch break; its reading described a measure from start to end, not the rule applied
    ("village", [("10:00", "12:00"), ("13:00", "15:00")], "assembly_over_two_hours_required"),
    # Trempealeau 6.01(2)(a): a one-minute break ends the 12 consecutive hours
    ("trempealeau", [("10:00", "16:00"), ("16:01", "23:00")], "break_ends_consecutive_hours"),
])
def test_a_break_that_ends_the_consecutive_hours_is_said_in_the_reading_applied(ordinance, sessions, name):
    record = {"id": "b", "kinds": ["festival"], "attendance": {"expected_max": 3000}, "site": {"kind": "open_land"},
              "schedule": {"sessions": [{"start": f"2027-07-17T{a}", "end": f"2027-07-17T{b}"} for a, b in sessions]}}
    [result] = evaluate(parse_events(record, "t"), [ordinance])
    assert result["status"] == "not_regulated"
    [said] = [c["text"] for c in result["conclusions"] if c["kind"] == "interpretation" and c["name"] == name]
    assert "break between sessions" in said and "ends" in said, said
