"""Reasoning over unknown facts: certain and possible conclusions, and the questions that settle them.

Each unknown fact becomes a choice (a flag: `{feature(1,alcohol_sold)}.`; a value of an enumeration or
a number: `1 {site_kind(1,open_land); ...} 1.`), so the answer sets of the program are exactly the
completions of the facts. Clingo's cautious consequences (true in every answer set) are the certain
conclusions and its brave consequences (true in some) the possible ones: no loop over guesses.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from itertools import groupby
from typing import Any

import clingo
from clingo import ast

from reasoner.events.atoms import symbol_of, session_facts, sun_facts
from reasoner.events.clocks import exists_once
from reasoner.conclusions import IN_FORCE, MAY_HAVE_STARTED, merge_items, read_atom, versions_from_symbols
from reasoner.events.model import Event, Range
from reasoner.events.rules import UNKNOWN_ENUMS
from reasoner.points import end_points, number_points
from reasoner.program import Program, readings_in_force
from reasoner.law.reasons import reason_text
from reasoner.law.schema import OUTPUT, Fact, Output, unknown_inputs
from reasoner.events.sun import SUNSET_TO_SUNRISE, end_minutes, readings
from reasoner.law.ordinances import record_heading
from reasoner.law.vocabulary import names

# Ranges up to this many values are enumerated whole. Wider ones are reasoned at their ends and at
# every point where a conclusion can change: each stated number (param) of the chosen ordinances and
# its neighbours, and the points where a rate or margin applied to a stated amount (seating capacity,
# a provided quantity) crosses it. Between those points every conclusion is constant and every
# quantity grows with the number, so the ends of each piece give exact ranges.
EXACT_RANGE_LIMIT = 201

SET_ATOMS = {path: item.predicate for path, item in unknown_inputs("set").items()}
ENUM_ATOMS = {path: item.predicate for path, item in unknown_inputs("one").items()}
NUMBER_ATOMS = {path: item.predicate for path, item in unknown_inputs("number").items()}

# What the `choices` part of reasoner/modes.lp shows of the conclusions, whatever their numbers: a reason's outcome,
# a shortfall, whether the event is exempt.
OUTCOME = Fact("_outcome", ("ordinance", "event", "name", "holds", "clause"))
FALLS_SHORT = Fact("_falls_short", ("ordinance", "event", "name", "clause"))
EXEMPT = Fact("_exempt", ("ordinance", "event"))


@dataclass
class Unknown:
    """One unknown fact: its path, and each possible value with the atom that makes it so."""

    path: str
    values: list[tuple[Any, clingo.Symbol | None]]   # (value, atom); None atom for "no" of a flag
    flag_atom: clingo.Symbol | None = None           # for yes/no facts
    sampled: bool = False
    ordered: bool = False                            # values in order (numbers, ends): answers read as ranges
    brings: list[clingo.Symbol] = field(default_factory=list)   # facts that come with an alternative (modes.lp)

    def choice_facts(self) -> list[clingo.Symbol]:
        """The fact as a choice (modes.lp, part `choices`): open, or exactly one of its alternatives."""
        if self.flag_atom is not None:
            return [clingo.Function("_open", [self.flag_atom])]
        group = clingo.String(self.path)
        return [clingo.Function("_alternative", [group, atom]) for _, atom in self.values] + self.brings

    def assume(self, value: Any) -> list[tuple[clingo.Symbol, bool]]:
        if self.flag_atom is not None:
            return [(self.flag_atom, bool(value))]
        return [(atom, True) for v, atom in self.values if v == value]


def candidates(value: Range, event: Event, ordinances: tuple[str, ...]) -> tuple[list[int], bool]:
    """The values a range is reasoned over, and whether that is a sample rather than every value."""
    if value.max - value.min + 1 <= EXACT_RANGE_LIMIT:
        return list(range(value.min, value.max + 1)), False
    people = event.attendance
    # Every stated amount a param may be added to, multiplied with or compared against (a site's capacity
    # plus a margin, a split of the peak, a provision against a rate).
    known = (event.site.seating_capacity, event.site.capacity, event.site.sleeping_capacity, people.female, people.male, people.board_finding,
             people.max_tickets, *event.provisions.values())
    points = {value.min, value.max} | number_points(ordinances, known)
    return sorted(v for v in points if value.min <= v <= value.max), True


def unknowns_of(event: Event, index: int, ordinances: tuple[str, ...]) -> list[Unknown]:
    e = clingo.Number(index)
    found: list[Unknown] = []
    for path in sorted(event.unknown):  # the output lists them sorted: reordering the input changes no byte
        if path == "schedule.darkness":
            found.append(Unknown(path, [(True, clingo.Function("darkness", [e])), (False, clingo.Function("no_darkness", [e]))]))
        elif path in ENUM_ATOMS:
            section = UNKNOWN_ENUMS[path]
            found.append(Unknown(path, [(v, clingo.Function(ENUM_ATOMS[path], [e, clingo.Function(v)])) for v in names(section)]))
        else:
            prefix, _, name = path.rpartition(".")
            atom = clingo.Function(SET_ATOMS[prefix], [e, clingo.Function(name)])
            found.append(Unknown(path, [(True, atom), (False, None)], flag_atom=atom))
    numbers = {"attendance.expected_max": event.attendance.expected_max, "attendance.total": event.attendance.total,
               "attendance.average": event.attendance.average, "attendance.overnight": event.attendance.overnight,
               "site.seating_capacity": event.site.seating_capacity,
               "organizer.applicant_age": event.organizer.applicant_age,
               "organizer.person_in_charge_age": event.organizer.person_in_charge_age}
    people = event.attendance
    stated_split = (people.female or 0) + (people.male or 0)
    for path, value in numbers.items():
        if isinstance(value, Range):
            sessions = [s.expected_max for s in event.schedule.runs]
            if path == "attendance.expected_max" and None not in sessions:  # the event's peak is its largest session's
                value = Range(min=max(sessions), max=max(sessions))
            if path == "attendance.expected_max" and stated_split > value.min:
                # A peak below the females and males stated is no possible completion (the model refuses a split
                # above the range's maximum, so some values remain).
                value = Range(min=stated_split, max=value.max)
            peak = people.expected_max.min if isinstance(people.expected_max, Range) else people.expected_max
            if path == "attendance.total" and peak > value.min:  # the persons over the event include the peak
                value = Range(min=peak, max=value.max)
            if path == "attendance.average" and value.max > people.peak_at_most:  # an average never exceeds the peak
                value = Range(min=value.min, max=people.peak_at_most)
            if path == "attendance.overnight":  # within the peak, and some when the flags say some stay
                low = 1 if {"overnight_stay", "camping"} & set(event.flags) else 0
                value = Range(min=max(value.min, low), max=min(value.max, people.peak_at_most))
            values, sampled = candidates(value, event, ordinances)
            found.append(Unknown(path, [(v, clingo.Function(NUMBER_ATOMS[path], [e, clingo.Number(v)])) for v in values],
                                 sampled=sampled, ordered=True))
    found.extend(open_ends(event, index, ordinances))
    return found


# ---------------------------------------------------------------- ends left open

def _session_end_points(event: Event, ordinances: tuple[str, ...], position: int) -> set[datetime]:
    """The ends of session `position` within its range where a conclusion can change (reasoner/points.py), counted
    from the session's start and from every earlier session's (a stretch it may close), with the minutes darkness
    begins by the sun at the chosen ordinances' places on the reading applied (reasoner/events/sun.py)."""
    runs = event.schedule.runs
    session = runs[position]
    low, high = session.open_end.min, session.open_end.max
    origins = [s.start for s in runs[:position + 1]]
    points = {low, high} | end_points(ordinances, session.start, origins, high)
    down = {o for (o, _), reading in readings_in_force().items() if reading == SUNSET_TO_SUNRISE}
    for ordinance in set(ordinances) & set(readings()):
        points |= {p for p in end_minutes(ordinance, session.start, high, ordinance in down) if session.start < p}
    points |= {s.start for s in runs[position + 1:position + 2]}  # touching the next session
    return {p for p in points if low <= p <= high}


def open_ends(event: Event, index: int, ordinances: tuple[str, ...]) -> list[Unknown]:
    """Each end the event leaves open as a choice among the ends where a conclusion can change: each candidate
    `_end(Path,Value)` brings the facts of the sessions it ends (and their darkness, when that is derived)."""
    schedule = event.schedule
    groups = schedule.open_ends()
    if not groups:
        return []
    runs = schedule.runs
    derive = schedule.darkness is None and "schedule.darkness" not in event.unknown
    found: list[Unknown] = []
    for path, positions in groups:
        if path == "schedule.daily.close":  # one closing time for every day
            daily = schedule.daily
            closes = {t.time() for p in positions for t in _session_end_points(event, ordinances, p)}
            ends = {close: [daily.closing_on(runs[p].start.date(), close) for p in positions] for close in closes}
            choices = [(close.isoformat("minutes"), ends[close]) for close in
                       sorted(closes, key=lambda c: ends[c][0]) if all(exists_once(t) for t in ends[close])]
        else:
            [position] = positions
            choices = [(t.isoformat(timespec="minutes"), [t]) for t in sorted(_session_end_points(event, ordinances, position))
                       if exists_once(t)]
        unknown = Unknown(path, [], sampled=True, ordered=True)
        for value, ends_at in choices:
            key = clingo.Function("_end", [clingo.String(path), clingo.String(value)])
            unknown.values.append((value, key))
            for position, end in zip(positions, ends_at):
                session = runs[position].ending(end)
                unknown.brings += [clingo.Function("_with", [key, clingo.Function(name, [symbol_of(a) for a in args])])
                                   for name, args in session_facts(index, session)]
                if derive:  # its darkness by the sun, beside the known sessions' (reasoner/events/atoms.py)
                    unknown.brings += [clingo.Function("_with", [key, clingo.Function(name, [symbol_of(a) for a in args])])
                                       for name, args in sun_facts(index, [session])]
        found.append(unknown)
    return found


class Completions:
    """One grounded program whose answer sets are the completions of an event's unknown facts."""

    def __init__(self, event: Event, ordinances: Sequence[str], records: Sequence[ast.AST] = ()):
        """`records`: explanation record rules (reasoner/modes/explain.py), whose atoms are then consequences too."""
        self.event = event
        self.ordinances = tuple(ordinances)
        self.unknowns = unknowns_of(event, 1, self.ordinances)
        parts = ["choices", "records"] if records else ["choices"]
        self.program = (Program(self.ordinances, options=["--models=0"], parts=parts).add_statements(records)
                        .add_events([event]).add_atoms(fact for u in self.unknowns for fact in u.choice_facts()).ground())

    def consequences(self, mode: str, assumptions: Sequence[tuple[clingo.Symbol, bool]] = ()) -> set[clingo.Symbol] | None:
        """Brave or cautious consequences (shown atoms); None when no completion satisfies the assumptions."""
        return self.program.consequences(mode, assumptions)

    def both(self, assumptions: Sequence[tuple[clingo.Symbol, bool]] = ()) -> tuple[set, set] | None:
        possible = self.consequences("brave", assumptions)
        if possible is None:
            return None
        return possible, self.consequences("cautious", assumptions) or set()

    def answers(self) -> Iterator[tuple[Unknown, Any, set, set]]:
        """Each answer to each unknown fact that some completion gives, with what is then possible and certain."""
        for unknown in self.unknowns:
            for value in ([True, False] if unknown.flag_atom is not None else [v for v, _ in unknown.values]):
                result = self.both(unknown.assume(value))
                if result is not None:
                    yield unknown, value, *result

    def choice_of(self, atom: clingo.Symbol) -> tuple[str, Any] | None:
        """The unknown fact and the answer an atom of a completion gives it (None for a known fact)."""
        for unknown in self.unknowns:
            for value, candidate in unknown.values:
                if candidate == atom:
                    return unknown.path, value
        return None


def _items(possible: set, certain: set, event: Event, ordinance: str) -> list[dict[str, Any]]:
    """Conclusions of one ordinance with their certainty; quantities that vary become ranges."""
    items, quantities = [], defaultdict(list)
    for atom in sorted(possible):
        read = read_atom(atom)
        if read is None or read[0] != ordinance:
            continue
        item = read[2]
        item["certainty"] = "certain" if atom in certain else "possible"
        if item["kind"] == "quantity":
            quantities[(item["name"], item["clauses"][0])].append(item)
        else:
            items.append(item)
    outcomes = {(OUTCOME.value(a, "name"), OUTCOME.value(a, "holds") == "yes", OUTCOME.value(a, "clause"))
                for a in certain if a.name == OUTCOME.predicate and OUTCOME.value(a, "ordinance") == ordinance}
    short = {(FALLS_SHORT.value(a, "name"), FALLS_SHORT.value(a, "clause"))
             for a in certain if a.name == FALLS_SHORT.predicate and FALLS_SHORT.value(a, "ordinance") == ordinance}
    merged = merge_items(_reasons_over_completions([i for i in items if i["kind"] == "reason"], outcomes)
                    + _shortfalls_over_completions([i for i in items if i["kind"] == "shortfall"], short)
                    + [i for i in items if i["kind"] not in ("reason", "shortfall")])
    for item in merged:
        found = quantities.get((item["name"], item["clauses"][0])) if item["kind"] == "obligation" else None
        if not found:
            continue
        values = sorted({q["value"] for q in found})
        item["unit"] = found[0]["unit"]
        if len(values) == 1:
            item["value"] = values[0]
        else:
            item["value"], item["range"] = None, [values[0], values[-1]]
    return merged


def _reasons_over_completions(reasons: list[dict[str, Any]], certain: set[tuple[str, bool, str]]) -> list[dict[str, Any]]:
    """One reason per condition and outcome, its number a range over the completions; certain when the
    condition comes out so in every completion (`certain`: (name, holds, clause), from modes.lp's _outcome)."""
    groups: dict[tuple, list[dict[str, Any]]] = defaultdict(list)
    for item in reasons:
        groups[(item["name"], item["holds"], tuple(item["clauses"]), item["stated"])].append(item)
    found = []
    for (name, holds, clauses, _), group in groups.items():
        item = dict(group[0])
        item["certainty"] = "certain" if (name, holds, clauses[0]) in certain else "possible"
        values = sorted({g["actual"] for g in group if g["actual"] is not None})
        if len(values) > 1:
            item["actual"], item["range"] = None, [values[0], values[-1]]
        item["text"] = reason_text(item)
        found.append(item)
    return found


def _shortfalls_over_completions(shortfalls: list[dict[str, Any]], certain: set[tuple[str, str]]) -> list[dict[str, Any]]:
    """One shortfall per obligation and clause, its amounts ranges over the completions; certain when some
    amount falls short in every completion (`certain`: (name, clause), from modes.lp's _falls_short)."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for item in shortfalls:
        groups[(item["name"], item["clauses"][0])].append(item)
    found = []
    for key, group in groups.items():
        item = dict(group[0])
        item["certainty"] = "certain" if key in certain else "possible"
        for part in ("value", "required", "provided"):
            values = sorted({g[part] for g in group})
            item[part] = values[0] if len(values) == 1 else None
            if len(values) > 1:
                item[f"{part}_range" if part != "value" else "range"] = [values[0], values[-1]]
        found.append(item)
    return found


def _status_over_completions(possible: set, certain: set, ordinance: str) -> tuple[str, bool | None]:
    """The status every completion shares, or what varies: permit_required, possibly_required, exempt,
    possibly_exempt (exempt in some completions, not reached in the others) or not_regulated."""
    def found(names: set, atoms: Fact | Output) -> bool:
        return any(a.name == atoms.predicate and atoms.value(a, "ordinance") == ordinance for a in names)

    required = OUTPUT["permit_required"]
    if found(certain, required):
        return "permit_required", True
    if found(possible, required):
        return "possibly_required", None
    if found(certain, EXEMPT):
        return "exempt", False
    if found(possible, EXEMPT):
        return "possibly_exempt", False
    return "not_regulated", False


def evaluate_uncertain(event: Event, ordinances: Sequence[str], *, versions: bool = False) -> list[dict[str, Any]]:
    """Every conclusion marked certain or possible over all completions of the event's unknown facts; `versions`:
    each record says which version the solver has in force, as evaluate's do (reasoner/evaluate.py)."""
    completions = Completions(event, ordinances)
    answer = completions.both()
    results = []
    if versions:  # no unknown fact reaches the law date: the versions are facts of the grounding, in every completion
        atoms = completions.program.control.symbolic_atoms
        in_force = versions_from_symbols([a.symbol for name in (IN_FORCE, MAY_HAVE_STARTED)
                                          for a in atoms.by_signature(name, 3) if a.is_fact], 1, completions.ordinances)
    for ordinance in completions.ordinances:
        heading = record_heading(ordinance)
        if answer is None:
            results.append({"event": event.id, "ordinance": ordinance, "jurisdiction": heading["jurisdiction"], "title": heading["title"],
                            "status": "inconsistent", "permit_required": None, "conclusions": [],
                            "unknown": [u.path for u in completions.unknowns]})
            continue
        possible, certain = answer
        conclusions = _items(possible, certain, event, ordinance)
        status, required = _status_over_completions(possible, certain, ordinance)
        results.append({"event": event.id, "ordinance": ordinance, "jurisdiction": heading["jurisdiction"], "title": heading["title"],
                        "status": status, "permit_required": required, "conclusions": conclusions,
                        "unknown": [u.path for u in completions.unknowns],
                        "sampled": [u.path for u in completions.unknowns if u.sampled]})
    if versions:
        for record, found in zip(results, in_force):
            record["in_force"] = found
    return results


# ---------------------------------------------------------------- questions

@lru_cache(maxsize=1 << 16)
def _permit_of(atom: clingo.Symbol) -> str | None:
    """The ordinance of a permit_required atom; None for any other atom (cached: questions asks of the same
    atoms once per answer to every unknown fact, and each question to clingo about a symbol is a C call)."""
    return OUTPUT["permit_required"].value(atom, "ordinance") if atom.name == "permit_required" else None


def _reach_clause(atom: clingo.Symbol) -> str | None:
    """The clause a conclusion atom cites, when it is a quoted id."""
    clause = OUTPUT[atom.name].argument(atom, "clause")
    return clause.string if clause.type == clingo.SymbolType.String else None


@lru_cache(maxsize=1 << 16)
def _conclusion_key(atom: clingo.Symbol) -> tuple[str, str, str] | None:
    """(ordinance, kind, name) of a conclusion atom; None for atoms that are not conclusions, and for amounts and
    reasons, which belong to their conclusions."""
    read = read_atom(atom)
    if read is None or read[2]["kind"] in ("quantity", "reason"):
        return None
    return read[0], read[2]["kind"], read[2]["name"]


def _permit_status(possible: set, certain: set, ordinance: str) -> str:
    atoms = [a for a in possible if _permit_of(a) == ordinance]
    if not atoms:
        return "not_required"
    return "required" if any(a in certain for a in atoms) else "possibly_required"


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return f"{value:,}" if isinstance(value, int) else str(value)


def _intervals(outcomes: list[tuple[Any, dict[str, str], set]]) -> list[dict[str, Any]]:
    """Consecutive numeric answers with the same permit status, as ranges, with the conclusions every answer in
    the range settles."""
    pieces: list[dict[str, Any]] = []
    settled: list[set] = []
    for value, status, named in outcomes:
        if pieces and pieces[-1]["permit"] == status:
            pieces[-1]["to"] = value
            settled[-1] &= named
        else:
            pieces.append({"from": value, "to": value, "permit": status})
            settled.append(set(named))
    for piece, named in zip(pieces, settled):
        piece["conclusions"] = _settled_list(named)
    return pieces


def _name_states(possible: set, certain: set) -> dict[tuple[str, str, str], str]:
    """Each conclusion by (ordinance, kind, name): `holds` when some atom of it is certain, else `open`."""
    states: dict[tuple[str, str, str], str] = {}
    for atom in possible:
        key = _conclusion_key(atom)
        if key is None:
            continue
        if atom in certain or states.get(key) != "holds":
            states[key] = "holds" if atom in certain else "open"
    return states


def _settled_list(named: set) -> list[dict[str, Any]]:
    """The conclusions an answer settles: each with whether it then holds in every completion or in none."""
    return [{"ordinance": o, "kind": k, "name": n, "holds": state == "holds"} for (o, k, n), state in sorted(named)]


def decisive_answers(holds: Callable[[clingo.Symbol], bool], answers: Sequence[tuple[Unknown, Any, set, set]]) -> list[dict[str, Any]]:
    """The unknown facts whose answers decide whether a conclusion holds (`holds` tells its atoms; `answers`:
    Completions.answers()): for each, every answer (consecutive numbers as ranges) and whether the conclusion
    then holds in every completion (`holds`), in none (`fails`) or in some only (`open`). Facts that decide it
    either way come first."""
    outcomes: dict[str, list[tuple[Any, str]]] = defaultdict(list)
    sampled = {unknown.path: unknown.sampled for unknown, *_ in answers}
    ordered = {unknown.path: unknown.ordered for unknown, *_ in answers}
    for unknown, value, brave, cautious in answers:
        outcome = "holds" if any(holds(a) for a in cautious) else "open" if any(holds(a) for a in brave) else "fails"
        outcomes[unknown.path].append((value, outcome))
    found = []
    for path, pairs in outcomes.items():
        if len({outcome for _, outcome in pairs}) < 2:
            continue
        if ordered[path]:
            pieces: list[dict[str, Any]] = []
            for value, outcome in pairs:
                if pieces and pieces[-1]["outcome"] == outcome:
                    pieces[-1]["to"] = value
                else:
                    pieces.append({"from": value, "to": value, "outcome": outcome})
        else:
            pieces = [{"value": _describe(v), "outcome": outcome} for v, outcome in pairs]
        found.append({"fact": path, "answers": pieces, **({"sampled": True} if sampled[path] else {})})
    found.sort(key=lambda f: not {"holds", "fails"} <= {a["outcome"] for a in f["answers"]})
    return found


def questions(event: Event, ordinances: Sequence[str]) -> dict[str, Any]:
    """The unknown facts that matter, most decisive first, each with what every answer would settle.

    A fact matters when some answer to it changes whether some conclusion is certain or possible.
    It is more decisive when every answer settles the permit duty, then the more conclusions every
    answer settles. Facts whose answers change nothing are not asked."""
    completions = Completions(event, ordinances)
    answer = completions.both()
    if answer is None:
        return {"event": event.id, "ordinances": list(completions.ordinances), "questions": [], "inconsistent": True}
    possible, certain = answer
    open_ = {a for a in possible - certain if a.name != "param" and not a.name.startswith("_")}
    open_names = {key for key, state in _name_states(possible, certain).items() if state == "open"}
    found = []
    for _, answered in groupby(completions.answers(), key=lambda answer: answer[0].path):
        outcomes = []
        for unknown, value, brave, cautious in answered:
            settled = {a for a in open_ if a in cautious or a not in brave}
            permit = {o: _permit_status(brave, cautious, o) for o in completions.ordinances}
            states = _name_states(brave, cautious)
            named = {(key, states.get(key, "fails")) for key in open_names if states.get(key, "fails") != "open"}
            outcomes.append((value, settled, permit, brave == possible and cautious == certain, named))
        if all(same for _, _, _, same, _ in outcomes):
            continue
        always = set.intersection(*(s for _, s, _, _, _ in outcomes))
        sometimes = set.union(*(s for _, s, _, _, _ in outcomes))
        settles_permit = sorted(o for o in completions.ordinances
                                if all(p[o] != "possibly_required" for _, _, p, _, _ in outcomes)
                                and _permit_status(possible, certain, o) == "possibly_required")
        clauses = sorted({_reach_clause(a) for a in sometimes if a.name in ("permit_required", "regulated", "exempt")}
                         - {None})
        entry = {
            "fact": unknown.path, "settles_permit_for": settles_permit, "settled_by_any_answer": len(always),
            "settled_by_some_answer": len(sometimes), "clauses": clauses,
        }
        if unknown.ordered:
            entry["answers"] = _intervals([(v, p, n) for v, _, p, _, n in outcomes])
        else:
            entry["answers"] = [{"value": _describe(v), "permit": p, "settles": len(s), "conclusions": _settled_list(n)}
                                for v, s, p, _, n in outcomes]
        found.append(entry)
    found.sort(key=lambda q: (-len(q["settles_permit_for"]), -q["settled_by_any_answer"], -q["settled_by_some_answer"], q["fact"]))
    return {"event": event.id, "ordinances": list(completions.ordinances),
            "permit": {o: _permit_status(possible, certain, o) for o in completions.ordinances},
            "open_conclusions": len(open_), "questions": found}
