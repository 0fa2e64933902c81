"""What if: the smallest changes to an event's facts that make a conclusion hold or stop holding, ranked.

The facts that may change become choices (attendance among the points where a conclusion can
change, each session's end among the minutes where a duration or a time window is crossed, the site kind,
flags, services, sponsor, organizer, and the day the application is filed, which modes.lp moves to a filing
deadline the encodings derive), a constraint asks for the flipped conclusion, no change may make a fact hold that
the other facts rule out (vocabulary.lp), and clingo's optimization finds the fewest changes first, then the
smallest ones. The next smallest are found in later steps of the same program, each leaving alone some fact every
earlier one changes. Each answer is checked by evaluating the changed event on its own.
"""
from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, timedelta
from typing import Any

import clingo

from reasoner.events.atoms import event_atoms, session_facts
from reasoner.evaluate import evaluate
from reasoner.events.clocks import exists_once
from reasoner.events.model import Event, Session
from reasoner.events.rules import MAX_PEOPLE
from reasoner.points import duration_points, end_points, number_points
from reasoner.program import Program
from reasoner.law.schema import INPUT
from reasoner.law.vocabulary import names

# Fact groups that may change, with the input predicates they own.
GROUPS = {
    "attendance": ("attendance",),
    "schedule": ("session", "session_clock"),
    "site": ("site_kind", "site"),
    "flags": ("feature",),
    "special_services": ("special_service",),
    "organizer": ("sponsor", "organizer_kind"),
    "kinds": ("event_kind",),
    "filing": ("filed",),
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
    """Refuse a name no conclusion of the ordinance can carry (the same names `explain` takes): a conclusion's
    name, or the kind of some conclusion it has (late: filed after any deadline)."""
    from reasoner.modes.explain import unknown_conclusion

    problem = unknown_conclusion(conclusion, [ordinance])
    if problem:
        raise WhatIfError(f"--flip {conclusion!r}: {problem}")
    from reasoner.modes.catalog import catalog

    if conclusion not in {entry[key] for entry in catalog(ordinance) for key in ("name", "kind")}:  # a word of the rules, as note or show
        raise WhatIfError(f"--flip {conclusion!r}: no conclusion of {ordinance} is named so; "
                          f"`reasoner conclusions {ordinance}` lists those --flip takes")


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
    longest = max(duration_points((ordinance,)), default=0)
    limit = runs[index + 1].start if index + 1 < len(runs) else \
        max(end + timedelta(days=1), runs[stretch].start + timedelta(minutes=longest))
    points = {end} | end_points((ordinance,), start, (start, runs[stretch].start), limit)
    return sorted(p for p in points if exists_once(p))


def _attendance_candidates(event: Event, ordinance: str) -> list[int]:
    seating = event.site.seating_capacity if isinstance(event.site.seating_capacity, int) else None
    points = {event.attendance.expected_max} | number_points((ordinance,), [seating] if seating is not None else [])
    return sorted(v for v in points if 0 <= v <= MAX_PEOPLE)  # no proposal past the event format's bound


def whatif(event: Event, ordinance: str, conclusion: str, keep: Sequence[str] = (),
           allow: Sequence[str] = (), proposals: int = 1) -> dict[str, Any]:
    """The smallest change to `event` that makes `conclusion` flip under `ordinance`, and up to `proposals` - 1
    next smallest (`alternatives`, ranked), each leaving alone some fact every earlier one changes.
    `keep` names fact groups that may not change; `allow` releases groups kept by default.
    Over unknown facts only the known facts change, and the conclusion must come out so in every completion."""
    if proposals < 1:
        raise WhatIfError(f"--proposals {proposals}: ask for at least one proposal")
    unknown_groups = (set(keep) | set(allow)) - set(GROUPS)
    keep = tuple(sorted(set(keep) | (set(KEPT_BY_DEFAULT) - set(allow))))
    if unknown_groups:
        named = [f"--keep {g}" for g in keep if g not in GROUPS] + [f"--allow {g}" for g in allow if g not in GROUPS]
        raise WhatIfError(f"{', '.join(named)}: no such group of facts; groups are {', '.join(GROUPS)}")
    check_conclusion(ordinance, conclusion)
    if event.has_unknowns:
        return _whatif_uncertain(event, ordinance, conclusion, keep, proposals)
    [before] = evaluate([event], [ordinance])
    currently = holds(before, conclusion)
    free = [g for g in GROUPS if g not in keep]
    base, facts = _search_facts(event, ordinance, conclusion, free, "absent" if currently else "holds", set())
    program = (Program((ordinance,), options=["--opt-mode=opt"], parts=["choices", "whatif"])
               .add_atoms(base).add_atoms(facts).ground())
    found: list[dict[str, Any]] = []
    for rank in range(proposals):
        best: list[clingo.Symbol] | None = None
        chosen: list[clingo.Symbol] = []
        for model in program.models():
            best, chosen = model.symbols(shown=True), model.symbols(atoms=True)
        if best is None:
            break
        changed = _apply(event, chosen, free)
        [after] = evaluate([changed], [ordinance])
        holds_after = holds(after, conclusion)
        found.append({"changes": _describe_changes(event, changed), "holds_after": holds_after,
                      "verified": holds_after != currently,
                      "clauses": _clauses_behind(before if currently else after, conclusion, changed, ordinance, currently)})
        if rank + 1 < proposals:
            program.add_step("proposed", [clingo.Number(rank)],
                             [clingo.Function("_proposed", [clingo.Number(rank), *a.arguments]) for a in best if a.name == "_touched"])
    report: dict[str, Any] = {"event": event.id, "ordinance": ordinance, "conclusion": conclusion,
                              "holds_now": currently, "kept": sorted(keep), "changes": [], "found": bool(found)}
    if found:
        report.update(found[0])
        if proposals > 1:
            report["alternatives"] = found[1:]
    return report


def _search_facts(event: Event, ordinance: str, conclusion: str, free: Sequence[str], wanted: str,
                  unknown: set[clingo.Symbol]) -> tuple[list[clingo.Symbol], list[clingo.Symbol]]:
    """The event's facts that stay, and the allowed changes as modes.lp (part whatif) reads them; the atoms of
    unknown facts are no change (they stay choices of the completions)."""
    owned = {p for g in free for p in GROUPS[g]}
    base = [a for a in event_atoms(1, event) if a.name not in owned]
    facts: list[clingo.Symbol] = []

    def alternatives(group: str, options: list[tuple[clingo.Symbol, int]]) -> None:
        """Exactly one of the options, each at its cost (0 for the current value)."""
        name = clingo.Function(group)
        facts.extend(clingo.Function("_change", [name, clingo.Function(atom.name), atom, clingo.Number(cost)])
                     for atom, cost in options if atom not in unknown)

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
    if "filing" in free and event.application is not None and event.application.filed is not None:
        # the day filed now; modes.lp adds each filing deadline's day (the latest on time) and the day after it
        alternatives("filing", [(clingo.Function("filed", [e, clingo.Number(event.application.filed.toordinal())]), 0)])
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
                if atom not in unknown:
                    facts.append(clingo.Function("_toggle", [clingo.Function(group), atom, clingo.Number(int(name in current)),
                                                             clingo.Number(TOGGLE)]))
    if "organizer" in free:
        alternatives("organizer", [(clingo.Function("sponsor", [e, clingo.Function(k)]), TOGGLE * (k != event.organizer.sponsor))
                                   for k in names("sponsor_kinds")])
        alternatives("organizer", [(clingo.Function("organizer_kind", [e, clingo.Function(k)]), TOGGLE * (k != event.organizer.kind))
                                   for k in names("organizer_kinds")])
    facts.append(clingo.Function("_flip", [clingo.Function(ordinance), clingo.Function(conclusion)]))
    facts.append(clingo.Function("_wanted", [clingo.Function(wanted)]))
    return base, facts


# ---------------------------------------------------------------- over unknown facts

# How many sets of changes are tried, cheapest first, before saying that none among them settles the conclusion.
MAX_TRIES = 8
CERTAINTY_HOLDS = {"certain": True, "possible": None, "impossible": False}


def certainty(result: dict[str, Any], conclusion: str) -> str:
    """Over unknown facts: whether the conclusion holds in every completion, in some, or in none."""
    found = [c for c in result["conclusions"] if (c["name"] == conclusion or c["kind"] == conclusion) and c.get("holds", True)]
    if any(c.get("certainty", "certain") == "certain" for c in found):
        return "certain"
    return "possible" if found or result["status"] == "possibly_required" and conclusion == "permit_required" else "impossible"


def _whatif_uncertain(event: Event, ordinance: str, conclusion: str, keep: tuple[str, ...], proposals: int = 1) -> dict[str, Any]:
    """Over unknown facts: the smallest change to the known facts after which the conclusion holds in every completion
    (when it holds in none or some now) or in none (when it holds in every one or some now), and the unknown facts
    whose answers decide it as things stand.

    The optimization lets the unknown facts be any completion, so its cheapest change makes the conclusion come out
    so in some completion; each proposal is checked over every completion, and one found wanting is cut (modes.lp
    `_cut`) and the next cheapest tried, up to MAX_TRIES."""
    from reasoner.conclusions import read_atom
    from reasoner.unknowns import Completions, decisive_answers, evaluate_uncertain, unknowns_of

    [before] = evaluate_uncertain(event, [ordinance])
    now = certainty(before, conclusion)
    unknowns = unknowns_of(event, 1, (ordinance,))
    unknown_atoms = {atom for u in unknowns for _, atom in u.values if atom is not None}
    kept = set(keep)
    if "attendance.expected_max" in event.unknown or not isinstance(event.attendance.expected_max, int):
        kept.add("attendance")  # the peak is unknown: no known number to change
    if event.schedule.open_ends():
        kept.add("schedule")  # an end is unknown: the sessions are not known facts to move
    free = [g for g in GROUPS if g not in kept]

    def names_it(atom: clingo.Symbol) -> bool:
        read = read_atom(atom)
        return (read is not None and read[0] == ordinance and read[2].get("holds", True)
                and conclusion in (atom.name, read[2]["name"], read[2]["kind"]))

    report: dict[str, Any] = {"event": event.id, "ordinance": ordinance, "conclusion": conclusion,
                              "holds_now": CERTAINTY_HOLDS[now], "certainty_now": now, "kept": sorted(kept),
                              "unknown": [u.path for u in unknowns],
                              "decided_by": decisive_answers(names_it, list(Completions(event, (ordinance,)).answers()))
                              if now == "possible" else []}
    wanted = ["absent"] if now == "certain" else ["holds"] if now == "impossible" else ["holds", "absent"]
    searches = [_search_uncertain(event, ordinance, conclusion, free, goal, unknowns, unknown_atoms, before, proposals)
                for goal in wanted]
    report.update(searches[0])
    if len(searches) > 1:
        report["otherwise"] = searches[1]
    return report


def _search_uncertain(event: Event, ordinance: str, conclusion: str, free: Sequence[str], wanted: str,
                      unknowns: Sequence[Any], unknown_atoms: set[clingo.Symbol], before: dict[str, Any],
                      proposals: int = 1) -> dict[str, Any]:
    """One search over unknown facts: the smallest set of changes that makes it so in every completion (`tried`: the
    sets tried until it), then, within the same MAX_TRIES, up to `proposals` - 1 next smallest (`alternatives`),
    each leaving alone some fact every earlier one changes (modes.lp part proposed)."""
    from reasoner.unknowns import evaluate_uncertain

    target = "certain" if wanted == "holds" else "impossible"
    base, facts = _search_facts(event, ordinance, conclusion, free, wanted, unknown_atoms)
    facts += [fact for u in unknowns for fact in u.choice_facts()]
    facts.append(clingo.Function("_cut_nothing"))  # as things stand it is not so in every completion
    found: dict[str, Any] = {"wanted": f"certainly_{wanted}", "changes": [], "found": False, "tried": 0}
    cuts: list[clingo.Symbol] = []
    results: list[dict[str, Any]] = []
    touched: list[list[clingo.Symbol]] = []
    for attempt in range(MAX_TRIES):
        program = (Program((ordinance,), options=["--opt-mode=opt"], parts=["choices", "whatif"])
                   .add_atoms(base).add_atoms(facts).add_atoms(cuts).ground())
        for rank, atoms in enumerate(touched):
            program.add_step("proposed", [clingo.Number(rank)], atoms)
        best: list[clingo.Symbol] | None = None
        chosen: list[clingo.Symbol] = []
        for model in program.models():
            best, chosen = model.symbols(shown=True), model.symbols(atoms=True)
        if not results:
            found["tried"] = attempt + 1
        if best is None:  # no (other) change of the allowed facts makes it so even in one completion
            break
        changed = _apply(event, [a for a in chosen if a not in unknown_atoms], free, set(event.unknown))
        [after] = evaluate_uncertain(changed, [ordinance])
        if certainty(after, conclusion) == target:
            holding = after if wanted == "holds" else before
            named = sorted({c for item in holding["conclusions"] if conclusion in (item["name"], item["kind"]) for c in item["clauses"]})
            results.append({"changes": _describe_changes(event, changed), "holds_after": CERTAINTY_HOLDS[target],
                            "certainty_after": target, "verified": True,
                            "clauses": _clauses_behind(holding, conclusion, changed, ordinance, wanted == "absent") or named})
            if len(results) == proposals:
                break
            touched.append([clingo.Function("_proposed", [clingo.Number(len(touched)), *a.arguments])
                            for a in best if a.name == "_touched"])
            continue
        cuts += [clingo.Function("_cut", [clingo.Number(attempt), *a.arguments[:2]]) for a in best if a.name == "_changed"]
    if results:
        found.update(found=True, **results[0])
        if proposals > 1:
            found["alternatives"] = results[1:]
    elif best is not None:
        found["gave_up"] = True
    return found


def _apply(event: Event, atoms: Sequence[clingo.Symbol], free: Sequence[str], unknown: set[str] = frozenset()) -> Event:
    """The event with the chosen values of the free facts (`unknown`: the paths that stay unknown)."""
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
    if "filing" in free and event.application is not None and event.application.filed is not None:
        data["application"]["filed"] = date.fromordinal(args("filed")[0][0].number)
    if "site" in free:
        if "site.kind" not in unknown:
            data["site"]["kind"] = args("site_kind")[0][0].name
        data["site"]["flags"] = sorted(a[0].name for a in args("site"))
    if "flags" in free:
        data["flags"] = sorted(a[0].name for a in args("feature"))
    if "special_services" in free:
        data["special_services"] = sorted(a[0].name for a in args("special_service"))
    if "kinds" in free:
        data["kinds"] = sorted(a[0].name for a in args("event_kind"))
    if "organizer" in free:
        for field, predicate in (("sponsor", "sponsor"), ("kind", "organizer_kind")):
            if f"organizer.{field}" not in unknown:
                data["organizer"][field] = args(predicate)[0][0].name
    return Event.model_validate(data)


def _end_text(session: Session) -> str:
    end = session.open_end
    return session.end.isoformat(timespec="minutes") if end is None else \
        f"{end.min.isoformat(timespec='minutes')}..{end.max.isoformat(timespec='minutes')}"


def _filed_text(event: Event) -> str | None:
    return None if event.application is None or event.application.filed is None else event.application.filed.isoformat()


def _describe_changes(before: Event, after: Event) -> list[dict[str, Any]]:
    found = []
    single = before.schedule.start is not None
    pairs = [("attendance.expected_max", before.attendance.expected_max, after.attendance.expected_max),
             *((("schedule.end" if single else f"schedule.sessions[{i}].end"), _end_text(old), _end_text(new)) for i, (old, new) in enumerate(zip(before.schedule.runs, after.schedule.runs))),
             ("application.filed", _filed_text(before), _filed_text(after)),
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
    """The clauses of the conclusion where it holds; where it stopped holding, the clause of the failed condition
    (for a kind such as late, of each conclusion of that kind that held: explain traces names; where none failed, as
    when a filing moved before its deadline, the clauses the conclusion held by)."""
    items = [item for item in holding["conclusions"] if conclusion in (item["name"], item["kind"])]
    held = sorted({c for item in items for c in item["clauses"]})
    if not was_holding:
        return held
    from reasoner.modes.explain import explain

    traced = [conclusion] if any(item["name"] == conclusion for item in items) or not items else \
        list(dict.fromkeys(item["name"] for item in items))
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

    for name in traced:
        for node in explain(changed, ordinance, name)["why_not"]:
            walk(node)
    return found or held
