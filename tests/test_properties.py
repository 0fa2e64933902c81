"""Legal properties of every encoded ordinance, tested on generated events (hypothesis).

- More attendance never lowers a required quantity (minimums never fall, time limits never rise),
  and never drops an obligation.
- An exemption never adds an obligation: what an event owes with the exemption rules is never more
  than what it would owe were there no exemptions at all.
- Results do not depend on the order of events in a file, nor on the order of the facts.
- The same input always gives byte-identical JSON.

Generated events are valid by construction; their numbers cluster around every parameter the
encodings state (param/4), so both sides of each threshold come up. Set REASONER_FUZZ_SCALE=10
for a longer run.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path

import clingo
from clingo import ast
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from reasoner.events.atoms import facts_program
from reasoner.events.clocks import exists_once
from reasoner.conclusions import results_from_symbols
from reasoner.evaluate import evaluate
from reasoner.events.loading import parse_events
from reasoner.program import CLINGO_OPTIONS, Program, encoding_text, reading_facts, zone_facts
from reasoner.law.locator import encoded_ordinances
from reasoner.law.vocabulary import names

ORDINANCES = encoded_ordinances()
SCALE = float(os.environ.get("REASONER_FUZZ_SCALE", "1"))


def examples(count: int):
    """Modest example counts and no deadline: solving takes a noisy 50-200 ms on a small machine."""
    return settings(max_examples=max(1, int(count * SCALE)), deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# ---------------------------------------------------------------- generated events

@cache
def parameters() -> tuple[int, ...]:
    """Every number the encodings state, for numbers on both sides of each threshold."""
    control = clingo.Control(CLINGO_OPTIONS)
    control.add("base", [], "\n".join(encoding_text(n) for n in ("vocabulary", *ORDINANCES)))
    control.ground([("base", [])])
    found = {atom.symbol.arguments[2].number for atom in control.symbolic_atoms.by_signature("param", 4)
             if atom.symbol.arguments[2].type == clingo.SymbolType.Number}
    return tuple(sorted(found))


def tally(text: str) -> None:
    """Count an outcome in hypothesis' statistics (pytest --hypothesis-show-statistics), inside a test run."""
    try:
        event(text)
    except InvalidArgument:
        pass


def counts(upper: int = 10_000_000):
    near = st.sampled_from(parameters()).flatmap(
        lambda p: st.sampled_from([max(0, p - 1), p, p + 1, max(0, p * 2), p + 250]))
    return st.one_of(near, st.integers(0, 20_000), st.integers(1_000, 60_000), st.integers(0, upper)).map(
        lambda n: min(n, upper))


def subset(section: str, most: int = 4):
    return st.lists(st.sampled_from(names(section)), unique=True, max_size=most)


# Most ordinances regulate events open to the public that charge a fee; the other flags (several of
# them exemptions) come fewer at a time, so that most generated events are regulated somewhere.
COMMON_FLAGS = {"open_to_public": 7, "admission_fee": 7, "exceeds_normal_use": 5}  # in ten


@st.composite
def flags(draw):
    chosen = [flag for flag, weight in COMMON_FLAGS.items() if draw(st.integers(0, 9)) < weight]
    others = [flag for flag in names("event_flags") if flag not in COMMON_FLAGS]
    return chosen + draw(st.lists(st.sampled_from(others), unique=True, max_size=3))


@st.composite
def schedules(draw):
    start = draw(st.datetimes(min_value=datetime(2024, 1, 1), max_value=datetime(2030, 12, 31)))
    start = start.replace(second=0, microsecond=0)
    minutes = draw(st.one_of(st.integers(1, 24 * 60), st.integers(10 * 60, 4 * 24 * 60), st.integers(1, 366 * 24 * 60)))
    end = start + timedelta(minutes=minutes)
    # a local time the spring-forward night skips, or the autumn night shows twice, is refused or asks which:
    # tests/test_sessions.py holds those; here every event is valid
    assume(exists_once(start) and exists_once(end))
    record = {"start": start.isoformat(), "end": end.isoformat()}
    darkness = draw(st.sampled_from([None, True, False]))
    if darkness is not None:
        record["darkness"] = darkness
    return record, start


@st.composite
def event_records(draw, event_id: str = "e"):
    """One valid event as an event file states it (a dict), with concrete numbers (no ranges)."""
    peak = draw(counts())
    attendance = {"expected_max": peak}
    if draw(st.booleans()):
        female = draw(st.integers(0, peak))
        attendance["female"] = female
        if draw(st.booleans()):
            attendance["male"] = draw(st.integers(0, peak - female))
    for field in ("board_finding", "max_tickets"):
        if draw(st.integers(0, 3)) == 0:
            attendance[field] = draw(counts())
    schedule, start = draw(schedules())
    site = {"kind": draw(st.sampled_from(names("site_kinds"))), "locations": draw(st.integers(1, 4)),
            "flags": draw(subset("site_flags"))}
    for field in ("seating_capacity", "capacity"):
        if draw(st.booleans()):
            site[field] = draw(counts())
    organizer = {"kind": draw(st.sampled_from(names("organizer_kinds"))),
                 "sponsor": draw(st.sampled_from(names("sponsor_kinds")))}
    if draw(st.booleans()):
        organizer["applicant_age"] = draw(st.integers(0, 120))
        organizer["person_in_charge_age"] = draw(st.integers(0, 120))
    if draw(st.booleans()):
        organizer["site_interest"] = draw(st.sampled_from(names("site_interests")))
    record = {
        "id": event_id, "kinds": draw(subset("event_kinds", 3)), "attendance": attendance, "schedule": schedule,
        "site": site, "organizer": organizer, "flags": draw(flags()),
        "special_services": draw(subset("special_services", 2)), "findings": draw(subset("findings", 2)),
        "imposed_conditions": draw(subset("obligations", 2)),
        "provisions": draw(st.dictionaries(st.sampled_from(names("obligations")), counts(1_000_000), max_size=4)),
    }
    if draw(st.booleans()):
        filed = start.date() - timedelta(days=draw(st.integers(-30, 200)))
        record["application"] = {
            "filed": filed.isoformat(), "contents": draw(subset("application_items", 8)),
            "approvals": draw(subset("approvals", 3)),
            "insurance": {"general_liability_aggregate_usd": draw(st.integers(0, 5_000_000)),
                          "workers_compensation": draw(st.booleans())},
        }
        if draw(st.booleans()):
            record["application"]["bond_usd"] = draw(st.integers(0, 100_000))
    return record


@st.composite
def event_files(draw, most: int = 4):
    """A list of 1..most valid events with distinct ids."""
    size = draw(st.integers(1, most))
    return [draw(event_records(f"event-{index}")) for index in range(size)]


def conclusions_by_event(results):
    return {(r["event"], r["ordinance"]): r for r in results}


# ---------------------------------------------------------------- more attendance

@cache
def upper_limits() -> frozenset[str]:
    """Obligations whose quantity is a maximum (a time limit), as vocabulary.lp declares them."""
    control = clingo.Control(CLINGO_OPTIONS)
    control.add("base", [], encoding_text("vocabulary"))
    control.ground([("base", [])])
    return frozenset(str(a.symbol.arguments[0]) for a in control.symbolic_atoms.by_signature("upper_limit", 1))


def owed(result) -> dict[tuple[str, str], dict]:
    """The obligations of one (event, ordinance) record, by (name, modality)."""
    return {(c["name"], c["modality"]): c for c in result["conclusions"] if c["kind"] == "obligation"}


def no_less_owed(smaller, larger, why: str) -> None:
    """Everything `smaller` owes, `larger` owes too, in at least the same amount (at most, for time limits)."""
    more = owed(larger)
    for key, obligation in owed(smaller).items():
        assert key in more, f"{why}: {larger['ordinance']} drops {key} ({obligation['clauses']})"
        before, after = obligation["value"], more[key]["value"]
        if isinstance(before, int) and isinstance(after, int):
            # A count limit is the licensed maximum (Gem 4.ticket-sales: tickets no more than the people
            # licensed), so it follows the attendance up, as the required quantities do; a time limit never rises.
            if key[0] in upper_limits() and obligation.get("unit") != "count":
                assert after <= before, f"{why}: {larger['ordinance']} {key[0]} time limit rises {before} -> {after}"
            else:
                assert after >= before, f"{why}: {larger['ordinance']} {key[0]} falls {before} -> {after}"


@examples(60)
@given(st.data())
def test_more_attendance_never_lowers_a_required_quantity(data):
    record = data.draw(event_records("smaller"))
    peak = record["attendance"]["expected_max"]
    bigger = data.draw(st.one_of(st.integers(peak, min(10_000_000, peak + 5_000)), st.integers(peak, 10_000_000)))
    larger = json.loads(json.dumps(record))
    larger.update(id="larger")
    larger["attendance"]["expected_max"] = bigger
    results = conclusions_by_event(evaluate(parse_events([record, larger], "generated"), ORDINANCES))
    for ordinance in ORDINANCES:
        small, large = results[("smaller", ordinance)], results[("larger", ordinance)]
        tally(f"{ordinance}: the smaller event {'needs' if small['permit_required'] else 'does not need'} a permit")
        no_less_owed(small, large, f"{peak} -> {bigger} people")


# ---------------------------------------------------------------- exemptions

@cache
def program_without_exemptions(ordinance: str) -> str:
    """The ordinance's encoding with every rule concluding exempt/4 left out."""
    kept: list[str] = []

    def keep(statement: ast.AST) -> None:
        if statement.ast_type == ast.ASTType.Rule and statement.head.ast_type == ast.ASTType.Literal:
            atom = statement.head.atom
            if atom.ast_type == ast.ASTType.SymbolicAtom and atom.symbol.ast_type == ast.ASTType.Function \
                    and (atom.symbol.name, len(atom.symbol.arguments)) == ("exempt", 4):
                return
        if statement.ast_type != ast.ASTType.Program:
            kept.append(str(statement))

    ast.parse_string(encoding_text(ordinance), keep)
    return "\n".join(kept)


def evaluate_without_exemptions(events, ordinance: str):
    control = clingo.Control(CLINGO_OPTIONS)
    control.add("base", [], encoding_text("vocabulary"))
    control.add("base", [], "#defined exempt/4.")
    control.add("base", [], zone_facts([ordinance]))
    control.add("base", [], reading_facts([ordinance]))  # the default readings, as a plain evaluation has them
    control.add("base", [], program_without_exemptions(ordinance))
    control.add("base", [], facts_program(list(events)))
    control.ground([("base", [])])
    with control.solve(yield_=True) as handle:
        symbols = next(iter(handle)).symbols(shown=True)
    return conclusions_by_event(results_from_symbols(symbols, events, [ordinance]))


def check_exemptions_add_nothing(events) -> int:
    """Assert the property for these events under every ordinance; return how many exemptions applied."""
    actual = conclusions_by_event(evaluate(events, ORDINANCES))
    applied = 0
    for ordinance in ORDINANCES:
        counterfactual = evaluate_without_exemptions(events, ordinance)
        for item in events:
            result = actual[(item.id, ordinance)]
            exemptions = [c["name"] for c in result["conclusions"] if c["kind"] == "exemption"]
            if exemptions:
                applied += 1
                tally(f"{ordinance}: exempt ({', '.join(sorted(exemptions))})")
            no_less_owed(result, counterfactual[(item.id, ordinance)] if exemptions else result,
                         f"exemption {exemptions}")
            extra = {key for key in owed(result)} - set(owed(counterfactual[(item.id, ordinance)]))
            assert not extra, f"{ordinance}: with the exemptions {exemptions}, {item.id} owes more: {extra}"
    return applied


@examples(40)
@given(event_files(most=4))
def test_an_exemption_never_adds_an_obligation(records):
    check_exemptions_add_nothing(parse_events(records, "generated"))


def test_no_exemption_in_the_scenarios_adds_an_obligation():
    """The same property over every scenario case, so each exemption the scenarios reach is checked."""
    from reasoner.quality.coverage import scenario_cases

    cases = scenario_cases(Path(__file__).parent / "scenarios")
    records = [{**case.record, "id": f"case-{number}"} for number, case in enumerate(cases)]
    events = [e for record in records for e in parse_events(record, "scenario")]
    assert check_exemptions_add_nothing(events) >= 2 * len(ORDINANCES)


# ---------------------------------------------------------------- order and determinism

@examples(20)
@given(event_files(most=4), st.randoms(use_true_random=False))
def test_results_do_not_depend_on_the_order_of_events_or_facts(records, shuffler):
    events = parse_events(records, "generated")
    reference = conclusions_by_event(evaluate(events, ORDINANCES))
    shuffled = list(events)
    shuffler.shuffle(shuffled)
    assert conclusions_by_event(evaluate(shuffled, ORDINANCES)) == reference

    lines = facts_program(events).splitlines()
    shuffler.shuffle(lines)
    symbols = Program(ORDINANCES).add("\n".join(lines)).ground().first_model()
    assert conclusions_by_event(results_from_symbols(symbols, events, ORDINANCES)) == reference

    alone = conclusions_by_event(evaluate([events[-1]], ORDINANCES))
    assert alone == {key: value for key, value in reference.items() if key[0] == events[-1].id}


@examples(20)
@given(event_files(most=3))
def test_the_same_input_gives_byte_identical_json(records):
    from click.testing import CliRunner

    from reasoner.cli import main

    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "events.json")
        Path(path).write_text(json.dumps(records), encoding="utf-8")
        first = CliRunner().invoke(main, ["evaluate", path, "--format", "json"], catch_exceptions=False)
        second = CliRunner().invoke(main, ["evaluate", path, "--format", "json"], catch_exceptions=False)
    assert first.exit_code == 0 and first.stdout_bytes == second.stdout_bytes
    assert len(json.loads(first.stdout)) == len(records) * len(ORDINANCES)


def test_the_same_input_gives_byte_identical_json_across_processes(tmp_path):
    """Different hash seeds, so no set or dict order leaks into the output."""
    example = Path(__file__).resolve().parents[1] / "facts" / "events" / "harvest-music-festival.yaml"
    outputs = []
    for seed in ("1", "2"):
        done = subprocess.run([sys.executable, "-m", "reasoner.cli", "evaluate", str(example), "--format", "json"],
                              capture_output=True, env={**os.environ, "PYTHONHASHSEED": seed}, check=True)
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1] and outputs[0]


# ---------------------------------------------------------------- exact over the whole input range

INT32 = 2**31 - 1


@cache
def quantity_rules() -> frozenset[tuple[str, str]]:
    """Every (ordinance, obligation) an encoding computes a quantity for: the heads quantity(O,_,Name,...)."""
    found = set()

    def visit(statement: ast.AST) -> None:
        if statement.ast_type == ast.ASTType.Rule and statement.head.ast_type == ast.ASTType.Literal:
            atom = statement.head.atom
            if atom.ast_type == ast.ASTType.SymbolicAtom and atom.symbol.ast_type == ast.ASTType.Function \
                    and (atom.symbol.name, len(atom.symbol.arguments)) == ("quantity", 6):
                ordinance, _, name = atom.symbol.arguments[:3]
                found.add((str(ordinance), str(name)))

    for ordinance in ORDINANCES:
        ast.parse_string(encoding_text(ordinance), visit)
    return frozenset(found)


def at_attendance(record: dict, people: int, event_id: str) -> dict:
    """A scenario's event with `people` at the peak and no other head count that would bound it."""
    record = json.loads(json.dumps(record, default=str))
    record["id"] = event_id
    record["attendance"] = {"expected_max": people}
    schedule = record.get("schedule") or {}
    for session in schedule.get("sessions") or []:
        session.pop("expected_max", None)
    if isinstance(schedule.get("daily"), dict):
        schedule["daily"].pop("expected_max", None)
    return record


@cache
def quantity_bases() -> dict[tuple[str, str], dict]:
    """For every (ordinance, obligation) with a quantity rule, a scenario event that reaches it, at any attendance
    of those tried."""
    from reasoner.quality.coverage import scenario_cases

    bases: dict[tuple[str, str], dict] = {}
    cases = scenario_cases(Path(__file__).parent / "scenarios")
    for ordinance in ORDINANCES:
        events, records = [], {}
        for variant in ("as written", 5_000):
            for number, case in enumerate(c for c in cases if c.ordinance == ordinance):
                key = f"{variant}-{number}"
                record = {**case.record, "id": key} if variant == "as written" else at_attendance(case.record, variant, key)
                try:
                    events += parse_events(record, "scenario")
                except Exception:  # noqa: BLE001 - a scenario that is invalid once its head counts are changed
                    continue
                records[key] = case.record
        for result in evaluate(events, [ordinance]):
            for item in result["conclusions"]:
                if item["kind"] == "obligation" and not isinstance(item["value"], bool) \
                        and isinstance(item["value"], (int, float)):
                    bases.setdefault((ordinance, item["name"]), records[result["event"]])
    return bases


def range_points() -> list[int]:
    """Attendances over the whole documented range, densest where a product of stated numbers passes 2^31."""
    points = {0, 1, 2, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 5_000_000, 9_999_999, 10_000_000}
    points |= {n * 10**k for n in (2, 5) for k in range(7)}
    for factor in {p * parts for p in parameters() if p > 0 for parts in (1, 2)}:  # a rate, in whole or halves
        edge = INT32 // factor
        if edge <= 10_000_000:
            points |= {edge, edge + 1}
    return sorted(p for p in points if 0 <= p <= 10_000_000)


def test_every_quantity_is_exact_over_the_whole_range_of_attendance_and_provisions():
    """Each quantity, from 0 to 10,000,000 people and with provisions of 0 to 1,000,000,000: no error, never
    negative, and monotone in the attendance (a count of people never lowers a minimum, nor raises a time
    limit). A 32-bit overflow in clingo wraps, which shows as a fall or a negative amount."""
    bases = quantity_bases()
    missing = quantity_rules() - set(bases)
    assert not missing, f"no scenario reaches these quantities: {sorted(missing)}"
    points = range_points()
    for (ordinance, name), base in sorted(bases.items()):
        for provided in (None, 1_000_000_000):
            records = []
            for index, people in enumerate(points):
                record = at_attendance(base, people, f"n{index}")
                if provided is not None:
                    record["provisions"] = {**record.get("provisions", {}), name: provided}
                records.append(record)
            try:
                events = parse_events(records, "generated")
            except Exception:  # noqa: BLE001 - e.g. a provision this base refuses; the others still run
                continue
            results = {r["event"]: r for r in evaluate(events, [ordinance])}
            values = []
            for index, people in enumerate(points):
                found = [c for c in results[f"n{index}"]["conclusions"]
                         if c["name"] == name and c["kind"] in ("obligation", "shortfall")]
                for item in found:
                    for key in ("value", "required", "provided"):
                        amount = item.get(key)
                        if isinstance(amount, (int, float)) and not isinstance(amount, bool):
                            assert amount >= 0, f"{ordinance} {name} {key} at {people:,} people: {amount}"
                    if item["kind"] == "shortfall" and provided is not None:
                        assert item["provided"] == provided, f"{ordinance} {name} at {people:,}: {item}"
                        if name not in upper_limits():
                            assert item["value"] == item["required"] - item["provided"], item
                owed_here = [c["value"] for c in found if c["kind"] == "obligation" and not isinstance(c["value"], bool)
                             and isinstance(c["value"], (int, float))]
                if owed_here:
                    values.append((people, owed_here[0]))
            for (before_people, before), (after_people, after) in zip(values, values[1:]):
                if name in upper_limits() and base_unit(name) != "count":
                    assert after <= before, f"{ordinance} {name} rises {before} -> {after} at {after_people:,}"
                else:
                    assert after >= before, (f"{ordinance} {name} falls {before} -> {after} from {before_people:,} "
                                             f"to {after_people:,} people")


def base_unit(name: str) -> str | None:
    from reasoner.law.vocabulary import vocabulary

    return vocabulary()["obligations"].get(name, {}).get("unit")
