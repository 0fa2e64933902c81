"""Every clause an encoding cites is registered, and every registered clause quotes the ordinance verbatim."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from reasoner.law.registry import registry
from reasoner.program import encoding_text
from reasoner.law.locator import encoded_ordinances, text_path

# The ordinance texts travel with the project (encodings/NAME.txt, beside the rules and the registry), so the
# verbatim check runs on every clone; where the team's shared copy (under the name the registry's `source:`
# gives) is next to the checkout, the two must be the same.
ROOT = Path(__file__).resolve().parents[1]
SHARED_TEXTS = Path(__file__).resolve().parents[1].parent / "shared" / "ordinances"
ORDINANCES = encoded_ordinances()


def normalized(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.parametrize("ordinance", ORDINANCES)
def test_every_clause_string_in_the_encoding_is_registered(ordinance):
    cited = set(re.findall(r'"([^"\n]+)"', re.sub(r"%.*", "", encoding_text(ordinance))))
    missing = cited - set(registry(ordinance).clauses)
    assert cited and not missing, f"{ordinance}: cited but not registered: {sorted(missing)}"


@pytest.mark.parametrize("ordinance", ORDINANCES)
def test_every_clause_header_in_the_encoding_is_registered(ordinance):
    headers = set(re.findall(r"^% § (\S+)", encoding_text(ordinance), flags=re.M))
    missing = headers - set(registry(ordinance).clauses)
    assert headers and not missing, f"{ordinance}: headers not registered: {sorted(missing)}"


@pytest.mark.parametrize("ordinance", ORDINANCES)
def test_every_registered_clause_quotes_the_ordinance_verbatim(ordinance):
    reg = registry(ordinance)
    source = normalized(text_path(ordinance).read_text(encoding="utf-8"))
    misquoted = [c.id for c in reg.clauses.values() if normalized(c.text) not in source]
    assert not misquoted, f"{ordinance}: clause text not found verbatim: {misquoted}"


@pytest.mark.parametrize("ordinance", ORDINANCES)
def test_every_clause_is_encoded_or_says_why_not(ordinance):
    reg = registry(ordinance)
    text = encoding_text(ordinance)
    cited = set(re.findall(r'"([^"\n]+)"', text)) | set(re.findall(r"^% § (\S+)", text, flags=re.M))
    silent = [c.id for c in reg.clauses.values() if c.id not in cited and not c.reason]
    assert not silent, f"{ordinance}: clauses neither encoded nor explained: {silent}"


@pytest.mark.parametrize("ordinance", ORDINANCES)
def test_every_interpretation_names_a_registered_clause_and_is_emitted(ordinance):
    reg = registry(ordinance)
    text = encoding_text(ordinance)
    for note in reg.interpretations.values():
        assert note.clause in reg.clauses, f"{note.id} names unregistered clause {note.clause}"
        assert re.search(rf"note\({ordinance},E,{note.id},", text), f"{note.id} is never emitted"
    emitted = set(re.findall(rf"note\({ordinance},E,(\w+),", text))
    # an alternative reading, when chosen, is stated by a note of its own name
    named = set(reg.interpretations) | {a.id for i in reg.interpretations.values() for a in i.alternatives}
    assert emitted <= named, f"unregistered notes: {emitted - named}"


EXAMPLES = Path(__file__).resolve().parents[1] / "facts" / "events"


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_every_conclusion_about_a_bundled_example_cites_a_registered_clause(path):
    from reasoner.evaluate import evaluate
    from reasoner.events.loading import load_events

    for result in evaluate(load_events(path), ORDINANCES):
        clauses = registry(result["ordinance"]).clauses
        for conclusion in result["conclusions"]:
            assert conclusion["clauses"], conclusion
            unregistered = [c for c in conclusion["clauses"] if c not in clauses]
            assert not unregistered, (result["ordinance"], conclusion)


@pytest.mark.parametrize("ordinance", ORDINANCES)
def test_the_bundled_ordinance_text_is_the_shared_one(ordinance):
    source = registry(ordinance).source
    shared = SHARED_TEXTS / source
    if not shared.is_file():
        pytest.skip(f"no shared copy at {shared} to compare with")
    assert text_path(ordinance).read_bytes() == shared.read_bytes()


@pytest.mark.parametrize("ordinance", ORDINANCES)
def test_the_encodings_header_names_its_text_and_registry_beside_it(ordinance):
    header = "\n".join(encoding_text(ordinance).splitlines()[:30])
    source = re.search(r"^% Source: (\S+) \(published as (\S+)\)$", header, flags=re.M)
    registry_line = re.search(r"^% Registry: (\S+)", header, flags=re.M)
    assert source and registry_line, f"{ordinance}: no Source: or Registry: line in the header"
    assert (source.group(1), registry_line.group(1)) == (f"encodings/{ordinance}.txt", f"encodings/{ordinance}.yaml")
    assert (ROOT / source.group(1)).is_file() and (ROOT / registry_line.group(1)).is_file()
    assert source.group(2) == registry(ordinance).source


@pytest.mark.parametrize("ordinance", ORDINANCES)
def test_every_param_of_the_encoding_is_read_by_a_rule(ordinance):
    """A number the law states is stated once, as a param with its clause, and used: a param no rule reads is a
    number the reasoner never applies (or one a rule restates instead of reading)."""
    from clingo import ast

    statements: list = []
    ast.parse_string(encoding_text(ordinance), statements.append)
    stated, read = set(), set()

    class Reads(ast.Transformer):
        def visit_SymbolicAtom(self, node):
            if node.symbol.ast_type == ast.ASTType.Function and node.symbol.name == "param":
                read.add(str(node.symbol.arguments[1]))
            return node

    for statement in statements:
        if statement.ast_type != ast.ASTType.Rule:
            continue
        head = statement.head
        if (not statement.body and head.ast_type == ast.ASTType.Literal and head.atom.ast_type == ast.ASTType.SymbolicAtom
                and head.atom.symbol.ast_type == ast.ASTType.Function and head.atom.symbol.name == "param"):
            stated.add(str(head.atom.symbol.arguments[1]))
        for literal in statement.body:
            Reads()(literal)
    assert stated, ordinance
    assert stated <= read, f"{ordinance}: params no rule reads: {sorted(stated - read)}"
