"""The one reader of the encodings: one walk of clingo's syntax tree and one model of a rule.

An encoding is parsed (never grounded or solved) into its rules and facts, each with its head, its body literals,
its variables and constants, and the `% §` clause block and `%@` sentence it stands under
(reasoner/law/conventions.py). `check`, `explain`, `wording`, `catalog`, `coverage` and the batch's columns read
the encodings through it; what an encoding names and the param facts it states are kept between runs
(reasoner/law/datacache.py), and the param facts are read while clingo parses, without a model of the rules:
a cold `evaluate` pays for neither.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import clingo
from clingo import ast

from reasoner.law.conventions import Annotations
from reasoner.law.datacache import cached
from reasoner.law.locator import encoding_path
from reasoner.law.schema import PARAM, PARAM_FACT

# Where a variable is bound inside a literal (an aggregate's or a condition's own), not by the rule's body.
_LOCAL_SCOPES = (ast.ASTType.BodyAggregateElement, ast.ASTType.HeadAggregateElement, ast.ASTType.ConditionalLiteral)


def _children(item: Any) -> list[Any]:
    if isinstance(item, ast.AST):
        return [getattr(item, key) for key in item.child_keys]
    if isinstance(item, (list, tuple)) or type(item).__name__ == "ASTSequence":
        return list(item)
    return []


def walk(node: Any, into: Callable[[ast.AST], bool] = lambda item: True) -> Iterator[ast.AST]:
    """Every syntax-tree node below `node` (a node or a list of them), itself included, in document order;
    the children of a node `into` refuses are left out."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, ast.AST):
            yield item
            if into(item):
                stack.extend(reversed(_children(item)))
        else:
            stack.extend(reversed(_children(item)))


def variables(node: Any, scoped: bool = True) -> list[str]:
    """The names of the variables in `node`, each once, in the order they are written, `_` left out; `scoped`
    leaves out those an aggregate or a condition binds itself."""
    into = (lambda item: item.ast_type not in _LOCAL_SCOPES) if scoped else (lambda item: True)
    found: list[str] = []
    for item in walk(node, into):
        if item.ast_type == ast.ASTType.Variable and item.name != "_" and item.name not in found:
            found.append(item.name)
    return found


def variable_nodes(node: Any) -> list[ast.AST]:
    """Every variable of `node`, an aggregate's own included."""
    return [item for item in walk(node) if item.ast_type == ast.ASTType.Variable]


def constant_names(node: Any) -> set[str]:
    """The names of the constants (functions without arguments) in a statement: never a keyword or a string."""
    found: set[str] = set()
    for item in walk(node):
        if item.ast_type == ast.ASTType.SymbolicTerm and item.symbol.type == clingo.SymbolType.Function \
                and not item.symbol.arguments and item.symbol.name:
            found.add(item.symbol.name)
        elif item.ast_type == ast.ASTType.Function and not item.arguments and item.name:
            found.add(item.name)
    return found


def constant(term: ast.AST) -> clingo.Symbol | None:
    """The value of a term written as a constant; None for a variable or an expression."""
    return term.symbol if term.ast_type == ast.ASTType.SymbolicTerm else None


class Literal:
    """One literal of a rule's body."""

    def __init__(self, node: ast.AST):
        self.node = node
        self.positive_atom = node.ast_type == ast.ASTType.Literal and node.sign == ast.Sign.NoSign \
            and node.atom.ast_type == ast.ASTType.SymbolicAtom  # a plain atom without `not`

    @cached_property
    def text(self) -> str:
        """As clingo prints it."""
        return str(self.node)

    @cached_property
    def variables(self) -> list[str]:
        """Those the literal binds or reads, not an aggregate's own."""
        return variables(self.node)

    @property
    def atom(self) -> ast.AST | None:
        """The atom's term (`p(X,Y)`) when the literal is a plain atom, with or without `not`."""
        node = self.node
        if node.ast_type == ast.ASTType.Literal and node.atom.ast_type == ast.ASTType.SymbolicAtom \
                and node.atom.symbol.ast_type == ast.ASTType.Function:
            return node.atom.symbol
        return None


@dataclass
class Rule:
    """One rule or fact of an encoding."""

    node: ast.AST
    source: str                          # the encoding's name: "trempealeau", "vocabulary"
    line: int
    clause: str | None                   # of the `% §` header above it
    sentence: str | None                 # the `%@` sentence right above it
    predicate: tuple[str, int] | None    # of a plain head atom
    head_args: list[ast.AST]
    body: list[Literal]
    id: int = 0                          # its place among the rules a reader loads together (explain's records)

    @property
    def head(self) -> ast.AST:
        return self.node.head

    @property
    def head_atom(self) -> ast.AST | None:
        """The head's atom term (`p(X,Y)`) when the head is a plain atom with arguments: the schema reads its
        arguments by role (reasoner/law/schema.py)."""
        head = self.node.head
        if head.ast_type != ast.ASTType.Literal or head.atom.ast_type != ast.ASTType.SymbolicAtom:
            return None
        return head.atom.symbol if head.atom.symbol.ast_type == ast.ASTType.Function else None

    @cached_property
    def variables(self) -> list[str]:
        """The rule's own variables, in order (an aggregate's own left out)."""
        return variables(self.node)

    @cached_property
    def every_variable(self) -> set[str]:
        """Every variable written in the rule, an aggregate's own included."""
        return {item.name for item in variable_nodes(self.node)}

    @cached_property
    def constants(self) -> list[clingo.Symbol]:
        """Every constant term of the rule."""
        return [item.symbol for item in walk(self.node) if item.ast_type == ast.ASTType.SymbolicTerm]

    @cached_property
    def atoms(self) -> list[tuple[ast.AST, bool]]:
        """Every atom of the body, inside aggregates and conditions too: (term, positive)."""
        return [(item.atom.symbol, item.sign == ast.Sign.NoSign) for item in walk([literal.node for literal in self.body])
                if item.ast_type == ast.ASTType.Literal and item.atom.ast_type == ast.ASTType.SymbolicAtom
                and item.atom.symbol.ast_type == ast.ASTType.Function]

    def strings(self) -> set[str]:
        return {c.string for c in self.constants if c.type == clingo.SymbolType.String}

    def body_predicates(self) -> set[str]:
        return {literal.atom.name for literal in self.body if literal.atom is not None}

    def rewritten(self, transformer: Callable[[ast.AST], ast.AST], id: int = 0) -> Rule:
        """The same rule, its node rewritten (explain names the anonymous variables its records carry)."""
        return _rule(transformer(self.node), self.source, self.clause, self.sentence, id)


def _rule(node: ast.AST, source: str, clause: str | None, sentence: str | None, id: int = 0) -> Rule:
    predicate, args = None, []
    atom = node.head.atom if node.head.ast_type == ast.ASTType.Literal else None
    if atom is not None and atom.ast_type == ast.ASTType.SymbolicAtom:
        symbol = atom.symbol
        if symbol.ast_type == ast.ASTType.Function:
            predicate, args = (symbol.name, len(symbol.arguments)), list(symbol.arguments)
        elif symbol.ast_type == ast.ASTType.SymbolicTerm and symbol.symbol.type == clingo.SymbolType.Function:
            predicate = (symbol.symbol.name, 0)
    return Rule(node, source, node.location.begin.line, clause, sentence, predicate, args,
                [Literal(b) for b in node.body], id)


class EncodingSyntaxError(ValueError):
    pass


@dataclass
class Encoding:
    """One encoding file, parsed: its rules and facts, its `#show`n signatures, its comment conventions."""

    name: str
    file: Path
    text: str
    nodes: list[ast.AST]                                   # every statement, as clingo parses it
    statements: list[Rule] = field(default_factory=list)   # its rules and facts
    shown: list[tuple[str, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.annotations = Annotations(self.text)
        self.lines = self.annotations.lines
        for node in self.nodes:
            if node.ast_type == ast.ASTType.ShowSignature and node.name:
                self.shown.append((node.name, node.arity))
            if node.ast_type == ast.ASTType.Rule:
                line = node.location.begin.line
                self.statements.append(_rule(node, self.name, self.annotations.clause_at(line),
                                             self.annotations.sentence_at(line)))

    @property
    def path(self) -> str:
        return f"encodings/{self.name}.lp"

    def at(self, line: int) -> str:
        return f"{self.path}:{line}"

    def header_of(self, line: int) -> str | None:
        """The clause of the nearest `% §` header above a line."""
        return self.annotations.clause_at(line)

    def label_of(self, line: int) -> str | None:
        return self.annotations.sentence_at(line)

    def rules(self) -> list[Rule]:
        """The rules with a body and a plain head atom: those an explanation derives a step by."""
        return [rule for rule in self.statements if rule.body and rule.head.ast_type == ast.ASTType.Literal
                and rule.head.atom.ast_type == ast.ASTType.SymbolicAtom]

    def cited(self) -> set[str]:
        """Clause ids written in the encoding's rules and facts."""
        return set().union(*(statement.strings() for statement in self.statements))

    def headers(self) -> dict[str, int]:
        """Clause ids of the `% §` headers that open a block holding at least one rule or fact, by statement count."""
        held: dict[str, int] = defaultdict(int)
        for statement in self.statements:
            if statement.clause:
                held[statement.clause] += 1
        return held

    def constant_names(self) -> set[str]:
        """Every constant the encoding writes, as clingo parses it (no keyword, comment or string)."""
        return set().union(*(constant_names(node) for node in self.nodes))

    def terms_named(self, name: str) -> Iterator[ast.AST]:
        """Every term `name(...)` written in the encoding's rules and facts (heads, bodies, aggregates), in the
        order they are written."""
        for statement in self.statements:
            for item in walk(statement.node):
                if item.ast_type == ast.ASTType.Function and item.name == name and item.arguments:
                    yield item


def parse(name: str, file: Path) -> Encoding:
    """The encoding in `file`; EncodingSyntaxError with clingo's messages when it does not parse."""
    text = file.read_text(encoding="utf-8")
    nodes: list[ast.AST] = []
    messages: list[str] = []
    try:
        ast.parse_string(text, nodes.append, logger=lambda code, message: messages.append(" ".join(message.split())))
    except RuntimeError as error:
        raise EncodingSyntaxError("; ".join(messages) or str(error)) from None
    return Encoding(name, file, text, nodes)


@cache
def encoding(name: str) -> Encoding:
    """The package's encoding `name` (an ordinance, or "vocabulary"), parsed once per process."""
    return parse(name, encoding_path(name))


def names(name: str) -> frozenset[str]:
    """The constants of encoding `name`, kept between runs while the file is unchanged."""
    return cached(f"rules-names-{name}", [encoding_path(name)], __name__,
                  lambda: frozenset(encoding(name).constant_names()), version=clingo.__version__)


def param_order(name: str) -> tuple[str, ...]:
    """The names of the params of ordinance `name` in the order its encoding first writes each (its fact, or a rule
    that reads it before the fact), kept between runs while the file is unchanged: a walk of every rule is slow."""
    def read() -> tuple[str, ...]:
        found: dict[str, None] = {}
        for term in encoding(name).terms_named(PARAM):
            if len(term.arguments) == PARAM_FACT.arity and PARAM_FACT.value(term, "ordinance") == name:
                label = PARAM_FACT.value(term, "name")
                if isinstance(label, str):
                    found.setdefault(label)
        return tuple(found)

    return cached(f"rules-param-order-{name}", [encoding_path(name)], __name__, read, version=clingo.__version__)


def param_facts(file: Path) -> tuple[tuple[str, str, int, str], ...]:
    """The param facts of an encoding file, found while clingo parses it: a cold `evaluate` that reads the sun's
    darkness pays for no model of its rules."""
    found: list[tuple[str, str, int, str]] = []

    def take(node: ast.AST) -> None:
        if node.ast_type != ast.ASTType.Rule or node.body or node.head.ast_type != ast.ASTType.Literal:
            return
        atom = node.head.atom
        if atom.ast_type != ast.ASTType.SymbolicAtom or atom.symbol.ast_type != ast.ASTType.Function \
                or atom.symbol.name != "param" or len(atom.symbol.arguments) != 4:
            return
        values = [constant(argument) for argument in atom.symbol.arguments]
        if None not in values:
            owner, label, value, clause = values
            if value.type == clingo.SymbolType.Number and clause.type == clingo.SymbolType.String:
                found.append((owner.name, label.name, value.number, clause.string))

    ast.parse_string(file.read_text(encoding="utf-8"), take)
    return tuple(found)


def params(ordinances: tuple[str, ...]) -> tuple[tuple[str, str, int, str], ...]:
    """(ordinance, name, value, clause) of every param fact the ordinances' encodings state, in the order written;
    kept between runs while the files are unchanged."""
    return tuple(item for name in ordinances
                 for item in cached(f"rules-params-{name}", [encoding_path(name)], __name__,
                                    lambda: param_facts(encoding_path(name)), version=clingo.__version__))
