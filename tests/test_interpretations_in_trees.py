"""A conclusion that rests on a registered interpretation says so at the step that uses it, in text and JSON;
`reasoner clauses NAME CLAUSE` shows that clause's interpretations."""
from __future__ import annotations

import json

from click.testing import CliRunner

from reasoner.cli import main
from reasoner.modes.explain import explain
from reasoner.events.loading import parse_events

WEDDING = {"id": "farm-wedding", "kinds": ["wedding"], "attendance": {"expected_max": 800},
           "schedule": {"start": "2027-06-12T15:00", "end": "2027-06-13T00:30"}, "site": {"kind": "open_land"}}


def readings(node):
    yield from (r["id"] for r in node.get("interpretations", []))
    for child in node.get("children", []) + node.get("unless", []):
        yield from readings(child)


def test_a_wedding_exempt_anywhere_says_it_rests_on_that_reading():
    [event] = parse_events(WEDDING, "test")
    report = explain(event, "fulton", "exemption")
    [tree] = report["trees"]
    assert "weddings_exempt_anywhere" in [r["id"] for r in tree["interpretations"]]
    assert tree["interpretations"][0]["clause"] == "177-2"


def test_the_text_tree_and_the_json_carry_the_reading(tmp_path):
    path = tmp_path / "wedding.json"
    path.write_text(json.dumps(WEDDING))
    text = CliRunner().invoke(main, ["explain", str(path), "permit_required", "-o", "fulton"], env={"COLUMNS": "200"})
    assert "Read as (weddings_exempt_anywhere, 177-2)" in text.output
    data = json.loads(CliRunner().invoke(main, ["explain", str(path), "exemption", "-o", "fulton", "--format", "json"]).output)
    assert "weddings_exempt_anywhere" in set(readings(data[0]["trees"][0]))


def test_clauses_shows_and_filters_a_clauses_interpretations():
    text = CliRunner().invoke(main, ["clauses", "fulton", "177-2"], env={"COLUMNS": "200"}).output
    assert "Interpretation weddings_exempt_anywhere" in text
    data = json.loads(CliRunner().invoke(main, ["clauses", "fulton", "177-8", "--format", "json"]).output)
    assert [i["id"] for i in data[0]["interpretations"]] == ["proof_of_insurance_before_issue"]
    whole = json.loads(CliRunner().invoke(main, ["clauses", "fulton", "--format", "json"]).output)
    assert len(whole[0]["interpretations"]) > 1
