"""Clause coverage: the scenarios exercise every operative clause each encoding implements.

A clause counts when a conclusion some case asserts rests on it (see reasoner/quality/coverage.py); the suite
fails below 100%, listing the clauses no case exercises.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from reasoner.cli import main
from reasoner.quality.coverage import coverage, measure, scenario_cases
from reasoner.law.locator import encoded_ordinances

SCENARIOS = Path(__file__).parent / "scenarios"


@pytest.fixture(scope="module")
def reports():
    return {report.ordinance: report for report in coverage(SCENARIOS)}


@pytest.mark.parametrize("ordinance", encoded_ordinances())
def test_every_operative_clause_is_exercised_by_a_scenario(reports, ordinance):
    report = reports[ordinance]
    assert not report.errors, report.errors
    assert report.implemented and report.cases
    assert report.percent == 100.0, f"{ordinance}: operative clauses no scenario exercises: {report.missing}"


def test_a_clause_without_a_case_is_reported_missing():
    cases = [c for c in scenario_cases(SCENARIOS) if c.ordinance == "trempealeau" and "nurse" not in c.name.lower()]
    report = measure("trempealeau", cases)
    assert "6.01(3)5" not in report.missing  # the ambulance and first aid station still exercise it
    only_threshold = [c for c in scenario_cases(SCENARIOS) if c.ordinance == "trempealeau"][:2]
    narrow = measure("trempealeau", only_threshold)
    assert "6.01(3)13" in narrow.missing and narrow.percent < 100


def test_a_clause_reached_only_through_a_listed_fact_counts_when_a_case_asserts_what_rests_on_it():
    concert = [c for c in scenario_cases(SCENARIOS) if c.ordinance == "vermont" and "A concert" in c.name]
    assert concert
    report = measure("vermont", concert)
    assert "6.02(a)7" in report.exercised       # concerts are listed in 6.02(a)7
    assert "6.02(a)9" not in report.exercised   # rodeos are not asserted by this case
    assert "6.03" in report.exercised


def test_a_case_that_asserts_nothing_exercises_nothing():
    [case] = [c for c in scenario_cases(SCENARIOS) if c.ordinance == "trempealeau"][:1]
    case.expect = {}
    report = measure("trempealeau", [case])
    assert not report.exercised and report.derived


def test_the_coverage_command_lists_what_is_missing_and_fails_under_the_bar(tmp_path):
    result = CliRunner().invoke(main, ["coverage", str(SCENARIOS), "-o", "trempealeau", "--format", "json"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    [data] = json.loads(result.stdout)
    assert data["ordinance"] == "trempealeau" and data["percent"] == 100.0 and data["missing"] == []

    source = (SCENARIOS / "trempealeau.yaml").read_text(encoding="utf-8")
    head, _, _ = source.partition("\ncases:\n")
    (tmp_path / "trempealeau.yaml").write_text(head + "\ncases:\n  - name: Only the threshold.\n"
                                               "    expect: {permit_required: true}\n", encoding="utf-8")
    thin = CliRunner().invoke(main, ["coverage", str(tmp_path), "-o", "trempealeau"], catch_exceptions=False)
    assert thin.exit_code == 1
    assert "not exercised: 6.01(3)3" in thin.output and "not encoded: 6.01(2)(b)2" in thin.output
    assert CliRunner().invoke(main, ["coverage", str(tmp_path), "-o", "trempealeau", "--fail-under", "0"],
                              catch_exceptions=False).exit_code == 0


def test_the_coverage_command_refuses_a_missing_folder(tmp_path):
    result = CliRunner().invoke(main, ["coverage", str(tmp_path / "nowhere")], catch_exceptions=False)
    assert result.exit_code == 2 and "nowhere" in result.output


@pytest.mark.parametrize("text, words", [
    ("ordinance: gem\ncases:\n- name: x\n  event: {attendance: {expected_max: " + "9" * 5000 + "}}\n", "digits"),
    ("a: [\n", "while parsing"),
    ("- just a list\n", "not a scenario file"),
    ("ordinance: gem\ncases:\n- event: {}\n", "no 'name'"),
    # a reading the registry does not give would otherwise run the case on the default reading
    ("ordinance: fulton\ncases:\n- name: x\n  readings: {weddings_exempt_anywhere: everywhere}\n", "no reading"),
    ("ordinance: fulton\ncases:\n- name: x\n  readings: {wedding_exempt: anywhere}\n", "did you mean"),
])
def test_a_scenario_file_that_cannot_be_read_exits_2_naming_it(tmp_path, text, words):
    (tmp_path / "broken.yaml").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["coverage", str(tmp_path)])
    assert result.exit_code == 2 and "broken.yaml" in result.output and words in result.output, result.output
    assert "Traceback" not in result.output
