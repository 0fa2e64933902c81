"""Translate validated events into input atoms of the shared vocabulary (encodings/vocabulary.lp).

Every value reaches clingo as a symbol rendered by clingo itself (clingo.Function/Number/String),
never as text pasted into a program, so nothing in an event file can change the rules.
Events are numbered 1..n inside one solver call; their ids stay in Python.
"""
from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING

from clingo import Function, Number, String, Symbol

from reasoner.events.clocks import elapsed_minutes, zone_names
from reasoner.events.rules import RangeBase
from reasoner.events.sun import combined, readings, session_darkness
from reasoner.law.vocabulary import vocabulary

if TYPE_CHECKING:  # the models are built only when a file needs them (reasoner/events/plan.py)
    from reasoner.events.model import Event, Session

# Real time is counted in minutes from here (the UTC midnight of 1970-01-01): within clingo's 32-bit numbers for
# every date the event format allows.
EPOCH = datetime(1970, 1, 1)


def day_number(moment: datetime) -> int:
    return moment.toordinal()


Fact = tuple[str, tuple["Symbol | int | str", ...]]


def _atom(name: str, *args: Symbol | int | str) -> Fact:
    return name, args


def symbol_of(value: Symbol | int | str) -> Symbol:
    return Number(value) if isinstance(value, int) else Function(value) if isinstance(value, str) else value


@lru_cache(maxsize=1 << 16)
def _term(value: Symbol | int | str) -> str:
    """An argument as clingo renders it; cached, since event numbers, names and amounts repeat across events."""
    return str(symbol_of(value))


def event_atoms(index: int, event: Event) -> list[Symbol]:
    """The input atoms describing one event, numbered `index`."""
    return [Function(name, [symbol_of(a) for a in args]) for name, args in event_facts(index, event)]


def event_facts(index: int, event: Event) -> list[Fact]:
    """The input atoms of one event as (predicate, arguments): event_atoms builds symbols, facts_program text."""
    e = index
    atoms = [_atom("event", e)]
    add = atoms.append
    unknown = set(event.unknown)  # facts left open: reasoner/unknowns.py adds choices for them
    people = event.attendance
    if not isinstance(people.expected_max, RangeBase):
        add(_atom("attendance", e, people.expected_max))
    for field in ("female", "male", "board_finding", "max_tickets"):
        value = getattr(people, field)
        if value is not None:
            add(_atom(f"attendance_{field}" if field != "max_tickets" else "max_tickets", e, value))
    if people.total is not None and not isinstance(people.total, RangeBase):
        add(_atom("attendance_total", e, people.total))
    if people.average is not None and not isinstance(people.average, RangeBase):
        add(_atom("attendance_average", e, people.average))
    if people.overnight is not None and not isinstance(people.overnight, RangeBase):
        add(_atom("attendance_overnight", e, people.overnight))
    if event.held_annually_since is not None:
        add(_atom("held_annually_since", e, event.held_annually_since))
    add(_atom("as_of", e, event.law_date.toordinal()))
    add(_atom("law_year", e, event.law_date.year))
    # A session whose end is open is written by reasoner/unknowns.py, once for each end it may have; so is the
    # darkness derived from it.
    open_runs = {position for _, positions in event.schedule.open_ends() for position in positions}
    for position, session in enumerate(event.schedule.runs):
        if position not in open_runs:
            atoms.extend(session_facts(e, session))
    if event.schedule.darkness is not None:
        add(_atom("darkness" if event.schedule.darkness else "no_darkness", e))
    elif "schedule.darkness" not in unknown:
        known = [s for p, s in enumerate(event.schedule.runs) if p not in open_runs]
        atoms.extend(sun_facts(e, known))
    for kind in event.kinds:
        add(_atom("event_kind", e, kind))
    site = event.site
    if "site.kind" not in unknown:
        add(_atom("site_kind", e, site.kind))
    add(_atom("locations", e, site.locations))
    if site.seating_capacity is not None and not isinstance(site.seating_capacity, RangeBase):
        add(_atom("seating_capacity", e, site.seating_capacity))
    if site.capacity is not None:
        add(_atom("site_capacity", e, site.capacity))
    if site.sleeping_capacity is not None:
        add(_atom("sleeping_capacity", e, site.sleeping_capacity))
    if site.county_population is not None:
        add(_atom("county_population", e, site.county_population))
    for flag in site.flags:
        add(_atom("site", e, flag))
    organizer = event.organizer
    if "organizer.kind" not in unknown:
        add(_atom("organizer_kind", e, organizer.kind))
    if "organizer.sponsor" not in unknown:
        add(_atom("sponsor", e, organizer.sponsor))
    for field in ("applicant_age", "person_in_charge_age"):
        value = getattr(organizer, field)
        if value is not None and not isinstance(value, RangeBase):
            add(_atom(field, e, value))
    if organizer.site_interest is not None and "organizer.site_interest" not in unknown:
        add(_atom("site_interest", e, organizer.site_interest))
    for flag in event.flags:
        add(_atom("feature", e, flag))
    for service in event.special_services:
        add(_atom("special_service", e, service))
    for finding in event.findings:
        add(_atom("finding", e, finding))
    for condition in event.imposed_conditions:
        add(_atom("imposed", e, condition))
    for name, amount in event.provisions.items():
        add(_atom("provided", e, name, amount * _scale(name)))
    application = event.application
    if application is not None:
        add(_atom("application_filed", e))
        if application.filed is not None:
            add(_atom("filed", e, application.filed.toordinal()))
        if application.hearing_date is not None:
            add(_atom("hearing_date", e, application.hearing_date.toordinal()))
        for item in application.contents:
            add(_atom("application_content", e, item))
        for approval in application.approvals:
            add(_atom("approval", e, approval))
        insurance = application.insurance
        offered = {
            "liability_insurance_usd": insurance.general_liability_aggregate_usd,
            "liability_insurance_per_occurrence_bodily_injury_usd": insurance.per_occurrence_bodily_injury_usd,
            "liability_insurance_per_occurrence_property_damage_usd": insurance.per_occurrence_property_damage_usd,
            "fire_legal_liability_usd": insurance.fire_legal_liability_usd,
            "bond_usd": application.bond_usd,
            "license_fee_usd": application.fee_paid_usd,
        }
        for name, amount in offered.items():
            if amount is not None and name not in event.provisions:
                add(_atom("provided", e, name, amount))
        if insurance.workers_compensation is not None:  # stated "no" is a shortfall where the coverage is owed
            add(_atom("provided", e, "workers_compensation", int(insurance.workers_compensation)))
        if insurance.names_government_as_insured:
            add(_atom("feature", e, "insurance_names_government"))
    return atoms


def session_facts(e: int, session: Session) -> list[Fact]:
    """A session on the local clock, and its ends in real time (minutes since 1970-01-01 UTC) in each ordinance's zone."""
    clock = (day_number(session.start), session.start.hour * 60 + session.start.minute,
             day_number(session.end), session.end.hour * 60 + session.end.minute)
    found = [_atom("session", e, *clock)]
    if session.expected_max is not None:
        found.append(_atom("session_attendance", e, clock[0], clock[1], session.expected_max))
    for zone_name in zone_names():
        found.append(_atom("session_clock", e, *clock, String(zone_name),
                           elapsed_minutes(session.start, EPOCH, zone_name, session.start_occurrence),
                           elapsed_minutes(session.end, EPOCH, zone_name, session.end_occurrence)))
    return found


def sun_facts(e: int, sessions: list[Session]) -> list[Fact]:
    """The darkness each ordinance that reads it finds from the sun over these sessions (reasoner/events/sun.py): one
    sun_darkness(E,O,State) for each, the state the sessions take together; and sun_down(E,O,State), their state on
    the reading sunset_to_sunrise, where it differs. The sun is down whenever it is dark, so it differs only from a
    state that is not dark, and only for a session near sunset or sunrise: the facts of most events are as before."""
    found = []
    for ordinance in readings():
        state = combined({session_darkness(ordinance, session) for session in sessions})
        if state is not None:
            found.append(_atom("sun_darkness", e, ordinance, state))
            if state != "dark":
                down = combined({session_darkness(ordinance, session, down=True) for session in sessions})
                if down != state:
                    found.append(_atom("sun_down", e, ordinance, down))
    return found


@lru_cache(maxsize=256)
def _scale(obligation: str) -> int:
    """An amount the encodings state in parts of its unit (vocabulary `parts: 2`, halves) is given to them so."""
    return vocabulary()["obligations"].get(obligation, {}).get("parts", 1)


def facts_program(events: list[Event]) -> str:
    """All events as one block of facts, each argument rendered by clingo: the same text as str() of the
    symbols event_atoms builds, at a fifth of the cost (building and printing symbols dominated batches)."""
    return "".join(f"{name}({','.join(map(_term, args))}).\n" if args else f"{name}.\n"
                   for index, event in enumerate(events, start=1) for name, args in event_facts(index, event))
