"""`reasoner explain` says the steps about the schedule (the clock's arithmetic: sessions in real time, where a
continuous stretch reaches) in one sentence unless asked for them (`--full`, `full` in a web request); the JSON
keeps every node and marks the folded ones (issue 32, "Explanations a lawyer reads")."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from reasoner import service
from reasoner.cli import main

# (event file, conclusion, ordinance): explanations whose trees time the event's sessions on the ordinance's clock
CASES = [
    ("facts/events/harvest-music-festival.yaml", "toilets", "trempealeau"),
    ("facts/events/harvest-music-festival.yaml", "permit_required", "trempealeau"),
    ("facts/events/missouri-ozark-music-festival.yaml", "permit_required", "missouri"),
]


DRAWING = str.maketrans("", "", "│├└─")


def _flat(text: str) -> str:
    """The words of a text tree, box drawing and line wrapping aside."""
    return " ".join(text.translate(DRAWING).split())


def _cli(*args: str) -> str:
    result = CliRunner().invoke(main, ["explain", *args], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result.output


def _nodes(reports):
    """Every step of the reports' trees, each object once."""
    seen, todo = {}, [n for r in reports for n in r["trees"] + r["why_not"]]
    while todo:
        node = todo.pop()
        if id(node) not in seen:
            seen[id(node)] = node
            todo += node.get("children", []) + node.get("unless", [])
            todo += [a["explanation"] for a in node.get("attempts", []) if isinstance(a.get("explanation"), dict)]
    return list(seen.values())


def _step(node):
    return node.get("atom") or node["text"]


def _unmarked(data):
    if isinstance(data, dict):
        return {k: _unmarked(v) for k, v in data.items() if k != "folded"}
    if isinstance(data, list):
        return [_unmarked(v) for v in data]
    return data


@pytest.fixture(scope="module", params=CASES, ids=[f"{c[2]}:{c[1]}" for c in CASES])
def case(request):
    path, conclusion, ordinance = request.param
    args = (path, conclusion, "-o", ordinance)
    return {"args": args, "text": _cli(*args), "full_text": _cli(*args, "--full"),
            "json": json.loads(_cli(*args, "--format", "json")),
            "full_json": json.loads(_cli(*args, "--full", "--format", "json"))}


def _folded(reports):
    """(the step, its folded children) for each step that folds some."""
    return [(node, [node["children"][i] for i in node["folded"]["children"]]) for node in _nodes(reports)
            if node.get("folded")]


def test_the_schedule_steps_are_folded_into_one_sentence_with_their_count(case):
    folds = _folded(case["json"])
    assert folds, "no step about the schedule was folded"
    for node, children in folds:
        assert all(not child.get("clause") for child in children), "a step citing a clause was folded"
        line = f"{node['folded']['text']} ({node['folded']['steps']} steps, --full shows them)"
        assert _flat(line) in _flat(case["text"])
        assert node["folded"]["steps"] == len({_step(n) for n in _nodes([{"trees": children, "why_not": []}])})


def _visible(reports):
    """The steps a folded tree still shows: every step not reached only through folded children."""
    seen, todo = {}, [n for r in reports for n in r["trees"] + r["why_not"]]
    while todo:
        node = todo.pop()
        if id(node) not in seen:
            seen[id(node)] = node
            hidden = (node.get("folded") or {}).get("children", [])
            todo += [c for i, c in enumerate(node.get("children", [])) if i not in hidden] + node.get("unless", [])
            todo += [a["explanation"] for a in node.get("attempts", []) if isinstance(a.get("explanation"), dict)]
    return list(seen.values())


def test_the_folded_steps_are_not_printed_unless_full(case):
    visible = _visible(case["json"])
    said = " | ".join(_flat(f"{n['text']} {n.get('because') or ''}") for n in visible)
    hidden = [n for n in _nodes(case["json"]) if _step(n) not in {_step(v) for v in visible}]
    # a hidden step whose words a shown one also says ("overnight stay") is printed anyway
    hidden_texts = {n["text"] for n in hidden if _flat(n["text"]) not in said}
    assert hidden_texts
    for text in hidden_texts:
        assert _flat(text) not in _flat(case["text"]), f"a folded step is printed: {text!r}"
        assert _flat(text) in _flat(case["full_text"]), f"--full does not print {text!r}"
    assert "--full shows them" not in case["full_text"]
    assert len(case["text"].splitlines()) < len(case["full_text"].splitlines())


def test_the_json_keeps_every_node_and_full_has_no_marks(case):
    assert _unmarked(case["json"]) == case["full_json"]
    assert not any(n.get("folded") for n in _nodes(case["full_json"]))


def test_a_web_request_folds_unless_full():
    path, conclusion, ordinance = CASES[0]
    with open(path, encoding="utf-8") as file:
        body = {"source": file.read(), "conclusion": conclusion, "ordinances": [ordinance]}
    folded = service.run("explain", body)
    full = service.run("explain", {**body, "full": True})
    assert any(n.get("folded") for n in _nodes(folded))
    assert not any(n.get("folded") for n in _nodes(full))
    assert _unmarked(folded) == full
