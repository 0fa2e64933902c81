"""The event file format: a pydantic model of every fact an ordinance can turn on (loading: reasoner/events/loading.py).
Each custom rule is a function or method of reasoner/events/rules.py, which reasoner/events/plan.py also runs to read
a valid event without pydantic.

A field left out (or null) is a fact the file does not state; booleans default to "not stated",
which the reasoner reads as false until unknown-fact reasoning takes over.
"""
from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import date, datetime, time
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

from reasoner.events.clocks import Occurrence
from reasoner.events.rules import (MAX_PEOPLE, MAX_USD, AttendanceBase, DailyBase, EndRangeBase, EventBase, RangeBase, ScheduleBase,
                         SessionBase, clock_time, known_paths, local_time, local_time_if_datetime, no_control_characters, number_or_range,
                         numbers_are_numbers, open_end, provisions_within_bounds, unknown_close, whole_minutes,
                         within_dates, within_dates_if_given)
from reasoner.law.vocabulary import names

_MODELS = sys.modules[__name__]   # the family these models build parts in (reasoner.events.rules.family)


def _rule(check: Callable[..., Any], *args: Any) -> Callable[[Any], Any]:
    """A field rule of reasoner/events/rules.py as a validator of these models; `rule` names it for reasoner/events/plan.py,
    which calls the same rule with the same arguments."""

    def validate(value: Any) -> Any:
        return check(value, *args, family=_MODELS)

    validate.rule = (check, args)  # type: ignore[attr-defined]
    return validate


def _before(check: Callable[..., Any]) -> Any:
    """A rule of reasoner/events/rules.py on a part's given data, before its fields are read."""

    def validate(cls: type, data: Any) -> Any:
        return check(data, family=_MODELS)

    validate.rule = (check, ())  # type: ignore[attr-defined]
    return model_validator(mode="before")(classmethod(validate))


def _after(check: Callable[[Any], Any]) -> Any:
    """A check of reasoner/events/rules.py on a whole part, after its fields are read."""
    return model_validator(mode="after")(check)


def _choice(section: str) -> Any:
    return Literal[names(section)]


@lru_cache(maxsize=None)
def _number_field(model: type, field_name: str) -> tuple[bool, bool, bool]:
    """(a number field, a mapping of numbers, may be `unknown`) of one field, read from its annotation once:
    rendering an annotation costs more than validating a whole event."""
    annotation = str(model.model_fields[field_name].annotation)
    return "int" in annotation.replace("Range", ""), annotation.startswith("dict"), "Range" in annotation


def _for_each_field(function: Any) -> Any:
    """Marks the validator that runs eventrules.numbers_are_numbers with each field's _number_field."""
    function.per_field = (numbers_are_numbers, _number_field)
    return function


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    @field_validator("*", mode="before")
    @classmethod
    @_for_each_field
    def _numbers_are_numbers(cls, value: Any, info: Any) -> Any:
        """One rule for every number field: a number, never yes/no or text ("1800"), which pydantic would read."""
        return numbers_are_numbers(value, *_number_field(cls, info.field_name))


class Range(Strict, RangeBase):
    """A number known only to lie between min and max (both included)."""

    min: int = Field(ge=0, le=MAX_PEOPLE)
    max: int = Field(ge=0, le=MAX_PEOPLE)

    ordered = _after(RangeBase.ordered)


def _may_be_unknown(schema: dict[str, Any]) -> None:
    """The JSON Schema of a field that takes `unknown` besides a value or a range says so."""
    schema["anyOf"].insert(len([v for v in schema["anyOf"] if v.get("type") != "null"]), {"const": "unknown", "type": "string"})


def _counts_by_day(schema: dict[str, Any]) -> None:
    """A mapping of days to head counts: its keys are ISO dates (a key pattern, not `propertyNames`, which the
    schema's readers take for a list of names)."""
    for variant in schema["anyOf"]:
        if variant.get("type") == "object":
            variant.pop("propertyNames", None)
            variant["patternProperties"] = {r"^\d{4}-\d{2}-\d{2}$": {"type": "integer", "minimum": 0, "maximum": MAX_PEOPLE}}
            variant["additionalProperties"] = False


class Attendance(Strict, AttendanceBase):
    expected_max: int | Range = Field(json_schema_extra=_may_be_unknown, description="Actual or reasonably anticipated peak number of people present at any one time; a range {min, max} or `unknown` when not known.")
    total: int | Range | None = Field(None, json_schema_extra=_may_be_unknown, description="The number of different persons over the whole event (all days and sessions together), where it differs from the peak; a range {min, max} or `unknown` when not known.")
    average: int | Range | None = Field(None, json_schema_extra=_may_be_unknown, description="The average number of persons present over all hours of the assembly (a head count the organizer states, at most the peak), for ordinances that count an average; a range {min, max} or `unknown` when not known.")
    overnight: int | Range | None = Field(None, json_schema_extra=_may_be_unknown, description="How many stay on the grounds between sessions across a night (at most the peak; more than 0 with `flags: overnight_stay` or `camping`, which say some stay when the number is not stated); a range {min, max} or `unknown` when not known.")
    female: int | None = Field(None, ge=0, le=MAX_PEOPLE, description="Of the peak, how many are female (when known).")
    male: int | None = Field(None, ge=0, le=MAX_PEOPLE, description="Of the peak, how many are male (when known).")
    board_finding: int | None = Field(None, ge=0, le=MAX_PEOPLE, description="The governing board's finding of the number expected to attend, where the ordinance makes that finding conclusive.")
    max_tickets: int | None = Field(None, ge=0, le=MAX_PEOPLE, description="Maximum number of tickets to be sold.")

    _peak = field_validator("expected_max", mode="before")(_rule(number_or_range, MAX_PEOPLE))
    _total = field_validator("total", mode="before")(_rule(number_or_range, MAX_PEOPLE))
    _average = field_validator("average", mode="before")(_rule(number_or_range, MAX_PEOPLE))
    _overnight = field_validator("overnight", mode="before")(_rule(number_or_range, MAX_PEOPLE))

    split_within_peak = _after(AttendanceBase.split_within_peak)


class EndRange(Strict, EndRangeBase):
    """A session's end known only to lie between min and max (local date-times, both included)."""

    min: datetime = Field(description="The earliest the session may end.")
    max: datetime = Field(description="The latest the session may end.")
    _unstated: bool = PrivateAttr(default=False)   # given as `unknown`: the next session's start bounds it too

    _local_times = field_validator("min", "max")(_rule(local_time))

    ordered = _after(EndRangeBase.ordered)


class CloseRange(Strict):
    """A daily closing time known only to lie between min and max (both included; counted from the opening,
    so `{min: "21:00", max: "01:00"}` runs past midnight)."""

    min: time = Field(description="The earliest closing time, e.g. 21:00.")
    max: time = Field(description="The latest closing time, e.g. 01:00 (after midnight when earlier than the opening).")

    _clock = field_validator("min", "max", mode="before")(_rule(clock_time))
    _minutes = field_validator("min", "max")(_rule(whole_minutes))


class Session(Strict, SessionBase):
    """One continuous period during which the event runs (local date-times at the event's place)."""

    start: datetime = Field(description="Local date and time the session starts, e.g. 2027-07-16T10:00.")
    end: datetime | EndRange = Field(json_schema_extra=_may_be_unknown, description="Local date and time the session ends (after its start); a range {min, max} or `unknown` (within 24 hours of the start) when not known.")
    start_occurrence: Occurrence | None = Field(None, description="For a start the clocks show twice (the night they go back): `earlier` or `later`.")
    end_occurrence: Occurrence | None = Field(None, description="For an end the clocks show twice: `earlier` or `later`.")
    expected_max: int | None = Field(None, ge=0, le=MAX_PEOPLE, description="The peak present at any one time during this session, where it is below the event's (e.g. a quiet first day); left out, the event's peak.")

    unknown_end = _before(open_end)
    _local_times = field_validator("start", "end")(_rule(local_time_if_datetime))
    ends_after_start = _after(SessionBase.ends_after_start)


class Daily(Strict, DailyBase):
    """The same opening hours on every day from first_day to last_day."""

    first_day: date = Field(description="The first day the event opens, e.g. 2027-07-16.")
    last_day: date = Field(description="The last day it opens (a session closing after midnight ends the day after).")
    open: time = Field(description="Opening time each day, e.g. 10:00.")
    close: time | CloseRange = Field(json_schema_extra=_may_be_unknown, description="Closing time each day, e.g. 21:00; a close earlier than the open (or 00:00) is after midnight. A range {min, max} or `unknown` when not known (the same each day).")
    expected_max: dict[date, int] | None = Field(None, json_schema_extra=_counts_by_day, description="The peak present at any one time on some days, by the day the session opens, where it is below the event's (e.g. {\"2027-08-13\": 6000}); days left out have the event's peak.")

    _within = field_validator("first_day", "last_day")(_rule(within_dates))
    _clock = field_validator("open", "close", mode="before")(_rule(clock_time))
    _minutes = field_validator("open", "close")(_rule(whole_minutes))
    unknown_close = _before(unknown_close)
    days_in_order = _after(DailyBase.days_in_order)


class Schedule(Strict, ScheduleBase):
    start: datetime | None = Field(None, description="Local date and time the assembly starts, e.g. 2027-07-16T12:00 (one continuous session; or give `sessions` or `daily`).")
    end: datetime | EndRange | None = Field(None, json_schema_extra=_may_be_unknown, description="Local date and time the assembly ends; a range {min, max} or `unknown` (within 24 hours of the start) when not known.")
    start_occurrence: Occurrence | None = Field(None, description="For a start the clocks show twice (the night they go back): `earlier` or `later`.")
    end_occurrence: Occurrence | None = Field(None, description="For an end the clocks show twice: `earlier` or `later`.")
    sessions: list[Session] | None = Field(None, description="The periods the event runs, in any order; sessions that touch (one ends as the next begins) run on as one; overlapping sessions are refused.")
    daily: Daily | None = Field(None, description="Shorthand for one session a day with the same hours: {first_day, last_day, open, close}.")
    darkness: bool | None = Field(None, description="Whether any part runs during hours of darkness; derived when left out (see docs/event-format.md).")
    _runs: tuple[Session, ...] = PrivateAttr(default=())
    _open: tuple[tuple[str, tuple[int, ...]], ...] = PrivateAttr(default=())

    unknown_end = _before(open_end)
    naive_local_time = field_validator("start", "end")(_rule(local_time_if_datetime))
    one_form = _after(ScheduleBase.one_form)


class Site(Strict):
    kind: _choice("site_kinds") = Field("open_land", description="What kind of place hosts the event.")
    seating_capacity: int | Range | None = Field(None, json_schema_extra=_may_be_unknown, description="Permanent maximum seating capacity of the structure (a number, or a range {min, max}).")

    _seating = field_validator("seating_capacity", mode="before")(_rule(number_or_range, MAX_PEOPLE))
    capacity: int | None = Field(None, ge=0, le=MAX_PEOPLE, description="Maximum capacity of the structure or outdoor location: the most who can reasonably assemble there.")
    sleeping_capacity: int | None = Field(None, ge=0, le=MAX_PEOPLE, description="The most persons allowed to sleep within the boundaries of the location (by zoning or health rules), for an assembly that continues overnight.")
    locations: int = Field(1, ge=1, le=1000, description="Number of separate locations the event uses.")
    county_population: int | None = Field(None, ge=0, le=100_000_000, description="The number of inhabitants of the county where the site lies (a statute's reach may turn on it).")
    flags: list[_choice("site_flags")] = Field(default_factory=list, description="Facts about the site that hold.")


class Organizer(Strict):
    kind: _choice("organizer_kinds") = Field("individual", description="Legal form of the organizer.")
    sponsor: _choice("sponsor_kinds") = Field("private", description="Who sponsors the event.")
    applicant_age: int | Range | None = Field(None, json_schema_extra=_may_be_unknown, description="Age of the applicant (a number, a range, or `unknown`).")
    person_in_charge_age: int | Range | None = Field(None, json_schema_extra=_may_be_unknown, description="Age of the person in charge (a number, a range, or `unknown`).")

    _ages = field_validator("applicant_age", "person_in_charge_age", mode="before")(_rule(number_or_range, 120))
    site_interest: _choice("site_interests") | None = Field(None, description="The applicant's interest in the site.")


class Insurance(Strict):
    general_liability_aggregate_usd: int | None = Field(None, ge=0, le=MAX_USD)
    per_occurrence_bodily_injury_usd: int | None = Field(None, ge=0, le=MAX_USD)
    per_occurrence_property_damage_usd: int | None = Field(None, ge=0, le=MAX_USD)
    fire_legal_liability_usd: int | None = Field(None, ge=0, le=MAX_USD)
    workers_compensation: bool | None = None
    names_government_as_insured: bool | None = None


class Application(Strict):
    filed: date | None = Field(None, description="Date the application was (or will be) filed.")
    hearing_date: date | None = Field(None, description="Date of the public hearing on the application, where one is set.")
    contents: list[_choice("application_items")] = Field(default_factory=list, description="What the application contains.")
    insurance: Insurance = Field(default_factory=Insurance)
    bond_usd: int | None = Field(None, ge=0, le=MAX_USD)
    fee_paid_usd: int | None = Field(None, ge=0, le=MAX_USD)
    approvals: list[_choice("approvals")] = Field(default_factory=list)

    _filed_within = field_validator("filed", "hearing_date")(_rule(within_dates_if_given))


class Event(Strict, EventBase):
    id: str = Field(min_length=1, max_length=200, description="Identifier of the event (any text without control characters).")
    name: str | None = Field(None, max_length=500)

    # An id is one line; a name may run over several.
    _id_text = field_validator("id")(_rule(no_control_characters, ""))
    _name_text = field_validator("name")(_rule(no_control_characters, "\n\t"))
    kinds: list[_choice("event_kinds")] = Field(default_factory=list, description="What the event is.")
    attendance: Attendance
    schedule: Schedule
    site: Site = Field(default_factory=Site)
    organizer: Organizer = Field(default_factory=Organizer)
    flags: list[_choice("event_flags")] = Field(default_factory=list, description="Facts about the event that hold.")
    special_services: list[_choice("special_services")] = Field(default_factory=list)
    application: Application | None = None
    provisions: dict[_choice("obligations"), int] = Field(default_factory=dict, description="What the organizer will provide, by obligation name.")
    findings: list[_choice("findings")] = Field(default_factory=list, description="Findings of the authority (grounds it has found).")
    imposed_conditions: list[_choice("obligations")] = Field(default_factory=list, description="Discretionary conditions the authority has imposed.")
    held_annually_since: int | None = Field(None, ge=1900, le=2999, description="The first year of the unbroken run of years in which the event has been held annually at the same grounds (history-based exemptions).")
    as_of: date | None = Field(None, description="The date whose law applies (the version of each ordinance in force then); by default the event's first day.")
    unknown: list[str] = Field(default_factory=list, description="Facts not known yet, by path: flags.NAME, site.flags.NAME, special_services.NAME, findings.NAME, kinds.NAME, application.contents.NAME, approvals.NAME, schedule.darkness, site.kind, organizer.kind, organizer.sponsor, organizer.site_interest.")

    _as_of_within = field_validator("as_of")(_rule(within_dates_if_given))
    _provisions = field_validator("provisions")(_rule(provisions_within_bounds))
    _known_paths = field_validator("unknown")(_rule(known_paths))

    sessions_within_the_peak = _after(EventBase.sessions_within_the_peak)
    overnight_agrees_with_flags = _after(EventBase.overnight_agrees_with_flags)
    unknown_is_not_also_stated = _after(EventBase.unknown_is_not_also_stated)
