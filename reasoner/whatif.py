"""What if: the smallest change to an event's facts that makes a conclusion hold or stop holding.

The facts that may change become choices (attendance among the points where a conclusion can
change, the end time among the minutes where a duration or a time window is crossed, the site kind,
flags, services, sponsor, organizer), a constraint asks for the flipped conclusion, and clingo's
optimization finds the fewest changes first, then the smallest ones. The answer is checked by
evaluating the changed event on its own.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

import clingo

from .atoms import event_atoms
from .conclusions import evaluate
from .event import Event
from .solver import CLINGO_OPTIONS, program_text
from .unknowns import parameter_values
from .vocabulary import names

# Fact groups that may change, with the input predicates they own.
GROUPS = {
    "attendance": ("attendance",),
    "schedule": ("ends",),
    "site": ("site_kind", "site"),
    "flags": ("feature",),
    "special_services": ("special_service",),
    "organizer": ("sponsor", "organizer_kind"),
    "kinds": ("event_kind",),
}
# Who organizes the event and what it is are kept unless the user allows them to change.
KEPT_BY_DEFAULT = ("organizer", "kinds")
WHOLE = {"permit_required", "regulated"}
NAMED = {"obligation": 5, "exempt": 4, "restriction": 4, "denial_ground": 5, "application_requirement": 4,
         "revocation_ground": 4, "penalty": 8, "late": 5}


class WhatIfError(ValueError):
    pass


# How big a change is, after how many facts change: a number moves by its share in basis points
# (attendance of the current peak, the end time of the event's length); a site kind counts as a
# 50% change, a yes/no fact or the organizer as a 100% change.
SITE_CHANGE = 5_000
TOGGLE = 10_000


def _percent(delta: int, whole: int) -> int:
    return 0 if delta == 0 else max(1, -(-10_000 * delta // max(whole, 1)))


CONCLUSION_NAME = re.compile(r"[a-z][a-z0-9_]*")


def goal_rules(ordinance: str, conclusion: str) -> str:
    """The rules defining `_goal`; the conclusion's name becomes a constant, so it must be one."""
    if not CONCLUSION_NAME.fullmatch(conclusion):
        raise WhatIfError(f"--flip {conclusion!r}: a conclusion is named in lower case letters, digits and _ "
                          "(e.g. permit_required, nurses, bond_usd)")
    o = clingo.Function(ordinance)
    if conclusion in WHOLE:
        return f"_goal :- {conclusion}({o},1,_)."
    rules = []
    for predicate, arity in NAMED.items():
        rest = ",".join(["_"] * (arity - 3))
        rules.append(f"_goal :- {predicate}({o},1,{clingo.Function(conclusion)},{rest}).")
    return "\n".join(rules)


def holds(result: dict[str, Any], conclusion: str) -> bool:
    return any(c["name"] == conclusion or c["kind"] == conclusion for c in result["conclusions"])


def _end_candidates(event: Event, hours: Iterable[int]) -> list[datetime]:
    start, end = event.schedule.start, event.schedule.end
    points = {end}
    for h in hours:
        if 0 < h <= 72:
            points |= {start + timedelta(minutes=h * 60 - 1), start + timedelta(minutes=h * 60)}
    day = start.replace(hour=0, minute=0)
    while day <= end + timedelta(days=1):
        for hour, minute in ((0, 0), (0, 59), (1, 0), (1, 1), (7, 0), (7, 1)):
            points.add(day.replace(hour=hour, minute=minute))
        day += timedelta(days=1)
    return sorted(p for p in points if p > start)


def _attendance_candidates(event: Event, ordinance: str) -> list[int]:
    current = event.attendance.expected_max
    points = {current}
    seating = event.site.seating_capacity if isinstance(event.site.seating_capacity, int) else None
    for p in parameter_values((ordinance,)):
        points |= {p - 1, p, p + 1}
        if seating is not None:
            points |= {seating + p, seating + p + 1, seating + seating // 2, seating + seating // 2 + 1}
    return sorted(v for v in points if 0 <= v <= 10_000_000)


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
    goal = goal_rules(ordinance, conclusion)
    [before] = evaluate([event], [ordinance])
    currently = holds(before, conclusion)
    free = [g for g in GROUPS if g not in keep]
    owned = {p for g in free for p in GROUPS[g]}
    base = [a for a in event_atoms(1, event) if a.name not in owned]
    start_day = event.schedule.start.toordinal()
    hours = [v for v in parameter_values((ordinance,)) if v <= 72]
    lines: list[str] = []
    changes = []  # (atom, group, cost) for every alternative; cost 0 for the current value

    def alternatives(group: str, options: list[tuple[clingo.Symbol, int]], exactly_one: bool) -> None:
        if exactly_one:
            lines.append("1 { " + "; ".join(str(a) for a, _ in options) + " } 1.")
        for atom, cost in options:
            if not exactly_one:
                lines.append(f"{{ {atom} }}.")
            changes.append((atom, group, cost))

    e = clingo.Number(1)
    if "attendance" in free:
        current = event.attendance.expected_max
        alternatives("attendance", [(clingo.Function("attendance", [e, clingo.Number(v)]), _percent(abs(v - current), current))
                                    for v in _attendance_candidates(event, ordinance)], True)
    if "schedule" in free:
        end = event.schedule.end
        length = int((end - event.schedule.start).total_seconds() // 60)
        alternatives("schedule", [(clingo.Function("ends", [e, clingo.Number(t.toordinal()), clingo.Number(t.hour * 60 + t.minute)]),
                                   _percent(abs(int((t - end).total_seconds() // 60)), length)) for t in _end_candidates(event, hours)], True)
    if "site" in free:
        alternatives("site", [(clingo.Function("site_kind", [e, clingo.Function(k)]), SITE_CHANGE * (k != event.site.kind))
                              for k in names("site_kinds")], True)
    for group, predicate, section, current in (
        ("site", "site", "site_flags", set(event.site.flags)),
        ("flags", "feature", "event_flags", set(event.flags)),
        ("special_services", "special_service", "special_services", set(event.special_services)),
        ("kinds", "event_kind", "event_kinds", set(event.kinds)),
    ):
        if group in free:
            for name in names(section):
                atom = clingo.Function(predicate, [e, clingo.Function(name)])
                lines.append(f"{{ {atom} }}.")
                lines.append(f"_changed({group},{name},{TOGGLE}) :- {'not ' if name in current else ''}{atom}.")
    if "organizer" in free:
        alternatives("organizer", [(clingo.Function("sponsor", [e, clingo.Function(k)]), TOGGLE * (k != event.organizer.sponsor))
                                   for k in names("sponsor_kinds")], True)
        alternatives("organizer", [(clingo.Function("organizer_kind", [e, clingo.Function(k)]), TOGGLE * (k != event.organizer.kind))
                                   for k in names("organizer_kinds")], True)
    for atom, group, cost in changes:
        if cost:
            lines.append(f"_changed({group},{atom},{cost}) :- {atom}.")
    lines.append("#minimize { 1@2,G,X : _changed(G,X,_) }.")
    lines.append("#minimize { W@1,G,X : _changed(G,X,W) }.")
    lines.append(goal)
    lines.append(":- _goal." if currently else ":- not _goal.")
    lines.append("#show _changed/3.")

    control = clingo.Control(CLINGO_OPTIONS + ["--opt-mode=opt"])
    control.add("base", [], program_text((ordinance,)))
    control.add("base", [], "".join(f"{a}.\n" for a in base))
    control.add("base", [], "\n".join(lines))
    control.ground([("base", [])])
    best: list[clingo.Symbol] | None = None
    chosen: list[clingo.Symbol] = []
    with control.solve(yield_=True) as handle:
        for model in handle:
            best = model.symbols(shown=True)
            chosen = model.symbols(atoms=True)
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
        day, minute = args("ends")[0]
        data["schedule"]["end"] = datetime.fromordinal(day.number) + timedelta(minutes=minute.number)
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
    pairs = [("attendance.expected_max", before.attendance.expected_max, after.attendance.expected_max),
             ("schedule.end", before.schedule.end.isoformat(timespec="minutes"), after.schedule.end.isoformat(timespec="minutes")),
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
