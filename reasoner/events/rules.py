"""The event format's own rules, without pydantic: the bounds, the custom validators' checks, and what each part
of an event can tell (properties and methods). reasoner/events/model.py declares the format as pydantic models built on
these; reasoner/events/plan.py reads a valid event without pydantic by the same rules (a cold `evaluate` spends
more on building pydantic's models than on clingo).

A rule that builds a part of an event (a session from daily hours, the range of an end left `unknown`) builds it
in the family of the object it works on (`family(...)`): pydantic models for the models, light objects for the
light ones.
"""
from __future__ import annotations

import re
import sys
from datetime import date, datetime, time, timedelta
from types import ModuleType
from typing import Any

from reasoner.events.clocks import check_local_time
from reasoner.law.vocabulary import names

MAX_EVENT_DAYS = 366
MAX_SESSIONS = 1000
# Dates outside these years are refused: deadlines are computed days before and after them, and
# every day must stay a calendar date. Amounts stay below clingo's 32-bit integers (2^31 - 1).
EARLIEST_DATE = date(1900, 1, 1)
LATEST_DATE = date(2999, 12, 31)
MAX_USD = 1_000_000_000
MAX_AMOUNT = 1_000_000_000
MAX_PEOPLE = 10_000_000   # any head count: a peak, a total, a session's or a day's, seats, tickets
# A session end given as `unknown`: any time from a minute after the start up to this long after it (or up to
# the next session's start, if sooner). A longer session's end is given as a range.
UNKNOWN_END_WITHIN = timedelta(hours=24)
ONE_MINUTE = timedelta(minutes=1)
# Characters that reorder or break the text around them when printed (bidi overrides and isolates, line and
# paragraph separators): refused with the control characters.
_REORDERING = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u2028\u2029")


def family(model: Any) -> ModuleType:
    """The module whose classes `model` (an object or a class) belongs with: reasoner.events.model or reasoner.events.plan."""
    return sys.modules[(model if isinstance(model, type) else type(model)).__module__]


# Field rules: each takes the value (and the arguments it was declared with) and returns it, or raises ValueError.

def within_dates(value: date, family: ModuleType | None = None) -> date:
    """A date (or the day of a datetime) the reasoner can compute deadlines around."""
    day = value.date() if isinstance(value, datetime) else value
    if not EARLIEST_DATE <= day <= LATEST_DATE:
        raise ValueError(f"must be between {EARLIEST_DATE.isoformat()} and {LATEST_DATE.isoformat()}")
    return value


def within_dates_if_given(value: date | None, family: ModuleType | None = None) -> date | None:
    return value if value is None else within_dates(value)


def local_time(value: datetime, family: ModuleType | None = None) -> datetime:
    if value.tzinfo is not None:  # dropping it would silently move the event; ordinances count the local clock
        raise ValueError("give the local date and time without a UTC offset (e.g. 2027-07-16T12:00)")
    return within_dates(whole_minutes(value))


def whole_minutes(value: Any, family: ModuleType | None = None) -> Any:
    """A clock time to the minute: the ordinances count hours and minutes, and seconds would be dropped unseen
    (10:00:30 to 22:00 would count as 12 hours)."""
    if isinstance(value, (datetime, time)) and (value.second or value.microsecond):
        raise ValueError(f"give the time to the minute, without seconds (e.g. {value.strftime('%H:%M')})")
    return value


def local_time_if_datetime(value: Any, family: ModuleType | None = None) -> Any:
    return local_time(value) if isinstance(value, datetime) else value


def numbers_are_numbers(value: Any, number: bool, mapping: bool, may_be_unknown: bool, family: ModuleType | None = None) -> Any:
    """One rule for every number field: a number, never yes/no or text ("1800"), which pydantic would read.
    (number, mapping, may_be_unknown) say whether the field holds numbers, a mapping of them, or also `unknown`."""
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


def number_or_range(value: Any, upper: int, family: ModuleType) -> Any:
    """A whole number from 0 to `upper`, a range {min, max}, or `unknown` (anywhere from 0 to `upper`)."""
    if value is None or isinstance(value, RangeBase):
        return value
    if value == "unknown":
        return family.Range(min=0, max=upper)
    if isinstance(value, dict):
        value = family.Range.model_validate(value)
        if value.max > upper:  # one bound for a range and a single number
            raise ValueError(f"must be a whole number from 0 to {upper:,} (a range too)")
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("must be a whole number, a range {min: ..., max: ...} or unknown")
    if not 0 <= value <= upper:
        raise ValueError(f"must be a whole number from 0 to {upper:,}")
    return value


def no_control_characters(value: str | None, allowed: str, family: ModuleType | None = None) -> str | None:
    # Printed to terminals and files: an escape sequence could recolour or retitle a terminal. An id is one
    # line; a name may run over several (allowed: "\n\t").
    if value is not None and any((ord(c) < 32 or 127 <= ord(c) < 160 or c in _REORDERING) and c not in allowed
                                 for c in value):
        raise ValueError("holds a control character (an escape, a null, a bidi override"
                         + (", a newline or tab" if not allowed else "") + ")")
    return value


def provisions_within_bounds(value: dict[str, int], family: ModuleType | None = None) -> dict[str, int]:
    for key, amount in value.items():
        if not 0 <= amount <= MAX_AMOUNT:
            raise ValueError(f"provision {key} must be between 0 and {MAX_AMOUNT:,}, got {amount}")
    return value


def known_paths(paths: list[str], family: ModuleType | None = None) -> list[str]:
    for path in paths:
        if path not in unknown_paths():
            raise ValueError(f"{path!r} is not a fact that can be unknown; see docs/event-format.md")
    if len(set(paths)) != len(paths):
        raise ValueError("a fact is listed twice")
    return paths


# Rules on a part's given data, before its fields are read.

def open_end(data: Any, family: ModuleType, start_field: str = "start") -> Any:
    """An `end: unknown` becomes the range it stands for (a minute after the start to UNKNOWN_END_WITHIN after)."""
    if isinstance(data, dict) and data.get("end") == "unknown":
        start = data.get(start_field)
        if isinstance(start, str):
            try:
                start = datetime.fromisoformat(start)
            except ValueError:
                return data  # the start's own error is reported
        if isinstance(start, datetime):
            end = family.EndRange(min=start + ONE_MINUTE, max=start + UNKNOWN_END_WITHIN)
            end._unstated = True
            data = {**data, "end": end}
    return data


# a time of day as pydantic reads text: 10:00, 10:00:30, with or without a UTC offset (refused in words later)
_CLOCK = re.compile(r"\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?", re.ASCII)


def clock_time(value: Any, family: ModuleType) -> Any:
    """A clock time, saying in words what YAML made of an unquoted one (10:00 is the number 600 to it) and what
    text is no clock time (10:00pm), instead of the parser's own messages."""
    if isinstance(value, int) and not isinstance(value, bool):
        written = f"{value // 60:02d}:{value % 60:02d}" if 0 <= value < 24 * 60 else "10:00"
        raise ValueError(f'write the time in quotes, as "{written}": unquoted, YAML reads {written} as the number {value}')
    if isinstance(value, str) and value != "unknown" and not _CLOCK.fullmatch(value):
        raise ValueError('not a clock time this reader knows: write the 24-hour clock in quotes, as "22:00" or "09:30"')
    return value


def unknown_close(data: Any, family: ModuleType) -> Any:
    """`close: unknown`: any time from a minute after the opening to a minute before it, the next day."""
    if isinstance(data, dict) and data.get("close") == "unknown":
        opening = data.get("open")
        try:
            opening = time.fromisoformat(opening) if isinstance(opening, str) else opening
        except ValueError:
            return data  # the opening's own error is reported
        if isinstance(opening, time):
            start = datetime.combine(date(2000, 1, 1), opening)
            data = {**data, "close": family.CloseRange(min=(start + ONE_MINUTE).time(), max=(start - ONE_MINUTE).time())}
    return data


# Each part's behaviour and its checks on the whole part (run after its fields are read, returning the part).

class RangeBase:
    """A number known only to lie between min and max (both included)."""

    def ordered(self) -> Any:
        if self.min > self.max:
            raise ValueError(f"min ({self.min}) is greater than max ({self.max})")
        return self


def least(value: Any) -> Any:
    """A number, or the least of a range."""
    return value.min if isinstance(value, RangeBase) else value


def most(value: Any) -> Any:
    """A number, or the most of a range."""
    return value.max if isinstance(value, RangeBase) else value


class AttendanceBase:
    @property
    def peak_at_most(self) -> int:
        return most(self.expected_max)

    def split_within_peak(self) -> Any:
        for sex in ("female", "male"):
            if (getattr(self, sex) or 0) > self.peak_at_most:
                raise ValueError(f"{sex} ({getattr(self, sex)}) exceeds expected_max ({self.peak_at_most})")
        if self.female is not None and self.male is not None and self.female + self.male > self.peak_at_most:
            raise ValueError(f"female ({self.female}) + male ({self.male}) exceeds expected_max ({self.expected_max})")
        if self.average is not None:  # an average over the hours never exceeds the most present at once
            average_min = least(self.average)
            if average_min > self.peak_at_most:
                raise ValueError(f"average ({average_min:,}) exceeds expected_max ({self.peak_at_most:,}): the average "
                                 "over the hours cannot exceed the most present at once")
        if self.overnight is not None:  # those staying between sessions are present at one time, so within the peak
            overnight_min = least(self.overnight)
            if overnight_min > self.peak_at_most:
                raise ValueError(f"overnight ({overnight_min:,}) exceeds expected_max ({self.peak_at_most:,}): those "
                                 "staying on the grounds overnight are present at one time, so within the peak")
        if self.total is not None:  # every person present at the peak is one of the persons over the event
            total_max, peak_min = most(self.total), least(self.expected_max)
            if total_max < peak_min:
                raise ValueError(f"total ({total_max:,}) is below expected_max ({peak_min:,}): the persons over the "
                                 "whole event include everyone present at the peak")
        return self


class EndRangeBase:
    """A session's end known only to lie between min and max (local date-times, both included)."""

    def ordered(self) -> Any:
        if self.min > self.max:
            raise ValueError(f"min ({self.min.isoformat(timespec='minutes')}) is after max ({self.max.isoformat(timespec='minutes')})")
        return self


class SessionBase:
    """One continuous period during which the event runs (local date-times at the event's place)."""

    def ends_after_start(self) -> Any:
        if self.earliest_end <= self.start:
            raise ValueError(f"end ({self.earliest_end.isoformat()}) must be after start ({self.start.isoformat()})")
        check_local_time(self.start, self.start_occurrence, "start")
        if isinstance(self.end, EndRangeBase):
            if self.end_occurrence is not None:
                raise ValueError("end_occurrence goes with a known end, not a range")
            if self.latest_end - self.start > timedelta(days=MAX_EVENT_DAYS):
                raise ValueError(f"a session may last at most {MAX_EVENT_DAYS} days")
        else:
            check_local_time(self.end, self.end_occurrence, "end")
        return self

    @property
    def open_end(self) -> Any:
        """The range the end lies in, when it is not known."""
        return self.end if isinstance(self.end, EndRangeBase) else None

    @property
    def earliest_end(self) -> datetime:
        return self.end.min if isinstance(self.end, EndRangeBase) else self.end

    @property
    def latest_end(self) -> datetime:
        return self.end.max if isinstance(self.end, EndRangeBase) else self.end

    def ending(self, end: datetime | Any) -> Any:
        """This session with a known end (one of the ends its range allows)."""
        return self.model_copy(update={"end": end})

    def label(self) -> str:
        end = self.end.isoformat(timespec="minutes") if not self.open_end else \
            f"between {self.end.min.isoformat(timespec='minutes')} and {self.end.max.isoformat(timespec='minutes')}"
        return f"{self.start.isoformat(timespec='minutes')} to {end}"


class DailyBase:
    """The same opening hours on every day from first_day to last_day."""

    def days_in_order(self) -> Any:
        if self.last_day < self.first_day:
            raise ValueError(f"last_day ({self.last_day}) is before first_day ({self.first_day})")
        closes = (self.close,) if isinstance(self.close, time) else (self.close.min, self.close.max)
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
            if not 0 <= count <= MAX_PEOPLE:
                raise ValueError(f"expected_max: {day.isoformat()}: must be a whole number from 0 to {MAX_PEOPLE:,}")
        return self

    def _after_open(self, close: time) -> timedelta:
        """How long after the opening a closing time comes (past midnight when it is not later than the opening)."""
        opening = datetime.combine(self.first_day, self.open)
        return datetime.combine(self.first_day + timedelta(days=1) if close <= self.open else self.first_day, close) - opening

    def closing_on(self, day: date, close: time) -> datetime:
        """The end of the session that opens on `day`, closing at `close`."""
        return datetime.combine(day, self.open) + self._after_open(close)

    def sessions(self) -> list[Any]:
        parts = family(self)
        found = []
        day = self.first_day
        while day <= self.last_day:
            start = datetime.combine(day, self.open)
            if isinstance(self.close, time):
                end = self.closing_on(day, self.close)
            else:
                end = parts.EndRange(min=self.closing_on(day, self.close.min), max=self.closing_on(day, self.close.max))
            found.append(parts.Session(start=start, end=end, expected_max=(self.expected_max or {}).get(day)))
            day += timedelta(days=1)
        return found


class ScheduleBase:
    def one_form(self) -> Any:
        forms = [name for name, given in (("start/end", self.start is not None or self.end is not None),
                                          ("sessions", self.sessions is not None), ("daily", self.daily is not None)) if given]
        if len(forms) != 1:
            raise ValueError("give the schedule as start and end, as sessions, or as daily hours"
                             + (f" (not {' and '.join(forms)} together)" if forms else ""))
        parts = family(self)
        if forms == ["start/end"]:
            if self.start is None or self.end is None:
                raise ValueError("give both start and end")
            runs = [parts.Session(start=self.start, end=self.end, start_occurrence=self.start_occurrence,
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
                runs[number] = before = before.ending(parts.EndRange(min=before.earliest_end,
                                                                     max=max(after.start, before.earliest_end)))
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
    def runs(self) -> tuple[Any, ...]:
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


class EventBase:
    @property
    def law_date(self) -> date:
        """The date whose law applies: `as_of`, or the first day of the event."""
        return self.as_of or self.schedule.opening.date()

    def sessions_within_the_peak(self) -> Any:
        peak = self.attendance.peak_at_most
        for number, session in enumerate(self.schedule.sessions or ()):
            if session.expected_max is not None and session.expected_max > peak:
                raise ValueError(f"schedule.sessions[{number}].expected_max ({session.expected_max:,}) is above the "
                                 f"event's peak, attendance.expected_max ({peak:,})")
        for day, count in (self.schedule.daily.expected_max or {}).items() if self.schedule.daily else ():
            if count > peak:
                raise ValueError(f"schedule.daily.expected_max: {day.isoformat()} ({count:,}) is above the event's peak, "
                                 f"attendance.expected_max ({peak:,})")
        # Where every session states its peak, the event's peak is the largest of them: one above all of them would
        # count people at no session (Wyoming's licences per day would then be none, for a licence required).
        lowest = self.attendance.expected_max.min if isinstance(self.attendance.expected_max, RangeBase) else self.attendance.expected_max
        if self.schedule.sessions is not None:
            stated = [(s.expected_max, f"schedule.sessions[{n}].expected_max") for n, s in enumerate(self.schedule.sessions)]
        elif self.schedule.daily is not None:
            stated = [(s.expected_max, f"schedule.daily.expected_max: {s.start.date().isoformat()}") for s in self.schedule.runs]
        else:
            stated = [(None, "")]
        if all(count is not None for count, _ in stated):
            count, field = max(stated, key=lambda c: c[0])
            if lowest > count:
                raise ValueError(f"attendance.expected_max ({lowest:,}) is above every session's peak, the largest being "
                                 f"{field} ({count:,}): the event's peak is the largest of its sessions' (lower it, or "
                                 "leave out the expected_max of a session that reaches it)")
        return self

    def overnight_agrees_with_flags(self) -> Any:
        # `overnight_stay` says some stay and camping is staying: a count of nobody contradicts them.
        overnight = self.attendance.overnight
        at_most = overnight.max if isinstance(overnight, RangeBase) else overnight
        said = [f for f in ("overnight_stay", "camping") if f in self.flags]
        if at_most == 0 and said:
            raise ValueError(f"attendance.overnight is 0 but flags say {' and '.join(said)}: those who camp or stay "
                             "on the grounds overnight are more than 0")
        return self

    def unknown_is_not_also_stated(self) -> Any:
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
        ranges = (self.attendance.expected_max, self.attendance.total, self.attendance.average, self.attendance.overnight,
                  self.site.seating_capacity, self.organizer.applicant_age,
                  self.organizer.person_in_charge_age)
        return bool(self.unknown) or any(isinstance(value, RangeBase) for value in ranges) or bool(self.schedule.open_ends())


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


def one_event(events: list[Any], event_id: str | None, source: str, how_to_choose: str) -> Any:
    """The event `event_id` names, or the file's only event; ValueError says what is wrong (`how_to_choose`
    names the option or field that picks one)."""
    if event_id is not None:
        events = [e for e in events if e.id == event_id]
        if not events:
            raise ValueError(f"{source}: no event with id {event_id!r}")
    elif len(events) > 1:
        raise ValueError(f"{source} holds {len(events)} events; choose one with {how_to_choose}")
    return events[0]


def with_law_date(events: list[Any], as_of: date | None) -> list[Any]:
    """The events evaluated under the law in force on `as_of` (None: as they are). A date out of range raises
    ValueError naming the date."""
    if as_of is None:
        return events
    _given_date(as_of)
    return [event.model_copy(update={"as_of": as_of}) for event in events]


def with_filing_date(events: list[Any], filed: date | None) -> list[Any]:
    """The events as if their application were filed on `filed` (None: as they are). A date out of range
    raises ValueError naming the date."""
    if filed is None:
        return events
    _given_date(filed)
    return [event.model_copy(update={"application": event.application.model_copy(update={"filed": filed})
                                     if event.application else family(event).Application(filed=filed)})
            for event in events]
