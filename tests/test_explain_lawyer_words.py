"""Explanations a lawyer reads (issue 32): no program-like phrasing in the steps of a tree."""
from __future__ import annotations

import json

from reasoner.events.loading import parse_events
from reasoner.modes.explain import explain
from reasoner.views import render


def _fair(**fields):
    record = {"id": "e", "kinds": ["fair"], "attendance": {"expected_max": 3500}, "flags": ["open_to_public"],
              "schedule": {"start": "2027-08-06T10:00", "end": "2027-08-06T22:00"}, "site": {"kind": "fairgrounds"},
              "organizer": {"kind": "corporation"}, "provisions": {"toilets": 12}, **fields}
    [parsed] = parse_events(record, "test")
    return parsed


def _printed(report, capsys):
    render.print_explanation(report)
    return capsys.readouterr().out


def test_the_exemptions_that_fail_read_as_sentences(capsys):
    report = explain(_fair(), "trempealeau", "permit_required")
    text = json.dumps(report)
    assert "exempt any" not in text and "an exemption applies" in text
    assert "a(n)" not in json.dumps([a["failed"] for n in _why_nots(report) for a in n["attempts"]])
    assert "the organizer is a wisconsin municipal corporation" in text
    assert "[not stated" not in text and "(not stated in the event file)" in text
    printed = _printed(report, capsys)
    assert "shared vocabulary" not in printed and "by the definition every ordinance shares" in printed


def test_a_count_is_said_as_a_number_and_a_unit_as_a_unit():
    report = explain(_fair(), "trempealeau", "toilets")
    texts = {n["text"] for n in _nodes(report)}
    assert any(t.startswith("toilets: ") and t.split(": ")[1].isdigit() for t in texts)
    assert not any(t.endswith(" count") for t in texts)


def _nodes(report):
    found, todo = [], list(report["trees"]) + list(report["why_not"])
    while todo:
        node = todo.pop()
        found.append(node)
        todo += node.get("children", []) + node.get("unless", [])
        todo += [a["explanation"] for a in node.get("attempts", []) if a.get("explanation")]
    return found


def _why_nots(report):
    return [n for n in _nodes(report) if n.get("kind") == "not_derived"]


def _vermont(**fields):
    record = {"id": "e", "kinds": ["concert"], "attendance": {"expected_max": 400},
              "schedule": {"start": "2027-08-06T18:00", "end": "2027-08-06T23:00"}, "site": {"kind": "open_land"},
              "organizer": {"kind": "corporation"}, "flags": ["open_to_public", "admission_fee", "amplified_sound"],
              **fields}
    [parsed] = parse_events(record, "test")
    return parsed


def _readings_at(report):
    return {node.get("atom", ""): {r["id"] for r in node.get("interpretations", [])} for node in _nodes(report)}


def test_a_reading_hangs_only_under_the_steps_it_concerns():
    event = _vermont()
    [deadline] = [ids for atom, ids in _readings_at(explain(event, "vermont", "application_filing")).items()
                  if atom.startswith("deadline(vermont,1,application_filing")]
    assert "conditional_items" not in deadline
    at = _readings_at(explain(event, "vermont", "sound_plan"))
    [sound] = [ids for atom, ids in at.items() if atom.startswith("application_requirement(vermont,1,sound_plan")]
    assert "conditional_items" in sound
