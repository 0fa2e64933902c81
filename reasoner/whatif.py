"""What if: the smallest change to an event's facts that makes a conclusion hold or stop holding.

The facts that may change become choices (attendance among the points where a conclusion can
change, each session's end among the minutes where a duration or a time window is crossed, the site kind,
flags, services, sponsor, organizer), a constraint asks for the flipped conclusion, and clingo's
optimization finds the fewest changes first, then the smallest ones. The answer is checked by
evaluating the changed event on its own.
"""
from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

import clingo

from .atoms import event_atoms, session_facts
from .conclusions import evaluate
from .clocks import check_local_time
from .event import Event, Session
from .points import clock_points, duration_points, number_points
from .program import Program
from .schema import INPUT
from .vocabulary import names

# Fact groups that may change, with the input predicates they own.
GROUPS = {
    "attendance": ("attendance",),
    "schedule": ("session", "session_clock"),
    "site": ("site_kind", "site"),
    "flags": ("feature",),
    "special_services": ("special_service",),
    "organizer": ("sponsor", "organizer_kind"),
    "kinds": ("event_kind",),
}
assert all(p in INPUT for group in GROUPS.values() for p in group)
# Who organizes the event and what it is are kept unless the user allows them to change.
KEPT_BY_DEFAULT = ("organizer", "kinds")


class WhatIfError(ValueError):
    pass


# How big a change is, after how many facts change: a number moves by its share in basis points
# (attendance of the current peak, the end time of the event's length); a site kind counts as a
# 50% change, a yes/no fact or the organizer as a 100% change.
SITE_CHANGE = 5_000
TOGGLE = 10_000


def _percent(delta: int, whole: int) -> int:
    """The change's share of the whole in basis points, at most MAX_COST (clingo weights are 32-bit)."""
    return 0 if delta == 0 else min(MAX_COST, max(1, -(-10_000 * delta // max(whole, 1))))


MAX_COST = 1 << 30


def check_conclusion(ordinance: str, conclusion: str) -> None:
    """Refuse a name no conclusion of the ordinance can carry (the same names `explain` takes)."""
    from .explain import unknown_conclusion

    problem = unknown_conclusion(conclusion, [ordinance])
    if problem:
        raise WhatIfError(f"--flip {conclusion!r}: {problem}")


def holds(result: dict[str, Any], conclusion: str) -> bool:
    """Whether the conclusion is there (a reason: whether its condition holds)."""
    return any((c["name"] == conclusion or c["kind"] == conclusion) and c.get("holds", True)
               for c in result["conclusions"])


def _end_candidates(event: Event, ordinance: str, index: int) -> list[datetime]:
    """Ends of session `index` where a duration the ordinance states is crossed (from the session's start, or from
    the start of the stretch it closes), and the clock points of each day it touches; never into the next session."""
    runs = event.schedule.runs
    start, end = runs[index].start, runs[index].end
    stretch = index
    while stretch > 0 and runs[stretch - 1].end == runs[stretch].start:
        stretch -= 1
    durations = duration_points((ordinance,))
    points = {end} | {origin + timedelta(minutes=m) for m in durations for origin in (start, runs[stretch].start)}
    day = start.replace(hour=0, minute=0)
    clock = sorted(clock_points((ordinance,)))
    while day <= end + timedelta(days=1):
        points |= {day + timedelta(minutes=m) for m in clock}
        day += timedelta(days=1)
    limit = runs[index + 1].start if index + 1 < len(runs) else None
    return sorted(p for p in points if p > start and (limit is None or p <= limit) and _exists(p))


def _exists(moment: datetime) -> bool:
    try:
        check_local_time(moment, None, "end")
    except ValueError:
        return False
    return True


def _attendance_candidates(event: Event, ordinance: str) -> list[int]:
    seating = event.site.seating_capacity if isinstance(event.site.seating_capacity, int) else None
    points = {event.attendance.expected_max} | number_points((ordinance,), [seating] if seating is not None else [])
    return sorted(v for v in points if 0 <= v <= MAX_ATTENDANCE)


# The largest attendance a change may propose (the event format's own bound).
MAX_ATTENDANCE = 10_000_000


def whatif(event: Event, ordinance: str, conclusion: str, keep: Sequence[str] = (),
           allow: Sequence[str] = ()) -> dict[str, Any]:
    """The smallest change to `event` that makes `conclusion` flip under `ordinance`.
    `keep` names fact groups that may not change; `allow` releases groups kept by default."""
    if event.has_unknowns:
        raise WhatIfError(f"{event.id}: whatif needs every fact known; answer `reasoner questions` first")
    unknown_groups = (set(keep) | set(allow)) - set(GROUPS)
    keep = tuple(sorted(set(keep) | (set(KEPT_BY_DEFAULT) - set(allow))))
    if unknown_groups:
        named = [f"--keep {g}" for g in keep if g not in GROUPS] + [f"--allow {g}" for g in allow if g not in GROUPS]
        raise WhatIfError(f"{', '.join(named)}: no such group of facts; groups are {', '.join(GROUPS)}")
    check_conclusion(ordinance, conclusion)
    [before] = evaluate([event], [ordinance])
    currently = holds(before, conclusion)
    free = [g for g in GROUPS if g not in keep]
    owned = {p for g in free for p in GROUPS[g]}
    base = [a for a in event_atoms(1, event) if a.name not in owned]
    facts: list[clingo.Symbol] = []   # the allowed changes, as modes.lp (part whatif) reads them

    def alternatives(group: str, options: list[tuple[clingo.Symbol, int]]) -> None:
        """Exactly one of the options, each at its cost (0 for the current value)."""
        name = clingo.Function(group)
        facts.extend(clingo.Function("_change", [name, clingo.Function(atom.name), atom, clingo.Number(cost)])
                     for atom, cost in options)

    e = clingo.Number(1)
    if "attendance" in free:
        current = event.attendance.expected_max
        alternatives("attendance", [(clingo.Function("attendance", [e, clingo.Number(v)]), _percent(abs(v - current), current))
                                    for v in _attendance_candidates(event, ordinance)])
    if "schedule" in free:  # which session to shorten or lengthen: each session's end is a choice
        runs = event.schedule.runs
        length = sum(int((s.end - s.start).total_seconds() // 60) for s in runs)
        for index, session in enumerate(runs):
            options = []
            for t in _end_candidates(event, ordinance, index):
                changed = session if t == session.end else Session(start=session.start, end=t,
                                                                   start_occurrence=session.start_occurrence)
                atom, *clocks = (clingo.Function(name, [clingo.Number(a) if isinstance(a, int) else a for a in args])
                                 for name, args in session_facts(1, changed))
                base.extend(clocks)
                options.append((atom, _percent(abs(int((t - session.end).total_seconds() // 60)), length)))
            facts.extend(clingo.Function("_change", [clingo.Function("schedule"), clingo.Function("session", [clingo.Number(index)]),
                                                     atom, clingo.Number(cost)]) for atom, cost in options)
    if "site" in free:
        alternatives("site", [(clingo.Function("site_kind", [e, clingo.Function(k)]), SITE_CHANGE * (k != event.site.kind))
                              for k in names("site_kinds")])
    for group, predicate, section, current in (
        ("site", "site", "site_flags", set(event.site.flags)),
        ("flags", "feature", "event_flags", set(event.flags)),
        ("special_services", "special_service", "special_services", set(event.special_services)),
        ("kinds", "event_kind", "event_kinds", set(event.kinds)),
    ):
        if group in free:
            for name in names(section):
                atom = clingo.Function(predicate, [e, clingo.Function(name)])
                facts.append(clingo.Function("_toggle", [clingo.Function(group), atom, clingo.Number(int(name in current)),
                                                         clingo.Number(TOGGLE)]))
    if "organizer" in free:
        alternatives("organizer", [(clingo.Function("sponsor", [e, clingo.Function(k)]), TOGGLE * (k != event.organizer.sponsor))
                                   for k in names("sponsor_kinds")])
        alternatives("organizer", [(clingo.Function("organizer_kind", [e, clingo.Function(k)]), TOGGLE * (k != event.organizer.kind))
                                   for k in names("organizer_kinds")])
    facts.append(clingo.Function("_flip", [clingo.Function(ordinance), clingo.Function(conclusion)]))
    facts.append(clingo.Function("_wanted", [clingo.Function("absent" if currently else "holds")]))
    program = (Program((ordinance,), options=["--opt-mode=opt"], parts=["choices", "whatif"])
               .add_atoms(base).add_atoms(facts).ground())
    best: list[clingo.Symbol] | None = None
    chosen: list[clingo.Symbol] = []
    for model in program.models():
        best, chosen = model.symbols(shown=True), model.symbols(atoms=True)
    report: dict[str, Any] = {"event": event.id, "ordinance": ordinance, "conclusion": conclusion,
                              "holds_now": currently, "kept": sorted(keep), "changes": [], "found": best is not None}
    if best is None:
        return report
    changed = _apply(event, chosen, free)
    [after] = evaluate([changed], [ordinance])
    report["changes"] = _describe_changes(event, changed)
    report["holds_after"] = holds(after, conclusion)
    report["verified"] = report["holds_after"] != currently
    report["clauses"] = _clauses_behind(before if currently else after, conclusion, changed, ordinance, currently)
    return report


def _apply(event: Event, atoms: Sequence[clingo.Symbol], free: Sequence[str]) -> Event:
    """The event with the chosen values of the free facts."""
    def args(name: str) -> list[list[clingo.Symbol]]:
        return [a.arguments[1:] for a in atoms if a.name == name and len(a.arguments) >= 2 and a.arguments[0] == clingo.Number(1)]

    data = event.model_dump(mode="python")
    if "attendance" in free:
        new, old = args("attendance")[0][0].number, event.attendance.expected_max
        data["attendance"]["expected_max"] = new
        for sex in ("female", "male"):  # the split keeps its proportions
            if data["attendance"][sex] is not None and old:
                data["attendance"][sex] = data["attendance"][sex] * new // old
    if "schedule" in free:
        ends = {(a[0].number, a[1].number): datetime.fromordinal(a[2].number) + timedelta(minutes=a[3].number)
                for a in args("session")}
        runs = [s if ends[(s.start.toordinal(), s.start.hour * 60 + s.start.minute)] == s.end
                else Session(start=s.start, end=ends[(s.start.toordinal(), s.start.hour * 60 + s.start.minute)],
                             start_occurrence=s.start_occurrence)
                for s in event.schedule.runs]
        if event.schedule.start is not None:
            data["schedule"]["end"] = runs[0].end
        else:
            data["schedule"].update(sessions=[s.model_dump() for s in runs], daily=None)
    if "site" in free:
        data["site"]["kind"] = args("site_kind")[0][0].name
        data["site"]["flags"] = sorted(a[0].name for a in args("site"))
    if "flags" in free:
        data["flags"] = sorted(a[0].name for a in args("feature"))
    if "special_services" in free:
        data["special_services"] = sorted(a[0].name for a in args("special_service"))
    if "kinds" in free:
        data["kinds"] = sorted(a[0].name for a in args("event_kind"))
    if "organizer" in free:
        data["organizer"]["sponsor"] = args("sponsor")[0][0].name
        data["organizer"]["kind"] = args("organizer_kind")[0][0].name
    return Event.model_validate(data)


def _describe_changes(before: Event, after: Event) -> list[dict[str, Any]]:
    found = []
    single = before.schedule.start is not None
    pairs = [("attendance.expected_max", before.attendance.expected_max, after.attendance.expected_max),
             *((("schedule.end" if single else f"schedule.sessions[{i}].end"), old.end.isoformat(timespec="minutes"),
                new.end.isoformat(timespec="minutes")) for i, (old, new) in enumerate(zip(before.schedule.runs, after.schedule.runs))),
             ("site.kind", before.site.kind, after.site.kind), ("organizer.sponsor", before.organizer.sponsor, after.organizer.sponsor),
             ("organizer.kind", before.organizer.kind, after.organizer.kind)]
    for path, old, new in pairs:
        if old != new:
            found.append({"fact": path, "from": old, "to": new})
    for path, old, new in (("flags", before.flags, after.flags), ("site.flags", before.site.flags, after.site.flags),
                           ("special_services", before.special_services, after.special_services), ("kinds", before.kinds, after.kinds)):
        for name in sorted(set(new) - set(old)):
            found.append({"fact": f"{path}.{name}", "from": False, "to": True})
        for name in sorted(set(old) - set(new)):
            found.append({"fact": f"{path}.{name}", "from": True, "to": False})
    return found


def _clauses_behind(holding: dict[str, Any], conclusion: str, changed: Event, ordinance: str, was_holding: bool) -> list[str]:
    """The clauses of the conclusion where it holds; where it stopped holding, the clause of the failed condition."""
    if not was_holding:
        return sorted({c for item in holding["conclusions"] if conclusion in (item["name"], item["kind"]) for c in item["clauses"]})
    from .explain import explain

    report = explain(changed, ordinance, conclusion)
    found: list[str] = []

    def walk(node: dict[str, Any]) -> None:
        if node.get("clause") and node["clause"] not in found:
            found.append(node["clause"])
        for child in node.get("children", []):
            walk(child)
        for attempt in node.get("attempts", []):
            if attempt.get("clause") and attempt["clause"] not in found:
                found.append(attempt["clause"])
            if attempt.get("explanation"):
                walk(attempt["explanation"])

    for node in report["why_not"]:
        walk(node)
    return found
