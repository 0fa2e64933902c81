"""Issue 16: unknown facts do not block certain answers. explain, whatif, compare and sweep answer events with
unknown facts: a certain conclusion is explained as certain (its tree holds in every completion), a possible one
with the unknown facts whose answers decide it, each checked against brute-force enumeration of the completions."""
from __future__ import annotations

import json
from pathlib import Path

import clingo
import pytest
from click.testing import CliRunner

from reasoner.cli import main
from reasoner.modes.explain import Explainer, explain
from reasoner.events.loading import parse_events

from test_unknowns import completions

ROOT = Path(__file__).resolve().parents[1]
FESTIVAL = str(ROOT / "facts" / "events" / "unknown-festival.yaml")
BASE = {"id": "u", "kinds": ["festival"], "attendance": {"expected_max": 3500},
        "schedule": {"start": "2027-07-17T10:00", "end": "2027-07-18T02:00"},
        "flags": ["open_to_public", "participation_fee"], "site": {"kind": "open_land"}}


def event(**changes):
    return parse_events({**BASE, **changes}, "test")[0]


def holding(e, ordinance: str, conclusion: str) -> list[bool]:
    """In each completion: whether the conclusion holds (brute force)."""
    return [bool(explain(c, ordinance, conclusion)["trees"]) for c in completions(e)]


def flat(output: str) -> str:
    """Text output without the tree's lines and wrapping."""
    for mark in "│├└─":
        output = output.replace(mark, " ")
    return " ".join(output.split())


def steps(node: dict, found: list) -> list:
    found.append(node)
    for child in node.get("children", []):
        steps(child, found)
    return found


CASES = [
    # (sentence, event changes, ordinance, conclusion, certainty)
    ("a crowd of 3,500 through the night needs a Trempealeau license whether or not beer is sold or it is dark",
     {"unknown": ["flags.alcohol_sold", "flags.camping"]}, "trempealeau", "permit_required", "certain"),
    ("3,500 people need 12 toilets whatever the site turns out to be",
     {"unknown": ["site.kind"]}, "trempealeau", "toilets", "certain"),
    ("a crowd of 1,900 to 2,100 may or may not need a Trempealeau license",
     {"attendance": {"expected_max": {"min": 1990, "max": 2010}}, "unknown": ["flags.camping"]}, "trempealeau",
     "permit_required", "possible"),
    ("Vermont's liquor permit turns on whether alcohol is sold",
     {"unknown": ["flags.alcohol_sold"]}, "vermont", "liquor_permit", "possible"),
    ("3,500 people never need Trempealeau's nurses, whatever is unknown",
     {"unknown": ["flags.alcohol_sold", "schedule.darkness"]}, "trempealeau", "nurses", "impossible"),
]


@pytest.mark.parametrize("sentence, changes, ordinance, conclusion, certainty", CASES, ids=[c[0] for c in CASES])
def test_explain_over_unknowns_agrees_with_brute_force(sentence, changes, ordinance, conclusion, certainty):
    e = event(**changes)
    report = explain(e, ordinance, conclusion)
    each = holding(e, ordinance, conclusion)
    expected = "certain" if all(each) else "possible" if any(each) else "impossible"
    if certainty is not None:
        assert expected == certainty, "the case says what brute force says"
    assert report["certainty"] == expected
    assert report["holds"] == {"certain": True, "possible": None, "impossible": False}[expected]
    assert set(report["unknown"]) == set(e.unknown) | ({"attendance.expected_max"} if "attendance" in changes else set())
    if expected == "impossible":
        assert report["why_not"] and not report["trees"]
        return
    per_completion = [Explainer(c, [ordinance]).atoms for c in completions(e)]
    for tree in report["trees"]:
        for node in steps(tree, []):
            if node.get("holds") and node.get("certainty") == "certain":  # a certain step holds in every completion
                atom = clingo.parse_term(node["atom"])
                assert all(atom in atoms for atoms in per_completion), node["atom"]
        if tree["certainty"] == "possible":
            assert "depends_on" in tree
    if expected == "certain":
        assert any(t["certainty"] == "certain" and all(n.get("certainty") == "certain" for n in steps(t, []) if n.get("holds"))
                   for t in report["trees"])


def test_a_possible_conclusion_names_the_answers_that_decide_it():
    e = event(unknown=["flags.alcohol_sold"])
    [tree] = explain(e, "vermont", "liquor_permit")["trees"]
    [decided] = tree["depends_on"]
    assert decided["fact"] == "flags.alcohol_sold"
    assert {a["value"]: a["outcome"] for a in decided["answers"]} == {"yes": "holds", "no": "fails"}
    sold = [n for n in steps(tree, []) if n.get("unknown") == "flags.alcohol_sold"]
    assert sold and sold[0]["assumed"] is True and sold[0]["certainty"] == "possible"


def test_a_range_decides_the_permit_at_the_threshold():
    e = event(attendance={"expected_max": {"min": 1990, "max": 2010}})
    [tree] = explain(e, "trempealeau", "permit_required")["trees"]
    [decided] = tree["depends_on"]
    assert [(a["from"], a["to"], a["outcome"]) for a in decided["answers"]] == [(1990, 1999, "fails"), (2000, 2010, "holds")]


def test_cli_explain_of_the_unknown_festival_is_quick_and_says_possible():
    import time

    runner = CliRunner()
    started = time.perf_counter()
    out = runner.invoke(main, ["explain", FESTIVAL, "permit_required", "-o", "trempealeau"], catch_exceptions=False)
    assert time.perf_counter() - started < 2.0
    assert out.exit_code == 0
    text = flat(out.output)
    assert "(possible: in some completions of the unknown facts)" in text
    assert "decided by attendance.expected_max (at the values reasoned): 1,500–1,999: does not hold; 2,000–2,500: holds" in text
    data = json.loads(runner.invoke(main, ["explain", FESTIVAL, "toilets", "-o", "trempealeau", "--format", "json"]).output)
    [report] = data
    assert report["certainty"] == "possible" and report["holds"] is None
    assert sorted(report["unknown"]) == ["attendance.expected_max", "flags.alcohol_sold", "schedule.darkness", "site.kind"]
    assert all(t["certainty"] == "possible" and t["depends_on"] for t in report["trees"])


# ---------------------------------------------------------------- whatif

def _changed(e, changes):
    from reasoner.events.model import Event

    data = e.model_dump(mode="python")
    for change in changes:
        path = change["fact"]
        if path == "attendance.expected_max":
            data["attendance"]["expected_max"] = change["to"]
        elif path == "schedule.end":
            data["schedule"]["end"] = change["to"]
        else:
            prefix, _, name = path.rpartition(".")
            holder = data["site"] if prefix == "site.flags" else data
            key = "flags" if prefix in ("flags", "site.flags") else prefix
            holder[key] = sorted(set(holder[key]) | {name}) if change["to"] else sorted(set(holder[key]) - {name})
    return Event.model_validate(data)


WHATIF_CASES = [
    ("a certain license stops being needed in every completion when the night is cut short",
     {"unknown": ["flags.alcohol_sold", "schedule.darkness"]}, "trempealeau", "permit_required", "certain", "impossible"),
    ("nurses that no completion needs are needed in every one at 5,000 people",
     {"unknown": ["flags.alcohol_sold"]}, "trempealeau", "nurses", "impossible", "certain"),
]


@pytest.mark.parametrize("sentence, changes, ordinance, conclusion, now, after", WHATIF_CASES, ids=[c[0] for c in WHATIF_CASES])
def test_whatif_over_unknowns_changes_known_facts_and_holds_in_every_completion(sentence, changes, ordinance, conclusion, now, after):
    from reasoner.modes.whatif import whatif

    e = event(**changes)
    report = whatif(e, ordinance, conclusion)
    assert report["certainty_now"] == now and report["found"] and report["verified"]
    assert report["certainty_after"] == after
    assert not {c["fact"] for c in report["changes"]} & set(e.unknown), "only known facts change"
    each = holding(_changed(e, report["changes"]), ordinance, conclusion)  # brute force over the changed event
    assert all(each) if after == "certain" else not any(each)


def test_whatif_of_a_possible_conclusion_names_the_unknown_that_decides_it():
    from reasoner.modes.whatif import whatif

    e = event(unknown=["flags.alcohol_sold"])
    report = whatif(e, "vermont", "liquor_permit")
    assert report["certainty_now"] == "possible" and report["holds_now"] is None
    [decided] = report["decided_by"]
    assert decided["fact"] == "flags.alcohol_sold"
    assert {a["value"]: a["outcome"] for a in decided["answers"]} == {"yes": "holds", "no": "fails"}
    assert report["wanted"] == "certainly_holds" and report["otherwise"]["wanted"] == "certainly_absent"


def test_cli_whatif_of_the_unknown_festival():
    runner = CliRunner()
    out = runner.invoke(main, ["whatif", FESTIVAL, "-o", "trempealeau", "--flip", "permit_required"], catch_exceptions=False)
    assert out.exit_code == 0
    text = flat(out.output)
    assert "permit_required holds in some completions only of the unknown facts" in text
    assert "decided by attendance.expected_max" in text
    assert "to make permit_required hold in no completion of the unknown facts: schedule.end: 2027-08-14T23:00 → 2027-08-14T21:59" in text
    data = json.loads(runner.invoke(main, ["whatif", FESTIVAL, "-o", "trempealeau", "--flip", "permit_required",
                                           "--format", "json"]).output)
    assert data["certainty_now"] == "possible" and data["otherwise"]["verified"] and data["otherwise"]["clauses"] == ["6.01(2)(a)"]
    assert "attendance" in data["kept"]  # the peak is unknown: no known number to change


# ---------------------------------------------------------------- questions, compare, sweep

def test_questions_name_the_conclusions_each_answer_settles():
    from reasoner.unknowns import questions

    e = event(attendance={"expected_max": {"min": 1990, "max": 2010}}, unknown=["flags.alcohol_sold"])
    report = questions(e, ["trempealeau", "vermont"])
    by_fact = {q["fact"]: q for q in report["questions"]}
    below, above = by_fact["attendance.expected_max"]["answers"][:2]
    assert (below["from"], below["to"], above["from"]) == (1990, 1999, 2000)
    named = {(c["ordinance"], c["kind"], c["name"]): c["holds"] for c in above["conclusions"]}
    assert named[("trempealeau", "permit_required", "permit_required")] is True
    assert named[("trempealeau", "obligation", "toilets")] is True
    assert {(c["ordinance"], c["name"]): c["holds"] for c in below["conclusions"]}[("trempealeau", "toilets")] is False
    sold = {a["value"]: a for a in by_fact["flags.alcohol_sold"]["answers"]}
    assert {(c["ordinance"], c["name"]) for c in sold["no"]["conclusions"] if not c["holds"]} >= {("vermont", "liquor_permit")}
    runner = CliRunner()
    out = runner.invoke(main, ["questions", FESTIVAL, "-o", "trempealeau"], catch_exceptions=False)
    text = flat(out.output)
    assert "2,000–2,500 → trempealeau: required then holds: permit required; permits; obligations: admission control" in text


def test_compare_of_an_event_with_unknowns_marks_possible_cells():
    from reasoner.modes.compare import compare

    [table] = compare([event(unknown=["flags.alcohol_sold"])], ["trempealeau", "vermont"], ("status", "obligation"))
    rows = {(r["kind"], r["name"]): r for r in table["rows"]}
    liquor = rows[("obligation", "liquor_permit")]["cells"]["vermont"]
    assert liquor["certainty"] == "possible" and liquor["text"].endswith("(possible) [6.06]")
    toilets = rows[("obligation", "toilets")]["cells"]["trempealeau"]
    assert toilets["certainty"] == "certain" and "possible" not in toilets["text"]
    runner = CliRunner()
    out = runner.invoke(main, ["compare", FESTIVAL, "--ordinances", "trempealeau,gem", "--format", "json"])
    assert out.exit_code == 0
    [data] = json.loads(out.output)
    assert {o["ordinance"]: o["status"] for o in data["ordinances"]}["trempealeau"] == "possibly_required"
    toilets = next(r for r in data["rows"] if r["name"] == "toilets")["cells"]["trempealeau"]
    assert toilets["certainty"] == "possible" and toilets["items"][0]["range"] == [7, 9]


def test_sweep_of_an_event_with_unknowns_reports_certain_and_possible_change_points():
    from reasoner.modes.sweep import sweep

    result = sweep(event(unknown=["flags.alcohol_sold"]), "attendance=1900..2100", ["trempealeau", "vermont"])
    assert result.first("trempealeau") == 2000
    liquor = [c for c in result.changes if c["name"] == "liquor_permit"]
    assert all("(possible)" in (c["after"] or c["before"]) for c in liquor)
    # brute force at both sides of the point: the status over the completions
    from reasoner.unknowns import evaluate_uncertain
    from reasoner.modes.sweep import vary_event, parse_vary

    vary = parse_vary("attendance=1900..2100")
    statuses = [evaluate_uncertain(vary_event(event(unknown=["flags.alcohol_sold"]), vary, x), ["trempealeau"])[0]["status"]
                for x in (1999, 2000)]
    assert statuses == ["not_regulated", "permit_required"]
    out = CliRunner().invoke(main, ["sweep", FESTIVAL, "--vary", "hours=1..30", "-o", "trempealeau"])
    assert out.exit_code == 0
    assert "hours,12,trempealeau,status,permit_required,changes,not_regulated,possibly_required,,6.01(2)(a)" in out.output
    assert "hours,12,trempealeau,obligation,toilets,appears,,7–9 (possible),count,6.01(3)3" in out.output
