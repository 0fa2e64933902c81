"""The event file format: a pydantic model of every fact an ordinance can turn on (loading: reasoner/loading.py).

A field left out (or null) is a fact the file does not state; booleans default to "not stated",
which the reasoner reads as false until unknown-fact reasoning takes over.
"""
from __future__ import annotations

from datetime import date, datetime, time, timedelta
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

from .clocks import Occurrence, check_local_time
from .vocabulary import names

MAX_EVENT_DAYS = 366
MAX_SESSIONS = 1000
# Dates outside these years are refused: deadlines are computed days before and after them, and
# every day must stay a calendar date. Amounts stay below clingo's 32-bit integers (2^31 - 1).
EARLIEST_DATE = date(1900, 1, 1)
LATEST_DATE = date(2999, 12, 31)
MAX_USD = 1_000_000_000
MAX_AMOUNT = 1_000_000_000


def within_dates(value: date) -> date:
    """A date (or the day of a datetime) the reasoner can compute deadlines around."""
    day = value.date() if isinstance(value, datetime) else value
    if not EARLIEST_DATE <= day <= LATEST_DATE:
        raise ValueError(f"must be between {EARLIEST_DATE.isoformat()} and {LATEST_DATE.isoformat()}")
    return value


def _choice(section: str) -> Any:
    return Literal[names(section)]


@lru_cache(maxsize=None)
def _number_field(model: type, field_name: str) -> tuple[bool, bool, bool]:
    """(a number field, a mapping of numbers, may be `unknown`) of one field, read from its annotation once:
    rendering an annotation costs more than validating a whole event."""
    annotation = str(model.model_fields[field_name].annotation)
    return "int" in annotation.replace("Range", ""), annotation.startswith("dict"), "Range" in annotation


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    @field_validator("*", mode="before")
    @classmethod
    def _numbers_are_numbers(cls, value: Any, info: Any) -> Any:
        """One rule for every number field: a number, never yes/no or text ("1800"), which pydantic would read."""
        number, mapping, may_be_unknown = _number_field(cls, info.field_name)
        if not number:
            return value
        amounts = value.items() if isinstance(value, dict) and mapping else [(None, value)]
        for key, amount in amounts:
            where = f"{key}: " if key is not None else ""
            if isinstance(amount, bool):
                raise ValueError(f"{where}must be a whole number, not yes/no ({str(amount).lower()})")
            if isinstance(amount, str) and not (amount == "unknown" and may_be_unknown):
                quoted = f" ({amount!r})" if key is not None else ""  # a single value is quoted as given
                raise ValueError(f"{where}must be a whole number, not text{quoted}; write it without quotes")
        return value


class Range(Strict):
    """A number known only to lie between min and max (both included)."""

    min: int = Field(ge=0, le=10_000_000)
    max: int = Field(ge=0, le=10_000_000)

    @model_validator(mode="after")
    def ordered(self) -> "Range":
        if self.min > self.max:
            raise ValueError(f"min ({self.min}) is greater than max ({self.max})")
        return self


def _may_be_unknown(schema: dict[str, Any]) -> None:
    """The JSON Schema of a field that takes `unknown` besides a value or a range says so."""
    schema["anyOf"].insert(len([v for v in schema["anyOf"] if v.get("type") != "null"]), {"const": "unknown", "type": "string"})


def _counts_by_day(schema: dict[str, Any]) -> None:
    """A mapping of days to head counts: its keys are ISO dates (a key pattern, not `propertyNames`, which the
    schema's readers take for a list of names)."""
    for variant in schema["anyOf"]:
        if variant.get("type") == "object":
            variant.pop("propertyNames", None)
            variant["patternProperties"] = {r"^\d{4}-\d{2}-\d{2}$": {"type": "integer", "minimum": 0, "maximum": 10_000_000}}
            variant["additionalProperties"] = False


def _number_or_range(upper: int):
    """A whole number from 0 to `upper`, a range {min, max}, or `unknown` (anywhere from 0 to `upper`)."""

    def convert(value: Any) -> Any:
        if value is None or isinstance(value, Range):
            return value
        if value == "unknown":
            return Range(min=0, max=upper)
        if isinstance(value, dict):
            value = Range.model_validate(value)
            if value.max > upper:  # one bound for a range and a single number
                raise ValueError(f"must be a whole number from 0 to {upper:,} (a range too)")
            return value
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError("must be a whole number, a range {min: ..., max: ...} or unknown")
        if not 0 <= value <= upper:
            raise ValueError(f"must be a whole number from 0 to {upper:,}")
        return value

    return convert


class Attendance(Strict):
    expected_max: int | Range = Field(json_schema_extra=_may_be_unknown, description="Actual or reasonably anticipated peak number of people present at any one time; a range {min, max} or `unknown` when not known.")
    total: int | Range | None = Field(None, json_schema_extra=_may_be_unknown, description="The number of different persons over the whole event (all days and sessions together), where it differs from the peak; a range {min, max} or `unknown` when not known.")
    average: int | Range | None = Field(None, json_schema_extra=_may_be_unknown, description="The average number of persons present over all hours of the assembly (a head count the organizer states, at most the peak), for ordinances that count an average; a range {min, max} or `unknown` when not known.")
    female: int | None = Field(None, ge=0, le=10_000_000, description="Of the peak, how many are female (when known).")
    male: int | None = Field(None, ge=0, le=10_000_000, description="Of the peak, how many are male (when known).")
    board_finding: int | None = Field(None, ge=0, le=10_000_000, description="The governing board's finding of the number expected to attend, where the ordinance makes that finding conclusive.")
    max_tickets: int | None = Field(None, ge=0, le=10_000_000, description="Maximum number of tickets to be sold.")

    _peak = field_validator("expected_max", mode="before")(_number_or_range(10_000_000))
    _total = field_validator("total", mode="before")(_number_or_range(10_000_000))
    _average = field_validator("average", mode="before")(_number_or_range(10_000_000))

    @property
    def peak_at_most(self) -> int:
        return self.expected_max.max if isinstance(self.expected_max, Range) else self.expected_max

    @model_validator(mode="after")
    def split_within_peak(self) -> "Attendance":
        for sex in ("female", "male"):
            if (getattr(self, sex) or 0) > self.peak_at_most:
                raise ValueError(f"{sex} ({getattr(self, sex)}) exceeds expected_max ({self.peak_at_most})")
        if self.female is not None and self.male is not None and self.female + self.male > self.peak_at_most:
            raise ValueError(f"female ({self.female}) + male ({self.male}) exceeds expected_max ({self.expected_max})")
        if self.average is not None:  # an average over the hours never exceeds the most present at once
            average_min = self.average.min if isinstance(self.average, Range) else self.average
            if average_min > self.peak_at_most:
                raise ValueError(f"average ({average_min:,}) exceeds expected_max ({self.peak_at_most:,}): the average "
                                 "over the hours cannot exceed the most present at once")
        if self.total is not None:  # every person present at the peak is one of the persons over the event
            total_max = self.total.max if isinstance(self.total, Range) else self.total
            peak_min = self.expected_max.min if isinstance(self.expected_max, Range) else self.expected_max
            if total_max < peak_min:
                raise ValueError(f"total ({total_max:,}) is below expected_max ({peak_min:,}): the persons over the "
                                 "whole event include everyone present at the peak")
        return self


class EndRange(Strict):
    """A session's end known only to lie between min and max (local date-times, both included)."""

    min: datetime = Field(description="The earliest the session may end.")
    max: datetime = Field(description="The latest the session may end.")
    _unstated: bool = PrivateAttr(default=False)   # given as `unknown`: the next session's start bounds it too

    _local_times = field_validator("min", "max")(lambda value: _local(value))

    @model_validator(mode="after")
    def ordered(self) -> "EndRange":
        if self.min > self.max:
            raise ValueError(f"min ({self.min.isoformat(timespec='minutes')}) is after max ({self.max.isoformat(timespec='minutes')})")
        return self


class CloseRange(Strict):
    """A daily closing time known only to lie between min and max (both included; counted from the opening,
    so `{min: "21:00", max: "01:00"}` runs past midnight)."""

    min: time = Field(description="The earliest closing time, e.g. 21:00.")
    max: time = Field(description="The latest closing time, e.g. 01:00 (after midnight when earlier than the opening).")


# A session end given as `unknown`: any time from a minute after the start up to this long after it (or up to
# the next session's start, if sooner). A longer session's end is given as a range.
UNKNOWN_END_WITHIN = timedelta(hours=24)
ONE_MINUTE = timedelta(minutes=1)


def _open_end(data: Any, start_field: str = "start") -> Any:
    """An `end: unknown` becomes the range it stands for (a minute after the start to UNKNOWN_END_WITHIN after)."""
    if isinstance(data, dict) and data.get("end") == "unknown":
        start = data.get(start_field)
        if isinstance(start, str):
            try:
                start = datetime.fromisoformat(start)
            except ValueError:
                return data  # the start's own error is reported
        if isinstance(start, datetime):
            end = EndRange(min=start + ONE_MINUTE, max=start + UNKNOWN_END_WITHIN)
            end._unstated = True
            data = {**data, "end": end}
    return data


def _local(value: datetime) -> datetime:
    if value.tzinfo is not None:  # dropping it would silently move the event; ordinances count the local clock
        raise ValueError("give the local date and time without a UTC offset (e.g. 2027-07-16T12:00)")
    return within_dates(value)


class Session(Strict):
    """One continuous period during which the event runs (local date-times at the event's place)."""

    start: datetime = Field(description="Local date and time the session starts, e.g. 2027-07-16T10:00.")
    end: datetime | EndRange = Field(json_schema_extra=_may_be_unknown, description="Local date and time the session ends (after its start); a range {min, max} or `unknown` (within 24 hours of the start) when not known.")
    start_occurrence: Occurrence | None = Field(None, description="For a start the clocks show twice (the night they go back): `earlier` or `later`.")
    end_occurrence: Occurrence | None = Field(None, description="For an end the clocks show twice: `earlier` or `later`.")
    expected_max: int | None = Field(None, ge=0, le=10_000_000, description="The peak present at any one time during this session, where it is below the event's (e.g. a quiet first day); left out, the event's peak.")

    @model_validator(mode="before")
    @classmethod
    def unknown_end(cls, data: Any) -> Any:
        return _open_end(data)
    _local_times = field_validator("start", "end")(lambda value: _local(value) if isinstance(value, datetime) else value)

    @model_validator(mode="after")
    def ends_after_start(self) -> "Session":
        if self.earliest_end <= self.start:
            raise ValueError(f"end ({self.earliest_end.isoformat()}) must be after start ({self.start.isoformat()})")
        check_local_time(self.start, self.start_occurrence, "start")
        if isinstance(self.end, EndRange):
            if self.end_occurrence is not None:
                raise ValueError("end_occurrence goes with a known end, not a range")
            if self.latest_end - self.start > timedelta(days=MAX_EVENT_DAYS):
                raise ValueError(f"a session may last at most {MAX_EVENT_DAYS} days")
        else:
            check_local_time(self.end, self.end_occurrence, "end")
        return self

    @property
    def open_end(self) -> EndRange | None:
        """The range the end lies in, when it is not known."""
        return self.end if isinstance(self.end, EndRange) else None

    @property
    def earliest_end(self) -> datetime:
        return self.end.min if isinstance(self.end, EndRange) else self.end

    @property
    def latest_end(self) -> datetime:
        return self.end.max if isinstance(self.end, EndRange) else self.end

    def ending(self, end: datetime) -> "Session":
        """This session with a known end (one of the ends its range allows)."""
        return self.model_copy(update={"end": end})

    def label(self) -> str:
        end = self.end.isoformat(timespec="minutes") if not self.open_end else \
            f"between {self.end.min.isoformat(timespec='minutes')} and {self.end.max.isoformat(timespec='minutes')}"
        return f"{self.start.isoformat(timespec='minutes')} to {end}"


class Daily(Strict):
    """The same opening hours on every day from first_day to last_day."""

    first_day: date = Field(description="The first day the event opens, e.g. 2027-07-16.")
    last_day: date = Field(description="The last day it opens (a session closing after midnight ends the day after).")
    open: time = Field(description="Opening time each day, e.g. 10:00.")
    close: time | CloseRange = Field(json_schema_extra=_may_be_unknown, description="Closing time each day, e.g. 21:00; a close earlier than the open (or 00:00) is after midnight. A range {min, max} or `unknown` when not known (the same each day).")
    expected_max: dict[date, int] | None = Field(None, json_schema_extra=_counts_by_day, description="The peak present at any one time on some days, by the day the session opens, where it is below the event's (e.g. {\"2027-08-13\": 6000}); days left out have the event's peak.")

    _within = field_validator("first_day", "last_day")(lambda value: within_dates(value))

    @model_validator(mode="before")
    @classmethod
    def unknown_close(cls, data: Any) -> Any:
        """`close: unknown`: any time from a minute after the opening to a minute before it, the next day."""
        if isinstance(data, dict) and data.get("close") == "unknown":
            opening = data.get("open")
            try:
                opening = time.fromisoformat(opening) if isinstance(opening, str) else opening
            except ValueError:
                return data  # the opening's own error is reported
            if isinstance(opening, time):
                start = datetime.combine(date(2000, 1, 1), opening)
                data = {**data, "close": CloseRange(min=(start + ONE_MINUTE).time(), max=(start - ONE_MINUTE).time())}
        return data

    @model_validator(mode="after")
    def days_in_order(self) -> "Daily":
        if self.last_day < self.first_day:
            raise ValueError(f"last_day ({self.last_day}) is before first_day ({self.first_day})")
        closes = (self.close.min, self.close.max) if isinstance(self.close, CloseRange) else (self.close,)
        if self.open in closes:
            raise ValueError("open and close are the same time: an event open around the clock is one session "
                             "(schedule.start and schedule.end)")
        if any(t.tzinfo is not None for t in (self.open, *closes)):
            raise ValueError("give local clock times without a UTC offset (e.g. 10:00)")
        if len(closes) == 2 and self._after_open(closes[0]) > self._after_open(closes[1]):
            raise ValueError(f"close: min ({closes[0].isoformat('minutes')}) comes after max ({closes[1].isoformat('minutes')}), "
                             f"counted from the opening at {self.open.isoformat('minutes')}")
        if (self.last_day - self.first_day).days > MAX_EVENT_DAYS:
            raise ValueError(f"an event may last at most {MAX_EVENT_DAYS} days")
        for day, count in (self.expected_max or {}).items():
            if not self.first_day <= day <= self.last_day:
                raise ValueError(f"expected_max: {day.isoformat()} is not a day from first_day ({self.first_day}) to last_day "
                                 f"({self.last_day})")
            if not 0 <= count <= 10_000_000:
                raise ValueError(f"expected_max: {day.isoformat()}: must be a whole number from 0 to 10,000,000")
        return self

    def _after_open(self, close: time) -> timedelta:
        """How long after the opening a closing time comes (past midnight when it is not later than the opening)."""
        opening = datetime.combine(self.first_day, self.open)
        return datetime.combine(self.first_day + timedelta(days=1) if close <= self.open else self.first_day, close) - opening

    def closing_on(self, day: date, close: time) -> datetime:
        """The end of the session that opens on `day`, closing at `close`."""
        return datetime.combine(day, self.open) + self._after_open(close)

    def sessions(self) -> list[Session]:
        found = []
        day = self.first_day
        while day <= self.last_day:
            start = datetime.combine(day, self.open)
            if isinstance(self.close, CloseRange):
                end: datetime | EndRange = EndRange(min=self.closing_on(day, self.close.min), max=self.closing_on(day, self.close.max))
            else:
                end = self.closing_on(day, self.close)
            found.append(Session(start=start, end=end, expected_max=(self.expected_max or {}).get(day)))
            day += timedelta(days=1)
        return found


class Schedule(Strict):
    start: datetime | None = Field(None, description="Local date and time the assembly starts, e.g. 2027-07-16T12:00 (one continuous session; or give `sessions` or `daily`).")
    end: datetime | EndRange | None = Field(None, json_schema_extra=_may_be_unknown, description="Local date and time the assembly ends; a range {min, max} or `unknown` (within 24 hours of the start) when not known.")
    start_occurrence: Occurrence | None = Field(None, description="For a start the clocks show twice (the night they go back): `earlier` or `later`.")
    end_occurrence: Occurrence | None = Field(None, description="For an end the clocks show twice: `earlier` or `later`.")
    sessions: list[Session] | None = Field(None, description="The periods the event runs, in any order; sessions that touch (one ends as the next begins) run on as one; overlapping sessions are refused.")
    daily: Daily | None = Field(None, description="Shorthand for one session a day with the same hours: {first_day, last_day, open, close}.")
    darkness: bool | None = Field(None, description="Whether any part runs during hours of darkness; derived when left out (see README).")
    _runs: tuple[Session, ...] = PrivateAttr(default=())
    _open: tuple[tuple[str, tuple[int, ...]], ...] = PrivateAttr(default=())

    @model_validator(mode="before")
    @classmethod
    def unknown_end(cls, data: Any) -> Any:
        return _open_end(data)

    @field_validator("start", "end")
    @classmethod
    def naive_local_time(cls, value: Any) -> Any:
        return _local(value) if isinstance(value, datetime) else value

    @model_validator(mode="after")
    def one_form(self) -> "Schedule":
        forms = [name for name, given in (("start/end", self.start is not None or self.end is not None),
                                          ("sessions", self.sessions is not None), ("daily", self.daily is not None)) if given]
        if len(forms) != 1:
            raise ValueError("give the schedule as start and end, as sessions, or as daily hours"
                             + (f" (not {' and '.join(forms)} together)" if forms else ""))
        if forms == ["start/end"]:
            if self.start is None or self.end is None:
                raise ValueError("give both start and end")
            runs = [Session(start=self.start, end=self.end, start_occurrence=self.start_occurrence,
                            end_occurrence=self.end_occurrence)]
        else:
            if self.start_occurrence or self.end_occurrence:
                raise ValueError("start_occurrence and end_occurrence go with start and end (or inside a session)")
            runs = list(self.sessions) if self.sessions is not None else self.daily.sessions()
        if not runs:
            raise ValueError("give at least one session")
        if len(runs) > MAX_SESSIONS:
            raise ValueError(f"at most {MAX_SESSIONS:,} sessions")
        # Each open end, by its path and the sessions it sets (tracked through the sort by position in the file).
        if self.daily is not None:
            paths = {number: "schedule.daily.close" for number, s in enumerate(runs) if s.open_end}
        else:
            paths = {number: "schedule.end" if self.sessions is None else f"schedule.sessions[{number}].end"
                     for number, s in enumerate(runs) if s.open_end}
        order = sorted(range(len(runs)), key=lambda n: (runs[n].start, runs[n].latest_end))
        runs = [runs[n] for n in order]
        for number, (before, after) in enumerate(zip(runs, runs[1:])):
            if before.open_end and before.end._unstated and after.start < before.latest_end:
                # an end given as `unknown` lies before the next session's start
                runs[number] = before = before.ending(EndRange(min=before.earliest_end, max=max(after.start, before.earliest_end)))
            if after.start < before.latest_end:
                raise ValueError(f"sessions overlap: {before.label()} and {after.label()}"
                                 + (" (the latest end of a range may not pass the next session's start)" if before.open_end else ""))
        opened: dict[str, list[int]] = {}
        for position, number in enumerate(order):
            if number in paths:
                opened.setdefault(paths[number], []).append(position)
        self._open = tuple((path, tuple(positions)) for path, positions in opened.items())
        if (runs[-1].latest_end - runs[0].start).days > MAX_EVENT_DAYS:
            raise ValueError(f"an event may last at most {MAX_EVENT_DAYS} days")
        self._runs = tuple(runs)
        return self

    @property
    def runs(self) -> tuple[Session, ...]:
        """The sessions in time order, whichever form the file used."""
        return self._runs

    @property
    def opening(self) -> datetime:
        return self._runs[0].start

    @property
    def closing(self) -> datetime:
        return self._runs[-1].latest_end

    def open_ends(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """Each end (or daily closing time) the file leaves open: its path, and the sessions (indexes into
        `runs`) whose end it sets."""
        return self._open


class Site(Strict):
    kind: _choice("site_kinds") = Field("open_land", description="What kind of place hosts the event.")
    seating_capacity: int | Range | None = Field(None, json_schema_extra=_may_be_unknown, description="Permanent maximum seating capacity of the structure (a number, or a range {min, max}).")

    _seating = field_validator("seating_capacity", mode="before")(_number_or_range(10_000_000))
    capacity: int | None = Field(None, ge=0, le=10_000_000, description="Maximum capacity of the structure or outdoor location (auctions and sales).")
    locations: int = Field(1, ge=1, le=1000, description="Number of separate locations the event uses.")
    flags: list[_choice("site_flags")] = Field(default_factory=list, description="Facts about the site that hold.")


class Organizer(Strict):
    kind: _choice("organizer_kinds") = Field("individual", description="Legal form of the organizer.")
    sponsor: _choice("sponsor_kinds") = Field("private", description="Who sponsors the event.")
    applicant_age: int | Range | None = Field(None, json_schema_extra=_may_be_unknown, description="Age of the applicant (a number, a range, or `unknown`).")
    person_in_charge_age: int | Range | None = Field(None, json_schema_extra=_may_be_unknown, description="Age of the person in charge (a number, a range, or `unknown`).")

    _ages = field_validator("applicant_age", "person_in_charge_age", mode="before")(_number_or_range(120))
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
    contents: list[_choice("application_items")] = Field(default_factory=list, description="What the application contains.")
    insurance: Insurance = Field(default_factory=Insurance)
    bond_usd: int | None = Field(None, ge=0, le=MAX_USD)
    fee_paid_usd: int | None = Field(None, ge=0, le=MAX_USD)
    approvals: list[_choice("approvals")] = Field(default_factory=list)

    _filed_within = field_validator("filed")(lambda value: value if value is None else within_dates(value))


# Characters that reorder or break the text around them when printed (bidi overrides and isolates, line and
# paragraph separators): refused with the control characters.
_REORDERING = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u2028\u2029")


class Event(Strict):
    id: str = Field(min_length=1, max_length=200, description="Identifier of the event (any text without control characters).")
    name: str | None = Field(None, max_length=500)

    @field_validator("id", "name")
    @classmethod
    def no_control_characters(cls, value: str | None, info: Any) -> str | None:
        # Printed to terminals and files: an escape sequence could recolour or retitle a terminal. An id is one
        # line; a name may run over several.
        allowed = "" if info.field_name == "id" else "\n\t"
        if value is not None and any((ord(c) < 32 or 127 <= ord(c) < 160 or c in _REORDERING) and c not in allowed
                                     for c in value):
            raise ValueError("holds a control character (an escape, a null, a bidi override"
                             + (", a newline or tab" if not allowed else "") + ")")
        return value
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

    _as_of_within = field_validator("as_of")(lambda value: value if value is None else within_dates(value))

    @property
    def law_date(self) -> date:
        """The date whose law applies: `as_of`, or the first day of the event."""
        return self.as_of or self.schedule.opening.date()

    @field_validator("provisions")
    @classmethod
    def provisions_within_bounds(cls, value: dict[str, int]) -> dict[str, int]:
        for key, amount in value.items():
            if not 0 <= amount <= MAX_AMOUNT:
                raise ValueError(f"provision {key} must be between 0 and {MAX_AMOUNT:,}, got {amount}")
        return value

    @field_validator("unknown")
    @classmethod
    def known_paths(cls, paths: list[str]) -> list[str]:
        for path in paths:
            if path not in unknown_paths():
                raise ValueError(f"{path!r} is not a fact that can be unknown; see docs/event-format.md")
        if len(set(paths)) != len(paths):
            raise ValueError("a fact is listed twice")
        return paths

    @model_validator(mode="after")
    def sessions_within_the_peak(self) -> "Event":
        peak = self.attendance.peak_at_most
        for number, session in enumerate(self.schedule.sessions or ()):
            if session.expected_max is not None and session.expected_max > peak:
                raise ValueError(f"schedule.sessions[{number}].expected_max ({session.expected_max:,}) is above the "
                                 f"event's peak, attendance.expected_max ({peak:,})")
        for day, count in (self.schedule.daily.expected_max or {}).items() if self.schedule.daily else ():
            if count > peak:
                raise ValueError(f"schedule.daily.expected_max: {day.isoformat()} ({count:,}) is above the event's peak, "
                                 f"attendance.expected_max ({peak:,})")
        return self

    @model_validator(mode="after")
    def unknown_is_not_also_stated(self) -> "Event":
        stated = {f"flags.{f}" for f in self.flags} | {f"site.flags.{f}" for f in self.site.flags} \
            | {f"special_services.{s}" for s in self.special_services} | {f"findings.{f}" for f in self.findings} \
            | {f"kinds.{k}" for k in self.kinds}
        if self.application:
            stated |= {f"application.contents.{c}" for c in self.application.contents}
            stated |= {f"approvals.{a}" for a in self.application.approvals}
        if self.schedule.darkness is not None:
            stated.add("schedule.darkness")
        both = sorted(stated & set(self.unknown))
        if both:
            raise ValueError(f"stated and also listed as unknown: {', '.join(both)}")
        return self

    @property
    def has_unknowns(self) -> bool:
        ranges = (self.attendance.expected_max, self.attendance.total, self.attendance.average, self.site.seating_capacity, self.organizer.applicant_age,
                  self.organizer.person_in_charge_age)
        return bool(self.unknown) or any(isinstance(value, Range) for value in ranges) or bool(self.schedule.open_ends())


# What `unknown` may name: each a yes/no fact, except the enumerated ones whose value is open.
UNKNOWN_ENUMS = {"site.kind": "site_kinds", "organizer.kind": "organizer_kinds", "organizer.sponsor": "sponsor_kinds",
                 "organizer.site_interest": "site_interests"}
UNKNOWN_SETS = {"flags": "event_flags", "site.flags": "site_flags", "special_services": "special_services",
                "findings": "findings", "kinds": "event_kinds", "application.contents": "application_items",
                "approvals": "approvals"}


def unknown_paths() -> set[str]:
    paths = {"schedule.darkness", *UNKNOWN_ENUMS}
    for prefix, section in UNKNOWN_SETS.items():
        paths |= {f"{prefix}.{name}" for name in names(section)}
    return paths


def _given_date(day: date) -> None:
    """A date given on the command line or in a request, within the dates the reasoner computes around."""
    try:
        within_dates(day)
    except ValueError as error:
        raise ValueError(f"{error} (given: {day.isoformat()})") from None


def one_event(events: list[Event], event_id: str | None, source: str, how_to_choose: str) -> Event:
    """The event `event_id` names, or the file's only event; ValueError says what is wrong (`how_to_choose`
    names the option or field that picks one)."""
    if event_id is not None:
        events = [e for e in events if e.id == event_id]
        if not events:
            raise ValueError(f"{source}: no event with id {event_id!r}")
    elif len(events) > 1:
        raise ValueError(f"{source} holds {len(events)} events; choose one with {how_to_choose}")
    return events[0]


def with_law_date(events: list[Event], as_of: date | None) -> list[Event]:
    """The events evaluated under the law in force on `as_of` (None: as they are). A date out of range raises
    ValueError naming the date."""
    if as_of is None:
        return events
    _given_date(as_of)
    return [event.model_copy(update={"as_of": as_of}) for event in events]


def with_filing_date(events: list[Event], filed: date | None) -> list[Event]:
    """The events as if their application were filed on `filed` (None: as they are). A date out of range
    raises ValueError naming the date."""
    if filed is None:
        return events
    _given_date(filed)
    return [event.model_copy(update={"application": event.application.model_copy(update={"filed": filed})
                                     if event.application else Application(filed=filed)}) for event in events]
