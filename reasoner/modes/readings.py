"""Which answers depend on a reading of the law: for one event, every conclusion that holds under every combination
of the contested readings the registries record (interpretations with `reading:` and `alternatives:`), and for each
one that does not, the reading that decides it, with the answer under each.

One solve over every combination (the `readings` part of reasoner/modes.lp: each choice between readings an open
choice, as an unknown fact is) gives what holds under all of them (cautious) and under some (brave); one evaluation
per alternative reading, the others at their defaults, says which reading moves which answer.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from reasoner.conclusions import read_atom
from reasoner.evaluate import evaluate_any
from reasoner.program import Program, chosen_readings, readings_in_force
from reasoner.law.ordinances import ordinance_readings

if TYPE_CHECKING:
    from reasoner.events.model import Event


def _key(item: dict[str, Any]) -> tuple[str, str]:
    return item["kind"], item["name"]


def _shown(item: dict[str, Any]) -> Any:
    """What a conclusion says, for comparing it across readings: its value, and a shortfall's amounts."""
    if item["kind"] == "reason":
        return "yes" if item["holds"] else "no"
    if item["kind"] == "interpretation":
        return True
    value = item.get("value")
    return value if value is not None else True


def answers(record: dict[str, Any]) -> dict[tuple[str, str], Any]:
    """Each answer of an evaluated record by (kind, name). Over unknown facts a conclusion may hold in some
    completions only, and with several values (a reason yes in some, no in others): its answer is then every value
    it takes with its certainty, so that a reading which makes a possible answer certain, or adds a value, moves it."""
    found: dict[tuple[str, str], Any] = {("status", "status"): record["status"]}
    if not record.get("unknown"):
        for item in record["conclusions"]:
            if item["kind"] != "interpretation":
                found[_key(item)] = _shown(item)
        return found
    values: dict[tuple[str, str], set[tuple[str, str]]] = {}
    for item in record["conclusions"]:
        if item["kind"] != "interpretation":
            values.setdefault(_key(item), set()).add((repr(_shown(item)), item.get("certainty", "certain")))
    by_text = {repr(_shown(i)): _shown(i) for i in record["conclusions"]}
    for key, pairs in values.items():
        found[key] = [{"value": by_text[text], "certainty": certainty} for text, certainty in sorted(pairs)]
    return found


def choices(ordinance: str) -> list[dict[str, Any]]:
    """The choices between readings an ordinance's registry records: interpretation, clause, default, alternatives."""
    from reasoner.law.registry import registry

    found = registry(ordinance)
    return [{"interpretation": i.id, "clause": i.clause, "default": i.reading,
             "alternatives": [{"reading": a.id, "text": a.text} for a in i.alternatives],
             "text": i.text, "default_because": i.default_because}
            for i in found.interpretations.values() if i.readings]


def atom_keys(symbols: Any) -> set[tuple[str, str, str]]:
    """(kind, name, shown value) of each conclusion atom (a quantity apart from its obligation, as clingo shows it)."""
    items = set()
    for atom in symbols:
        got = read_atom(atom)
        if got is not None and got[2]["kind"] != "interpretation":
            items.add((*_key(got[2]), repr(_shown(got[2]))))
    return items


def _over_every_combination(event: Event, ordinance: str) -> tuple[set, set]:
    """(possible, certain): the conclusions, as (kind, name, shown value), that hold under some and under every
    combination of the ordinance's readings, from one solve."""
    program = Program([ordinance], options=["--models=0"], parts=["readings"]).add_events([event]).ground()
    possible = program.consequences("brave") or set()
    certain = program.consequences("cautious") or set()

    return atom_keys(possible), atom_keys(certain)


def _count(readings: dict[str, tuple[str, ...]]) -> int:
    total = 1
    for alternatives in readings.values():
        total *= len(alternatives)
    return total


def _moved(event: Event, ordinance: str, default: dict[str, Any]) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """Each answer of `default` (the ordinance's record for the event) that one alternative reading, the others
    left as they are, moves: the alternatives that move it, with its value under each. An alternative is every
    reading but the one in force: under a reading chosen instead of the default, the default is one of them."""
    base = answers(default)
    moved: dict[tuple[str, str], list[dict[str, Any]]] = {}
    in_force = readings_in_force()
    for interpretation, readings in ordinance_readings().get(ordinance, {}).items():
        applied = in_force.get((ordinance, interpretation), readings[0])
        for reading in (r for r in readings if r != applied):
            with chosen_readings([((ordinance, interpretation), reading)]):
                other = answers(evaluate_any([event], [ordinance])[0])
            for key in sorted(set(base) | set(other)):
                if base.get(key) != other.get(key):
                    moved.setdefault(key, []).append({"interpretation": interpretation, "reading": reading,
                                                      "value": other.get(key)})
    return moved


def _depending(default: dict[str, Any], moved: dict[tuple[str, str], list[dict[str, Any]]]) -> list[dict[str, Any]]:
    base = answers(default)
    depending = [{"kind": kind, "name": name, "default": base.get((kind, name)), "readings": under}
                 for (kind, name), under in moved.items()]
    depending.sort(key=lambda d: (d["kind"] != "status", d["kind"], d["name"]))
    return depending


def depending_on_readings(event: Event, record: dict[str, Any]) -> list[dict[str, Any]]:
    """The answers of one evaluated record (event, ordinance) that an alternative reading moves, each with its
    value on the reading applied and under each alternative that moves it ([]: none turns on a reading)."""
    if not ordinance_readings().get(record["ordinance"]):
        return []
    return _depending(record, _moved(event, record["ordinance"], record))


def with_dependencies(events: Sequence[Event], records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`records` (evaluate's, for `events`) each with `depends_on_readings` (`evaluate --readings`)."""
    by_id = {event.id: event for event in events}
    return [{**record, "depends_on_readings": depending_on_readings(by_id[record["event"]], record)}
            for record in records]


def rests_on(event: Event, ordinance: str, conclusion: str | None) -> list[dict[str, Any]]:
    """The answers named `conclusion` (its name, its kind; `permit_required` the status; None: every one) that
    an alternative reading moves: what `explain` says a conclusion rests on."""
    found = depending_on_readings(event, evaluate_any([event], [ordinance])[0])
    if conclusion is None:
        return found
    return [d for d in found if conclusion in (d["name"], d["kind"])
            or (d["kind"] == "status" and conclusion == "permit_required")]


def depends(event: Event, ordinances: Sequence[str]) -> list[dict[str, Any]]:
    """Per ordinance: its choices between readings, the answers that turn on one (with the answer under the default
    and under each alternative that moves it), and how many answers hold whatever the reading."""
    results = []
    known = ordinance_readings()
    for ordinance in ordinances:
        default = evaluate_any([event], [ordinance])[0]
        base = answers(default)
        moved = _moved(event, ordinance, default)
        # over unknown facts the combinations are not solved at once (each single reading above still is)
        combined = bool(known.get(ordinance)) and not event.has_unknowns
        possible, certain = _over_every_combination(event, ordinance) if combined else (set(), set())
        depending = _depending(default, moved)
        results.append({
            "event": event.id, "ordinance": ordinance, "status": default["status"],
            "choices": choices(ordinance) if known.get(ordinance) else [],
            "depends_on_readings": depending,
            "settled": len([k for k in base if k not in moved]),
            "every_combination": None if not combined else {
                "combinations": _count(known[ordinance]), "hold_under_every": len(certain),
                "hold_under_some_only": sorted(f"{k} {n} = {v}" for k, n, v in possible - certain)},
        })
    return results
