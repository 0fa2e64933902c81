"""The solver session: one clingo Control grounds the chosen encodings with the facts of some events."""
from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from functools import cache
from time import perf_counter

import clingo

from .atoms import facts_program
from .event import Event
from .vocabulary import encoded_ordinances, encoding_path

# Keeps fact symbols out of the solver's internal tables: a large win on programs with many events.
CLINGO_OPTIONS = ["--preserve-facts=symtab", "--warn=none"]


class UnknownOrdinance(ValueError):
    pass


class SolveTimeout(RuntimeError):
    """A solver call did not finish within its time limit."""

    def __init__(self, limit: float, stage: str):
        self.limit = limit
        self.stage = stage
        super().__init__(f"no answer within the time limit of {limit:g} s (stopped while {stage})")


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
    return encoding_path(name).read_text(encoding="utf-8")


def program_text(ordinances: Sequence[str]) -> str:
    return "\n".join(encoding_text(name) for name in ("vocabulary", *ordinances))


def _ground(control: clingo.Control, deadline: float | None, limit: float | None) -> None:
    """Ground; with a deadline, in a daemon thread (clingo cannot interrupt grounding, but we can stop waiting)."""
    if deadline is None:
        control.ground([("base", [])])
        return
    done = threading.Event()
    failure: list[BaseException] = []

    def run() -> None:
        try:
            control.ground([("base", [])])
        except BaseException as error:  # noqa: BLE001 - re-raised in the caller's thread
            failure.append(error)
        finally:
            done.set()

    threading.Thread(target=run, name="clingo-ground", daemon=True).start()
    if not done.wait(max(0.0, deadline - perf_counter())):
        raise SolveTimeout(limit or 0.0, "grounding")
    if failure:
        raise failure[0]


def solve(events: Sequence[Event], ordinances: Sequence[str], extra_program: str = "", *,
          time_limit: float | None = None, timings: dict[str, float] | None = None) -> list[clingo.Symbol]:
    """Ground and solve; return the shown atoms of the single answer set (the programs are stratified).

    With `time_limit` (seconds, for the whole call), SolveTimeout is raised once it passes: solving is
    cancelled; grounding, which clingo cannot interrupt, is left to finish in a background thread.
    `timings`, when given, accumulates the seconds spent on facts, grounding and solving.
    """
    start = perf_counter()
    deadline = None if time_limit is None else start + time_limit
    facts = facts_program(list(events))
    built = perf_counter()
    control = clingo.Control(CLINGO_OPTIONS)
    control.add("base", [], program_text(ordinances))
    if extra_program:
        control.add("base", [], extra_program)
    control.add("base", [], facts)
    _ground(control, deadline, time_limit)
    grounded = perf_counter()
    symbols: list[clingo.Symbol] = []
    if deadline is None:
        with control.solve(yield_=True) as handle:
            for model in handle:
                symbols = model.symbols(shown=True)
                break
    else:
        with control.solve(yield_=True, async_=True) as handle:
            if not handle.wait(max(0.0, deadline - perf_counter())):
                handle.cancel()
                raise SolveTimeout(time_limit or 0.0, "solving")
            model = handle.model()
            if model is not None:
                symbols = model.symbols(shown=True)
    if timings is not None:
        timings["facts"] = timings.get("facts", 0.0) + built - start
        timings["ground"] = timings.get("ground", 0.0) + grounded - built
        timings["solve"] = timings.get("solve", 0.0) + perf_counter() - grounded
    return symbols
