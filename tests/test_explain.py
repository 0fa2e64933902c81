"""Explanations come from the encodings: every rule yields records, and trees reach facts and clauses."""
from __future__ import annotations

import clingo
import pytest

from reasoner.events.loading import parse_events
from reasoner.modes.explain import Explainer, explain, load_rules
from reasoner.law.registry import registry
from reasoner.law.locator import encoded_ordinances

BASE = {"id": "x", "attendance": {"expected_max": 3500},
        "schedule": {"start": "2027-07-16T12:00", "end": "2027-07-18T02:00"}}


def event(**changes):
    return parse_events({**BASE, **changes}, "test")[0]


@pytest.mark.parametrize("ordinance", encoded_ordinances())
def test_every_rule_of_every_encoding_has_a_clause(ordinance):
    rules = [r for r in load_rules([ordinance]) if r.source == ordinance]
    assert rules
    unlabeled = [f"{r.source}.lp:{r.line}" for r in rules if r.clause not in registry(ordinance).clauses]
    assert not unlabeled, f"rules without a registered '% §' clause header: {unlabeled}"


@pytest.mark.parametrize("ordinance", encoded_ordinances())
def test_the_record_program_grounds_and_explains_every_conclusion(ordinance):
    report = explain(event(), ordinance)
    for tree in report["trees"]:
        assert tree["holds"] and tree["kind"] == "derived", tree["atom"]


def leaves(node):
    children = node.get("children", [])
    if not children:
        yield node
    for child in children:
        yield from leaves(child)


def test_a_quantity_tree_ends_in_facts_and_parameters_with_clauses():
    [tree] = [t for t in explain(event(), "trempealeau", "parking_spaces")["trees"] if t["atom"].startswith("quantity")]
    assert tree["because"] == "3,500 persons / 4 per space, rounded up = 875 parking spaces."
    kinds = {leaf["kind"] for leaf in leaves(tree)}
    assert kinds <= {"fact", "parameter", "given"} and "fact" in kinds
    params = [leaf for leaf in leaves(tree) if leaf["kind"] == "parameter"]
    assert any(p["clause"] == "6.01(3)7" and "one parking space for every four persons" in p["words"] for p in params)


def test_why_not_for_a_permit_goes_down_to_the_failed_threshold():
    report = explain(event(attendance={"expected_max": 1999}), "trempealeau", "permit_required")
    assert not report["holds"]
    texts = []

    def walk(node):
        for attempt in node.get("attempts", []):
            texts.append(attempt["failed_condition"])
            if attempt.get("explanation"):
                walk(attempt["explanation"])

    for node in report["why_not"]:
        walk(node)
    assert "1,999 < 2,000" in texts


def test_why_not_for_an_exempt_event_shows_the_exemption():
    venue = event(attendance={"expected_max": 3000}, site={"kind": "permanent_venue", "seating_capacity": 2900})
    report = explain(venue, "trempealeau", "permit_required")
    [attempt] = report["why_not"][0]["attempts"]
    assert attempt["failed_condition"] == "not exempt_any(trempealeau,1)"
    assert attempt["explanation"]["children"][0]["atom"].startswith("exempt(trempealeau,1,permanent_venue_within_capacity")


def test_explaining_leaves_the_conclusions_unchanged():
    from reasoner.program import solve

    plain = set(solve([event()], ["trempealeau"]))
    explained = Explainer(event(), ["trempealeau"]).atoms
    assert plain <= explained and all(isinstance(s, clingo.Symbol) for s in plain)


THRESHOLDS = [  # (ordinance, attendance below, attendance at or above, threshold as printed)
    ("trempealeau", 1999, 2000, "2,000"),
    ("gem", 349, 350, "350"),
    ("fulton", 500, 501, "500"),
    ("vermont", 99, 100, "100"),
    ("village", 250, 251, "250"),
]
THRESHOLD_EVENT = {"kinds": ["festival"], "flags": ["open_to_public", "participation_fee"],
                   "schedule": {"start": "2027-07-17T10:00", "end": "2027-07-18T02:00"}}


def texts(node) -> list[str]:
    found = [str(node.get(k)) for k in ("because", "failed_condition", "text", "would_mean", "atom") if node.get(k)]
    for child in node.get("children", []) + node.get("attempts", []) + node.get("unless", []):
        found += texts(child)
    if node.get("explanation"):
        found += texts(node["explanation"])
    return found


@pytest.mark.parametrize("ordinance, below, at, printed", THRESHOLDS, ids=[t[0] for t in THRESHOLDS])
def test_why_not_names_the_threshold_just_below_and_the_tree_shows_it_at(ordinance, below, at, printed):
    under = parse_events({**THRESHOLD_EVENT, "id": "under", "attendance": {"expected_max": below}}, "t")[0]
    report = explain(under, ordinance, "permit_required")
    assert not report["holds"]
    said = " ".join(t for node in report["why_not"] for t in texts(node))
    assert printed in said, said
    over = parse_events({**THRESHOLD_EVENT, "id": "over", "attendance": {"expected_max": at}}, "t")[0]
    held = explain(over, ordinance, "permit_required")
    assert held["holds"]
    assert printed in " ".join(t for node in held["trees"] for t in texts(node))
