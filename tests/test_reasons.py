"""Every status carries its reasons (issue 16): each condition of an ordinance's reach, whether it holds, and
the numbers it compares, as `reason` conclusions that agree with the status, and read in words."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from reasoner.cli import main
from reasoner.evaluate import evaluate
from reasoner.quality.coverage import scenario_cases
from reasoner.events.loading import parse_events
from reasoner.law.reasons import reason_text

SCENARIOS = Path(__file__).parent / "scenarios"

# What each ordinance reaches, as its text states it, in terms of its reasons (clause, test).
REACH = {
    "trempealeau": lambda r: r[("6.01(2)(a)", "attendance_at_least")] and (
        r[("6.01(2)(a)", "continuous_at_least")] or r[("6.01(2)(a)", "runs_into_hours")]),
    "gem": lambda r: r[("4.license-required", "attendance_at_least")],
    "fulton": lambda r: r[("177-2", "attendance_greater_than")],
    "village": lambda r: r[("6-16(special_event)", "listed_kind")] and r[("6-16(special_event)", "crowd_beyond_premises")]
    and r[("6-16(special_event)", "not_ordinarily_conducted")] and r[("6-16(assembly)", "continuous_more_than")],
    "vermont": lambda r: r[("6.02(a)", "listed_kind")] and r[("6.03", "open_to_public")] and r[("6.03", "public_pays_fee")]
    and r[("6.03", "in_the_town")],
    "wyoming": lambda r: r[("35-15-104", "attendance_at_least")] and r[("35-15-104", "continuous_at_least")]
    and r.get(("35-15-104", "stretch_peak_at_least"), True),  # said where the stretch draws fewer than the event's peak
    "washington": lambda r: r[("70.108.020(3)", "primary_purpose_music")] and r[("70.108.020(3)", "outdoors")]
    and r[("70.108.020(3)", "attendance_at_least")] and r[("70.108.020(3)", "program_hours_at_least")],
    "connecticut": lambda r: r.get(("19a-436(a)", "counted_at_least"), False) and r.get(("19a-436(a)", "continuous_at_least"), False),
}


@pytest.mark.parametrize("case", [c for c in scenario_cases(SCENARIOS) if c.ordinance in REACH],
                         ids=lambda c: f"{Path(c.file).stem}: {c.name}")
def test_the_reasons_agree_with_the_status(case):
    [result] = evaluate(parse_events({"id": "scenario", **case.record}, "scenario"), [case.ordinance])
    reasons = {(c["clauses"][0], c["name"]): c["holds"] for c in result["conclusions"] if c["kind"] == "reason"}
    regulated = result["status"] in ("permit_required", "exempt")
    assert REACH[case.ordinance](reasons) is regulated, (result["status"], reasons)


def _reasons(record: dict, ordinance: str) -> list[str]:
    [result] = evaluate(parse_events({"id": "r", **record}, "t"), [ordinance])
    return [reason_text(c) for c in result["conclusions"] if c["kind"] == "reason"]


def test_a_three_day_fair_open_eleven_hours_a_day_is_not_reached_and_says_why():
    fair = {"attendance": {"expected_max": 2500},
            "schedule": {"daily": {"first_day": "2027-07-16", "last_day": "2027-07-18", "open": "10:00", "close": "21:00"}}}
    said = _reasons(fair, "trempealeau")
    assert "the longest stretch without a break, 11 hours, is shorter than 12 hours" in said
    assert "no session runs into the hours from 1:00 a.m. to 7:00 a.m." in said
    assert "2,500 people at the peak is at least the 2,000 it names" in said


@pytest.mark.parametrize("peak, said", [(1999, "1,999 people at the peak is below the 2,000 it names"),
                                        (2000, "2,000 people at the peak is at least the 2,000 it names")])
def test_the_attendance_reason_on_both_sides_of_two_thousand(peak, said):
    event = {"attendance": {"expected_max": peak}, "schedule": {"start": "2027-07-17T10:00", "end": "2027-07-17T23:00"}}
    assert said in _reasons(event, "trempealeau")


@pytest.mark.parametrize("peak, holds", [(1000, False), (1001, True)])
def test_fulton_says_whether_the_ems_threshold_is_passed(peak, holds):
    event = {"attendance": {"expected_max": peak}, "schedule": {"start": "2027-07-17T10:00", "end": "2027-07-17T23:00"}}
    [result] = evaluate(parse_events({"id": "f", **event}, "t"), ["fulton"])
    [ems] = [c for c in result["conclusions"] if c["kind"] == "reason" and c["clauses"] == ["177-10B"]]
    assert ems["holds"] is holds and ems["actual"] == peak and ems["stated"] == 1000


def test_an_event_not_reached_is_no_longer_an_empty_record(tmp_path):
    path = tmp_path / "small.yaml"
    path.write_text("id: small\nattendance: {expected_max: 40}\n"
                    "schedule: {start: 2027-07-17T10:00, end: 2027-07-17T12:00}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["evaluate", str(path), "-o", "gem"])
    assert result.exit_code == 0 and "40 people at the peak is below the 350 it names" in result.output
