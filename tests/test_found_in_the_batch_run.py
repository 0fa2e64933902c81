"""Smaller defects found by the adversarial batch run of issue 19, each pinned by a test."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from reasoner.cli import main
from reasoner.events.loading import EventFileError, parse_events
from reasoner.evaluate import evaluate_any

EVENT = {"id": "u", "kinds": ["festival"], "attendance": {"expected_max": 3000},
         "schedule": {"start": "2027-07-17T10:00", "end": "2027-07-17T23:00"}}


def test_the_unknown_list_of_a_record_does_not_depend_on_the_input_order():
    facts = ["flags.alcohol_sold", "schedule.darkness", "flags.camping"]
    one, other = ([{**EVENT, "unknown": order}] for order in (facts, facts[::-1]))
    [first] = evaluate_any(parse_events(one, "x"), ("gem",))
    [second] = evaluate_any(parse_events(other, "x"), ("gem",))
    assert first["unknown"] == sorted(facts)
    assert json.dumps(first) == json.dumps(second)


@pytest.mark.parametrize("value", ["nan", "inf", "-nan"])
def test_coverage_refuses_a_threshold_that_is_not_a_number(value):
    result = CliRunner().invoke(main, ["coverage", "--fail-under", value])
    assert result.exit_code == 2 and "--fail-under" in result.output


@pytest.mark.parametrize("age, accepted", [(120, True), (121, False), ({"min": 18, "max": 120}, True),
                                           ({"min": 18, "max": 121}, False), ({"min": 18, "max": 10_000_000}, False)])
def test_an_age_range_has_the_bound_of_a_single_age(age, accepted):
    event = {**EVENT, "organizer": {"applicant_age": age}}
    if accepted:
        parse_events(event, "x")
    else:
        with pytest.raises(EventFileError, match="from 0 to 120"):
            parse_events(event, "x")
