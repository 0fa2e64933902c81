"""Evaluating events: every conclusion of every ordinance for each, solved by the program layer and read by the
reader (reasoner/conclusions.py), over every completion of an event's unknown facts where it has some."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from reasoner.conclusions import results_from_symbols, versions_from_symbols
from reasoner.program import solve

if TYPE_CHECKING:  # the models are built only when a file needs them (reasoner/events/plan.py)
    from reasoner.events.model import Event


def evaluate(events: Sequence[Event], ordinances: Sequence[str], *, versions: bool = False) -> list[dict[str, Any]]:
    """Every conclusion of every ordinance for every event: one record per (event, ordinance); `versions`: each
    record also says which version of its ordinance the solver has in force (`in_force`, not a field of evaluate's
    output: what compares the law on two dates reads)."""
    if not versions:
        return results_from_symbols(solve(events, ordinances), events, ordinances)
    symbols = solve(events, ordinances, parts=("versions",))
    records = results_from_symbols(symbols, events, ordinances)
    for record, in_force in zip(records, versions_from_symbols(symbols, len(events), ordinances)):
        record["in_force"] = in_force
    return records


# Events solved in one program when a file is answered as it comes (reasoner/service.py, `Evaluation`): 10,000
# events solved at once ground together (6.5 GB); in chunks, memory stays that of one chunk, and the answers are
# the same, event by event, since no event's atoms reach another's (benchmarks/bench_evaluate.py --many).
EVALUATE_CHUNK = 100


def evaluate_any(events: Sequence[Event], ordinances: Sequence[str], *, versions: bool = False) -> list[dict[str, Any]]:
    """Evaluate events, reasoning over the unknown facts of those that have some (reasoner/unknowns.py, imported
    only then: a cold `evaluate` of known facts does without it); `versions` as for evaluate."""
    results: list[dict[str, Any]] = []
    plain = [e for e in events if not e.has_unknowns]
    by_id: dict[str, list[dict[str, Any]]] = {}
    if plain:
        for record in evaluate(plain, ordinances, versions=versions):
            by_id.setdefault(record["event"], []).append(record)
    if len(plain) < len(events):
        from reasoner.unknowns import evaluate_uncertain
    for event in events:
        results.extend(by_id[event.id] if event.id in by_id else evaluate_uncertain(event, ordinances, versions=versions))
    return results
