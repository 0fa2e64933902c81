"""Atoms in the law's language, for explanations read by people.

The solver's atoms carry day numbers, minutes of the day and event numbers; a reader wants dates,
clock times and the event's id. What each argument is comes from reasoner/law/schema.py (an input's `day`
and `minute`, an output's `date`) and spreads through the rules: a variable bound where a rule reads a
day is a day, and so is the argument of any head it is put in. A param's value is a clock time when
its name says `_minute` (`late_hours_from_minute`): the encodings name their parameters after their unit.
A real-time instant (minutes since 1970 UTC, reasoner/events/clocks.py) reads as a local date-time in the zone its
atom names, and the difference of two instants as a duration ("13 hours 30 minutes").
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import date, datetime, timezone
from typing import Any

import clingo
from clingo import ast

from reasoner.events.clocks import zone as time_zone
from reasoner.law.rules import variable_nodes
from reasoner.law.schema import INPUT, LAW_FACTS, OUTPUT, PARAM, PARAM_FACT

DAY, CLOCK, EVENT, INSTANT, DURATION, ZONE = "date", "clock", "event", "instant", "duration", "zone"
YEAR = "year"  # a calendar year, written as a year is ({Y:year}: 2027, not 2,027)
# what a `%@` placeholder may be typed as: {SD:date}, {F:instant}, {M:duration}
FORMATS = (DAY, CLOCK, INSTANT, DURATION, YEAR)
# a name with its indefinite article: {K:article} is "an association", "a corporation"
ARTICLE = "article"


def clock(minute: int) -> str:
    """A minute of the day as a clock time: 60 is 1:00 a.m., 720 noon, 0 and 1440 midnight."""
    minute %= 1440
    if minute == 0:
        return "midnight"
    if minute == 720:
        return "noon"
    hour, rest = divmod(minute, 60)
    return f"{(hour - 1) % 12 + 1}:{rest:02d} {'a.m.' if hour < 12 else 'p.m.'}"


def day(number: int) -> str:
    try:
        return date.fromordinal(number).isoformat()
    except (ValueError, OverflowError):
        return f"{number:,}"


def instant(minutes: int, zone_name: str | None) -> str:
    """Minutes since 1970-01-01 00:00 UTC as a local date-time in the zone (UTC when none is named)."""
    try:
        moment = datetime.fromtimestamp(minutes * 60, tz=timezone.utc)
        local = moment.astimezone(time_zone(zone_name)) if zone_name else moment
    except (ValueError, OverflowError, OSError, KeyError):
        return f"{minutes:,}"
    return local.strftime("%Y-%m-%d %H:%M ") + (local.tzname() or zone_name or "UTC")


def duration(minutes: int) -> str:
    """Elapsed minutes as hours and minutes: 61 is "1 hour 1 minute", 45 "45 minutes"."""
    hours, rest = divmod(abs(minutes), 60)
    parts = ([f"{hours:,} hour{'s' if hours != 1 else ''}"] if hours else []) \
        + ([f"{rest} minute{'s' if rest != 1 else ''}"] if rest or not hours else [])
    return ("minus " if minutes < 0 else "") + " ".join(parts)


def article(noun: str) -> str:
    """The indefinite article before a noun phrase of the vocabulary's words, whose names each begin as spelt
    (no silent h, no "u" read as "you"): "an" before a vowel."""
    return "an" if noun[:1].lower() in "aeiou" else "a"


def words(name: str) -> str:
    return name.replace("_", " ")


def _seed() -> dict[tuple[str, int, int], str]:
    """The argument kinds the schema declares: (predicate, arity, index) -> date | clock | event | instant | zone."""
    kinds: dict[tuple[str, int, int], str] = {}
    by_role = {"day": DAY, "minute": CLOCK, "instant": INSTANT, "zone": ZONE}
    for item in INPUT.values():
        kinds[(item.predicate, item.arity, 0)] = EVENT
        for index, role in enumerate(item.arguments, start=1):
            if role in by_role:
                kinds[(item.predicate, item.arity, index)] = by_role[role]
    for predicate, roles in LAW_FACTS.items():
        for index, role in enumerate(roles):
            if role in ("day", "zone"):
                kinds[(predicate, len(roles), index)] = by_role[role]
    for output in OUTPUT.values():
        kinds[(output.predicate, output.arity, 1)] = EVENT
        position = output.position("date")
        if position is not None:
            kinds[(output.predicate, output.arity, position)] = DAY
    return kinds


def _atom_of(node: ast.AST) -> ast.AST | None:
    if node.ast_type == ast.ASTType.Literal and node.atom.ast_type == ast.ASTType.SymbolicAtom \
            and node.atom.symbol.ast_type == ast.ASTType.Function:
        return node.atom.symbol
    return None


def _variable_kinds(head: ast.AST | None, body: Sequence[ast.AST], kinds: dict) -> dict[str, str]:
    """{variable: kind} for one rule, from the arguments its atoms put the variables in."""
    found: dict[str, str] = {}
    bound_in_body: set[str] = set()  # variables an atom of the body puts a value in: its kind, or none, decides
    for node in body:
        atom = _atom_of(node)
        if atom is not None and node.sign == ast.Sign.NoSign:
            bound_in_body |= {a.name for a in atom.arguments if a.ast_type == ast.ASTType.Variable}
        elif node.ast_type == ast.ASTType.Literal and node.atom.ast_type == ast.ASTType.BodyAggregate:
            bound_in_body |= {v.name for v in variable_nodes(node)}
    for node in body:  # what the body binds decides
        _atom_kinds(_atom_of(node), kinds, found)
    for node in body:
        _computed_kinds(node, kinds, found)
    if head is not None and (atom := _atom_of(head)) is not None:
        _atom_kinds(atom, kinds, found, skip=bound_in_body)
    return found


def _atom_kinds(atom: ast.AST | None, kinds: dict, found: dict[str, str], skip: set[str] = frozenset()) -> None:
    if atom is None:
        return
    arguments = atom.arguments
    if atom.name == PARAM and len(arguments) == PARAM_FACT.arity:
        label, value = PARAM_FACT.argument(atom, "name"), PARAM_FACT.argument(atom, "value")
        if label.ast_type == ast.ASTType.SymbolicTerm and str(label.symbol).endswith("_minute") \
                and value.ast_type == ast.ASTType.Variable:
            found.setdefault(value.name, CLOCK)
    for index, argument in enumerate(arguments):
        kind = kinds.get((atom.name, len(arguments), index))
        if kind and argument.ast_type == ast.ASTType.Variable and argument.name not in skip:
            found.setdefault(argument.name, kind)


def _computed_kinds(node: ast.AST, kinds: dict, found: dict[str, str]) -> None:
    """Kinds a body computes: `M = T-F` of two instants is a duration; `K = SD..ED` has its bounds' kind;
    `M = #max { X : ... }` has X's kind."""
    if node.ast_type != ast.ASTType.Literal or node.sign != ast.Sign.NoSign:
        return
    atom = node.atom
    if atom.ast_type == ast.ASTType.Comparison and len(atom.guards) == 1 \
            and atom.guards[0].comparison == ast.ComparisonOperator.Equal:
        for named, term in ((atom.term, atom.guards[0].term), (atom.guards[0].term, atom.term)):
            if named.ast_type == ast.ASTType.Variable and term.ast_type == ast.ASTType.BinaryOperation \
                    and term.operator_type == ast.BinaryOperator.Minus \
                    and all(side.ast_type == ast.ASTType.Variable and found.get(side.name) == INSTANT
                            for side in (term.left, term.right)):
                found.setdefault(named.name, DURATION)
            elif named.ast_type == ast.ASTType.Variable and term.ast_type == ast.ASTType.BinaryOperation \
                    and term.operator_type in (ast.BinaryOperator.Minus, ast.BinaryOperator.Plus) \
                    and term.left.ast_type == ast.ASTType.Variable and found.get(term.left.name) in (DAY, INSTANT) \
                    and term.right.ast_type == ast.ASTType.SymbolicTerm:
                found.setdefault(named.name, found[term.left.name])  # `N = D-1`: a day moved by days is a day
            elif named.ast_type == ast.ASTType.Variable and term.ast_type == ast.ASTType.Interval:
                # `K = SD..ED` ranges over values of its bounds' kind (days between two days)
                bounds = {found.get(side.name) for side in (term.left, term.right) if side.ast_type == ast.ASTType.Variable}
                if len(bounds) == 1 and None not in bounds:
                    found.setdefault(named.name, bounds.pop())
    elif atom.ast_type == ast.ASTType.BodyAggregate and atom.left_guard is not None \
            and atom.left_guard.term.ast_type == ast.ASTType.Variable \
            and atom.function in (ast.AggregateFunction.Max, ast.AggregateFunction.Min):
        for element in atom.elements:
            if element.terms and element.terms[0].ast_type == ast.ASTType.Variable:
                inner = _variable_kinds(None, list(element.condition), kinds)
                if element.terms[0].name in inner:
                    found.setdefault(atom.left_guard.term.name, inner[element.terms[0].name])
                    return


def argument_kinds(rules: Iterable[Any]) -> dict[tuple[str, int, int], str]:
    """Every (predicate, arity, index) that holds a day, a clock time or an event, spread through the
    rules' heads until nothing changes. `rules` have `.head` (an ast Literal) and `.body` (with `.node`)."""
    kinds = _seed()
    rules = list(rules)
    changed = True
    while changed:
        changed = False
        for rule in rules:
            head = _atom_of(rule.head)
            if head is None:
                continue
            variables = _variable_kinds(None, [literal.node for literal in rule.body], kinds)
            for index, argument in enumerate(head.arguments):
                key = (head.name, len(head.arguments), index)
                if key not in kinds and argument.ast_type == ast.ASTType.Variable and argument.name in variables:
                    kinds[key] = variables[argument.name]
                    changed = True
    return kinds


def rule_variable_kinds(rule: Any, kinds: dict) -> dict[str, str]:
    return _variable_kinds(rule.head, [literal.node for literal in rule.body], kinds)


class Wording:
    """Describes atoms of one event's explanation: the event by its id, days as dates, minutes as clock times."""

    def __init__(self, event_id: str, kinds: dict[tuple[str, int, int], str]):
        self.event_id = event_id
        self.kinds = kinds

    # -------------------------------------------------------------- values

    def value(self, symbol: clingo.Symbol | None, kind: str | None = None, zone: str | None = None) -> str:
        """`zone`: the time zone an instant is read in (the zone its atom or rule names)."""
        if symbol is None:
            return "any"
        if symbol.type == clingo.SymbolType.Number:
            if kind == DAY:
                return day(symbol.number)
            if kind == CLOCK:
                return clock(symbol.number)
            if kind == INSTANT:
                return instant(symbol.number, zone)
            if kind == DURATION:
                return duration(symbol.number)
            if kind == EVENT:
                return self.event_id
            if kind == YEAR:
                return str(symbol.number)
            return f"{symbol.number:,}"
        if symbol.type == clingo.SymbolType.String:
            return symbol.string
        if symbol.type == clingo.SymbolType.Function and symbol.arguments:
            return ", ".join(self.value(a) for a in symbol.arguments)
        return words(str(symbol))

    def _arguments(self, name: str, arguments: Sequence[clingo.Symbol | None]) -> list[str]:
        kinds = [self.kinds.get((name, len(arguments), i)) for i in range(len(arguments))]
        zone = next((a.string for a, k in zip(arguments, kinds)
                     if k == ZONE and a is not None and a.type == clingo.SymbolType.String), None)
        return [self.value(a, k, zone) for a, k in zip(arguments, kinds)]

    # -------------------------------------------------------------- atoms

    def atom(self, atom: clingo.Symbol) -> str:
        """A holding atom as a phrase."""
        return self.pattern(atom.name, list(atom.arguments))

    def pattern(self, name: str, arguments: Sequence[clingo.Symbol | None]) -> str:
        """An atom, some arguments possibly open (None), as a phrase."""
        shown = self._arguments(name, arguments)
        if name == PARAM and len(arguments) == PARAM_FACT.arity:
            label, value = PARAM_FACT.index("name"), PARAM_FACT.index("value")
            return f"{words(shown[label]).removesuffix(' minute')}: {self._parameter(arguments[label], arguments[value])}"
        if name in OUTPUT and len(arguments) == OUTPUT[name].arity:
            return self._conclusion(name, arguments, shown)
        if name in INPUT and len(arguments) == INPUT[name].arity:
            return self._fact(name, arguments, shown)
        return self._helper(name, arguments, shown)

    def _parameter(self, name: clingo.Symbol | None, value: clingo.Symbol | None) -> str:
        if value is None or value.type != clingo.SymbolType.Number:
            return self.value(value)
        label = str(name) if name is not None else ""
        if label.endswith("_minute"):
            return clock(value.number)
        if label.endswith("_usd") or "_usd_" in label:
            return f"${value.number:,}"
        return f"{value.number:,}"

    def _conclusion(self, name: str, arguments: Sequence[clingo.Symbol | None], shown: list[str]) -> str:
        output = OUTPUT[name]
        role = {r: shown[output.index(r)] for r in output.roles}
        given = {r: arguments[output.index(r)] is not None for r in output.roles}
        subject = role.get("name") if given.get("name") else None
        if name == "regulated":
            return "the ordinance regulates the event"
        if name == "permit_required":
            return "a permit or license is required"
        if name == "permits":
            return f"{role['value']} permit(s) or license(s)" if given["value"] else "a number of permits"
        if name in ("quantity", "shortfall"):  # an amount in parts of its unit (vocabulary `parts`) as its decimal
            item = arguments[output.index("name")]
            for key in ("value", "required", "provided"):
                if key in role and given[key]:
                    role[key] = _in_parts(item, arguments[output.index(key)], role[key])
        if name == "quantity":
            # a count is its number ("toilets: 12"); another unit is said ("bond: 10,000 usd")
            unit = "" if given["unit"] and str(arguments[output.index("unit")]) == "count" else \
                f" {words(role['unit'])}"
            amount = f"{role['value']}{unit}" if given["value"] and given["unit"] else "an amount"
            return f"{subject or 'an obligation'}: {amount}"
        if name == "shortfall":
            amounts = f" ({role['required']} required, {role['provided']} provided)" if given["required"] else ""
            return f"a shortfall in {subject or 'an obligation'}{amounts}"
        if name == "deadline":
            when = f": {role['date']}" if given["date"] else ""
            return f"deadline for {subject or 'a step'}{when}"
        if name in ("late", "on_time"):
            days = f" by {role['value']} day(s)" if given["value"] else ""
            return f"{subject or 'the filing'} {'late' if name == 'late' else 'on time'}{days}"
        if name == "alternative":
            return f"{subject or 'an obligation'} may be met by {role['other'] if given['other'] else 'another provision'}"
        if name == "penalty":
            return f"penalty: {subject or 'any'}"
        kind = {"exempt": "exemption", "note": "interpretation"}.get(name, words(output.kind))
        modality = f" ({role['modality']})" if given.get("modality") else ""
        return f"{kind}{modality}: {subject}" if subject else f"any {kind}"

    def _fact(self, name: str, arguments: Sequence[clingo.Symbol | None], shown: list[str]) -> str:
        rest = shown[1:]
        templates = {
            "event": "the event {e}",
            "attendance": "{0} people at the peak",
            "attendance_female": "{0} females at the peak",
            "attendance_male": "{0} males at the peak",
            "attendance_board_finding": "the board finds {0} people",
            "max_tickets": "at most {0} tickets",
            "starts": "it starts on {0} at {1}",
            "session": "a session from {0} at {1} to {2} at {3}",
            "session_clock": "the session of {0} from {1} in real time: {5} to {6} ({4})",
            "session_attendance": "{2} people at the peak of the session of {0} from {1}",
            "ends": "it ends on {0} at {1}",
            "darkness": "it runs during darkness",
            "no_darkness": "it does not run during darkness",
            "sun_darkness": "by the sun at {0}'s place on its dates, its hours are {1}",
            "sun_down": "by the sun at {0}'s place on its dates, from sunset to sunrise, its hours are {1}",
            "provided": "the organizer provides {1} of {0}",
            "filed": "the application is filed on {0}",
            "hearing_date": "the public hearing is held on {0}",
            "application_filed": "an application is filed",
            "locations": "{0} location(s)",
            "seating_capacity": "a seating capacity of {0}",
            "site_capacity": "a site capacity of {0}",
            "county_population": "the county has {0} inhabitants",
            "applicant_age": "the applicant is {0} years old",
            "event_kind": "the event is {a0} {0}",
            "site_kind": "the site is {0}",
            "site": "the site: {0}",
            "organizer_kind": "the organizer is {a0} {0}",
            "sponsor": "the sponsor: {0}",
            "site_interest": "the organizer's interest in the site: {0}",
            "feature": "the event: {0}",
            "special_service": "special service: {0}",
            "finding": "finding: {0}",
            "imposed": "imposed by the authority: {0}",
            "application_content": "the application contains {0}",
            "approval": "approval: {0}",
            "person_in_charge_age": "the person in charge is {0} years old",
        }
        template = templates.get(name)
        if template is None:
            return f"{words(name)}: {', '.join(rest)}"
        if name == "provided" and len(arguments) == INPUT[name].arity:  # an amount kept in parts
            amount = INPUT[name].index("number")
            if arguments[amount] is not None:
                rest[amount - 1] = _in_parts(arguments[INPUT[name].index("obligations")], arguments[amount], rest[amount - 1])
        return template.format(*rest, e=self.event_id, a0=article(rest[0]) if rest else "a")

    def noun(self, name: str) -> str:
        """What an argument of a fact is called, for a value the event does not state."""
        nouns = {"attendance": "the peak attendance", "seating_capacity": "the seating capacity",
                 "site_capacity": "the site's capacity", "provided": "the amount provided", "filed": "the filing date",
                 "starts": "the start", "ends": "the end", "max_tickets": "the tickets sold"}
        if name in nouns:
            return nouns[name]
        return "the " + (words(name.split("_", 1)[1]) if name.split("_", 1)[0] in _ordinance_prefixes() else words(name))

    def _helper(self, name: str, arguments: Sequence[clingo.Symbol | None], shown: list[str]) -> str:
        """A predicate of one encoding (trempealeau_large_assembly) or a shared derived fact, by its words."""
        if name in HELPER_WORDS:
            return HELPER_WORDS[name]
        label = words(name.split("_", 1)[1] if name.split("_", 1)[0] in _ordinance_prefixes() and "_" in name else name)
        kept = [s for i, s in enumerate(shown) if self.kinds.get((name, len(arguments), i)) != EVENT
                and arguments[i] is not None and str(arguments[i]) not in _ordinance_prefixes()]
        return f"{label}: {', '.join(kept)}" if kept else label


# Shared derived facts whose name does not read as words.
HELPER_WORDS = {"exempt_any": "an exemption applies"}


def _ordinance_prefixes() -> frozenset[str]:
    from reasoner.law.locator import encoded_ordinances

    return frozenset(encoded_ordinances())


def zone_of(bindings: dict[str, clingo.Symbol], kinds: dict[str, str]) -> str | None:
    """The time zone a rule's instants are read in: the value of its variable that holds a zone."""
    return next((value.string for name, value in bindings.items()
                 if kinds.get(name) == ZONE and value.type == clingo.SymbolType.String), None)


_PLACEHOLDER = re.compile(r"\{([A-Z][A-Za-z0-9_]*)(?::(\w+))?\}")
# "minute {F}" and "minutes {F} to {T} of the day": once the minutes are clock times, the words around them go.
_MINUTE_WORDS = re.compile(r"\bminutes? (\{[A-Z]\w*\})")
_OF_THE_DAY = re.compile(r"(\{[A-Z]\w*\}) of (?:the|a) day\b")
# "{M} minutes": once the minutes are a duration in hours and minutes, the unit goes.
_MINUTES_AFTER = re.compile(r"(\{[A-Z]\w*\}) minutes\b")


def sentence(label: str | None, bindings: dict[str, clingo.Symbol], kinds: dict[str, str], wording: Wording,
             unbound: dict[str, str | clingo.Symbol] | None = None) -> str | None:
    """A `%@` sentence with its placeholders filled: a day as a date, a minute as a clock time. A value
    not bound (a why-not stops before it) is the one the answer holds, or is named by what would bind it
    (`unbound`), never left a hole."""
    if not label:
        return None

    def clocked(match: re.Match) -> str:
        return match.group(1) if kinds.get(match.group(1)[1:-1]) == CLOCK else match.group(0)

    label = _OF_THE_DAY.sub(lambda m: m.group(1) if kinds.get(m.group(1)[1:-1]) == CLOCK else m.group(0),
                            _MINUTE_WORDS.sub(clocked, label))
    label = _MINUTES_AFTER.sub(lambda m: m.group(1) if kinds.get(m.group(1)[1:-1]) == DURATION else m.group(0), label)
    zone = zone_of(bindings, kinds)

    def fill(match: re.Match) -> str:
        name, fmt = match.group(1), match.group(2)
        value = bindings.get(name)
        if value is None:
            value = (unbound or {}).get(name, "a value not known here")
            if isinstance(value, str):
                return value
        shown = wording.value(value, fmt if fmt in FORMATS else kinds.get(name), zone)
        if name in ("P", "Q") and "Name" in bindings:  # the shared shortfall rules: an amount kept in parts
            return _in_parts(bindings["Name"], value, shown)
        return f"{article(shown)} {shown}" if fmt == ARTICLE else shown

    return re.sub(r"([ap]\.m\.)\.", r"\1", _PLACEHOLDER.sub(fill, label))


def _in_parts(item: clingo.Symbol | None, amount: clingo.Symbol | None, shown: str) -> str:
    """An amount the encodings state in parts of its unit (vocabulary `parts: 2`, halves), as its exact decimal."""
    if item is None or amount is None or amount.type != clingo.SymbolType.Number \
            or item.type != clingo.SymbolType.Function:
        return shown
    from decimal import Decimal

    from reasoner.law.vocabulary import vocabulary

    parts = vocabulary()["obligations"].get(item.name, {}).get("parts", 1)
    return shown if parts == 1 else f"{Decimal(amount.number) / parts:,}"
