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
from reasoner.evaluate import evaluate
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


def event(record):
    [found] = parse_events(record, "test")
    return found


def test_every_choice_between_readings_has_an_alternative_and_a_reason():
    known = ordinance_readings()
    assert known["fulton"]["weddings_exempt_anywhere"] == ("anywhere", "listed_venues_only")
    assert known["trempealeau"]["ending_at_one_am_not_into_late_hours"] == ("after_one_am", "one_am_inside")


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
                                    {**WEDDING, "site": {"kind": "permanent_venue", "seating_capacity": 400}}])
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
