"""Issue 28 §1, read as properties over the texts that read "continue overnight": people staying (camping among
them) never take away a duty that rests on continuing overnight or on the consecutive hours, and a session split
into two touching ones is the same assembly."""
from __future__ import annotations

import pytest

from reasoner.evaluate import evaluate
from reasoner.events.loading import parse_events

TEXTS = ("trempealeau", "wyoming", "connecticut", "gem", "fulton")
SCHEDULES = {
    "three 11-hour days": {"daily": {"first_day": "2027-07-16", "last_day": "2027-07-18", "open": "10:00", "close": "21:00"}},
    "an evening to 00:30": {"start": "2027-07-16T12:00", "end": "2027-07-17T00:30"},
    "a night to 06:30": {"start": "2027-07-16T10:00", "end": "2027-07-17T06:30"},
    "one 13-hour day": {"start": "2027-07-16T10:00", "end": "2027-07-16T23:00"},
}
# What rests on continuing overnight or on the assembly's length: the license duty and what comes with it.
RESTING = {("permit_required", "permit_required"), ("obligation", "camping_capacity"),
           ("restriction", "maximum_within_sleeping_capacity"), ("application_requirement", "camping_plan")}


def found(record: dict, ordinance: str) -> set[tuple]:
    [result] = evaluate(parse_events({"id": "p", "kinds": ["festival"], **record}, "p"), [ordinance])
    return {(c["kind"], c["name"], repr(c["value"]), tuple(c["clauses"])) for c in result["conclusions"]}


@pytest.mark.parametrize("ordinance", TEXTS)
@pytest.mark.parametrize("schedule", SCHEDULES, ids=list(SCHEDULES))
def test_attendees_camping_never_remove_a_duty_that_rests_on_staying_or_length(ordinance, schedule):
    base = {"attendance": {"expected_max": 6000}, "schedule": SCHEDULES[schedule]}
    without = {c[:2] for c in found(base, ordinance)} & RESTING
    camping = {c[:2] for c in found({**base, "flags": ["camping"]}, ordinance)}
    assert without <= camping, without - camping
    if ("permit_required", "permit_required") in camping:  # a licensed assembly with campers continues overnight
        assert ("restriction", "maximum_within_sleeping_capacity") in camping


@pytest.mark.parametrize("ordinance", TEXTS)
@pytest.mark.parametrize("at", ["2027-07-17T00:00", "2027-07-17T03:00", "2027-07-16T18:00"])
@pytest.mark.parametrize("flags", [[], ["overnight_stay"]], ids=["nobody staying", "staying"])
def test_a_session_split_into_two_touching_ones_is_the_same_assembly(ordinance, at, flags):
    whole = {"attendance": {"expected_max": 6000}, "flags": flags, "site": {"sleeping_capacity": 5000},
             "schedule": {"start": "2027-07-16T10:00", "end": "2027-07-17T06:30"}}
    split = {**whole, "schedule": {"sessions": [{"start": "2027-07-16T10:00", "end": at}, {"start": at, "end": "2027-07-17T06:30"}]}}
    assert found(whole, ordinance) == found(split, ordinance)
