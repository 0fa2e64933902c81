"""The solver session: one clingo Control grounds the chosen encodings with the facts of some events."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

import clingo

from .atoms import facts_program
from .event import Event
from .vocabulary import encoded_ordinances, package_path

# Keeps fact symbols out of the solver's internal tables: a large win on programs with many events.
CLINGO_OPTIONS = ["--preserve-facts=symtab", "--warn=none"]


class UnknownOrdinance(ValueError):
    pass


def check_ordinances(ordinances: Iterable[str] | None) -> tuple[str, ...]:
    available = encoded_ordinances()
    if not ordinances:
        return available
    chosen = tuple(dict.fromkeys(ordinances))
    for name in chosen:
        if name not in available:
            raise UnknownOrdinance(f"unknown ordinance {name!r}; encoded: {', '.join(available)}")
    return chosen


@cache
def encoding_text(name: str) -> str:
    return package_path("encodings", f"{name}.lp").read_text(encoding="utf-8")


def program_text(ordinances: Sequence[str]) -> str:
    return "\n".join(encoding_text(name) for name in ("vocabulary", *ordinances))


def solve(events: Sequence[Event], ordinances: Sequence[str], extra_program: str = "") -> list[clingo.Symbol]:
    """Ground and solve; return the shown atoms of the single answer set (the programs are stratified)."""
    control = clingo.Control(CLINGO_OPTIONS)
    control.add("base", [], program_text(ordinances))
    if extra_program:
        control.add("base", [], extra_program)
    control.add("base", [], facts_program(list(events)))
    control.ground([("base", [])])
    symbols: list[clingo.Symbol] = []
    with control.solve(yield_=True) as handle:
        for model in handle:
            symbols = model.symbols(shown=True)
            break
    return symbols
