"""Threshold sweeps: how the conclusions change as one fact of an event varies, and exactly where.

`sweep(event, "attendance=100..20000")` evaluates the event at every point of a grid (step `step`), finds each
pair of neighbouring points where a conclusion differs, and bisects that interval down to two consecutive
integers. A change point `at` is reported only where the solver's conclusions at `at - 1` and at `at` were
both computed and differ, so every point is exact. The grid is joined by every parameter value of the chosen
ordinances (and its neighbours) that falls in the range, so that a conclusion holding on a narrow band around
a stated number ("500 or more" but not "greater than 500") is not stepped over. Bisection runs on a cheap
signature of the answer set (the shown atoms as text), in batches: one solver call per round.

What changes counts: a conclusion appears or disappears, a modality or status changes, or a value changes.
Values that change at more than `max_steps` points over the range (water at one gallon per person, one parking
space per four) are "proportional": their appearance is tracked, their steps are not listed (the samples have
their values).

Varied facts: `attendance` (the peak; a stated female/male split and total over the event are scaled with it,
rounded down, a total that is a range or unknown is dropped, and a board finding is dropped, since it would
override the varied number), `hours` (each session's end moves to its
start + hours; darkness is derived again unless the file states it), `close` (each session's end moves to that
many minutes after the midnight that begins its first day: 1260 is 21:00, 1500 is 01:00 the next day), `filed` (the filing date, ISO dates), and any integer
field by its dotted path (`site.seating_capacity`, `organizer.applicant_age`, `provisions.toilets`, ...).
"""
from __future__ import annotations

import csv
import io
import math
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from pydantic import ValidationError

from reasoner.modes.compare import ALL_KINDS, DEFAULT_KINDS, item_text
from reasoner.evaluate import evaluate_any
from reasoner.events.model import Event
from reasoner.program import check_ordinances, solve
from reasoner.law.schema import OUTPUTS, value_positions
from reasoner.points import MINUTES_PER_DAY, clock_points, duration_points, number_points, stated_numbers

MAX_GRID_INTERVALS = 50
DEFAULT_MAX_STEPS = 20
MAX_POINTS = 5000

# Output predicates -> the kind of conclusion they become in `evaluate`, and the positions of their amounts and
# of their name among the arguments after (Ordinance, Event), which a signature reads from the atom's text: all
# from the schema.
PREDICATE_KIND = {output.predicate: output.kind for output in OUTPUTS}
VALUE_ARGUMENTS = {output.predicate: value_positions(output) for output in OUTPUTS if value_positions(output)}
NAME_ARGUMENT = {output.predicate: output.roles.index("name") for output in OUTPUTS if "name" in output.roles}
VALUE_FIELDS = ("value", "required", "provided", "min", "max")

_ATOM = re.compile(r"^(\w+)\((\w+),(\d+),(.*)\)$")
_ARGUMENT = re.compile(r'"(?:[^"\\]|\\.)*"|[^,]+')


class SweepError(ValueError):
    """A --vary specification or a varied event that cannot be evaluated, phrased for the user."""


@dataclass(frozen=True)
class Vary:
    field: str
    low: int
    high: int
    is_date: bool = False

    def show(self, x: int) -> int | str:
        return date.fromordinal(x).isoformat() if self.is_date else x


def parse_vary(text: str) -> Vary:
    """`attendance=100..20000`, `hours=1..72`, `filed=2027-04-01..2027-07-15`, `site.seating_capacity=0..5000`."""
    name, sep, span = text.partition("=")
    low_text, dots, high_text = span.partition("..")
    name = name.strip()
    if not sep or not dots or not name:
        raise SweepError(f"--vary {text!r}: write FIELD=LOW..HIGH, e.g. attendance=100..20000")
    is_date = name in ("filed", "application.filed", "as_of")
    try:
        if is_date:
            low, high = date.fromisoformat(low_text.strip()).toordinal(), date.fromisoformat(high_text.strip()).toordinal()
        else:
            low, high = int(low_text), int(high_text)
    except ValueError:
        kind = "dates (YYYY-MM-DD)" if is_date else "whole numbers"
        raise SweepError(f"--vary {text!r}: LOW and HIGH must be {kind}") from None
    if low > high:
        raise SweepError(f"--vary {text!r}: LOW must not exceed HIGH")
    return Vary(name if name == "as_of" else "filed" if is_date else name, low, high, is_date)


def _set_path(data: dict[str, Any], path: str, value: Any) -> None:
    parts = path.split(".")
    node = data
    for part in parts[:-1]:
        if node.get(part) is None:
            node[part] = {}
        node = node[part]
        if not isinstance(node, dict):
            raise SweepError(f"{path}: {part} is not a group of fields")
    node[parts[-1]] = value


def vary_event(event: Event, vary: Vary, x: int) -> Event:
    """The event with the varied fact set to x (validated like an event file)."""
    data = event.model_dump(mode="python")
    if vary.field == "attendance":
        people = data["attendance"]
        peak = people["expected_max"]
        for part in ("female", "male"):
            if people.get(part) is not None:
                people[part] = x * people[part] // peak if isinstance(peak, int) and peak > 0 else None
        if people.get("total") is not None:   # never below the peak: scaled with it where both are numbers
            people["total"] = x * people["total"] // peak if _scales(people["total"], peak) else None
        people["expected_max"] = x
        people["board_finding"] = None
    elif vary.field in ("hours", "close"):
        # every session keeps its start; `hours` sets each one's length, `close` its end at x minutes after
        # the midnight that begins its first day (1,500 is 01:00 the next day)
        runs = [{**s.model_dump(), "end_occurrence": None,
                 "end": s.start + timedelta(hours=x) if vary.field == "hours"
                 else datetime.combine(s.start.date(), datetime.min.time()) + timedelta(minutes=x)}
                for s in event.schedule.runs]
        if event.schedule.start is not None:
            data["schedule"].update(end=runs[0]["end"], end_occurrence=None)
        else:
            data["schedule"].update(sessions=runs, daily=None)
    elif vary.field == "filed":
        _set_path(data, "application.filed", date.fromordinal(x))
    elif vary.field == "as_of":  # the law of another day: one ordinance compared with itself across versions
        data["as_of"] = date.fromordinal(x)
    else:
        _set_path(data, vary.field, x)
    try:
        varied = Event.model_validate(data)
    except ValidationError as error:
        problem = error.errors()[0]
        where = ".".join(str(p) for p in problem["loc"])
        raise SweepError(f"{vary.field}={vary.show(x)}: {where}: {problem['msg']}") from None
    return varied


def _scales(total: Any, peak: Any) -> bool:
    return isinstance(total, int) and isinstance(peak, int) and peak > 0


def adjustments(event: Event, vary: Vary) -> list[str]:
    """What else changes with the varied fact, in words."""
    notes = []
    people = event.attendance
    if vary.field == "attendance":
        if people.female is not None or people.male is not None:
            notes.append("the female/male split is scaled with the attendance (rounded down)")
        if people.total is not None and _scales(people.total, people.expected_max):
            notes.append(f"the total over the event ({people.total:,}) is scaled with the attendance (rounded down)")
        elif people.total is not None:
            notes.append("the total over the event is dropped, since it is not a number to scale with the attendance")
        if people.board_finding is not None:
            notes.append("the board's attendance finding is dropped, since it would override the varied attendance")
    if vary.field in ("hours", "close") and event.schedule.darkness is None:
        notes.append("darkness is derived again from the moved end time")
    if vary.field in ("hours", "close") and len(event.schedule.runs) > 1:
        notes.append(f"every one of the {len(event.schedule.runs)} sessions moves its end")
    return notes


def nice_step(low: int, high: int, intervals: int = MAX_GRID_INTERVALS) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50, ... that covers the range in at most `intervals` steps."""
    raw = max(1, math.ceil((high - low) / intervals))
    magnitude = 10 ** (len(str(raw)) - 1)
    for factor in (1, 2, 5, 10):
        if factor * magnitude >= raw:
            return factor * magnitude
    return 10 * magnitude


def grid(low: int, high: int, step: int) -> list[int]:
    points = list(range(low, high + 1, step))
    if points[-1] != high:
        points.append(high)
    return points


def candidates(event: Event, vary: Vary, ordinances: Sequence[str]) -> set[int]:
    """Points near the numbers the ordinances state (reasoner/points.py): for attendance, offset by the event's
    own capacities too; for filing dates, counted back from the start."""
    if vary.is_date:
        start = event.schedule.start.date().toordinal()
        found = {start - value + d for value in stated_numbers(ordinances) for d in (-1, 0, 1)}
    else:
        bases = [c for c in (event.site.seating_capacity, event.site.capacity) if isinstance(c, int)] if vary.field == "attendance" else []
        found = number_points(ordinances, bases)
        if vary.field == "close":  # the clock points of each day, and the lengths the ordinances state from each opening
            opens = {s.start.hour * 60 + s.start.minute for s in event.schedule.runs}
            found = {p + day for p in clock_points(ordinances) for day in (0, MINUTES_PER_DAY)} \
                | {o + d for o in opens for d in duration_points(ordinances)}
    return {x for x in found if vary.low <= x <= vary.high}


# ---------------------------------------------------------------- signatures

def _status(flags: set[str]) -> str:
    return "permit_required" if "permit_required" in flags else "exempt" if "exempt" in flags else "not_regulated"


def signatures(events: Sequence[Event], ordinances: Sequence[str], kinds: Sequence[str],
               proportional: Iterable[tuple[str, str, str]] = ()) -> list[frozenset]:
    """For each event, the shown atoms of the chosen kinds as text (amounts of proportional conclusions blanked),
    plus each ordinance's status: equal signatures mean equal conclusions of those kinds."""
    blank = set(proportional)
    wanted = set(kinds)
    atoms: dict[int, set] = defaultdict(set)
    flags: dict[tuple[int, str], set[str]] = defaultdict(set)
    for symbol in solve(events, ordinances):
        match = _ATOM.match(str(symbol))
        if not match:
            continue
        predicate, ordinance, number, rest = match.groups()
        kind = PREDICATE_KIND.get(predicate)
        if kind is None:
            continue
        index = int(number)
        if predicate in ("permit_required", "exempt"):
            flags[(index, ordinance)].add(predicate)
        if kind not in wanted:
            continue
        arguments = _ARGUMENT.findall(rest)
        name = arguments[NAME_ARGUMENT[predicate]] if predicate in NAME_ARGUMENT else predicate
        if (ordinance, kind, name) in blank:
            for position in VALUE_ARGUMENTS.get(predicate, ()):
                arguments[position] = "_"
        atoms[index].add((ordinance, predicate, tuple(arguments)))
    result = []
    for index in range(1, len(events) + 1):
        found = set(atoms[index])
        if "status" in wanted:
            found |= {("status", o, _status(flags[(index, o)])) for o in ordinances}
        result.append(frozenset(found))
    return result


# ---------------------------------------------------------------- the sweep

def _numbers(items: list[dict[str, Any]], kind: str) -> list[int]:
    values = []
    for item in items:
        value = item.get("max") if kind == "penalty" else item.get("value")
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            values.append(value)
        elif kind == "deadline" and isinstance(value, str):
            values.append(date.fromisoformat(value).toordinal())
    return sorted(values)


def _grouped(record: dict[str, Any], kinds: Sequence[str]) -> dict[tuple[str, str], list[dict[str, Any]]]:
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for item in record["conclusions"]:
        if item["kind"] in kinds:
            if item["kind"] == "reason":  # a reason changes where it comes to hold or fail, not with its number
                item = {k: v for k, v in item.items() if k not in ("actual", "range")}
            groups[(item["kind"], item["name"])].append(item)
    return groups


def _proportional(points: dict[int, list[dict[str, Any]]], kinds: Sequence[str], max_steps: int) -> set[tuple[str, str, str]]:
    """(ordinance, kind, name) whose amounts move by more than max_steps over the samples in all."""
    movement: dict[tuple[str, str, str], int] = defaultdict(int)
    previous: dict[tuple[str, str, str], list[int]] = {}
    for x in sorted(points):
        for record in points[x]:
            for (kind, name), items in _grouped(record, kinds).items():
                key = (record["ordinance"], kind, name)
                numbers = _numbers(items, kind)
                before = previous.get(key)
                if before is not None and len(before) == len(numbers):
                    movement[key] += sum(abs(a - b) for a, b in zip(before, numbers))
                previous[key] = numbers
    return {key for key, moved in movement.items() if moved > max_steps}


def _masked(item: dict[str, Any]) -> dict[str, Any]:
    masked = {k: v for k, v in item.items() if k not in VALUE_FIELDS}
    if item.get("alternative"):
        masked["alternative"] = {k: v for k, v in item["alternative"].items() if k != "value"}
    return masked


def _text(items: list[dict[str, Any]]) -> str:
    return "; ".join(("holds" if i["holds"] else "fails") + (" (possible)" if i.get("certainty") == "possible" else "")
                     if i["kind"] == "reason" else item_text(i) for i in items)


def _differences(before: dict[str, Any], after: dict[str, Any], kinds: Sequence[str],
                 proportional: set[tuple[str, str, str]]) -> list[dict[str, Any]]:
    ordinance = after["ordinance"]
    found = []
    if "status" in kinds and before["status"] != after["status"]:
        clauses = sorted({c for i in after["conclusions"] + before["conclusions"]
                          if i["kind"] in ("permit_required", "exemption") for c in i["clauses"]})
        found.append({"ordinance": ordinance, "kind": "status", "name": "permit_required", "change": "changes",
                      "before": before["status"], "after": after["status"], "unit": None, "clauses": clauses})
    old, new = _grouped(before, kinds), _grouped(after, kinds)
    for key in sorted(set(old) | set(new), key=lambda k: (ALL_KINDS.index(k[0]), k[1])):
        kind, name = key
        a, b = old.get(key, []), new.get(key, [])
        if (ordinance, kind, name) in proportional:
            same = [_masked(i) for i in a] == [_masked(i) for i in b]
        else:
            same = a == b
        if a and b and same:
            continue
        change = "appears" if not a else "disappears" if not b else "changes"
        items = b or a
        found.append({"ordinance": ordinance, "kind": kind, "name": name, "change": change,
                      "before": _text(a) if a else None, "after": _text(b) if b else None,
                      "unit": next((i.get("unit") for i in items if i.get("unit")), None),
                      "clauses": sorted({c for i in items for c in i["clauses"]})})
    return found


def _record_signature(record: dict[str, Any], kinds: Sequence[str], proportional: set[tuple[str, str, str]]) -> tuple:
    """One evaluate record as a signature (amounts of proportional conclusions masked): over unknown facts, where the
    answer set is no single one, the conclusions with their certainty and ranges."""
    groups = sorted((key, [_masked(i) if (record["ordinance"], *key) in proportional else i for i in items])
                    for key, items in _grouped(record, kinds).items())
    return record["ordinance"], record["status"], repr(groups)


@dataclass
class Sweep:
    event: str
    vary: Vary
    step: int
    ordinances: tuple[str, ...]
    kinds: tuple[str, ...]
    adjustments: list[str]
    points: dict[int, list[dict[str, Any]]]           # x -> evaluate records (one per ordinance): grid and both sides of each change
    grid: list[int]
    changes: list[dict[str, Any]]                     # one per (change point, ordinance, conclusion)
    proportional: list[dict[str, Any]]
    evaluations: int = 0

    @property
    def change_points(self) -> list[int]:
        return sorted({c["x"] for c in self.changes})

    def first(self, ordinance: str, kind: str = "status", name: str = "permit_required",
              change: str | None = None, after: str | None = None) -> int | str | None:
        """The first change point of one conclusion (as shown: a number or an ISO date), or None."""
        for item in self.changes:
            if (item["ordinance"], item["kind"], item["name"]) == (ordinance, kind, name) \
                    and change in (None, item["change"]) and after in (None, item["after"]):
                return item["at"]
        return None

    def to_json(self) -> dict[str, Any]:
        return {"event": self.event, "field": self.vary.field, "low": self.vary.show(self.vary.low),
                "high": self.vary.show(self.vary.high), "step": self.step, "ordinances": list(self.ordinances),
                "kinds": list(self.kinds), "adjustments": self.adjustments,
                "change_points": [{k: v for k, v in c.items() if k != "x"} for c in self.changes],
                "proportional": self.proportional, "evaluations": self.evaluations}

    def sample_rows(self) -> list[dict[str, Any]]:
        """Every conclusion of the chosen kinds at every evaluated point, one row each (tidy)."""
        rows = []
        for x in sorted(self.points):
            for record in self.points[x]:
                base = {"at": self.vary.show(x), "ordinance": record["ordinance"]}
                if "status" in self.kinds:
                    rows.append({**base, "kind": "status", "name": "permit_required", "value": record["status"],
                                 "unit": None, "modality": None, "clauses": ""})
                for item in record["conclusions"]:
                    if item["kind"] in self.kinds and item["kind"] != "status":
                        rows.append({**base, "kind": item["kind"], "name": item["name"], "value": item["value"],
                                     "unit": item["unit"], "modality": item["modality"], "clauses": " ".join(item["clauses"])})
        return rows


def sweep(event: Event, vary: Vary | str, ordinances: Sequence[str] | None = None, step: int | None = None,
          kinds: Sequence[str] = DEFAULT_KINDS, max_steps: int = DEFAULT_MAX_STEPS) -> Sweep:
    """Evaluate `event` as one fact varies over a range; find the exact points where conclusions change."""
    vary = parse_vary(vary) if isinstance(vary, str) else vary
    chosen = check_ordinances(ordinances)
    kinds = tuple(kinds)
    if step is not None and step < 1:
        raise SweepError("--step must be at least 1")
    step = step or nice_step(vary.low, vary.high)
    if (vary.high - vary.low) // step + 1 > MAX_POINTS:
        raise SweepError(f"{(vary.high - vary.low) // step + 1:,} sample points is more than {MAX_POINTS:,}; raise --step")
    memo_events: dict[int, Event] = {}

    def event_at(x: int) -> Event:
        if x not in memo_events:
            varied = vary_event(event, vary, x)
            memo_events[x] = varied.model_copy(update={"id": f"{event.id}@{vary.show(x)}"})
        return memo_events[x]

    points: dict[int, list[dict[str, Any]]] = {}
    evaluations = 0

    def full(xs: Iterable[int]) -> None:
        nonlocal evaluations
        todo = sorted(set(xs) - set(points))
        if not todo:
            return
        records = evaluate_any([event_at(x) for x in todo], chosen)
        evaluations += len(todo)
        found = {(r["event"], r["ordinance"]): r for r in records}
        for x in todo:
            points[x] = [found[(event_at(x).id, o)] for o in chosen]

    samples = grid(vary.low, vary.high, step)
    near_params = candidates(event, vary, chosen)
    # Movement is measured on the samples and on the points around every stated number, so that what counts as
    # proportional does not hang on the step: an amount that first holds at 2,000 is seen there, however coarse the grid.
    full(set(samples) | near_params)
    proportional = _proportional(points, kinds, max_steps)

    signature: dict[int, frozenset] = {}

    def sign(xs: Iterable[int]) -> None:
        nonlocal evaluations
        todo = sorted(set(xs) - set(signature))
        if todo and event.has_unknowns:  # over the completions: the conclusions with their certainty are the signature
            full(todo)
            for x in todo:
                signature[x] = frozenset(_record_signature(r, kinds, proportional) for r in points[x])
        elif todo:
            for x, found in zip(todo, signatures([event_at(x) for x in todo], chosen, kinds, proportional)):
                signature[x] = found
            evaluations += len(todo)

    probe = sorted(set(samples) | near_params)
    sign(probe)
    intervals = [(a, b) for a, b in zip(probe, probe[1:]) if signature[a] != signature[b]]
    found: list[int] = []
    while intervals:
        sign((a + b) // 2 for a, b in intervals if b - a > 1)
        narrowed = []
        for a, b in intervals:
            if b - a == 1:
                found.append(b)
                continue
            middle = (a + b) // 2
            if signature[a] != signature[middle]:
                narrowed.append((a, middle))
            if signature[middle] != signature[b]:
                narrowed.append((middle, b))
        intervals = narrowed
    full([x - 1 for x in found] + found)

    changes = []
    for x in sorted(found):
        for before, after in zip(points[x - 1], points[x]):
            for difference in _differences(before, after, kinds, proportional):
                changes.append({"x": x, "at": vary.show(x), **difference})
    moving = []
    for ordinance, kind, name in sorted(proportional):
        values = [(x, _numbers([i for i in rec["conclusions"] if i["kind"] == kind and i["name"] == name], kind))
                  for x in sorted(points) for rec in points[x] if rec["ordinance"] == ordinance]
        held = [(x, v) for x, v in values if v]
        moving.append({"ordinance": ordinance, "kind": kind, "name": name,
                       "from": vary.show(held[0][0]) if held else None, "first_value": held[0][1][-1] if held else None,
                       "to": vary.show(held[-1][0]) if held else None, "last_value": held[-1][1][-1] if held else None})
    return Sweep(event=event.id, vary=vary, step=step, ordinances=chosen, kinds=kinds,
                 adjustments=adjustments(event, vary), points=points, grid=samples, changes=changes,
                 proportional=moving, evaluations=evaluations)


# ---------------------------------------------------------------- output

CHANGE_COLUMNS = ("field", "at", "ordinance", "kind", "name", "change", "before", "after", "unit", "clauses")
SAMPLE_COLUMNS = ("at", "ordinance", "kind", "name", "value", "unit", "modality", "clauses")


def _csv(rows: Iterable[dict[str, Any]], columns: Sequence[str]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n", extrasaction="ignore")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: "" if row.get(k) is None else (" ".join(row[k]) if isinstance(row[k], list) else row[k])
                         for k in columns})
    return out.getvalue()


def changes_csv(result: Sweep) -> str:
    """The change points: one line per point, ordinance and conclusion that changes there; then one line per
    proportional amount (change `proportional`, at `FROM..TO`, before and after its first and last values),
    whose steps are too many to list (the samples file has them)."""
    rows = [{**c, "field": result.vary.field} for c in result.changes]
    rows += [{"field": result.vary.field, "at": f"{p['from']}..{p['to']}", "ordinance": p["ordinance"], "kind": p["kind"],
              "name": p["name"], "change": "proportional", "before": p["first_value"], "after": p["last_value"]}
             for p in result.proportional]
    return _csv(rows, CHANGE_COLUMNS)


def samples_csv(result: Sweep) -> str:
    return _csv(result.sample_rows(), SAMPLE_COLUMNS)
