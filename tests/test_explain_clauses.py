"""The clause an explanation quotes is the clause its conclusion cites.

A clause id is written in a rule block's `% §` header and may be written again in a rule's head, or come from
a table through a variable (`application_requirement(vermont,E,Item,C) :- ..., vermont_content_item(C,Item)`).
`evaluate` cites the clause the atom carries, so `explain` must cite, and quote the words of, that same clause:
checked on every step of every explained conclusion of every bundled example, and on every rule of every
encoding (a head that writes its clause writes its block's).
"""
from __future__ import annotations

from pathlib import Path

import clingo
import pytest

from reasoner.modes.explain import cited_clause, explain, load_rules
from reasoner.events.loading import load_events
from reasoner.law.registry import registry
from reasoner.law.locator import encoded_ordinances

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "facts" / "events").glob("*.yaml"))


def steps(node: dict):
    """Every step of a tree that holds, each once."""
    seen, stack = set(), [node]
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if item.get("holds") and item.get("atom"):
            yield item
        stack.extend(item.get("children", []))
        stack.extend(item.get("unless", []))


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_every_explained_conclusion_quotes_the_clause_evaluate_cites(example):
    checked = 0
    for event in load_events(example):
        for ordinance in encoded_ordinances():
            clauses = registry(ordinance)
            answer = explain(event, ordinance)
            for tree in answer["trees"]:
                for step in steps(tree):
                    atom = clingo.parse_term(step["atom"])
                    cited = cited_clause(atom)
                    if cited is None or atom.arguments[0] != clingo.Function(ordinance):
                        continue
                    assert step["clause"] == cited, (ordinance, step["atom"], step["clause"])
                    found = clauses.clause(cited)
                    words = next((w.text for w in found.versions if w.version == step.get("version")), found.text)
                    assert step["words"] == words, (ordinance, step["atom"])
                    checked += 1
    assert checked > 0


@pytest.mark.parametrize("ordinance", encoded_ordinances())
def test_a_rule_that_writes_its_clause_writes_its_blocks(ordinance):
    rules = [r for r in load_rules([ordinance]) if r.source == ordinance]
    assert rules
    for rule in rules:
        symbol = rule.head.atom.symbol
        if symbol.ast_type != clingo.ast.ASTType.Function or not symbol.arguments:
            continue
        last = symbol.arguments[-1]
        written = last.symbol if last.ast_type == clingo.ast.ASTType.SymbolicTerm else None
        if written is None or written.type != clingo.SymbolType.String:
            continue
        if cited_clause(clingo.Function(symbol.name, [clingo.Number(0)] * (len(symbol.arguments) - 1) + [written])):
            assert written.string == rule.clause, f"{ordinance}.lp:{rule.line} cites {written.string} under {rule.clause}"


@pytest.mark.parametrize("law_date, version, words", [
    ("2005-08-01", "pa_1971_696", "the “governing body of the municipality” may revoke"),
    ("2027-08-01", None, "The chief elected official of the municipality, or a designee of the chief elected official, may revoke"),
])
def test_a_step_quotes_the_words_of_the_version_in_force(law_date, version, words):
    """Connecticut 19a-440: before P.A. 10-92 the governing body revoked; its 2010 words are not quoted then."""
    from reasoner.events.loading import parse_events

    year = law_date[:4]
    [event] = parse_events({"id": "ct", "attendance": {"expected_max": 3500, "average": 2500},
                            "schedule": {"start": f"{year}-08-01T00:00", "end": f"{year}-08-01T20:00"},
                            "organizer": {"kind": "corporation"}}, "test")
    [tree] = explain(event, "connecticut", "revocation_ground")["trees"]
    assert tree["clause"] == "19a-440" and tree.get("version") == version
    assert tree["words"].startswith(words)
