"""Clause coverage: which registered clauses the scenario tests exercise, per ordinance.

A scenario case exercises a clause when a conclusion the case asserts (an `expect` conclusion it
matches, its `permit_required: true`, its `status: exempt`) rests on that clause: the conclusion's
own clause, the `% §` clause of every rule in its derivation, and every clause id written in the
facts it rests on (parameters, lists such as the kinds of event an ordinance names). Derivations are
read with the same support records `explain` uses, for all the cases of an ordinance in one solve.

The measure is taken over the operative clauses the encoding implements; an operative clause the
encoding does not implement must say why in the registry (`reason`), and is listed, not counted.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import clingo
import yaml

from reasoner.quality.check import _Checker, read_encoding
from reasoner.events.loading import EventFileError, RefusedFile, read_text_bounded, scan_yaml
from reasoner.program import chosen_readings, parse_reading
from reasoner.law.registry import registry
from reasoner.law.locator import encoded_ordinances
from reasoner.law.ordinances import unfinished_ordinances


@dataclass
class Case:
    """One scenario case: its event (the file's base with the case's event merged over it) and what it expects."""

    ordinance: str
    file: str
    name: str
    record: dict[str, Any]
    expect: dict[str, Any]
    absent: list[dict[str, Any]] = field(default_factory=list)
    readings: dict[str, str] = field(default_factory=dict)   # interpretation -> the reading chosen (not the default)

    def chosen(self) -> list[tuple[tuple[str, str], str]]:
        """The case's readings as reasoner.program.chosen_readings takes them."""
        return [((self.ordinance, interpretation), reading) for interpretation, reading in sorted(self.readings.items())]


@dataclass
class Coverage:
    ordinance: str
    implemented: list[str]                      # operative clauses the encoding implements: the measure
    exercised: set[str] = field(default_factory=set)
    derived: set[str] = field(default_factory=set)          # cited by some conclusion of some case, asserted or not
    not_implemented: dict[str, str] = field(default_factory=dict)  # operative, not encoded: the registry's reason
    cases: int = 0
    errors: list[str] = field(default_factory=list)
    unfinished: tuple[str, ...] = ()            # what its registry leaves undone: not encoded yet, nothing covered

    @property
    def missing(self) -> list[str]:
        return [c for c in self.implemented if c not in self.exercised]

    @property
    def percent(self) -> float:
        # nothing encoded is nothing covered, not all of it
        if self.unfinished or not self.implemented:
            return 0.0
        return 100.0 * (len(self.implemented) - len(self.missing)) / len(self.implemented)

    def as_dict(self) -> dict[str, Any]:
        data = {"ordinance": self.ordinance, "cases": self.cases, "percent": round(self.percent, 1),
                "implemented": len(self.implemented), "exercised": len(self.implemented) - len(self.missing),
                "missing": self.missing, "derived_but_not_asserted": [c for c in self.missing if c in self.derived],
                "operative_not_encoded": self.not_implemented, "errors": self.errors}
        if self.unfinished:
            data["not_encoded_yet"] = list(self.unfinished)
        return data


def deep_merge(base: Any, override: Any) -> Any:
    """The scenario files' rule: a case's event is merged over the file's base event, mappings key by key."""
    if isinstance(base, dict) and isinstance(override, dict):
        merged = dict(base)
        for key, value in override.items():
            merged[key] = deep_merge(base.get(key), value) if key in base else value
        return merged
    return override


def _matches(conclusion: dict[str, Any], pattern: dict[str, Any]) -> bool:
    """A conclusion a case's `expect` names: coverage counts what the case asserts."""
    return all(conclusion.get(key) == value for key, value in pattern.items())


class ScenarioError(ValueError):
    """A scenario file that cannot be read, named with what is wrong."""


def scenario_cases(directory: Path) -> list[Case]:
    """Every case of the scenario files in a folder (tests/scenarios/*.yaml): the one reader of that format,
    for the tests and for `reasoner coverage`. How a case's expectations are checked is the tests' own."""
    cases = []
    for path in sorted(Path(directory).glob("*.yaml")):
        try:
            text = read_text_bounded(path, "a scenario file")
            scan_yaml(text, str(path))
            data = yaml.safe_load(text)
            if not isinstance(data, dict) or "ordinance" not in data or not isinstance(data.get("cases", []), list):
                raise ScenarioError("not a scenario file (it needs ordinance: and a list of cases:)")
            for case in data.get("cases", []):
                record = deep_merge(data.get("base", {}), case.get("event", {}))
                for interpretation, reading in (case.get("readings") or {}).items():
                    # a reading no registry gives would be dropped silently and the case would run on the default
                    parse_reading(f"{data['ordinance']}.{interpretation}={reading}")
                cases.append(Case(data["ordinance"], path.name, case["name"], record, case.get("expect", {}),
                                  case.get("absent", []), dict(case.get("readings") or {})))
        except EventFileError as error:
            raise ScenarioError(str(error).replace("\n", " ")) from None
        except RefusedFile as error:
            raise ScenarioError(f"{path}: {error}") from None
        except (OSError, UnicodeDecodeError, yaml.YAMLError, ValueError, KeyError, TypeError, AttributeError) as error:
            detail = f"no {error}" if isinstance(error, KeyError) else str(error).replace("\n", " ")
            raise ScenarioError(f"{path}: {detail}") from None
    return cases


def implemented_clauses(ordinance: str) -> tuple[list[str], dict[str, str]]:
    """(operative clauses the encoding implements, {operative clause not encoded: reason}), in registry order."""
    checker = _Checker(ordinance, read_encoding("vocabulary"), [], set())
    checker.enc = read_encoding(ordinance)
    implemented = checker.cited() | set(checker.headers())
    reg = registry(ordinance)
    operative = [c for c in reg.clauses.values() if c.operative]
    return ([c.id for c in operative if c.id in implemented],
            {c.id: c.reason or "" for c in operative if c.id not in implemented})


def _strings(symbol: clingo.Symbol) -> Iterable[str]:
    stack = [symbol]
    while stack:
        item = stack.pop()
        if item.type == clingo.SymbolType.String:
            yield item.string
        elif item.type == clingo.SymbolType.Function:
            stack.extend(item.arguments)


class _Derivations:
    """One solve of an ordinance's encoding with support records for many events (see explain.py)."""

    def __init__(self, events: Sequence, ordinance: str):
        from reasoner.modes.explain import load_rules, why_records
        from reasoner.program import Program

        rules = load_rules([ordinance])
        self.by_id = {rule.id: rule for rule in rules}
        program = Program([ordinance]).add_statements(why_records(rules)).add_events(list(events)).ground()
        self.support: dict[clingo.Symbol, list[tuple[Any, list[clingo.Symbol]]]] = defaultdict(list)
        self.shown: list[clingo.Symbol] = []
        every, self.shown = program.first(lambda model: (model.symbols(atoms=True), model.symbols(shown=True)))
        for symbol in every:
            if symbol.name == "_why":
                rule_id, head, _, body = symbol.arguments
                self.support[head].append((self.by_id[rule_id.number], list(body.arguments)))

    def clauses_under(self, atom: clingo.Symbol) -> set[str]:
        """Every clause the derivation of `atom` rests on."""
        found: set[str] = set()
        seen: set[clingo.Symbol] = set()
        stack = [atom]
        while stack:
            item = stack.pop()
            if item in seen:
                continue
            seen.add(item)
            found.update(_strings(item))
            for rule, body in self.support.get(item, []):
                if rule.clause:
                    found.add(rule.clause)
                stack.extend(body)
        return found


def _asserted(case: Case, result: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(kind, name, clause) of each conclusion the case asserts and the result holds."""
    keys = []
    expect = case.expect
    for pattern in expect.get("conclusions", []):
        for conclusion in result["conclusions"]:
            if _matches(conclusion, pattern):
                keys += [(conclusion["kind"], conclusion["name"], clause) for clause in conclusion["clauses"]]
    kinds = []
    if expect.get("permit_required") is True or expect.get("status") == "permit_required":
        kinds.append("permit_required")
    if expect.get("status") == "exempt":
        kinds.append("exemption")
    for conclusion in result["conclusions"]:
        if conclusion["kind"] in kinds:
            keys += [(conclusion["kind"], conclusion["name"], clause) for clause in conclusion["clauses"]]
    return keys


def measure(ordinance: str, cases: Sequence[Case]) -> Coverage:
    from reasoner.events.loading import EventFileError, parse_events

    implemented, not_implemented = implemented_clauses(ordinance)
    coverage = Coverage(ordinance, implemented, not_implemented=not_implemented,
                        unfinished=unfinished_ordinances().get(ordinance, ()))
    mine = [case for case in cases if case.ordinance == ordinance]
    events, kept = [], []
    for number, case in enumerate(mine, start=1):
        record = {**case.record, "id": f"case-{number}"}
        try:
            [event] = parse_events(record, f"{case.file}: {case.name}")
        except (EventFileError, ValueError) as error:
            coverage.errors.append(str(error))
            continue
        events.append(event)
        kept.append(case)
    coverage.cases = len(kept)
    groups: dict[tuple, list[tuple[Any, Case]]] = defaultdict(list)   # cases on the same readings, solved together
    for event, case in zip(events, kept):
        groups[tuple(case.chosen())].append((event, case))
    for chosen, members in groups.items():
        with chosen_readings(chosen):
            _exercise(coverage, ordinance, [event for event, _ in members], [case for _, case in members])
    return coverage


def _exercise(coverage: Coverage, ordinance: str, events: list, kept: list[Case]) -> None:
    from reasoner.conclusions import read_atom, results_from_symbols

    derivations = _Derivations(events, ordinance)
    results = results_from_symbols(derivations.shown, events, [ordinance])
    atoms_of: dict[int, list[tuple[tuple[str, str, str], clingo.Symbol]]] = defaultdict(list)
    for symbol in derivations.shown:
        read = read_atom(symbol)
        if read is None:
            continue
        _, number, item = read
        kind = "obligation" if item["kind"] in ("quantity", "alternative") else item["kind"]
        atoms_of[number].append(((kind, item["name"], item["clauses"][0]), symbol))
        coverage.derived.update(item["clauses"])
    for number, (case, result) in enumerate(zip(kept, results), start=1):
        wanted = set(_asserted(case, result))
        for key, symbol in atoms_of[number]:
            if key in wanted:
                coverage.exercised |= derivations.clauses_under(symbol)


def coverage(directory: Path, ordinances: Sequence[str] | None = None) -> list[Coverage]:
    """Clause coverage of the scenario files in `directory` (tests/scenarios), per ordinance."""
    chosen = tuple(ordinances) if ordinances else encoded_ordinances()
    cases = scenario_cases(directory)
    return [measure(name, cases) for name in chosen]
