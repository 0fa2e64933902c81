"""The pydantic-free reader of a cold `evaluate` (reasoner/events/plan.py) against the pydantic models it is compiled
from: whatever it accepts, pydantic accepts too, as an event with the same values and the same facts; whatever
it is not sure of, loading reads through pydantic, with the same messages as without it.

Inputs: every bundled event file, every scenario event, every bad event file, and Hypothesis's mutations of them
(a value replaced by one of another type, out of bounds, an unknown choice; a field removed; a field added).
"""
from __future__ import annotations

import copy
from datetime import date, datetime, time, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

import reasoner.events.model as event_module

from reasoner.events.atoms import event_facts
from reasoner.evaluate import evaluate
from reasoner.quality.coverage import scenario_cases
from reasoner.events.model import Event
from reasoner.events.plan import LightPart, compile_plan, plan, read_event, read_events
from reasoner.events.rules import with_filing_date, with_law_date
from reasoner.events.loading import EventFileError, _fields_at, parse_text, load_events, parse_events
from reasoner.law.locator import encoded_ordinances

ROOT = Path(__file__).resolve().parent.parent
EVENT_FILES = sorted((ROOT / "facts" / "events").glob("*.yaml"))
BAD_FILES = sorted((Path(__file__).parent / "bad_events").glob("*"))


def records_of(path: Path) -> list[Any]:
    try:
        data = parse_text(path.read_text(encoding="utf-8-sig"), path)
    except (EventFileError, UnicodeDecodeError):
        return []
    if isinstance(data, dict) and set(data) == {"events"}:
        data = data["events"]
    return data if isinstance(data, list) else [data]


SCENARIO_RECORDS = [{"id": "scenario", **case.record} for case in scenario_cases(Path(__file__).parent / "scenarios")]
BUNDLED_RECORDS = [record for path in EVENT_FILES for record in records_of(path)]
BAD_RECORDS = [record for path in BAD_FILES for record in records_of(path)]


def state(value: Any) -> Any:
    """What a value holds, part by part and field by field (private attributes too), with each value's type: the
    same for a model and for a light object that hold the same."""
    if type(value).__name__ in plan() and hasattr(value, "__dict__"):
        part = plan()[type(value).__name__]
        names = [field.name for field in part.fields] + [name for name, _ in part.private]
        return type(value).__name__, {name: state(getattr(value, name)) for name in names}
    if isinstance(value, (list, tuple)):
        return type(value).__name__, [state(item) for item in value]
    if isinstance(value, dict):
        return "dict", [(state(key), state(item)) for key, item in value.items()]
    return type(value).__name__, value


def outcome(data: Any, light: bool) -> tuple:
    """What loading makes of the data: its events' values, or its error message."""
    try:
        return "events", [state(event) for event in parse_events(copy.deepcopy(data), "event.yaml", light)]
    except EventFileError as error:
        return "error", str(error)


def check_both_readings(record: Any) -> bool:
    """Accepted by the light reader => accepted by pydantic, as an event with the same values and facts; and loading
    says the same with the light reader as without. Returns whether the light reader accepted it."""
    light = read_event(copy.deepcopy(record))
    if light is not None:
        model = Event.model_validate(copy.deepcopy(record))  # raises if the light reader accepted an invalid event
        assert state(light) == state(model)
        assert event_facts(1, light) == event_facts(1, model)
        assert (light.law_date, light.has_unknowns) == (model.law_date, model.has_unknowns)
    assert outcome(record, light=True) == outcome(record, light=False)
    return light is not None


def test_the_plan_compiles_from_the_models_and_names_every_part():
    compiled = compile_plan()
    assert {"Event", "Attendance", "Range", "Schedule", "Session", "EndRange", "Daily", "CloseRange", "Site",
            "Organizer", "Application", "Insurance"} == set(compiled)
    assert compiled == plan()   # the cached plan is the models' plan


@pytest.mark.parametrize("path", EVENT_FILES, ids=lambda p: p.name)
def test_every_bundled_event_is_read_alike_and_the_light_reader_takes_it(path):
    records = records_of(path)
    assert all([check_both_readings(record) for record in records])
    events = load_events(path, light=True)
    has_unknowns = any(Event.model_validate(record).has_unknowns for record in records)
    # events with unknown facts go to the models, whose reasoning works on them; the others come light
    assert all(isinstance(event, LightPart) != has_unknowns for event in events)


def test_every_scenario_event_is_read_alike_and_the_light_reader_takes_nearly_all():
    accepted = [check_both_readings(record) for record in SCENARIO_RECORDS]
    assert len(accepted) > 300
    # declined: only forms the reader leaves to pydantic (e.g. an unquoted 10:00, which YAML reads as 600)
    assert sum(accepted) >= 0.9 * len(accepted), f"{sum(accepted)} of {len(accepted)}"


@pytest.mark.parametrize("record", BAD_RECORDS, ids=lambda r: str(r)[:40])
def test_a_bad_event_is_declined_and_worded_as_before(record):
    assert not check_both_readings(record) or Event.model_validate(record)


@pytest.mark.parametrize("path", BAD_FILES, ids=lambda p: p.name)
def test_a_bad_event_file_gives_the_same_message_either_way(path):
    def message(light: bool) -> str:
        with pytest.raises(EventFileError) as error:
            load_events(path, light=light)
        return str(error.value)

    assert message(light=True) == message(light=False)


# Values of every kind (whole numbers: NUMBERS)
OTHER_VALUES = [True, False, None, 1.5, 3000.0, "", "text", "unknown", "3000", "2027-07-16", "2027-07-16T10:00",
                "2027-07-16 10:00", "2027-07-16T10:00+02:00", "2027-07-16T10:00:00Z", "1850-01-01",
                "\u0662\u0660\u0662\u0667-07-16", "10:00", "25:00", "10:00:00", date(2027, 7, 16), date(1800, 1, 1),
                datetime(2027, 7, 16, 10), datetime(2027, 7, 16, 10, tzinfo=timezone.utc), time(10, 0), time(23, 59),
                [], {}, ["concert"], ["bogus"], {"min": 1, "max": 2}, {"min": 5, "max": 1}, {"min": 0}, "earlier",
                "open_land", "corporation", "bogus", "a\x1bb", "x" * 600, {"2027-07-16": 10}]


def bounds_of_the_models() -> list[int]:
    """Whole numbers on each side of every bound the models give: their fields' ge and le, and the upper bound of
    each number-or-range rule (eventrules.number_or_range)."""
    found = {0, 1, 3000}
    for model in vars(event_module).values():
        if isinstance(model, type) and issubclass(model, BaseModel):
            for field in model.model_fields.values():
                found |= {getattr(item, key) for item in field.metadata for key in ("ge", "le") if hasattr(item, key)}
    for part in plan().values():
        found |= {argument for field in part.fields for _, arguments in field.before for argument in arguments
                  if type(argument) is int}
    return sorted({bound + step for bound in found for step in (-1, 0, 1)})


NUMBERS = bounds_of_the_models()


def places(value: Any, path: tuple = ()) -> list[tuple]:
    """Every place in a record, as the path of keys and indexes to it."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += places(item, (*path, index))
    return found


def at(record: Any, path: tuple) -> Any:
    for key in path:
        record = record[key]
    return record


@st.composite
def mutated_events(draw: Any) -> Any:
    record = copy.deepcopy(draw(st.sampled_from(BUNDLED_RECORDS + SCENARIO_RECORDS)))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from([p for p in places(record) if isinstance(at(record, p), dict)]))
        part = at(record, path)
        # a field of the part there (given or not), or one it does not have
        names = _fields_at(tuple(k for k in path if isinstance(k, str))) + ["extra"]
        name = draw(st.sampled_from(names))
        if name in part and draw(st.booleans()) and draw(st.booleans()):
            del part[name]
        else:
            part[name] = copy.deepcopy(draw(st.sampled_from(NUMBERS) | st.sampled_from(OTHER_VALUES)))
    return record


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated_events())
def test_a_mutated_event_is_read_alike(record):
    event(check_both_readings(record))


def test_light_and_model_events_evaluate_alike_with_another_filing_date_and_law_date():
    records = [record for record in BUNDLED_RECORDS if not Event.model_validate(record).has_unknowns]
    light = read_events(records)
    models = [Event.model_validate(record) for record in records]
    assert light is not None and all(isinstance(event, LightPart) for event in light)
    ordinances = list(encoded_ordinances())
    for change in (lambda events: events, lambda events: with_filing_date(events, date(2027, 1, 2)),
                   lambda events: with_law_date(events, date(2020, 6, 1))):
        assert evaluate(change(light), ordinances) == evaluate(change(models), ordinances)


def test_the_light_reader_declines_what_pydantic_would_read_in_its_own_way():
    base = {"id": "e", "attendance": {"expected_max": 3000}, "schedule": {"start": "2027-07-16T10:00", "end": "2027-07-16T20:00"}}
    assert read_event(base) is not None
    for path, value in [(("attendance", "expected_max"), 3000.0), (("schedule", "start"), "2027-07-16 10:00"),
                        (("schedule", "end"), 1_800_000_000), (("id",), b"e")]:
        record = copy.deepcopy(base)
        at(record, path[:-1])[path[-1]] = value
        assert read_event(record) is None, value
    with pytest.raises(ValidationError):  # and pydantic words the refusal where it refuses
        Event.model_validate({**base, "attendance": {"expected_max": True}})


# Events that hold every part (each form of schedule, ranges, an application with insurance): each field of each
# part is set to each value above, one at a time.
FULL_EVENTS = [
    {"id": "full-start-end", "name": "A fair", "kinds": ["concert"], "flags": [],
     "attendance": {"expected_max": 3000, "total": 5000, "average": 1000, "female": 1000, "male": 1000,
                    "board_finding": 2500, "max_tickets": 3000},
     "schedule": {"start": "2027-07-16T10:00", "end": "2027-07-17T02:00", "darkness": True},
     "site": {"kind": "open_land", "seating_capacity": 500, "capacity": 4000, "locations": 2, "flags": []},
     "organizer": {"kind": "corporation", "sponsor": "private", "applicant_age": 40, "person_in_charge_age": 50},
     "application": {"filed": "2027-03-01", "contents": [], "bond_usd": 1000, "fee_paid_usd": 100, "approvals": [],
                     "insurance": {"general_liability_aggregate_usd": 1_000_000, "workers_compensation": True}},
     "provisions": {}, "findings": [], "imposed_conditions": [], "held_annually_since": 1990, "as_of": "2027-07-01",
     "unknown": []},
    {"id": "full-sessions", "attendance": {"expected_max": {"min": 2000, "max": 3000}},
     "schedule": {"sessions": [{"start": "2027-07-16T10:00", "end": "2027-07-16T20:00", "expected_max": 1000},
                               {"start": "2027-07-17T10:00", "end": {"min": "2027-07-17T18:00", "max": "2027-07-17T20:00"}}]}},
    {"id": "full-daily", "attendance": {"expected_max": 3000},
     "schedule": {"daily": {"first_day": "2027-07-16", "last_day": "2027-07-18", "open": "10:00",
                            "close": {"min": "21:00", "max": "23:00"}, "expected_max": {"2027-07-17": 2000}}}},
]


def test_every_field_of_every_part_set_to_every_kind_of_value_is_read_alike():
    accepted = tried = 0
    for base in FULL_EVENTS:
        assert check_both_readings(base)
        for path in places(base):
            if not isinstance(at(base, path), dict) or (path and path[-1] == "expected_max"):
                continue
            for name in _fields_at(tuple(k for k in path if isinstance(k, str))):
                for value in NUMBERS + OTHER_VALUES:
                    record = copy.deepcopy(base)
                    at(record, path)[name] = copy.deepcopy(value)
                    accepted += check_both_readings(record)
                    tried += 1
    assert tried > 5000 and accepted > 500, (tried, accepted)
