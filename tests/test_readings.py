"""Readings you can switch (issue 29): a contested passage's alternative reading is encoded beside the default,
`--reading` chooses it, and `reasoner readings` says which answers turn on one.

The scenario files hold the cases on both sides of each alternative (`readings:` in a case); these tests hold
the command line and the one-solve-over-every-combination reasoning to a plain evaluation per combination."""
from __future__ import annotations

import itertools
import json

import pytest
from click.testing import CliRunner

from reasoner.cli import main
from reasoner.evaluate import evaluate, evaluate_any
from reasoner.events.loading import parse_events
from reasoner.program import chosen_readings
from reasoner.program import solve
from reasoner.modes.readings import atom_keys, depends
from reasoner.law.ordinances import ordinance_readings

WEDDING = {"id": "farm-wedding", "kinds": ["wedding"], "attendance": {"expected_max": 800},
           "schedule": {"start": "2027-07-10T14:00", "end": "2027-07-10T23:00"},
           "site": {"kind": "open_land"}, "organizer": {"kind": "individual"}}
LATE_CONCERT = {"id": "late-concert", "kinds": ["concert"], "attendance": {"expected_max": 2500},
                "schedule": {"start": "2027-07-17T18:00", "end": "2027-07-18T01:00"},
                "site": {"kind": "open_land"}, "organizer": {"kind": "individual"}}

# Trempealeau County's last sunset on 2027-08-06 is 8:25 p.m. CDT: ending twenty minutes later, the fair is in darkness
# from sunset to sunrise (darkness_read_from_sun=sunset_to_sunrise) and not half an hour after sunset (the default).
DUSK = {"id": "dusk-fair", "kinds": ["fair"], "attendance": {"expected_max": 3000},
        "schedule": {"start": "2027-08-06T08:00", "end": "2027-08-06T20:45"},
        "site": {"kind": "open_land"}, "organizer": {"kind": "individual"}}
UNKNOWN_DUSK = {**DUSK, "schedule": {"start": "2027-08-06T08:00",
                                     "end": {"min": "2027-08-06T20:00", "max": "2027-08-06T21:30"}}}


def event(record):
    [found] = parse_events(record, "test")
    return found


def test_every_choice_between_readings_has_an_alternative_and_a_reason():
    known = ordinance_readings()
    assert known["fulton"]["weddings_exempt_anywhere"] == ("anywhere", "listed_venues_only")
    assert known["trempealeau"]["ending_at_one_am_not_into_late_hours"] == ("after_one_am", "one_am_inside")


def test_every_alternative_reading_has_scenario_cases_on_both_sides():
    """Issue 29's check: each alternative a registry records is chosen by at least two scenario cases (one where it
    decides the answer, one on the other side of what it decides)."""
    from pathlib import Path

    from reasoner.quality.coverage import scenario_cases

    cases = scenario_cases(Path(__file__).parent / "scenarios")
    chosen: dict[tuple[str, str, str], int] = {}
    for case in cases:
        for (ordinance, interpretation), reading in case.chosen():
            chosen[(ordinance, interpretation, reading)] = chosen.get((ordinance, interpretation, reading), 0) + 1
    every = [(o, i, r) for o, found in ordinance_readings().items() for i, readings in found.items() for r in readings[1:]]
    assert every and {a: chosen.get(a, 0) for a in every if chosen.get(a, 0) < 2} == {}


@pytest.mark.parametrize("ordinance, record, reading, default, other", [
    ("fulton", WEDDING, "fulton.weddings_exempt_anywhere=listed_venues_only", "exempt", "permit_required"),
    ("trempealeau", LATE_CONCERT, "trempealeau.ending_at_one_am_not_into_late_hours=one_am_inside", "not_regulated",
     "permit_required"),
])
def test_reading_flag_changes_the_answer_and_the_default_does_not_move(tmp_path, ordinance, record, reading, default, other):
    path = tmp_path / "event.json"
    path.write_text(json.dumps(record))
    plain = CliRunner().invoke(main, ["evaluate", str(path), "-o", ordinance, "--format", "json"])
    chosen = CliRunner().invoke(main, ["evaluate", str(path), "-o", ordinance, "--format", "json", "--reading", reading])
    assert plain.exit_code == 0 and chosen.exit_code == 0, plain.output + chosen.output
    assert json.loads(plain.stdout)[0]["status"] == default
    assert json.loads(chosen.stdout)[0]["status"] == other
    # the alternative is stated in the answer, by its own name and words
    alternative = reading.rsplit("=", 1)[1]
    notes = [c for c in json.loads(chosen.stdout)[0]["conclusions"] if c["kind"] == "interpretation"]
    assert any(n["name"] == alternative and n["text"] for n in notes), notes
    # and the choice does not outlive the command
    again = CliRunner().invoke(main, ["evaluate", str(path), "-o", ordinance, "--format", "json"])
    assert json.loads(again.stdout)[0]["status"] == default


@pytest.mark.parametrize("given, said", [
    ("fulton.wedding_exempt_anywhere=listed_venues_only", "did you mean weddings_exempt_anywhere?"),
    ("fulton.weddings_exempt_anywhere=listed_venue_only", "did you mean listed_venues_only?"),
    ("fultn.weddings_exempt_anywhere=anywhere", "did you mean fulton?"),
    ("weddings_exempt_anywhere", "ORDINANCE.INTERPRETATION=READING"),
])
def test_an_unknown_reading_is_refused_with_a_suggestion(tmp_path, given, said):
    path = tmp_path / "event.json"
    path.write_text(json.dumps(WEDDING))
    result = CliRunner().invoke(main, ["evaluate", str(path), "-o", "fulton", "--reading", given])
    assert result.exit_code == 2
    assert said in result.output and "Traceback" not in result.output


def test_the_readings_command_names_what_turns_on_a_reading(tmp_path):
    path = tmp_path / "event.json"
    path.write_text(json.dumps(WEDDING))
    result = CliRunner().invoke(main, ["readings", str(path), "-o", "fulton", "--format", "json"])
    assert result.exit_code == 0, result.output
    [report] = json.loads(result.stdout)
    status = next(d for d in report["depends_on_readings"] if d["kind"] == "status")
    assert status["default"] == "exempt"
    assert status["readings"] == [{"interpretation": "weddings_exempt_anywhere", "reading": "listed_venues_only",
                                   "value": "permit_required"}]
    text = CliRunner().invoke(main, ["readings", str(path), "-o", "fulton"], env={"COLUMNS": "100"})
    assert "status: exempt → permit required" in text.output


def test_an_answer_no_reading_moves_is_said_to_hold_whatever_the_reading():
    small = {**WEDDING, "attendance": {"expected_max": 300}}
    [report] = depends(event(small), ["fulton"])
    assert report["depends_on_readings"] == [] and report["status"] == "not_regulated"


@pytest.mark.parametrize("record", [WEDDING, LATE_CONCERT, {**LATE_CONCERT, "kinds": ["wedding"]},
                                    {**WEDDING, "site": {"kind": "permanent_venue", "seating_capacity": 400}}, DUSK])
@pytest.mark.parametrize("ordinance", ["fulton", "trempealeau"])
def test_one_solve_over_every_combination_agrees_with_an_evaluation_of_each(record, ordinance):
    """What the one solve reports as holding under some combination only is what plain evaluations, one per
    combination chosen by hand, do not all agree on."""
    the_event = event(record)
    [report] = depends(the_event, [ordinance])
    choices = ordinance_readings()[ordinance]
    answers = []
    for combination in itertools.product(*choices.values()):
        with chosen_readings(list(zip(((ordinance, i) for i in choices), combination))):
            answers.append(atom_keys(solve([the_event], [ordinance])))
    every, some = set.intersection(*answers), set.union(*answers)
    combined = report["every_combination"]
    assert combined["combinations"] == len(answers)
    assert combined["hold_under_every"] == len(every)
    assert combined["hold_under_some_only"] == sorted(f"{k} {n} = {v}" for k, n, v in some - every)


# ---- a batch applies the readings chosen to every record, in worker processes too

FULTON_LISTED = "fulton.weddings_exempt_anywhere=listed_venues_only"


def _records(tmp_path, count=6):
    path = tmp_path / "events.jsonl"
    path.write_text("".join(json.dumps({**record, "id": f"{record['id']}-{n}"}) + "\n"
                            for n in range(count) for record in (WEDDING, LATE_CONCERT)), encoding="utf-8")
    return path


@pytest.mark.parametrize("workers", ["0", "2"])
def test_a_batch_applies_the_reading_to_every_record(tmp_path, workers):
    source = _records(tmp_path)
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(main, ["batch", str(source), "--out", str(out), "-o", "fulton", "-o", "trempealeau",
                                       "--workers", workers, "--chunk-size", "3", "--reading", FULTON_LISTED])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    with chosen_readings([(("fulton", "weddings_exempt_anywhere"), "listed_venues_only")]):
        expected = [json.loads(json.dumps(r, default=str)) for line in source.read_text().splitlines()
                    for r in evaluate([event(json.loads(line))], ["fulton", "trempealeau"])]
    assert rows == expected
    weddings = [r for r in rows if r["ordinance"] == "fulton" and r["event"].startswith("farm-wedding")]
    assert weddings and all(r["status"] == "permit_required" for r in weddings)  # the default says exempt


def test_resume_refuses_a_run_with_other_readings_and_names_both(tmp_path):
    from reasoner.batch import run as batching
    from reasoner.batch.files import BatchInputError

    source = _records(tmp_path, 20)
    out = tmp_path / "out.jsonl"

    def stop(summary, position, size):
        raise KeyboardInterrupt

    chosen = ((("fulton", "weddings_exempt_anywhere"), "listed_venues_only"),)
    with pytest.raises(KeyboardInterrupt):
        batching.run(batching.BatchOptions(str(source), str(out), ("fulton",), workers=0, chunk_size=4,
                                           readings=chosen), stop)
    result = CliRunner().invoke(main, ["batch", str(source), "--out", str(out), "-o", "fulton", "--workers", "0",
                                       "--resume"])
    assert result.exit_code == 2, result.output
    assert FULTON_LISTED in result.output and "every default reading" in result.output
    with pytest.raises(BatchInputError, match="the same --reading"):
        batching.run(batching.BatchOptions(str(source), str(out), ("fulton",), workers=0, resume=True, readings=(
            (("fulton", "weddings_exempt_anywhere"), "anywhere"),)))
    resumed = CliRunner().invoke(main, ["batch", str(source), "--out", str(out), "-o", "fulton", "--workers", "0",
                                        "--resume", "--reading", FULTON_LISTED])
    assert resumed.exit_code == 0, resumed.output
    assert len(out.read_text().splitlines()) == 40



@pytest.mark.parametrize("first, then", [((), ("--reading", "fulton.weddings_exempt_anywhere=anywhere")),
                                         (((("fulton", "weddings_exempt_anywhere"), "anywhere"),), ())])
def test_a_reading_named_as_its_default_resumes_as_the_run_without_readings(tmp_path, first, then):
    from reasoner.batch import run as batching

    assert ordinance_readings()["fulton"]["weddings_exempt_anywhere"][0] == "anywhere"  # the default, first
    source = _records(tmp_path, 20)
    out = tmp_path / "out.jsonl"

    def stop(summary, position, size):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        batching.run(batching.BatchOptions(str(source), str(out), ("fulton",), workers=0, chunk_size=4,
                                           readings=first), stop)
    resumed = CliRunner().invoke(main, ["batch", str(source), "--out", str(out), "-o", "fulton", "--workers", "0",
                                        "--resume", *then])
    assert resumed.exit_code == 0, resumed.output
    assert len(out.read_text().splitlines()) == 40


def test_resume_with_another_time_limit_is_refused_naming_both(tmp_path):
    from reasoner.batch import run as batching

    source = _records(tmp_path, 20)
    out = tmp_path / "out.jsonl"

    def stop(summary, position, size):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        batching.run(batching.BatchOptions(str(source), str(out), ("fulton",), workers=0, chunk_size=4,
                                           time_limit=30.0), stop)
    result = CliRunner().invoke(main, ["batch", str(source), "--out", str(out), "-o", "fulton", "--workers", "0",
                                       "--resume"])
    assert result.exit_code == 2, result.output
    assert "--time-limit 30" in result.output and "no --time-limit" in result.output
    resumed = CliRunner().invoke(main, ["batch", str(source), "--out", str(out), "-o", "fulton", "--workers", "0",
                                        "--resume", "--time-limit", "30"])
    assert resumed.exit_code == 0, resumed.output

# ---- evaluate --readings and explain say which answers rest on a reading

def _cli_json(*args):
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("record", [WEDDING, LATE_CONCERT, {**WEDDING, "attendance": {"expected_max": 300}}])
def test_evaluate_readings_says_what_each_alternative_gives_as_a_hand_chosen_reading_does(tmp_path, record):
    path = tmp_path / "event.json"
    path.write_text(json.dumps(record))
    plain = _cli_json("evaluate", str(path), "-o", "fulton", "-o", "trempealeau", "--format", "json")
    marked = _cli_json("evaluate", str(path), "-o", "fulton", "-o", "trempealeau", "--format", "json", "--readings")
    # the answers do not move; each record only gains depends_on_readings
    assert [{k: v for k, v in r.items() if k != "depends_on_readings"} for r in marked] == plain
    for result in marked:
        for item in result["depends_on_readings"]:
            for under in item["readings"]:
                reading = f"{result['ordinance']}.{under['interpretation']}={under['reading']}"
                [other] = _cli_json("evaluate", str(path), "-o", result["ordinance"], "--format", "json",
                                    "--reading", reading)
                if item["kind"] == "status":
                    assert (item["default"], under["value"]) == (result["status"], other["status"])
                else:
                    names = {(c["kind"], c["name"]) for c in other["conclusions"]}
                    assert ((item["kind"], item["name"]) in names) == (under["value"] is not None)
    moved = {r["ordinance"]: [d["kind"] for d in r["depends_on_readings"]] for r in marked}
    if record is WEDDING:
        assert "status" in moved["fulton"]
    if record["attendance"]["expected_max"] == 300:
        assert moved["fulton"] == []


def test_under_a_chosen_reading_the_default_is_the_alternative_that_moves_the_answer(tmp_path):
    """The page flips a reading and asks again: the answer still says it turns on that reading, the default now the
    other side."""
    path = tmp_path / "event.json"
    path.write_text(json.dumps(WEDDING))
    [flipped] = _cli_json("evaluate", str(path), "-o", "fulton", "--format", "json", "--readings",
                          "--reading", "fulton.weddings_exempt_anywhere=listed_venues_only")
    [status] = [d for d in flipped["depends_on_readings"] if d["kind"] == "status"]
    assert (flipped["status"], status["default"]) == ("permit_required", "permit_required")
    assert status["readings"] == [{"interpretation": "weddings_exempt_anywhere", "reading": "anywhere", "value": "exempt"}]


def test_compare_readings_of_one_ordinance_names_the_chosen_reading_and_sets_the_default_beside_it(tmp_path):
    path = tmp_path / "event.json"
    path.write_text(json.dumps(WEDDING))
    [table] = _cli_json("compare", str(path), "-o", "fulton", "--readings", "--format", "json",
                        "--reading", "fulton.weddings_exempt_anywhere=listed_venues_only")
    assert [(o["column"], o["status"]) for o in table["ordinances"]] == [
        ("fulton on weddings_exempt_anywhere=listed_venues_only", "permit_required"),
        ("fulton on weddings_exempt_anywhere=anywhere", "exempt")]


def test_explain_says_a_conclusion_rests_on_a_reading_and_what_the_other_gives(tmp_path):
    path = tmp_path / "event.json"
    path.write_text(json.dumps(WEDDING))
    [report] = _cli_json("explain", str(path), "permit_required", "-o", "fulton", "--format", "json")
    status = next(d for d in report["rests_on_readings"] if d["kind"] == "status")
    assert status["default"] == "exempt"
    assert status["readings"] == [{"interpretation": "weddings_exempt_anywhere", "reading": "listed_venues_only",
                                   "value": "permit_required"}]
    text = CliRunner().invoke(main, ["explain", str(path), "permit_required", "-o", "fulton"], env={"COLUMNS": "200"})
    assert "rests on a reading: status: exempt on the reading applied, permit required on " \
           "weddings_exempt_anywhere=listed_venues_only" in text.output
    small = tmp_path / "small.json"
    small.write_text(json.dumps({**WEDDING, "attendance": {"expected_max": 300}}))
    [plain] = _cli_json("explain", str(small), "permit_required", "-o", "fulton", "--format", "json")
    assert "rests_on_readings" not in plain


@pytest.mark.parametrize("workers", ["0", "2"])
def test_batch_readings_rows_are_evaluate_readings_and_the_csv_lists_the_readings(tmp_path, workers):
    source = _records(tmp_path, 2)
    jsonl, wide, long = tmp_path / "out.jsonl", tmp_path / "wide.csv", tmp_path / "long.csv"
    ordinances = ["-o", "fulton", "-o", "trempealeau"]
    for out, layout in ((jsonl, []), (wide, ["--layout", "wide"]), (long, ["--layout", "long"])):
        result = CliRunner().invoke(main, ["batch", str(source), "--out", str(out), *ordinances, "--workers", workers,
                                           "--readings", *layout])
        assert result.exit_code == 0, result.output
    expected = [r for line in source.read_text().splitlines()
                for r in _cli_json("evaluate", _one(tmp_path, line), *ordinances, "--format", "json", "--readings")]
    assert [json.loads(line) for line in jsonl.read_text().splitlines()] == expected
    import csv

    rows = list(csv.DictReader(wide.open(encoding="utf-8")))
    wedding = next(r for r in rows if r["event"].startswith("farm-wedding"))
    assert wedding["fulton.depends_on_readings"] == "weddings_exempt_anywhere=listed_venues_only"
    concert = next(r for r in rows if r["event"].startswith("late-concert"))
    assert "ending_at_one_am_not_into_late_hours=one_am_inside" in concert["trempealeau.depends_on_readings"]
    longs = list(csv.DictReader(long.open(encoding="utf-8")))
    assert [r["depends_on_readings"] for r in longs] == [
        "; ".join(dict.fromkeys(f"{u['interpretation']}={u['reading']}" for d in r["depends_on_readings"]
                                for u in d["readings"])) for r in expected]


def _one(tmp_path, line):
    path = tmp_path / "one.json"
    path.write_text(line)
    return str(path)


# ---- over unknown facts: an answer moves when a reading changes its values or its certainty

LATE_CAMP = {"id": "late-camp", "kinds": ["festival"], "attendance": {"expected_max": 3000},
             "schedule": {"start": "2027-07-17T06:00", "end": "2027-07-18T00:30"}, "site": {"kind": "open_land"},
             "organizer": {"kind": "corporation"}, "flags": ["primary_purpose_music"], "unknown": ["flags.camping"]}
RANGED_WEDDING = {**WEDDING, "attendance": {"expected_max": {"min": 300, "max": 800}}}
UNKNOWN_CONCERT = {**LATE_CONCERT, "unknown": ["schedule.darkness", "flags.camping"]}


def test_over_unknown_facts_a_reading_that_makes_a_possible_answer_certain_is_said(tmp_path):
    """Mississippi's festival runs past midnight; whether its audience camps is unknown. On the default reading the
    sleeping areas are owed only in the completions where they camp (the festival then continues overnight), on
    every_festival in every completion: the value is the same, the certainty is not, so the answer rests on the
    reading (evaluate's, readings', explain's)."""
    [report] = depends(event(LATE_CAMP), ["mississippi"])
    [sleeping] = [d for d in report["depends_on_readings"] if d["name"] == "sleeping_areas"]
    assert sleeping["default"] == [{"value": True, "certainty": "possible"}]
    assert sleeping["readings"] == [{"interpretation": "sleeping_areas_when_overnight", "reading": "every_festival",
                                     "value": [{"value": True, "certainty": "certain"}]}]
    path = tmp_path / "event.json"
    path.write_text(json.dumps(LATE_CAMP))
    explained = CliRunner().invoke(main, ["explain", str(path), "sleeping_areas", "-o", "mississippi", "--format", "json"])
    assert explained.exit_code == 0, explained.output
    [resting] = json.loads(explained.stdout)[0]["rests_on_readings"]
    assert resting["readings"] == sleeping["readings"]
    text = CliRunner().invoke(main, ["readings", str(path), "-o", "mississippi"], env={"COLUMNS": "120"})
    assert "sleeping areas holds (possible) → holds (certain)" in text.output
    # an answer that holds in some completions only is said to be possible where it appears or goes
    path.write_text(json.dumps(RANGED_WEDDING))
    text = CliRunner().invoke(main, ["readings", str(path), "-o", "fulton"], env={"COLUMNS": "400"})
    [exemption] = [d for d in depends(event(RANGED_WEDDING), ["fulton"])[0]["depends_on_readings"]
                   if d["kind"] == "exemption"]
    assert exemption["default"] == [{"value": True, "certainty": "possible"}]
    assert "no longer holds: wedding (possible)" in text.output


def _items(record):
    """Every conclusion of an evaluated record as (kind, name, value, certainty), the status among them."""
    return {("status", "status", record["status"], "")} | {
        (c["kind"], c["name"], repr(c.get("value") if c["kind"] != "reason" else c["holds"]), c.get("certainty", ""))
        for c in record["conclusions"] if c["kind"] != "interpretation"}


@pytest.mark.parametrize("record, ordinance", [(LATE_CAMP, "mississippi"), (RANGED_WEDDING, "fulton"),
                                               (UNKNOWN_CONCERT, "trempealeau"), (UNKNOWN_CONCERT, "connecticut"),
                                               (UNKNOWN_DUSK, "trempealeau"), (UNKNOWN_DUSK, "gem")])
def test_over_unknown_facts_what_a_reading_moves_is_what_a_hand_chosen_evaluation_changes(record, ordinance):
    """For an event with unknown facts, the answers said to turn on a reading are exactly those whose values or
    certainty (certain in every completion, possible in some) differ between the default and a plain evaluation
    with that reading chosen by hand; every other answer is the same on every single reading."""
    the_event = event(record)
    assert the_event.has_unknowns
    [report] = depends(the_event, [ordinance])
    said = {(d["kind"], d["name"], u["interpretation"], u["reading"]) for d in report["depends_on_readings"]
            for u in d["readings"]}
    default = _items(evaluate_any([the_event], [ordinance])[0])
    found = set()
    for interpretation, readings in ordinance_readings()[ordinance].items():
        for reading in readings[1:]:
            with chosen_readings([((ordinance, interpretation), reading)]):
                other = _items(evaluate_any([the_event], [ordinance])[0])
            found |= {(k, n, interpretation, reading) for k, n, _, _ in default ^ other}
    assert said == found


def test_the_lighting_duty_of_a_fair_ending_after_sunset_turns_on_how_darkness_is_read():
    """The default reads darkness from half an hour after sunset, so the fair ending twenty minutes after it needs no
    lighting; from sunset to sunrise it does, and `reasoner readings` says which reading decides it."""
    [report] = depends(event(DUSK), ["trempealeau"])
    [lighting] = [d for d in report["depends_on_readings"] if d["name"] == "illumination_footcandles"]
    assert lighting["default"] is None
    assert [(u["interpretation"], u["reading"]) for u in lighting["readings"]] == [("darkness_read_from_sun", "sunset_to_sunrise")]
    dark = next(c for c in report["choices"] if c["interpretation"] == "darkness_read_from_sun")
    assert dark["default"] == "half_hour_twilight" and [a["reading"] for a in dark["alternatives"]] == ["sunset_to_sunrise"]


def test_over_an_unknown_end_the_reading_from_sunset_counts_the_minutes_the_sun_sets():
    """An end left open between 8:00 and 9:30 p.m.: on sunset_to_sunrise the lighting is possible from the minute after
    the last sunset, which the end points must include (not only the minutes darkness begins half an hour later)."""
    from reasoner.unknowns import unknowns_of

    the_event = event(UNKNOWN_DUSK)
    default = {value for u in unknowns_of(the_event, 1, ("trempealeau",)) for value, _ in u.values}
    with chosen_readings([(("trempealeau", "darkness_read_from_sun"), "sunset_to_sunrise")]):
        down = {value for u in unknowns_of(the_event, 1, ("trempealeau",)) for value, _ in u.values}
        [record] = evaluate_any([the_event], ["trempealeau"])
    assert "2027-08-06T20:26" in down - default  # the minute after the north-western sunset (8:25 p.m. CDT)
    lighting = [c for c in record["conclusions"] if c["name"] == "illumination_footcandles"]
    assert lighting and all(c.get("certainty") == "possible" for c in lighting)


def test_explain_names_the_alternative_reading_chosen_at_the_step_that_rests_on_it():
    """Chosen instead of the default, an alternative is stated by a note of its own name: the step of its clause
    says it in the registry's words (before, only a default's note was found, by the interpretation's id)."""
    from reasoner.law.registry import registry
    from reasoner.modes.explain import explain
    from reasoner.program import chosen_readings

    with chosen_readings([(("trempealeau", "darkness_read_from_sun"), "sunset_to_sunrise")]):
        tree = explain(event(DUSK), "trempealeau", "illumination_footcandles")
    [alternative] = registry("trempealeau").interpretations["darkness_read_from_sun"].alternatives
    assert tree["holds"] and all({"id": "sunset_to_sunrise", "clause": "6.01(3)6", "text": alternative.text}
                                 in step["interpretations"] for step in tree["trees"])
