"""Explanations read off the encodings themselves.

The encodings stay plain clingo. Only when an explanation is asked for, each rule
`H :- B1, ..., Bn.` is read with clingo's AST and two kinds of record rules are added:

- support:  `_why(R, H, (Vars), (PositiveAtoms)) :- B1, ..., Bn.`  (why H holds)
- why-not:  `_reach(R, K, (Vars_K)) :- B1, ..., BK.` and
            `_blocked(R, K+1, (Vars_K)) :- _reach(R, K, (Vars_K)), not _sat(R, K+1, (Vars_K)).`
            (the first body literal that fails, with the values bound so far)

Each step cites the clause its atom carries (a conclusion's last argument: `evaluate` cites the same), else
the nearest `% § <clause>` comment above its rule; its sentence is the `%@ ...` comment right above the rule,
so the tree quotes the law and shows the arithmetic. Where the registry gives a clause's words in the
version in force on the event's law date, those are quoted.
Plain evaluation never pays for these records.
"""
from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import datetime
from functools import cache
from typing import TYPE_CHECKING, Any

import clingo
from clingo import ast

from reasoner.law.rules import Literal, Rule, encoding, variables
from reasoner.law.rules import names as rules_names
from reasoner.program import Program
from reasoner.law.registry import registry
from reasoner.law.schema import INPUT, INPUTS, LAW_FACTS, OUTPUT, OUTPUTS, PARAM, PARAM_FACT, SHOWN, named_outputs, whole_outputs
from reasoner.events.sun import described
from reasoner.modes.wording import CLOCK, DAY, DURATION, EVENT, INSTANT, ZONE, Wording, argument_kinds, duration, rule_variable_kinds, sentence, zone_of

if TYPE_CHECKING:  # the models are built only when a file needs them (reasoner/events/plan.py)
    from reasoner.events.model import Event

_NOWHERE = ast.Position("<records>", 1, 1)
_LOCATION = ast.Location(_NOWHERE, _NOWHERE)


class _NameAnonymous(ast.Transformer):
    """Give every `_` of a positive literal its own name, so the record rules can carry the atoms they match.
    A `_` under `not` stays anonymous: named, it would be a variable nothing binds."""

    def __init__(self) -> None:
        self.count = 0

    def visit_Literal(self, node: ast.AST) -> ast.AST:
        return node if node.sign != ast.Sign.NoSign else node.update(**self.visit_children(node))

    def visit_BodyAggregateElement(self, node: ast.AST) -> ast.AST:
        return node  # anonymous inside an aggregate: it names nothing the record carries

    visit_HeadAggregateElement = visit_ConditionalLiteral = visit_BodyAggregateElement

    def visit_Variable(self, node: ast.AST) -> ast.AST:
        if node.name != "_":
            return node
        self.count += 1
        return ast.Variable(node.location, f"Any{self.count}")


class _Bind(ast.Transformer):
    def __init__(self, bindings: dict[str, clingo.Symbol]):
        self.bindings = bindings

    def visit_Variable(self, node: ast.AST) -> ast.AST:
        value = self.bindings.get(node.name)
        return ast.SymbolicTerm(node.location, value) if value is not None else node


def _tuple(items: Sequence[ast.AST]) -> ast.AST:
    return ast.Function(_LOCATION, "", list(items), 0)


def _record(name: str, *arguments: ast.AST, sign: ast.Sign = ast.Sign.NoSign) -> ast.AST:
    return ast.Literal(_LOCATION, sign, ast.SymbolicAtom(ast.Function(_LOCATION, name, list(arguments), 0)))


def _number(value: int) -> ast.AST:
    return ast.SymbolicTerm(_LOCATION, clingo.Number(value))


def _vars(names: Sequence[str]) -> ast.AST:
    return _tuple([ast.Variable(_LOCATION, name) for name in names])


def why_records(rules: Sequence[Rule]) -> list[ast.AST]:
    """One support record rule per rule, `_why(R,Head,(Vars),(PositiveAtoms)) :- Body.`: which body
    atoms made its head hold."""
    out = []
    for rule in rules:
        atoms = [literal.node.atom.symbol for literal in rule.body if literal.positive_atom]
        head = _record("_why", _number(rule.id), rule.head.atom.symbol, _vars(rule.variables), _tuple(atoms))
        out.append(ast.Rule(_LOCATION, head, [literal.node for literal in rule.body]))
    return out


def why_not_records(rules: Sequence[Rule]) -> list[ast.AST]:
    """For each rule, how far its body gets: `_reach(R,K,(Vars))` when its first K literals hold, and
    `_blocked(R,K+1,(Vars))` when the next one fails, with the values bound so far."""
    out = []
    for rule in rules:
        bound: list[str] = []
        rule_id = _number(rule.id)
        out.append(ast.Rule(_LOCATION, _record("_reach", rule_id, _number(0), _tuple([])), []))
        for k, literal in enumerate(rule.body):
            prefix = _vars(bound)
            reached = _record("_reach", rule_id, _number(k), prefix)
            out.append(ast.Rule(_LOCATION, _record("_sat", rule_id, _number(k + 1), prefix), [reached, literal.node]))
            failed = _record("_sat", rule_id, _number(k + 1), prefix, sign=ast.Sign.Negation)
            out.append(ast.Rule(_LOCATION, _record("_blocked", rule_id, _number(k + 1), prefix), [reached, failed]))
            bound = bound + [v for v in literal.variables if v not in bound]
            if k + 1 < len(rule.body):
                out.append(ast.Rule(_LOCATION, _record("_reach", rule_id, _number(k + 1), _vars(bound)),
                                    [l.node for l in rule.body[:k + 1]]))
    return out


def record_program(rules: Sequence[Rule]) -> list[ast.AST]:
    """The support and why-not record rules for the given rules."""
    return why_records(rules) + why_not_records(rules)


def concludes(rule: Rule, name: str) -> bool:
    """Whether the rule's head is the conclusion `name`: the predicate itself, or named by its third argument."""
    if rule.predicate[0] == name:
        return True
    if NAMED_PREDICATES.get(rule.predicate[0]) != rule.predicate[1]:
        return False
    written = OUTPUT[rule.predicate[0]].argument(rule.head_atom, "name")
    return written.ast_type == ast.ASTType.SymbolicTerm and str(written.symbol) == name


def depends_on(rules: Sequence[Rule], conclusion: str) -> list[Rule]:
    """The rules that can derive the conclusion, and the rules their bodies depend on."""
    chosen = {rule.id for rule in rules if concludes(rule, conclusion)}
    wanted: set[str] = set()
    for rule in rules:
        if rule.id in chosen:
            wanted |= rule.body_predicates()
    changed = True
    while changed:
        changed = False
        for rule in rules:
            if rule.predicate[0] in wanted and not rule.body_predicates() <= wanted:
                wanted |= rule.body_predicates()
                changed = True
    return [rule for rule in rules if rule.id in chosen or rule.predicate[0] in wanted]


def load_rules(ordinances: Sequence[str]) -> list[Rule]:
    return list(_loaded(tuple(ordinances))[0])


@cache
def _loaded(ordinances: tuple[str, ...]) -> tuple[tuple[Rule, ...], tuple[ast.AST, ...]]:
    """The rules of the encodings and their support records: read once per process."""
    rules = _read_rules(ordinances)
    return tuple(rules), tuple(why_records(rules))


@cache
def _kinds(ordinances: tuple[str, ...]) -> dict[tuple[str, int, int], str]:
    """Which arguments of which predicates hold days, clock times and events (reasoner.modes.wording)."""
    return argument_kinds(_loaded(ordinances)[0])


@cache
def _rule_kinds(ordinances: tuple[str, ...], rule_id: int) -> dict[str, str]:
    """What each variable of one rule holds (a day, a clock time, the event): read from its AST once per process."""
    rule = next(r for r in _loaded(ordinances)[0] if r.id == rule_id)
    return rule_variable_kinds(rule, _kinds(ordinances))


def records(ordinances: tuple[str, ...], why_not: str | None = None) -> tuple[ast.AST, ...]:
    """The support records, and the why-not records of the rules `why_not` depends on."""
    return _loaded(ordinances)[1] + (_why_not_for(ordinances, why_not) if why_not else ())


@cache
def _every_step_shown(ordinances: tuple[str, ...]) -> tuple[ast.AST, ...]:
    """`#show p/n.` for every predicate a rule derives and every input predicate: over unknown facts, each step of
    a tree is then a consequence, certain or possible."""
    signatures = ({rule.predicate for rule in _loaded(ordinances)[0]} | {(i.predicate, i.arity) for i in INPUTS}
                  | {(name, len(roles)) for name, roles in LAW_FACTS.items()})
    return tuple(ast.ShowSignature(_LOCATION, name, arity, True) for name, arity in sorted(signatures))


@cache
def _why_not_for(ordinances: tuple[str, ...], conclusion: str) -> tuple[ast.AST, ...]:
    return tuple(why_not_records(depends_on(_loaded(ordinances)[0], conclusion)))


def _read_rules(ordinances: Sequence[str]) -> list[Rule]:
    """The rules of the shared vocabulary and the ordinances (law/rules.py), numbered, each `_` of a positive
    literal named; a vocabulary rule cites no clause of its own."""
    rules = []
    for source in ("vocabulary", *ordinances):
        for rule in encoding(source).rules():
            rule = rule.rewritten(_NameAnonymous(), id=len(rules))
            if rule.clause == "vocabulary":
                rule.clause = None
            rules.append(rule)
    return rules


# ---------------------------------------------------------------- rendering

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|\b[A-Z][A-Za-z0-9_\']*\b')


def _bound_text(literal: Literal, bindings: dict[str, clingo.Symbol]) -> str:
    """The literal as clingo prints it, with bound variables replaced by their values."""

    def replace(match: re.Match) -> str:
        token = match.group(0)
        value = bindings.get(token) if not token.startswith('"') else None
        return str(value) if value is not None else token

    return _TOKEN.sub(replace, literal.text)


def _bound_words(literal: Literal, bindings: dict[str, clingo.Symbol], kinds: dict[str, str], wording: Wording) -> str:
    """The literal with bound variables as a reader reads their values (dates, clock times, the event's id)."""

    def replace(match: re.Match) -> str:
        token = match.group(0)
        value = bindings.get(token) if not token.startswith('"') else None
        return wording.value(value, kinds.get(token), zone_of(bindings, kinds)) if value is not None else token

    return _TOKEN.sub(replace, literal.text)


def _open_pattern(term: ast.AST) -> tuple[str, list[clingo.Symbol | None]] | None:
    """A bound body atom as (name, arguments), an argument still a variable or an expression being None."""
    if term.ast_type != ast.ASTType.Function:
        return None
    return term.name, [a.symbol if a.ast_type == ast.ASTType.SymbolicTerm else None for a in term.arguments]


class Explainer:
    """Solves once with record rules, then answers why and why-not questions about one event."""

    def __init__(self, event: Event, ordinances: Sequence[str], why_not: str | None = None,
                 symbols: Iterable[clingo.Symbol] | None = None):
        """`why_not` names a conclusion whose failure may be asked about; only the rules it depends on get why-not records.
        `symbols`: the atoms to explain from (a completion, or what every completion shares) instead of solving the event."""
        self.event = event
        self.ordinances = tuple(ordinances)
        rules = _loaded(self.ordinances)[0]
        self.rules = list(rules)
        self.by_id = {rule.id: rule for rule in self.rules}
        self.derived = {rule.predicate for rule in self.rules}
        self.kinds = _kinds(self.ordinances)
        self.wording = Wording(event.id, self.kinds)
        if symbols is None:
            program = Program(self.ordinances).add_statements(records(self.ordinances, why_not)).add_events([event]).ground()
            symbols = program.first_model(shown=False) or []
        self.atoms: set[clingo.Symbol] = set()
        self.trees: dict[clingo.Symbol, dict[str, Any]] = {}
        self.support: dict[clingo.Symbol, list[tuple[Rule, dict, list]]] = defaultdict(list)
        self.blocked: dict[int, list[tuple[int, dict]]] = defaultdict(list)
        for symbol in sorted(symbols):  # a set of consequences iterates in an order that varies between processes
            self._take(symbol)
        self._by_predicate: dict[tuple[str, int], list[clingo.Symbol]] = defaultdict(list)
        for symbol in self.atoms:
            self._by_predicate[(symbol.name, len(symbol.arguments))].append(symbol)
        # the version of each ordinance in force on the law date, whose words a step quotes where they differ
        self.in_force = {a.arguments[0].name: a.arguments[2].name for a in self._by_predicate.get(("in_force", 3), ())}

    def _take(self, symbol: clingo.Symbol) -> None:
        name = symbol.name   # asked of clingo once: each question is a call into its C library
        if name == "_why":
            rule_id, head, values, body = symbol.arguments
            rule = self.by_id[rule_id.number]
            bindings = dict(zip(rule.variables, values.arguments))
            self.support[head].append((rule, bindings, list(body.arguments)))
            self.atoms.update(a for a in (head, *body.arguments) if not a.name.startswith("_"))  # shown or not
        elif name == "_blocked":
            rule_id, position, values = symbol.arguments
            rule = self.by_id[rule_id.number]
            bound: list[str] = []
            for literal in rule.body[:position.number - 1]:
                bound += [v for v in literal.variables if v not in bound]
            self.blocked[rule.id].append((position.number, dict(zip(bound, values.arguments))))
        elif not name.startswith("_"):
            self.atoms.add(symbol)

    # ------------------------------------------------------------ why

    def _clause_info(self, clause: str | None, ordinance: str | None) -> dict[str, Any]:
        if not clause or not ordinance:
            return {"clause": clause}
        found = registry(ordinance).clause(clause)
        if not found:
            return {"clause": clause}
        info = {"clause": clause, "heading": found.heading, "words": found.text, "reconstructed": found.reconstructed}
        version = self.in_force.get(ordinance)
        earlier = next((w for w in found.versions if w.version == version), None)
        if earlier is not None:
            info.update(words=earlier.text, version=version)
        return info

    def _readings(self, ordinance: str | None, clause: str | None, atom: clingo.Symbol) -> list[dict[str, str]]:
        """The registered interpretations this step rests on: the readings the encoding states (note/4) for
        the event under the clause of the step's rule."""
        if not ordinance or not clause:
            return []
        # An alternative reading, when chosen, is stated by a note of its own name (encodings/vocabulary.lp): its words,
        # about the steps its interpretation is about.
        interpretations = registry(ordinance).interpretations
        readings = {**{i.id: (i.text, i.concerns) for i in interpretations.values()},
                    **{a.id: (a.text, i.concerns) for i in interpretations.values() for a in i.alternatives}}
        note = OUTPUT["note"]
        if atom.name == "note":
            name = note.value(atom, "name")
            return [{"id": name, "clause": clause, "text": readings[name][0]}] if name in readings else []
        found = []
        for atom_of_note in sorted(self._by_predicate.get(("note", note.arity), ())):
            name, cited = note.value(atom_of_note, "name"), note.value(atom_of_note, "clause")
            if note.value(atom_of_note, "ordinance") != ordinance or name not in readings:
                continue
            text, concerns = readings[name]  # a reading about some steps of its clause: those only
            if (cited == clause and not concerns) or \
                    (concerns and atom.name in concerns and clause.startswith(cited)):
                found.append({"id": name, "clause": cited, "text": text})
        return found

    def _ordinance_of(self, rule: Rule, atom: clingo.Symbol) -> str | None:
        if rule.source != "vocabulary":
            return rule.source
        first = atom.arguments[0] if atom.arguments else None
        return first.name if first is not None and first.type == clingo.SymbolType.Function and first.name in self.ordinances else None

    def _sun_words(self, ordinance: str) -> str:
        """The sun times a darkness read from the sun rests on, in words (reasoner/events/sun.py), on the reading
        applied: the text's params, or sunset_to_sunrise where the text is so read."""
        down = clingo.Function("darkness_sunset_to_sunrise", [clingo.Function(ordinance)]) in self.atoms
        return described(ordinance, [s for s in self.event.schedule.runs if isinstance(s.end, datetime)], down)

    def why(self, atom: clingo.Symbol, seen: frozenset = frozenset()) -> dict[str, Any]:
        """The derivation tree of an atom that holds (trees are shared between the conclusions that use them)."""
        if atom in self.trees:
            return self.trees[atom]
        node = self._why(atom, seen)
        self.trees[atom] = node
        return node

    def _why(self, atom: clingo.Symbol, seen: frozenset) -> dict[str, Any]:
        node: dict[str, Any] = {"atom": str(atom), "text": self.wording.atom(atom), "holds": True}
        supports = self.support.get(atom)
        if not supports:
            if atom.name == PARAM:
                node.update(kind="parameter", clause=PARAM_FACT.value(atom, "clause"))
                ordinance = PARAM_FACT.value(atom, "ordinance")
                node.update(self._clause_info(node["clause"], ordinance))
            else:
                node["kind"] = "fact" if atom.name in INPUT else "given"
                if atom.name in ("sun_darkness", "sun_down"):  # not stated: read from the sun at the ordinance's place (sun.py)
                    node["sun"] = self._sun_words(INPUT[atom.name].value(atom, "ordinance"))
            return node
        rule, bindings, body_atoms = supports[0]
        ordinance = self._ordinance_of(rule, atom)
        kinds = _rule_kinds(self.ordinances, rule.id)
        node.update(kind="derived", rule=f"{rule.source}.lp:{rule.line}",
                    because=sentence(rule.sentence, bindings, kinds, self.wording))
        clause = cited_clause(atom) or rule.clause
        node.update(self._clause_info(clause, ordinance))
        if readings := self._readings(ordinance, clause, atom):
            node["interpretations"] = readings
        node["conditions"] = [_bound_text(l, bindings) for l in rule.body if not l.positive_atom]
        # an aggregate (the longest stretch) is what the rule's own sentence states: no condition of its own
        node["conditions_text"] = [self._literal_words(l, bindings, kinds) for l in rule.body
                                   if not l.positive_atom and l.node.atom.ast_type != ast.ASTType.BodyAggregate]
        if atom in seen:
            node["children"] = []
            return node
        node["children"] = [self.why(child, seen | {atom}) for child in body_atoms]
        unless = [self._why_absent(l, bindings) for l in rule.body if _negated_derived(l, self.derived)]
        if any(unless):
            node["unless"] = [u for u in unless if u]
        if len(supports) > 1:
            node["other_derivations"] = len(supports) - 1
        return node

    def _literal_words(self, literal: Literal, bindings: dict, kinds: dict[str, str], failed: bool = False) -> str:
        """A body literal in words; `failed` says what holds instead of it (a comparison turned around)."""
        node = literal.node
        if node.ast_type == ast.ASTType.Literal and node.atom.ast_type == ast.ASTType.SymbolicAtom:
            found = _open_pattern(_Bind(bindings)(node.atom.symbol))
            if found is not None:
                phrase = self.wording.pattern(*found)
                if node.sign == ast.Sign.NoSign:
                    if failed and found[0] in INPUT and None in found[1][1:]:
                        return f"the event file states no {self.wording.noun(found[0]).removeprefix('the ')}"
                    return f"not so: {phrase}" if failed else phrase
                return f"{phrase}, which must not be so" if failed else f"not so: {phrase}"
        if node.ast_type == ast.ASTType.Literal and node.atom.ast_type == ast.ASTType.Comparison \
                and len(node.atom.guards) == 1 and (found := re.fullmatch(r"(.*?) (<=|>=|!=|<|>|=) (.*)", literal.text)):
            operator = found.group(2)
            if node.sign == ast.Sign.Negation:
                operator = NEGATED[operator]
            if failed:
                operator = NEGATED[operator]
            terms = (node.atom.term, node.atom.guards[0].term)
            sides = [kinds.get(t.name) if t.ast_type == ast.ASTType.Variable else None for t in terms]
            # `D = S - B`: the other side of a day is a day; `M >= H*60`: of a duration, a duration
            shared = DAY if DAY in sides else DURATION if DURATION in sides else None
            left, right = (self._term_words(t, bindings, kinds, shared) for t in terms)
            values = _sides(literal, bindings) if failed else None
            if values is not None and all(v.type == clingo.SymbolType.Number for v in (values[0], values[2])):
                kind = shared or next((k for k in sides if k in (DAY, CLOCK, INSTANT, DURATION)), None)
                return _missed(left, values[1], right, values[0].number, values[2].number, kind)
            return f"{left} {operator} {right}"
        text = _bound_words(literal, bindings, kinds, self.wording)
        return f"not ({text})" if failed else text

    def _term_words(self, term: ast.AST, bindings: dict, kinds: dict[str, str], shared: str | None = None) -> str:
        """One side of a comparison as its value: a day as a date, a minute as a clock time, arithmetic worked out."""
        if term.ast_type == ast.ASTType.Interval:
            return f"{self._term_words(term.left, bindings, kinds)} to {self._term_words(term.right, bindings, kinds)}"
        if term.ast_type == ast.ASTType.Function and not term.name and term.arguments:  # a tuple: each part by its kind
            return f"({', '.join(self._term_words(part, bindings, kinds) for part in term.arguments)})"
        written = variables(term)
        bound = _Bind(bindings)(term)
        if any(name not in bindings for name in written):
            return _bound_words(Literal(term), bindings, kinds, self.wording)
        kind = kinds.get(written[0]) if len(written) == 1 and kinds.get(written[0]) != EVENT else shared
        if term.ast_type == ast.ASTType.BinaryOperation and kind == CLOCK and term.left.ast_type == ast.ASTType.Variable \
                and term.right.ast_type == ast.ASTType.SymbolicTerm and term.right.symbol.type == clingo.SymbolType.Number \
                and term.operator_type in (ast.BinaryOperator.Plus, ast.BinaryOperator.Minus):  # `T+60`: an hour after T
            sign = "+" if term.operator_type == ast.BinaryOperator.Plus else "-"
            return f"{self.wording.value(bindings[term.left.name], CLOCK)} {sign} {term.right.symbol.number} minutes"
        if term.ast_type != ast.ASTType.Variable and kind == CLOCK:
            kind = None  # minutes added up past a day are a count of minutes, not a time of day
        if term.ast_type == ast.ASTType.BinaryOperation and term.operator_type == ast.BinaryOperator.Minus \
                and all(side.ast_type == ast.ASTType.Variable and kinds.get(side.name) == INSTANT
                        for side in (term.left, term.right)):  # `T-F`: the time between two instants, said so
            zone = zone_of(bindings, kinds)
            since, until = (self.wording.value(bindings[side.name], INSTANT, zone) for side in (term.right, term.left))
            return f"the time from {since} to {until}"
        if kind is None and shared == DURATION:
            kind = DURATION
        try:
            value = clingo.parse_term(str(bound))
        except (RuntimeError, ValueError):
            return str(bound)
        return self.wording.value(value, kind, zone_of(bindings, kinds))

    def _unbound(self, rule: Rule, bindings: dict) -> dict[str, str | clingo.Symbol]:
        """For a why-not that stops early: the values its sentence names that nothing bound yet, read off the
        answer where one atom fits (a parameter, the stated attendance); else said to be not stated."""
        local = dict(bindings)
        named: dict[str, str] = {}
        kinds = _rule_kinds(self.ordinances, rule.id)
        for literal in rule.body:
            if not literal.positive_atom or literal.node.atom.symbol.ast_type != ast.ASTType.Function:
                continue
            original = literal.node.atom.symbol.arguments
            open_ = [a.name for a in original if a.ast_type == ast.ASTType.Variable and a.name not in local]
            if not open_:
                continue
            name, pattern = _open_pattern(_Bind(local)(literal.node.atom.symbol))
            fits = [a for a in self._by_predicate.get((name, len(pattern)), ())
                    if all(p is None or p == v for p, v in zip(pattern, a.arguments))]
            if len(fits) == 1:
                for argument, value in zip(original, fits[0].arguments):
                    if argument.ast_type == ast.ASTType.Variable:
                        local.setdefault(argument.name, value)
                continue
            said = "not stated in the event file" if name in INPUT else "not determined"
            for variable in open_:
                named.setdefault(variable, f"({said})")
        for variable, value in local.items():
            if variable not in bindings:
                named[variable] = value  # read off the answer: the sentence writes it in its own format
        return named

    def _why_absent(self, literal: Literal, bindings: dict) -> dict[str, Any] | None:
        """For a `not p(...)` condition that held: why p does not hold (an exemption that fails, say)."""
        term = _Bind(bindings)(literal.node.atom.symbol)
        pattern = [a.symbol if a.ast_type == ast.ASTType.SymbolicTerm else None for a in term.arguments]
        answer = self.why_not(term.name, pattern, depth=3)
        return answer if answer["attempts"] else None

    # ------------------------------------------------------------ why not

    def _head_matches(self, rule: Rule, bindings: dict, pattern: Sequence[clingo.Symbol | None]) -> bool:
        head = _Bind(bindings)(rule.head.atom.symbol)
        if len(head.arguments) != len(pattern):
            return False
        for argument, wanted in zip(head.arguments, pattern):
            if wanted is None or argument.ast_type == ast.ASTType.Variable or variables(argument):
                continue
            if argument.ast_type == ast.ASTType.SymbolicTerm and argument.symbol != wanted:
                return False
        return True

    def _head_bindings(self, rule: Rule, pattern: Sequence[clingo.Symbol | None]) -> dict[str, clingo.Symbol]:
        """Values the question fixes for the rule's head variables."""
        fixed = {}
        for argument, wanted in zip(rule.head.atom.symbol.arguments, pattern):
            if wanted is not None and argument.ast_type == ast.ASTType.Variable:
                fixed[argument.name] = wanted
        return fixed

    def why_not(self, name: str, pattern: Sequence[clingo.Symbol | None], depth: int = 0,
                named: bool = False) -> dict[str, Any]:
        """Why no atom name(pattern) holds (None in the pattern matches anything): each rule's first failed condition.
        `named` keeps only rules whose head names the conclusion as a constant (third argument)."""
        shown = f"{name}({', '.join('_' if p is None else str(p) for p in pattern)})"
        node: dict[str, Any] = {"atom": shown, "text": self.wording.pattern(name, pattern), "holds": False,
                                "kind": "not_derived", "attempts": []}
        for rule in self.rules:
            if rule.predicate != (name, len(pattern)):
                continue
            if named and OUTPUT[name].argument(rule.head_atom, "name").ast_type != ast.ASTType.SymbolicTerm:
                continue
            deepest: dict[int, tuple[int, dict]] = {}
            for position, bindings in self.blocked.get(rule.id, []):
                if self._head_matches(rule, bindings, pattern):
                    key = 0
                    if position > deepest.get(key, (0, {}))[0]:
                        deepest[key] = (position, bindings)
            if not deepest:
                continue
            position, bindings = deepest[0]
            bindings = {**self._head_bindings(rule, pattern), **bindings}
            literal = rule.body[position - 1]
            ordinance = rule.source if rule.source != "vocabulary" else None
            kinds = _rule_kinds(self.ordinances, rule.id)
            attempt: dict[str, Any] = {
                "rule": f"{rule.source}.lp:{rule.line}",
                "would_mean": sentence(rule.sentence, bindings, kinds, self.wording, self._unbound(rule, bindings)),
                "failed": self._literal_words(literal, bindings, kinds, failed=True),
                "failed_condition": _failed_comparison(literal, bindings) if literal.node.atom.ast_type == ast.ASTType.Comparison
                else ("missing: " if literal.positive_atom else "") + _bound_text(literal, bindings),
                **self._clause_info(_head_clause(rule, bindings) or rule.clause, ordinance),
            }
            attempt["explanation"] = self._failure(literal, bindings, depth, kinds)
            if also := self._later_failures(rule, position, bindings, kinds):
                attempt["also_failed"] = also
            node["attempts"].append(attempt)
        return node

    def _later_failures(self, rule: Rule, position: int, bindings: dict, kinds: dict[str, str]) -> list[dict[str, str]]:
        """The conditions after the first failed one that fail too, judged on the values bound so far (an atom
        that holds binds what it alone fits); a condition on a value nothing bound is not judged."""
        local = dict(bindings)
        unsettled: set[str] = set()
        found = []
        for literal in rule.body[position:]:
            node = literal.node
            if node.ast_type != ast.ASTType.Literal or node.atom.ast_type == ast.ASTType.BodyAggregate:
                unsettled |= set(literal.variables)
                continue
            if unsettled & set(literal.variables):
                unsettled |= set(literal.variables)
                continue
            if node.atom.ast_type == ast.ASTType.SymbolicAtom:
                opened = _open_pattern(_Bind(local)(node.atom.symbol))
                if opened is None:
                    unsettled |= set(literal.variables)
                    continue
                name, pattern = opened
                fits = [a for a in self._by_predicate.get((name, len(pattern)), ())
                        if all(p is None or p == v for p, v in zip(pattern, a.arguments))]
                if node.sign == ast.Sign.NoSign:
                    if len(fits) == 1:
                        for argument, value in zip(node.atom.symbol.arguments, fits[0].arguments):
                            if argument.ast_type == ast.ASTType.Variable:
                                local.setdefault(argument.name, value)
                    elif fits:
                        unsettled |= {v for v in literal.variables if v not in local}
                    else:
                        found.append(literal)
                        unsettled |= {v for v in literal.variables if v not in local}
                    continue
                if any(v not in local for v in literal.variables):
                    continue
                if fits if node.sign == ast.Sign.Negation else not fits:
                    found.append(literal)
                continue
            if any(v not in local for v in literal.variables):
                continue
            if _comparison_holds(literal, local) is False:
                found.append(literal)
        return [{"failed": self._literal_words(literal, local, kinds, failed=True),
                 "failed_condition": _failed_comparison(literal, local) if literal.node.atom.ast_type == ast.ASTType.Comparison
                 else ("missing: " if literal.positive_atom else "") + _bound_text(literal, local)} for literal in found]

    def _failure(self, literal: Literal, bindings: dict, depth: int, kinds: dict[str, str]) -> Any:
        """Why one body literal fails: recurse into derived atoms, show what holds for negated ones."""
        if depth > 6:
            return None
        atom_node = literal.node.atom
        if literal.positive_atom:
            term = _Bind(bindings)(atom_node.symbol)
            if term.ast_type != ast.ASTType.Function:
                return None
            predicate = (term.name, len(term.arguments))
            pattern = [a.symbol if a.ast_type == ast.ASTType.SymbolicTerm else None for a in term.arguments]
            if predicate in self.derived:
                return self.why_not(term.name, pattern, depth + 1)
            return {"kind": "missing_fact", "atom": str(term), "holds": False,
                    "text": self.wording.pattern(*_open_pattern(term))}
        if literal.node.sign == ast.Sign.Negation and atom_node.ast_type == ast.ASTType.SymbolicAtom:
            term = _Bind(bindings)(atom_node.symbol)
            try:
                symbol = clingo.parse_term(str(term))
            except (RuntimeError, ValueError):
                return None
            if symbol in self.atoms:
                return self.why(symbol)
            matches = [a for a in self.atoms if _matches(a, symbol)]
            return self.why(matches[0]) if matches else None
        return {"kind": "comparison", "holds": False, "condition": _failed_comparison(literal, bindings),
                "text": self._literal_words(literal, bindings, kinds, failed=True)}

    # ------------------------------------------------------------ questions

    def conclusion_atoms(self, ordinance: str, name: str | None = None) -> list[clingo.Symbol]:
        """Shown conclusion atoms of one ordinance, optionally those about `name`."""
        from reasoner.conclusions import read_text  # the same reading as evaluation

        found = []
        owner = clingo.Function(ordinance)
        for atom in sorted(self.atoms):
            spec = SHOWN.get((atom.name, len(atom.arguments)))   # only a shown atom may be a conclusion
            if spec is None or spec.argument(atom, "ordinance") != owner:
                continue
            read = read_text(str(atom), lambda: atom)   # None for what is no conclusion (a param, say)
            if read is None:
                continue
            if name is None or name in (atom.name, read[2]["name"], read[2]["kind"]):
                found.append(atom)
        return found


def cited_clause(atom: clingo.Symbol) -> str | None:
    """The clause a conclusion atom carries (its last argument, as `evaluate` reads it); None for other atoms."""
    if (atom.name, len(atom.arguments)) not in CONCLUSION_SIGNATURES:
        return None
    last = OUTPUT[atom.name].argument(atom, "clause")
    return last.string if last.type == clingo.SymbolType.String else None


def _head_clause(rule: Rule, bindings: dict[str, clingo.Symbol]) -> str | None:
    """The clause a rule's head cites: written in it, or bound by the body as far as it got (a table's clause)."""
    if rule.predicate not in CONCLUSION_SIGNATURES:
        return None
    last = OUTPUT[rule.predicate[0]].argument(rule.head_atom, "clause")
    if last.ast_type == ast.ASTType.SymbolicTerm:
        value = last.symbol
    elif last.ast_type == ast.ASTType.Variable:
        value = bindings.get(last.name)
    else:
        return None
    return value.string if value is not None and value.type == clingo.SymbolType.String else None


def _negated_derived(literal: Literal, derived: set[tuple[str, int]]) -> bool:
    node = literal.node
    if node.ast_type != ast.ASTType.Literal or node.sign != ast.Sign.Negation:
        return False
    atom = node.atom
    if atom.ast_type != ast.ASTType.SymbolicAtom or atom.symbol.ast_type != ast.ASTType.Function:
        return False
    return (atom.symbol.name, len(atom.symbol.arguments)) in derived


NEGATED = {">=": "<", ">": "<=", "<=": ">", "<": ">=", "=": "!=", "!=": "="}


def _failed_comparison(literal: Literal, bindings: dict[str, clingo.Symbol]) -> str:
    """A failed comparison as the fact that holds instead: `1999 >= 2000` becomes `1,999 < 2,000`."""
    text = _bound_text(literal, bindings)
    match = re.fullmatch(r"(-?\d+) (>=|>|<=|<|=|!=) (-?\d+)", text)
    if not match:
        return f"not ({text})"
    left, operator, right = match.groups()
    return f"{int(left):,} {NEGATED[operator]} {int(right):,}"


_COMPARE = {">=": lambda a, b: a >= b, ">": lambda a, b: a > b, "<=": lambda a, b: a <= b, "<": lambda a, b: a < b,
            "=": lambda a, b: a == b, "!=": lambda a, b: a != b}


def _sides(literal: Literal, bindings: dict[str, clingo.Symbol]) -> tuple[clingo.Symbol, str, clingo.Symbol] | None:
    """A comparison of one guard, its variables bound, as (left value, operator, right value): clingo works out the
    arithmetic; None when a side is not a value."""
    atom = literal.node.atom
    if atom.ast_type != ast.ASTType.Comparison or len(atom.guards) != 1:
        return None
    found = re.fullmatch(r"(.*?) (<=|>=|!=|<|>|=) (.*)", literal.text)
    if not found:
        return None
    try:
        left, right = (clingo.parse_term(str(_Bind(bindings)(term))) for term in (atom.term, atom.guards[0].term))
    except (RuntimeError, ValueError):
        return None
    operator = found.group(2) if literal.node.sign != ast.Sign.Negation else NEGATED[found.group(2)]
    return left, operator, right


def _missed(left: str, needed: str, right: str, a: int, b: int, kind: str | None) -> str:
    """A comparison that fails, as a sentence that says by how far: "4,950 is 50 short of 5,000"."""
    gap = abs(a - b)
    if kind == DAY:
        far = f"{gap:,} day{'s' if gap != 1 else ''}"
        before, after = f"{far} before", f"{far} after"
    elif kind in (CLOCK, INSTANT, DURATION):
        far = duration(gap)
        before, after = (f"{far} earlier than", f"{far} later than") if kind != DURATION else \
            (f"{far} short of", f"{far} more than")
    else:
        before, after = f"{gap:,} short of", f"{gap:,} over"
    if needed in ("=", "!="):
        return f"{left} is not {right}" if needed == "=" else f"{left} is {right}, where it must differ"
    if a == b:
        return f"{left} equals {right}, not {'above' if needed == '>' else 'below'} it"
    said = f"{left} is {before if a < b else after} {right}"
    return said + {">": ", which it must exceed", "<": ", which it must be below"}.get(needed, "")


def _comparison_holds(literal: Literal, bindings: dict[str, clingo.Symbol]) -> bool | None:
    sides = _sides(literal, bindings)
    return None if sides is None else _COMPARE[sides[1]](sides[0], sides[2])


def _matches(atom: clingo.Symbol, wanted: clingo.Symbol) -> bool:
    return atom.name == wanted.name and len(atom.arguments) == len(wanted.arguments)


# Output predicates whose third argument names the conclusion, for why-not questions by name.
NAMED_PREDICATES = {o.predicate: o.arity for o in named_outputs()}
# The predicates whose last argument is the clause a conclusion cites.
CONCLUSION_SIGNATURES = {(o.predicate, o.arity) for o in OUTPUTS}
WHOLE_PREDICATES = {o.predicate: o.arity for o in whole_outputs()}


@cache
def known_names(ordinance: str) -> frozenset[str]:
    """Every name the ordinance's rules can give a conclusion: the conclusion kinds and predicates, the
    constants of its encoding and of the shared one (as clingo parses them: no keyword, comment or
    string), and the shared vocabulary's names, which rules take from the event. A name outside it is a typo, not a conclusion
    that does not hold."""
    from reasoner.law.vocabulary import vocabulary

    names: set[str] = {o.predicate for o in OUTPUTS} | {o.kind for o in OUTPUTS}
    for source in ("vocabulary", ordinance):
        names.update(rules_names(source))
    for section in vocabulary().values():
        if isinstance(section, dict):
            names.update(section)
    return frozenset(names)


def unknown_conclusion(conclusion: str, ordinances: Sequence[str]) -> str | None:
    """A message when no chosen ordinance can conclude anything by that name, with the closest names."""
    import difflib

    known = set().union(*(known_names(o) for o in ordinances))
    if conclusion in known:
        return None
    close = difflib.get_close_matches(conclusion, sorted(known), n=3)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    return f"no conclusion named {conclusion!r} in {', '.join(ordinances)}{hint}"


def kind_problem(conclusion: str, reports: Sequence[dict[str, Any]]) -> str | None:
    """A message when `conclusion` names a kind of conclusion (exempt, exemption, obligation, ...) rather than
    one conclusion, and none of that kind holds in `reports` (explain's answers): the names of that kind each
    ordinance has, to ask about one (an explanation of the kind lists those that hold)."""
    from reasoner.modes.catalog import catalog

    kinds = {o.kind for o in OUTPUTS if o.named and conclusion in (o.predicate, o.kind)}
    ordinances = [report["ordinance"] for report in reports]
    if not kinds or any(report["trees"] for report in reports) or \
            any(entry["name"] == conclusion for name in ordinances for entry in catalog(name)):
        return None
    listed = []
    for name in ordinances:
        entries = [e for e in catalog(name) if e["kind"] in kinds]
        listed.append(f"{name}: " + (", ".join(f"{e['name']} ({', '.join(e['clauses'])})" for e in entries)
                                     or "none"))
    event = reports[0]["event"] if reports else "the event"
    return (f"{conclusion!r} is a kind of conclusion, not one, and none of that kind holds for {event}; name one to "
            f"see why it does not hold: {'; '.join(listed)} (reasoner conclusions NAME lists every one)")


def explain(event: Event, ordinance: str, conclusion: str | None = None, readings: bool = False,
            full: bool = True) -> dict[str, Any]:
    """Derivation trees for one ordinance's conclusions about an event (all, or those named `conclusion`),
    and, when a named conclusion does not hold, why not; with `readings` (the explain command), the answers
    among them an alternative reading moves (an evaluation per alternative: the report and whatif go without).
    Without `full`, each run of steps about the schedule is marked `folded` (`fold_schedule`); every node stays."""
    result: dict[str, Any]
    if event.has_unknowns:
        result = explain_uncertain(event, ordinance, conclusion)
    else:
        explainer = Explainer(event, [ordinance], why_not=conclusion)
        atoms = explainer.conclusion_atoms(ordinance, conclusion)
        result = {"event": event.id, "ordinance": ordinance, "conclusion": conclusion,
                  "holds": bool(atoms), "trees": [explainer.why(a) for a in atoms], "why_not": []}
        if conclusion and not atoms:
            result["why_not"] = _why_not_named(explainer, ordinance, conclusion)
    if readings:  # over unknown facts too: a reading that makes a possible answer certain moves it
        from reasoner.modes.readings import rests_on

        # only when one does: an answer no reading moves is explained as before, byte for byte
        if resting := rests_on(event, ordinance, conclusion):
            result["rests_on_readings"] = resting
    if not full:
        fold_schedule(result, _kinds((ordinance,)))
    return result


# ---------------------------------------------------------------- the schedule in one sentence

def _about_the_schedule(node: dict[str, Any], kinds: dict[tuple[str, int, int], str]) -> bool:
    """Whether a step is the clock's arithmetic: one that cites no clause (a fact, a given or a rule of the shared
    vocabulary) and carries a time zone or a real-time instant (the sessions on the ordinance's clock)."""
    if node.get("clause") or node.get("kind") not in ("derived", "fact", "given"):
        return False
    atom = clingo.parse_term(node["atom"])
    arity = len(atom.arguments)
    return any(kinds.get((atom.name, arity, position)) in (ZONE, INSTANT) for position in range(arity))


def _steps(nodes: Iterable[dict[str, Any]]) -> set[str]:
    """The distinct steps (atoms) of some subtrees."""
    found: set[str] = set()
    stack = list(nodes)
    while stack:
        node = stack.pop()
        step = node.get("atom") or node["text"]  # a failed comparison is a step with no atom of its own
        if step not in found:
            found.add(step)
            stack.extend(node.get("children", []) + node.get("unless", []))
            stack.extend(a["explanation"] for a in node.get("attempts", []) if isinstance(a.get("explanation"), dict))
    return found


def _schedule_sentence(nodes: Sequence[dict[str, Any]]) -> str:
    """What the folded steps come to, in the words of their topmost rules (a given's or a fact's own words when
    no rule derives one)."""
    derived = [n for n in nodes if n.get("kind") == "derived" and n.get("because")]
    said = [n["because"].rstrip(".") for n in derived] or [n["text"] for n in nodes]
    said = [s[0].lower() + s[1:] if s[1:2].islower() else s for s in said]
    return "the schedule: " + "; ".join(dict.fromkeys(said))


def fold_schedule(result: dict[str, Any], kinds: dict[tuple[str, int, int], str]) -> None:
    """Mark, on each step whose children include steps about the schedule, those children as `folded`:
    `{"text": one sentence, "steps": how many distinct steps they hold, "children": their indices}`. The children
    stay (programs read every node); the text tree and the page show the sentence instead (`explain --full`,
    `full` in a web request: no marks, the whole tree)."""
    seen: set[int] = set()
    stack = list(result["trees"]) + list(result["why_not"])
    while stack:
        node = stack.pop()
        if id(node) in seen:  # a step is one object wherever the trees share it
            continue
        seen.add(id(node))
        children = node.get("children", [])
        indices = [i for i, child in enumerate(children) if _about_the_schedule(child, kinds)]
        if indices:
            folded = [children[i] for i in indices]
            node["folded"] = {"text": _schedule_sentence(folded), "steps": len(_steps(folded)), "children": indices}
        stack.extend(child for i, child in enumerate(children) if i not in indices)
        stack.extend(node.get("unless", []))
        stack.extend(a["explanation"] for a in node.get("attempts", []) if isinstance(a.get("explanation"), dict))


def _why_not_named(explainer: Explainer, ordinance: str, conclusion: str) -> list[dict[str, Any]]:
    """Why no conclusion by that name holds: each rule that could conclude it, and its first failed condition."""
    o, e = clingo.Function(ordinance), clingo.Number(1)
    if conclusion in WHOLE_PREDICATES:
        arity = WHOLE_PREDICATES[conclusion]
        return [explainer.why_not(conclusion, [o, e] + [None] * (arity - 2))]
    found = []
    for predicate, arity in NAMED_PREDICATES.items():
        pattern = [o, e, clingo.Function(conclusion)] + [None] * (arity - 3)
        answer = explainer.why_not(predicate, pattern, named=True)
        if answer["attempts"]:
            found.append(answer)
    return found


# ---------------------------------------------------------------- over unknown facts

def explain_uncertain(event: Event, ordinance: str, conclusion: str | None = None) -> dict[str, Any]:
    """Explanations over every completion of the event's unknown facts (reasoner/unknowns.py).

    The record rules join the completions' program, so a derivation step that holds in every completion is a
    cautious consequence. A conclusion that holds in every completion by the same steps gets the tree those
    steps make, every step certain. Any other conclusion that holds in some completion is shown in one where
    it holds (the answers that completion gives to the unknown facts are marked on the facts they settle),
    each step marked certain or possible, with `depends_on`: the unknown facts whose answers decide it and
    which answers make it hold. A conclusion that holds in no completion gets its why-not from what every
    completion shares (one completion's, where they differ)."""
    from reasoner.unknowns import Completions, decisive_answers

    chosen = (ordinance,)
    completions = Completions(event, chosen, records(chosen, conclusion) + _every_step_shown(chosen))
    result: dict[str, Any] = {"event": event.id, "ordinance": ordinance, "conclusion": conclusion, "holds": False,
                              "certainty": "impossible", "unknown": [u.path for u in completions.unknowns],
                              "trees": [], "why_not": []}
    answer = completions.both()
    if answer is None:
        result["inconsistent"] = True
        return result
    possible, certain = answer
    shared = Explainer(event, chosen, conclusion, symbols=certain)
    atoms = Explainer(event, chosen, symbols=possible).conclusion_atoms(ordinance, conclusion)
    answers = list(completions.answers()) if any(a not in certain for a in atoms) else []
    witnesses: list[Explainer] = []  # a completion where one conclusion holds often shows others
    for atom in atoms:
        tree = shared.why(atom) if atom in certain else None
        if tree is None or not _whole(tree, shared.derived):
            witness = next((w for w in witnesses if atom in w.atoms), None)
            if witness is None:
                witness = Explainer(event, chosen, conclusion, symbols=completions.program.witness([(atom, True)]) or [])
                witnesses.append(witness)
            tree = witness.why(atom)
        tree = _marked(tree, certain, completions)
        if atom not in certain:
            tree["depends_on"] = decisive_answers(atom.__eq__, answers)
        result["trees"].append(tree)
    if any(a in certain for a in atoms):
        result["holds"], result["certainty"] = True, "certain"
    elif atoms:
        result["holds"], result["certainty"] = None, "possible"
    elif conclusion:
        result["why_not"] = _why_not_named(shared, ordinance, conclusion)
        if not any(node["attempts"] for node in result["why_not"]):  # the completions fail it in different ways
            result["why_not"] = _why_not_named(Explainer(event, chosen, conclusion, symbols=completions.program.witness() or []),
                                               ordinance, conclusion)
    return result


def _whole(tree: dict[str, Any], derived: set[tuple[str, int]]) -> bool:
    """Whether every derived step of the tree has its derivation (over completions: one that every completion shares)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if node.get("kind") == "given":
            atom = clingo.parse_term(node["atom"])
            if (atom.name, len(atom.arguments)) in derived:
                return False
        stack.extend(node.get("children", []))
    return True


def _marked(tree: dict[str, Any], certain: set[clingo.Symbol], completions: Any) -> dict[str, Any]:
    """A copy of the tree with each step that holds marked certain or possible, and each fact an unknown's answer
    settles marked with that fact and answer."""
    copies: dict[int, dict[str, Any]] = {}

    def mark(node: dict[str, Any]) -> dict[str, Any]:
        if id(node) in copies:
            return copies[id(node)]
        copy = dict(node)
        copies[id(node)] = copy
        if node.get("holds"):
            atom = clingo.parse_term(node["atom"])
            copy["certainty"] = "certain" if atom in certain else "possible"
            if node.get("kind") == "fact" and (settled := completions.choice_of(atom)):
                copy["unknown"], copy["assumed"] = settled[0], settled[1]
        for key in ("children", "unless"):
            if key in node:
                copy[key] = [mark(child) for child in node[key]]
        return copy

    return mark(tree)
