"""The predicate schema: every input and output predicate of encodings/vocabulary.lp, declared once.

The atom writer, the answer reader, explain, whatif, sweep, check and the unknown-fact reasoning
derive their tables from these declarations. An output predicate's arguments after (Ordinance, Event)
each have a role:

  name      what the conclusion is about (an obligation, an exemption, a ground ...)
  value     an amount; `date` a day number shown as an ISO date
  unit      a unit the rule states (quantity, penalty)
  modality  shall | may
  other     the provision that satisfies an obligation instead (alternative)
  min, max, required, provided   the amounts of penalties and shortfalls
  holds     yes | no: whether a condition of the ordinance's reach holds (reason)
  actual, stated  the event's number and the ordinance's that a reason compares (none: it compares none)
  clause    the clause id, always last

An input predicate's arguments after Event are `number`, `day`, `minute`, `zone` (an ordinance's time zone,
a string), `instant` (a real-time instant: minutes since 1970-01-01 00:00 UTC, reasoner/events/clocks.py; shown as a
local date-time in the zone beside it), `ordinance` (an ordinance's name), `darkness_state` (dark, light or
unsure: reasoner/events/sun.py), or the vocabulary section (encodings/vocabulary.yaml) whose names it takes.
Rules spread these roles to what they derive (reasoner/modes/wording.py); the difference of two instants is a
duration in minutes.

An atom's arguments are read by role, never by position: `OUTPUT["note"].value(atom, "clause")`, for an atom of the
answer or an atom term of a rule (`argument` gives the argument itself). An output's first two roles are `ordinance`
and `event`; an input's first is `event`. Only the batch's fast reader (reasoner/conclusions.py) reads by position.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import clingo
from clingo import ast


class RoleError(LookupError):
    """A role a predicate's arguments do not have, or have more than once (session's `day`)."""


class _Roles:
    """Typed access to the arguments of an atom by the roles the schema declares for them."""

    predicate: str

    @property
    def signature(self) -> tuple[str, ...]:
        """The role of every argument, in order."""
        raise NotImplementedError

    @cached_property
    def _indices(self) -> dict[str, int]:
        signature = self.signature
        return {role: index for index, role in enumerate(signature) if signature.count(role) == 1}

    def index(self, role: str) -> int:
        """The argument index of a role; RoleError for a role the predicate has not, or has more than once."""
        found = self._indices.get(role)
        if found is None:
            how = "more than one argument" if role in self.signature else "no argument"
            raise RoleError(f"{self.predicate}/{len(self.signature)} has {how} {role!r}; "
                            f"its arguments are ({', '.join(self.signature)})")
        return found

    def argument(self, atom: Any, role: str) -> Any:
        """The argument of `atom` in `role`: a clingo symbol of an answer, or a term of a rule's atom
        (clingo.ast); ValueError for an atom of another predicate or arity."""
        arguments = atom.arguments
        if atom.name != self.predicate or len(arguments) != len(self.signature):
            raise ValueError(f"{atom} is no {self.predicate}/{len(self.signature)} atom")
        return arguments[self.index(role)]

    def value(self, atom: Any, role: str) -> Any:
        """The argument in `role` as a Python value: a number an int, a string a str, a constant its name (else
        its text); of a rule's atom, the value of a constant term, None for a variable or an expression."""
        term = self.argument(atom, role)
        if not isinstance(term, clingo.Symbol):
            if term.ast_type != ast.ASTType.SymbolicTerm:
                return None
            term = term.symbol
        if term.type == clingo.SymbolType.Number:
            return term.number
        if term.type == clingo.SymbolType.String:
            return term.string
        return term.name if term.type == clingo.SymbolType.Function and not term.arguments and term.positive \
            else str(term)


@dataclass(frozen=True)
class Input(_Roles):
    """A fact about an event (written by reasoner/events/atoms.py)."""

    predicate: str
    arguments: tuple[str, ...]          # after Event
    unknown: str | None = None          # the event-file path under which `unknown:` may leave it open
    shape: str = "fact"                 # number | set (one atom per name) | one (one name of a section) | fact

    @property
    def arity(self) -> int:
        return 1 + len(self.arguments)

    @property
    def signature(self) -> tuple[str, ...]:
        return ("event", *self.arguments)


@dataclass(frozen=True)
class Output(_Roles):
    """A conclusion predicate: its kind in `evaluate`'s records and the roles of its arguments."""

    predicate: str
    kind: str
    roles: tuple[str, ...]              # after (Ordinance, Event)
    unit: str | None = None             # a fixed unit ("count", "date", "days"); else the obligation's own
    folds_into: str | None = None       # quantity and alternative become fields of their obligation
    fixed: dict[str, str] = field(default_factory=dict)   # roles the predicate does not carry, with their value

    @property
    def arity(self) -> int:
        return 2 + len(self.roles)

    @property
    def signature(self) -> tuple[str, ...]:
        return ("ordinance", "event", *self.roles)

    @property
    def named(self) -> bool:
        """Whether the third argument names the conclusion (obligation(O,E,toilets,...)); else the
        predicate itself is the conclusion (permit_required(O,E,C))."""
        return bool(self.roles) and self.roles[0] == "name"

    def position(self, role: str) -> int | None:
        """The argument index of a role (counting Ordinance and Event), None if the predicate has none."""
        return 2 + self.roles.index(role) if role in self.roles else None


INPUTS: tuple[Input, ...] = (
    Input("event", ()),
    Input("attendance", ("number",), "attendance.expected_max", "number"),
    Input("attendance_total", ("number",), "attendance.total", "number"),
    Input("attendance_average", ("number",), "attendance.average", "number"),
    Input("attendance_overnight", ("number",), "attendance.overnight", "number"),
    Input("attendance_female", ("number",)),
    Input("attendance_male", ("number",)),
    Input("attendance_board_finding", ("number",)),
    Input("max_tickets", ("number",)),
    Input("session", ("day", "minute", "day", "minute")),
    Input("session_attendance", ("day", "minute", "number")),
    Input("session_clock", ("day", "minute", "day", "minute", "zone", "instant", "instant")),
    Input("darkness", (), "schedule.darkness"),
    Input("no_darkness", (), "schedule.darkness"),
    Input("sun_darkness", ("ordinance", "darkness_state")),
    Input("sun_down", ("ordinance", "darkness_state")),
    Input("event_kind", ("event_kinds",), "kinds", "set"),
    Input("site_kind", ("site_kinds",), "site.kind", "one"),
    Input("locations", ("number",)),
    Input("seating_capacity", ("number",), "site.seating_capacity", "number"),
    Input("site_capacity", ("number",)),
    Input("sleeping_capacity", ("number",)),
    Input("county_population", ("number",)),
    Input("site", ("site_flags",), "site.flags", "set"),
    Input("organizer_kind", ("organizer_kinds",), "organizer.kind", "one"),
    Input("sponsor", ("sponsor_kinds",), "organizer.sponsor", "one"),
    Input("site_interest", ("site_interests",), "organizer.site_interest", "one"),
    Input("applicant_age", ("number",), "organizer.applicant_age", "number"),
    Input("person_in_charge_age", ("number",), "organizer.person_in_charge_age", "number"),
    Input("feature", ("event_flags",), "flags", "set"),
    Input("special_service", ("special_services",), "special_services", "set"),
    Input("finding", ("findings",), "findings", "set"),
    Input("imposed", ("obligations",)),
    Input("provided", ("obligations", "number")),
    Input("application_filed", ()),
    Input("filed", ("day",)),
    Input("hearing_date", ("day",)),
    Input("application_content", ("application_items",), "application.contents", "set"),
    Input("approval", ("approvals",), "approvals", "set"),
    Input("held_annually_since", ("number",)),
    Input("as_of", ("day",)),
    Input("law_year", ("number",)),
)

# In the order conclusions are listed in a record (folded predicates right after their obligation).
OUTPUTS: tuple[Output, ...] = (
    Output("reason", "reason", ("name", "holds", "actual", "stated", "clause")),
    Output("regulated", "regulated", ("clause",)),
    Output("exempt", "exemption", ("name", "clause")),
    Output("permit_required", "permit_required", ("clause",)),
    Output("permits", "permits", ("value", "clause"), unit="count"),
    Output("obligation", "obligation", ("name", "modality", "clause")),
    Output("quantity", "obligation", ("name", "value", "unit", "clause"), folds_into="obligation"),
    Output("alternative", "obligation", ("name", "other", "value", "clause"), folds_into="obligation"),
    Output("deadline", "deadline", ("name", "date", "clause"), unit="date"),
    Output("late", "late", ("name", "value", "clause"), unit="days"),
    Output("on_time", "on_time", ("name", "value", "clause"), unit="days"),
    Output("restriction", "restriction", ("name", "clause")),
    Output("application_requirement", "application_requirement", ("name", "clause")),
    Output("application_missing", "application_missing", ("name", "clause")),
    Output("signers", "signers", ("name", "clause")),
    Output("procedure", "procedure", ("name", "modality", "clause")),
    Output("denial_ground", "denial_ground", ("name", "modality", "clause")),
    Output("revocation_ground", "revocation_ground", ("name", "modality", "clause")),
    Output("penalty", "penalty", ("name", "modality", "min", "max", "unit", "clause")),
    Output("shortfall", "shortfall", ("name", "required", "provided", "clause")),
    Output("note", "interpretation", ("name", "clause")),
)

@dataclass(frozen=True)
class Fact(_Roles):
    """Any other atom whose arguments are read by role: a param, a fact about the law, a fact a mode derives."""

    predicate: str
    roles: tuple[str, ...]

    @property
    def arity(self) -> int:
        return len(self.roles)

    @property
    def signature(self) -> tuple[str, ...]:
        return self.roles


# Input roles that are no vocabulary section.
PLAIN_ROLES = ("number", "day", "minute", "zone", "instant", "ordinance", "darkness_state")

# Facts about the ordinances themselves, which the program layer adds from their registries (not per event):
# predicate -> the roles of its arguments.
LAW_FACTS: dict[str, tuple[str, ...]] = {
    "time_zone": ("ordinance", "zone"),
    "law_version": ("ordinance", "version", "day", "day"),
    # readings of an interpretation that chooses (registry `reading:` and `alternatives:`; encodings/vocabulary.lp)
    "reading_default": ("ordinance", "interpretation", "reading"),
    "reading_alternative": ("ordinance", "interpretation", "reading"),
    "chosen_reading": ("ordinance", "interpretation", "reading"),
}

INPUT = {item.predicate: item for item in INPUTS}
OUTPUT = {item.predicate: item for item in OUTPUTS}

# The kinds of conclusion in the order a record lists them.
KIND_ORDER: tuple[str, ...] = tuple(dict.fromkeys(item.kind for item in OUTPUTS))

# Shown atoms that are no conclusions: the numbers an ordinance states, param(Ordinance, Name, Value, Clause).
PARAM = "param"
PARAM_FACT = Fact(PARAM, ("ordinance", "name", "value", "clause"))

# Every shown atom of the encodings (conclusions and params), by (predicate, arity).
SHOWN = {(item.predicate, item.arity): item for item in (*OUTPUTS, PARAM_FACT)}


def named_outputs() -> tuple[Output, ...]:
    """Outputs whose third argument names the conclusion (not the folded quantity and alternative)."""
    return tuple(o for o in OUTPUTS if o.named and o.folds_into is None)


def whole_outputs() -> tuple[Output, ...]:
    """Outputs that are a conclusion by themselves (permit_required, regulated, permits)."""
    return tuple(o for o in OUTPUTS if not o.named)


def value_positions(output: Output) -> tuple[int, ...]:
    """Indices, after (Ordinance, Event), of the amounts an output carries (a sweep compares them)."""
    return tuple(i for i, role in enumerate(output.roles) if role in ("value", "date", "min", "max", "required", "provided"))


def enumerated_arguments() -> dict[tuple[str, int, int], str]:
    """{(predicate, arity, argument index): vocabulary section} for every input argument and every output
    argument that must be a vocabulary name (obligations and application items join across ordinances)."""
    found = {}
    for item in INPUTS:
        for index, role in enumerate(item.arguments, start=1):
            if role not in PLAIN_ROLES:
                found[(item.predicate, item.arity, index)] = role
    for output in OUTPUTS:
        section = ("application_items" if output.predicate.startswith("application_")
                   else "obligations" if output.kind == "obligation" or output.predicate == "shortfall"
                   else "reasons" if output.kind == "reason" else None)
        if section:
            for role in ("name", "other"):
                position = output.position(role)
                if position is not None:
                    found[(output.predicate, output.arity, position)] = section
    return found


def unknown_inputs(shape: str) -> dict[str, Input]:
    """{event-file path: input} for the facts `unknown:` may leave open, of one shape (set, one, number)."""
    return {item.unknown: item for item in INPUTS if item.unknown and item.shape == shape}
