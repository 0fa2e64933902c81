"""What if, as a clerk asks it (issue 32): the few smallest changes, ranked, each one the facts allow and each
a change the law turns on; filing earlier is the first answer to a late application."""
from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from reasoner import service
from reasoner.cli import main
from reasoner.evaluate import evaluate
from reasoner.events.loading import load_events
from reasoner.events.model import Event
from reasoner.modes.whatif import holds

EVENTS = Path(__file__).resolve().parent.parent / "facts" / "events"
ROAD_RACE, FUN_RUN, HARVEST = (EVENTS / name for name in ("compare-5k-road-race.yaml", "vermont-fun-run.yaml",
                                                            "harvest-music-festival.yaml"))


def changed(event: Event, changes: list[dict[str, Any]]) -> Event:
    """The event with a proposal's changes made by hand, from their paths: a name put in or taken out of a list
    (flags.NAME, site.flags.NAME), or a field given its new value."""
    data = event.model_dump(mode="json")
    for change in changes:
        *path, last = change["fact"].split(".")
        place = data
        for key in path:
            place = place[key]
        if isinstance(place, list):
            place.remove(last) if change["from"] is True else place.append(last)
        else:
            place[last] = change["to"]
        if change["fact"] == "attendance.expected_max":  # the split by sex keeps its proportions, as whatif's does
            for sex in ("female", "male"):
                if place[sex] is not None:
                    place[sex] = place[sex] * change["to"] // change["from"]
    return Event.model_validate_json(json.dumps(data))


def proposals(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [report, *report.get("alternatives", [])] if report["found"] else []


def whatif(path: Path, ordinance: str, flip: str, *options: str) -> dict[str, Any]:
    result = CliRunner().invoke(main, ["whatif", str(path), "-o", ordinance, "--flip", flip, "--format", "json", *options],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.mark.parametrize("path, ordinance, flip", [(ROAD_RACE, "vermont", "permit_required"),
                                                   (HARVEST, "trempealeau", "permit_required"),
                                                   (FUN_RUN, "vermont", "permit_required")])
def test_whatif_gives_the_few_smallest_proposals_ranked_each_another_way(path, ordinance, flip):
    report = whatif(path, ordinance, flip)
    found = proposals(report)
    assert len(found) == service.PROPOSALS, report
    [event] = load_events(path)
    for earlier, proposal in enumerate(found):
        # made by hand, each proposal flips the conclusion
        [after] = evaluate([changed(event, proposal["changes"])], [ordinance])
        assert holds(after, flip) != report["holds_now"], proposal
        # and it is not an earlier proposal with more changes
        facts = {c["fact"] for c in proposal["changes"]}
        assert all(not {c["fact"] for c in before["changes"]} <= facts for before in found[:earlier]), found
    # fewest facts first
    sizes = [len(p["changes"]) for p in found]
    assert sizes == sorted(sizes)


def test_whatif_gives_as_many_proposals_as_asked():
    assert len(proposals(whatif(ROAD_RACE, "vermont", "permit_required", "--proposals", "1"))) == 1
    assert len(proposals(whatif(ROAD_RACE, "vermont", "permit_required", "--proposals", "5"))) == 5


def test_the_cli_prints_the_next_smallest_proposals_under_the_first():
    result = CliRunner().invoke(main, ["whatif", str(ROAD_RACE), "-o", "vermont", "--flip", "permit_required"],
                                env={"COLUMNS": "200"}, catch_exceptions=False)
    report = whatif(ROAD_RACE, "vermont", "permit_required")
    lines = result.output.splitlines()
    assert any("or instead, the next smallest:" in line for line in lines), result.output
    for rank, proposal in enumerate(report["alternatives"], start=2):
        change = proposal["changes"][0]
        assert any(f"{rank}. {change['fact']}: {change['from']} → {change['to']}" in line for line in lines), result.output


# ---------------------------------------------------------------- filing earlier (or later)

FILED = sorted(path for path in EVENTS.glob("*.yaml") if "filed:" in path.read_text(encoding="utf-8"))


def filing_deadlines(event: Event, ordinance: str) -> list[date]:
    [record] = evaluate([event], [ordinance])
    return sorted(date.fromisoformat(c["value"]) for c in record["conclusions"]
                  if c["kind"] == "deadline" and c["name"] == "application_filing")


def filed_on(event: Event, day: date) -> Event:
    return event.model_copy(update={"application": event.application.model_copy(update={"filed": day})})


# for each ordinance, the first example event with an application that it gives a filing deadline
CASES = list({ordinance: (path, ordinance) for path in reversed(FILED) for ordinance in service.chosen(())
              if filing_deadlines(load_events(path)[0], ordinance)}.values())


@pytest.mark.parametrize("days_late", [1, 9])
@pytest.mark.parametrize("path, ordinance", CASES, ids=[f"{p.stem}-{o}" for p, o in CASES])
def test_a_late_filing_is_first_told_to_file_by_the_deadline(path, ordinance, days_late):
    [event] = load_events(path)
    last = filing_deadlines(event, ordinance)[0]  # the earliest, where a text has several
    late = filed_on(event, last + timedelta(days=days_late))
    report = service.whatif(service.Events(event=late.model_dump(mode="json")), ordinance, "late")
    assert report["holds_now"] and report["verified"], report
    assert report["changes"][0] == {"fact": "application.filed", "from": (last + timedelta(days=days_late)).isoformat(),
                                    "to": last.isoformat()}, report
    [after] = evaluate([filed_on(event, last)], [ordinance])
    assert not holds(after, "late") and holds(after, "on_time")
    # filing by the deadline rests on the deadline's clause; another way, on the clause of the condition it fails
    [before] = evaluate([late], [ordinance])
    lateness = sorted({c for item in before["conclusions"] if item["kind"] == "late" for c in item["clauses"]})
    assert report["clauses"] == lateness
    assert all(set(proposal["clauses"]) - set(lateness) for proposal in report["alternatives"]), report["alternatives"]


@pytest.mark.parametrize("path, ordinance", CASES, ids=[f"{p.stem}-{o}" for p, o in CASES])
def test_a_filing_on_the_deadline_is_late_from_the_day_after(path, ordinance):
    [event] = load_events(path)
    deadlines = filing_deadlines(event, ordinance)
    on_time = filed_on(event, deadlines[0])
    report = service.whatif(service.Events(event=on_time.model_dump(mode="json")), ordinance, "late")
    assert not report["holds_now"] and report["verified"], report
    assert report["changes"][0] == {"fact": "application.filed", "from": deadlines[0].isoformat(),
                                    "to": (deadlines[0] + timedelta(days=1)).isoformat()}, report


# ---------------------------------------------------------------- changes the facts allow

def ruled_out(event: Event) -> set[str]:
    """The yes/no facts the vocabulary rules out beside the event's other facts, as whatif's paths name them."""
    from reasoner.events.atoms import event_atoms
    from reasoner.program import Program

    model = Program(["vermont"]).add_atoms(event_atoms(1, event)).ground().first_model(shown=False) or []
    paths = {"site": "site.flags", "feature": "flags", "special_service": "special_services"}
    return {f"{paths[fact.name]}.{fact.arguments[1].name}" for atom in model if atom.name == "ruled_out"
            for fact in [atom.arguments[1]]}


def zoned_road(event: Event) -> bool:
    return event.site.kind == "public_road" and "properly_zoned" in event.site.flags


def private_forum(event: Event) -> bool:
    private = "privately_owned" in event.site.flags or (event.site.kind in ("open_land", "private_property")
                                                         and "publicly_owned" not in event.site.flags)
    return private and "traditional_public_forum" in event.site.flags


NONSENSE = [  # (event, ordinance, flip, the fact ruled out there, the facts that cannot stand together,
              #  the site where the fact may hold, and the exemption it brings there)
    (ROAD_RACE, "vermont", "permit_required", "site.flags.properly_zoned", zoned_road, {"kind": "open_land"},
     "properly_zoned_land"),
    (ROAD_RACE, "vermont", "properly_zoned_land", "site.flags.properly_zoned", zoned_road, {"kind": "open_land"},
     "properly_zoned_land"),
    (FUN_RUN, "vermont", "traditional_public_forum", "site.flags.traditional_public_forum", private_forum,
     {"kind": "park"}, "traditional_public_forum"),
]


@pytest.mark.parametrize("path, ordinance, flip, fact, impossible, site, exemption", NONSENSE,
                         ids=[f"{case[0].stem}-{case[2]}" for case in NONSENSE])
def test_no_proposal_makes_a_fact_hold_that_the_other_facts_rule_out(path, ordinance, flip, fact, impossible, site,
                                                                     exemption):
    [event] = load_events(path)
    report = service.whatif(service.Events(path=str(path)), ordinance, flip, proposals=5)
    assert report["found"]
    for proposal in proposals(report):
        after = changed(event, proposal["changes"])
        # a proposal may move the event (to a park, zoned or a public forum), never make the place what it cannot be
        assert not impossible(after), proposal
        assert not {c["fact"] for c in proposal["changes"] if c["to"] is True} & ruled_out(after), proposal
    assert fact in ruled_out(event)
    # where the site allows it, the fact is the change to propose
    moved = event.model_copy(update={"site": event.site.model_copy(update=site)})
    assert fact not in ruled_out(moved)
    allowed = service.whatif(service.Events(event=moved.model_dump(mode="json")), ordinance, exemption)
    assert {"fact": fact, "from": False, "to": True} in allowed["changes"], allowed


def test_over_unknown_facts_the_next_smallest_are_proposed_too():
    from reasoner.modes.whatif import certainty
    from reasoner.unknowns import evaluate_uncertain

    [harvest] = load_events(HARVEST)
    data = harvest.model_dump(mode="json")
    data["flags"].remove("amplified_sound")
    data["unknown"] = ["flags.amplified_sound"]
    event = Event.model_validate_json(json.dumps(data))
    report = service.whatif(service.Events(event=data), "trempealeau", "permit_required")
    assert report["certainty_now"] == "certain" and report["found"], report
    found = proposals(report)
    assert len(found) == service.PROPOSALS, report
    for earlier, proposal in enumerate(found):
        [after] = evaluate_uncertain(changed(event, proposal["changes"]), ["trempealeau"])
        assert certainty(after, "permit_required") == "impossible", proposal
        facts = {c["fact"] for c in proposal["changes"]}
        assert all(not {c["fact"] for c in before["changes"]} <= facts for before in found[:earlier]), found
