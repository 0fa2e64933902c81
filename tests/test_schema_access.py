"""Atoms are read by the roles the schema declares (reasoner/law/schema.py), never by position: a typed accessor,
and a scan of the package that finds an argument taken by a number only where it is allowed, and says why."""
from __future__ import annotations

import ast as python_ast
from collections import Counter
from pathlib import Path

import clingo
import pytest
from clingo import ast

from reasoner.law.schema import INPUT, OUTPUT, OUTPUTS, PARAM_FACT, SHOWN, RoleError

PACKAGE = Path(__file__).resolve().parent.parent / "reasoner"

NOTE = clingo.parse_term('note(trempealeau,3,some_reading,"6.01(3)")')


def rule_head(text: str) -> ast.AST:
    found: list[ast.AST] = []
    ast.parse_string(text, found.append)
    return next(node for node in found if node.ast_type == ast.ASTType.Rule).head.atom.symbol


@pytest.mark.parametrize("role, value", [("ordinance", "trempealeau"), ("event", 3), ("name", "some_reading"),
                                         ("clause", "6.01(3)")])
def test_a_note_is_read_by_its_roles(role, value):
    assert OUTPUT["note"].value(NOTE, role) == value


def test_the_argument_itself_is_the_symbol_in_that_place():
    assert OUTPUT["note"].argument(NOTE, "clause") == clingo.String("6.01(3)")


def test_every_role_of_every_output_reads_the_argument_the_schema_places_it_at():
    for output in OUTPUTS:
        atom = clingo.Function(output.predicate, [clingo.Number(i) for i in range(output.arity)])
        assert [output.value(atom, role) for role in output.signature] == list(range(output.arity))


def test_a_rules_atom_is_read_by_role_a_variable_has_no_value():
    head = rule_head('obligation(trempealeau,E,toilets,shall,"6.01(7)") :- event(E).')
    obligation = OUTPUT["obligation"]
    assert obligation.value(head, "name") == "toilets"
    assert obligation.value(head, "clause") == "6.01(7)"
    assert obligation.value(head, "event") is None
    assert obligation.argument(head, "event").name == "E"


def test_a_param_is_read_by_role():
    param = clingo.parse_term('param(x,limit,100,"2")')
    assert [PARAM_FACT.value(param, role) for role in PARAM_FACT.roles] == ["x", "limit", 100, "2"]
    assert SHOWN[("param", 4)] is PARAM_FACT


def test_an_unknown_role_is_refused_naming_the_predicate_and_its_roles():
    with pytest.raises(RoleError, match=r"^note/4 has no argument 'clauses'; its arguments are "
                                        r"\(ordinance, event, name, clause\)$"):
        OUTPUT["note"].value(NOTE, "clauses")


def test_a_role_the_predicate_has_twice_is_refused():
    with pytest.raises(RoleError, match="session/5 has more than one argument 'day'"):
        INPUT["session"].index("day")


def test_an_atom_of_another_predicate_or_arity_is_refused():
    with pytest.raises(ValueError, match=r"is no obligation/5 atom"):
        OUTPUT["obligation"].value(NOTE, "name")
    with pytest.raises(ValueError, match=r"is no note/4 atom"):
        OUTPUT["note"].value(clingo.parse_term("note(trempealeau,3,some_reading)"), "name")


# ---------------------------------------------------------------- no positional indexing

# Where an argument of an atom (or of a term like it) may still be taken by a number: (module, function) -> count,
# with why. Anything else reads the schema's roles.
ALLOWED = {
    ("reasoner/conclusions.py", "Reader._decode"):
        (4, "the batch's fast reader: every shown atom of every event, from clingo's handles, for speed"),
    ("reasoner/events/plan.py", "_spec"): (3, "typing.get_args of a type annotation, no atom"),
    ("reasoner/modes/explain.py", "Explainer.__init__"):
        (2, "in_force(O,E,V), derived by the vocabulary, not a schema output"),
    ("reasoner/modes/explain.py", "Explainer._ordinance_of"):
        (1, "the first argument of any derived atom of the vocabulary, when it names an ordinance"),
    ("reasoner/modes/whatif.py", "_search_uncertain"): (1, "_changed(G,F,W) of modes.lp, no schema atom"),
    ("reasoner/modes/whatif.py", "_apply.args"):
        (2, "input atoms after their Event, whose roles repeat (session: day, minute, day, minute)"),
    ("reasoner/program.py", "law"): (3, "daily_window/2 and upper_limit/1, derived by the vocabulary, no outputs"),
}

NAMES = {"arguments", "args", "head_args"}


def _numbered(index: python_ast.AST) -> bool:
    return any(isinstance(node, python_ast.Constant) and isinstance(node.value, int) for node in python_ast.walk(index))


def positional_indexing(source: str) -> Counter:
    """(function) -> how many subscripts of `arguments`, `args` or `head_args` (a name or an attribute) hold a
    number: `a.arguments[2]`, `arguments[-1]`, `args[2:]`, `arguments[2 + i]`."""
    found: Counter = Counter()

    def visit(node: python_ast.AST, where: list[str]) -> None:
        for child in python_ast.iter_child_nodes(node):
            inner = where
            if isinstance(child, (python_ast.FunctionDef, python_ast.AsyncFunctionDef, python_ast.ClassDef)):
                inner = [*where, child.name]
            if isinstance(child, python_ast.Subscript):
                value = child.value
                name = value.id if isinstance(value, python_ast.Name) else \
                    value.attr if isinstance(value, python_ast.Attribute) else None
                if name in NAMES and _numbered(child.slice):
                    found[".".join(where) or "<module>"] += 1
            visit(child, inner)

    visit(python_ast.parse(source), [])
    return found


def test_the_scan_finds_positional_indexing():
    source = "def f(a, rule):\n    x = a.arguments[0]\n    y = rule.head_args[-1]\n    z = a.arguments[i]\n" \
             "    return a.symbol.arguments[2 + i], args[2:]\n"
    assert positional_indexing(source) == Counter({"f": 4})


def test_atoms_are_read_by_role_outside_the_allowed_places():
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for where, count in positional_indexing(path.read_text(encoding="utf-8")).items():
            found[(path.relative_to(PACKAGE.parent).as_posix(), where)] = count
    unexpected = {key: count for key, count in found.items() if count > ALLOWED.get(key, (0, ""))[0]}
    assert not unexpected, ("arguments taken by position; read them by role "
                            f"(OUTPUT[predicate].value(atom, role), reasoner/law/schema.py): {unexpected}")
    stale = {key for key in ALLOWED if found.get(key, 0) < ALLOWED[key][0]}
    assert not stale, f"allowed places that no longer index by position (lower their count): {stale}"
