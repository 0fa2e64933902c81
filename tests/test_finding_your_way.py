"""Finding your way: `reasoner conclusions` lists what each ordinance can conclude (read off its encoding),
and ordinance names are case-insensitive with a suggestion for a misspelt one."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from reasoner.modes.catalog import catalog
from reasoner.cli import main
from reasoner.events.loading import load_events
from reasoner.evaluate import evaluate_any
from reasoner.law.locator import encoded_ordinances

EVENTS = sorted((Path(__file__).parent.parent / "facts" / "events").glob("*.yaml"))


def test_village_can_conclude_its_localized_area_exemption():
    [entry] = [c for c in catalog("village") if c["name"] == "localized_area_within_limit"]
    assert entry["kind"] == "exemption" and entry["clauses"] == ["6-17B"]


@pytest.mark.parametrize("ordinance", encoded_ordinances())
def test_only_a_deadline_the_filing_date_is_compared_with_can_be_late_or_on_time(ordinance):
    # vocabulary.lp compares the filing date with the filing deadline alone: the authority's processing
    # deadline, a bond's return or a hearing date is never "filed late"
    listed = catalog(ordinance)
    timely = {(c["kind"], c["name"]) for c in listed if c["kind"] in ("late", "on_time")}
    assert ("deadline", "application_filing") in {(c["kind"], c["name"]) for c in listed}
    assert timely == {("late", "application_filing"), ("on_time", "application_filing")}


@pytest.mark.parametrize("ordinance", encoded_ordinances())
def test_every_conclusion_evaluate_gives_on_the_examples_is_listed(ordinance):
    listed = {(c["kind"], c["name"]) for c in catalog(ordinance)}
    units = {c["name"]: c["unit"] for c in catalog(ordinance) if c["kind"] == "obligation"}
    for path in EVENTS:
        for record in evaluate_any(load_events(str(path)), [ordinance]):
            for conclusion in record["conclusions"]:
                assert (conclusion["kind"], conclusion["name"]) in listed, (path.name, conclusion)
                if conclusion["kind"] == "obligation" and conclusion["unit"]:
                    assert conclusion["unit"] in units[conclusion["name"]].split(", ")


def test_the_command_lists_them_in_text_and_json():
    result = CliRunner().invoke(main, ["conclusions", "village"], env={"COLUMNS": "200"})
    assert result.exit_code == 0 and "localized_area_within_limit" in result.output
    data = json.loads(CliRunner().invoke(main, ["conclusions", "--format", "json"]).output)
    assert [d["ordinance"] for d in data] == list(encoded_ordinances())


def test_ordinance_names_are_case_insensitive_and_a_misspelt_one_gets_a_suggestion():
    runner = CliRunner()
    ok = runner.invoke(main, ["evaluate", "facts/events/fulton-summer-fest.yaml", "-o", "Fulton", "--format", "json"])
    assert ok.exit_code == 0 and json.loads(ok.output)[0]["ordinance"] == "fulton"
    bad = runner.invoke(main, ["clauses", "Fultn"])
    assert bad.exit_code == 2 and "did you mean fulton?" in bad.output
