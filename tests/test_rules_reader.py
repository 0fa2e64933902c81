"""The one reader of the encodings (reasoner/law/rules.py, issue 31): one walk of clingo's syntax tree, one model
of a rule, and the param facts read by parsing, as grounding finds them."""
from __future__ import annotations

import ast as python_ast
from pathlib import Path

import pytest

from reasoner.law import rules
from reasoner.law.locator import encoded_ordinances
from reasoner.program import law

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("ordinance", encoded_ordinances())
def test_the_parsed_params_are_those_grounding_finds(ordinance):
    assert sorted(rules.params((ordinance,))) == sorted(law((ordinance,)).params)


def test_the_darkness_readings_come_from_the_parsed_params():
    from reasoner.events import sun

    stated = {(o, n): (v, c) for o, n, v, c in law(encoded_ordinances()).params}
    readings = sun.readings()
    assert readings
    for ordinance, reading in readings.items():
        assert (reading.after, reading.clauses[0]) == stated[(ordinance, sun.AFTER_SUNSET)]
        assert (reading.before, reading.clauses[1]) == stated[(ordinance, sun.BEFORE_SUNRISE)]


def _parsed(text: str, tmp_path: Path) -> rules.Encoding:
    file = tmp_path / "x.lp"
    file.write_text(text, encoding="utf-8")
    return rules.parse("x", file)


def test_a_rule_carries_its_clause_sentence_head_body_and_variables(tmp_path):
    encoding = _parsed('% § 1(a) "a permit"\n%@ {E} needs a permit, for {N} people\n'
                       'license_required(x,E,"1(a)") :- attendance(E,N), N >= 100, not exempt(x,E,_,_),'
                       ' #count { P : person(E,P) } > 2.\n', tmp_path)
    [rule] = encoding.statements
    assert (rule.line, rule.clause, rule.sentence) == (3, "1(a)", "{E} needs a permit, for {N} people")
    assert rule.predicate == ("license_required", 3)
    assert rule.variables == ["E", "N"]                       # P is the aggregate's own, `_` is none
    assert rule.every_variable == {"E", "N", "P", "_"}
    assert [literal.positive_atom for literal in rule.body] == [True, False, False, False]
    assert {term.name for term, _ in rule.atoms} == {"attendance", "exempt", "person"}
    assert rule.strings() == {"1(a)"}
    assert encoding.headers() == {"1(a)": 1} and encoding.cited() == {"1(a)"}
    assert encoding.constant_names() == {"x"}


def test_a_param_is_read_only_from_a_fact_with_a_number(tmp_path):
    file = tmp_path / "x.lp"
    file.write_text('param(x,limit,100,"2").\nparam(x,word,many,"2").\nparam(x,derived,5,"2") :- a.\n', encoding="utf-8")
    assert rules.param_facts(file) == (("x", "limit", 100, "2"),)


def test_a_syntax_error_is_reported_with_clingos_words(tmp_path):
    with pytest.raises(rules.EncodingSyntaxError, match="syntax error"):
        _parsed("p(X :- q.\n", tmp_path)


def test_no_other_module_walks_the_syntax_tree():
    """`child_keys` is how a walk descends: only the reader does it."""
    walkers = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "reasoner").rglob("*.py")
                     if "child_keys" in path.read_text(encoding="utf-8"))
    assert walkers == ["reasoner/law/rules.py"]


def test_sun_does_not_import_the_program_layer():
    tree = python_ast.parse((ROOT / "reasoner" / "events" / "sun.py").read_text(encoding="utf-8"))
    imported = {node.module for node in python_ast.walk(tree) if isinstance(node, python_ast.ImportFrom)}
    assert "reasoner.program" not in imported


def test_catalog_takes_its_samples_from_below():
    tree = python_ast.parse((ROOT / "reasoner" / "modes" / "catalog.py").read_text(encoding="utf-8"))
    imported = {node.module for node in python_ast.walk(tree) if isinstance(node, python_ast.ImportFrom)}
    assert not {module for module in imported if module.startswith("reasoner.quality")}


def test_the_terms_of_a_name_are_found_in_heads_bodies_and_aggregates_in_written_order(tmp_path):
    encoding = _parsed('% param(x,commented,1,"2") is no term\n'
                       'a(E) :- event(E), param(x,first,N,_), #count { P : param(x,P,_,_) } > 1.\n'
                       'param(x,second,5,"2").\n', tmp_path)
    assert [str(term) for term in encoding.terms_named("param")] == \
        ["param(x,first,N,_)", "param(x,P,_,_)", 'param(x,second,5,"2")']


def test_thresholds_read_the_encodings_without_grounding_them(monkeypatch):
    """The numbers an ordinance states, and their order, come from the one reader, not from a solved program."""
    from reasoner import program
    from reasoner.modes import thresholds

    def grounding(*args, **kwargs):
        raise AssertionError("thresholds grounded the program to read the params")

    monkeypatch.setattr(program, "Program", grounding)
    monkeypatch.setattr(program, "law", grounding)
    monkeypatch.setattr(thresholds, "law", grounding, raising=False)   # imported by name, as it once was
    rows = thresholds.thresholds()
    assert sorted((r["ordinance"], r["name"], r["value"], r["clause"]) for r in rows) == \
        sorted(rules.params(tuple(dict.fromkeys(r["ordinance"] for r in rows))))
