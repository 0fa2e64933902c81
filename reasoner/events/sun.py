"""Darkness from the sun: whether a session runs during an ordinance's hours of darkness, at its own place.

Geography, not law. Sunset and sunrise come from astral (NOAA's solar equations) at the four corners of the
ordinance's registry `extent` [south, north, west, east], on the session's own local dates, in the ordinance's
`time_zone`: the corners are where the earliest and latest sunrises and sunsets of the place fall. How long after
sunset darkness begins and how long before sunrise it ends are the law's reading, stated once in each encoding
that reads darkness as `param(O, darkness_after_sunset_minutes, M, C)` and `darkness_before_sunrise_minutes`
(encodings/vocabulary.lp: reads_darkness/1); they are read here from the encodings, never written here.

The alternative reading of every such text, sunset_to_sunrise (encodings/vocabulary.lp: sun_down/3), takes the hours
of darkness as the hours the sun is down, from sunset to sunrise: no minutes on either side, so no number of law
(`SUN_DOWN`). Its state is computed beside the default one, and stated only where it differs.

A session is dark at a corner if it overlaps some night's darkness there (it runs past sunset plus the minutes
after, having begun before the next sunrise less the minutes before); the session is `dark` if so at every corner,
`light` if at none, and `unsure` where the corners disagree. Sun times are computed once per ordinance and date.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from astral import Observer
from astral.sun import sunrise, sunset

from reasoner.events.clocks import zone
from reasoner.law.locator import encoded_ordinances
from reasoner.law.ordinances import ordinance_time_zones

if TYPE_CHECKING:
    from reasoner.events.model import Session

AFTER_SUNSET = "darkness_after_sunset_minutes"
BEFORE_SUNRISE = "darkness_before_sunrise_minutes"
CORNERS = ("south-western", "south-eastern", "north-western", "north-eastern")


@dataclass(frozen=True)
class Reading:
    """An ordinance's hours of darkness: from `after` minutes past sunset to `before` minutes ahead of sunrise."""

    after: int
    before: int
    clauses: tuple[str, str]


SUNSET_TO_SUNRISE = "sunset_to_sunrise"  # the alternative reading's id, as each text's registry names it
SUN_DOWN = Reading(0, 0, ("", ""))  # sunset_to_sunrise: the sun itself bounds the night; no text states minutes


def reading_of(ordinance: str, down: bool = False) -> Reading:
    """The ordinance's hours of darkness: its params' reading, or (`down`) the hours the sun is down."""
    return SUN_DOWN if down else readings()[ordinance]


@cache
def readings() -> dict[str, Reading]:
    """{ordinance: its reading}, for every encoded ordinance that states both darkness params."""
    from reasoner.law.rules import params  # the encodings' param facts, parsed once and kept between runs

    stated: dict[str, dict[str, tuple[int, str]]] = {}
    for ordinance, name, value, clause in params(encoded_ordinances()):
        if name in (AFTER_SUNSET, BEFORE_SUNRISE):
            stated.setdefault(ordinance, {})[name] = (value, clause)
    return {o: Reading(p[AFTER_SUNSET][0], p[BEFORE_SUNRISE][0], (p[AFTER_SUNSET][1], p[BEFORE_SUNRISE][1]))
            for o, p in sorted(stated.items()) if AFTER_SUNSET in p and BEFORE_SUNRISE in p}


@cache
def _observers(ordinance: str) -> tuple[Observer, ...]:
    from reasoner.law.ordinances import ordinance_extents

    south, north, west, east = ordinance_extents()[ordinance]
    return tuple(Observer(latitude, longitude) for latitude in (south, north) for longitude in (west, east))


@lru_cache(maxsize=1 << 15)
def sun_times(ordinance: str, day: date) -> tuple[tuple[datetime, datetime], ...]:
    """(sunrise, sunset) on local date `day` at each corner of the ordinance's extent (CORNERS order), aware, in
    its time zone."""
    tz = zone(ordinance_time_zones()[ordinance])
    return tuple((sunrise(o, day, tzinfo=tz), sunset(o, day, tzinfo=tz)) for o in _observers(ordinance))


def _instant(moment: datetime, tz_name: str, occurrence: str | None) -> datetime:
    return moment.replace(tzinfo=zone(tz_name), fold=1 if occurrence == "later" else 0).astimezone(timezone.utc)


def nights(ordinance: str, session: Session, down: bool = False) -> list[tuple[date, list[tuple[datetime, datetime]]]]:
    """Each night a session may touch, by the date of its evening, with each corner's (dark from, dark until)."""
    reading = reading_of(ordinance, down)
    after, before = timedelta(minutes=reading.after), timedelta(minutes=reading.before)
    found = []
    day = session.start.date() - timedelta(days=1)
    while day <= session.end.date():
        evening, morning = sun_times(ordinance, day), sun_times(ordinance, day + timedelta(days=1))
        found.append((day, [(fall + after, rise - before) for (_, fall), (rise, _) in zip(evening, morning)]))
        day += timedelta(days=1)
    return found


def session_darkness(ordinance: str, session: Session, down: bool = False) -> str:
    """`dark`, `light` or `unsure` (the extent's corners disagree) for a session whose end is known; `down`: on the
    reading sunset_to_sunrise."""
    return _state(ordinance, session.start, session.end, session.start_occurrence, session.end_occurrence, down)


@lru_cache(maxsize=1 << 16)
def _state(ordinance: str, start: datetime, end: datetime, start_occurrence: str | None, end_occurrence: str | None,
           down: bool = False) -> str:
    tz_name = ordinance_time_zones()[ordinance]
    begins = _instant(start, tz_name, start_occurrence).timestamp()
    ends = _instant(end, tz_name, end_occurrence).timestamp()
    days = [start.date() + timedelta(days=d) for d in range(-1, (end.date() - start.date()).days + 1)]
    touched = [_bounded(ordinance, day, begins, ends, down) for day in days]
    if "all" in touched:
        return "dark"
    if all(t == "none" for t in touched):
        return "light"
    return _exact(ordinance, days, begins, ends, down)


def _exact(ordinance: str, days: list[date], begins: float, ends: float, down: bool = False) -> str:
    dark = 0  # a bit for each corner where the session reaches darkness
    for day in days:
        for k, (dark_from, dark_until) in enumerate(_night(ordinance, day, down)):
            if ends > dark_from and begins < dark_until:
                dark |= 1 << k
    return "dark" if dark == (1 << len(CORNERS)) - 1 else "light" if not dark else "unsure"


# The sun is computed exactly only near a session's ends (astral costs about 25 microseconds a time; a batch spans
# every day of a year). Elsewhere it is bounded from every GRID_DAYS-th day: in real time a corner's darkness
# begins and ends a whole number of days later plus a smooth drift, so between two grid days it strays less than
# half a minute beyond the two days' values carried to it; MARGIN_SECONDS widens them (tests/test_darkness_hours.py
# checks the bound on every day of four years). A session clear of the bounds is decided by them, one near them
# by the exact times: the answer is the exact one either way.
GRID_DAYS = 8
MARGIN_SECONDS = 120


def _bounded(ordinance: str, day: date, begins: float, ends: float, down: bool = False) -> str:
    """Whether the session surely touches the night after `day` at every corner (`all`), surely at none (`none`),
    or the bounds do not settle it (`near`)."""
    low_from, high_from, low_until, high_until = _envelope(ordinance, day.toordinal(), down)
    if ends <= low_from or begins >= high_until:
        return "none"
    if ends > high_from and begins < low_until:
        return "all"
    return "near"


@lru_cache(maxsize=1 << 15)
def _envelope(ordinance: str, ordinal: int, down: bool = False) -> tuple[float, float, float, float]:
    """Bounds, over the corners, of when the night after day `ordinal` is dark from and until (timestamps)."""
    first = ordinal - ordinal % GRID_DAYS
    before, after = _night(ordinance, date.fromordinal(first), down), _night(ordinance, date.fromordinal(first + GRID_DAYS), down)
    shift_before, shift_after = (ordinal - first) * 86400, (ordinal - first - GRID_DAYS) * 86400
    froms = [t + shift for night, shift in ((before, shift_before), (after, shift_after)) for t, _ in night]
    untils = [t + shift for night, shift in ((before, shift_before), (after, shift_after)) for _, t in night]
    return (min(froms) - MARGIN_SECONDS, max(froms) + MARGIN_SECONDS,
            min(untils) - MARGIN_SECONDS, max(untils) + MARGIN_SECONDS)


@lru_cache(maxsize=1 << 15)
def _night(ordinance: str, day: date, down: bool = False) -> tuple[tuple[float, float], ...]:
    """The darkness of the night after local date `day` at each corner, as POSIX timestamps (from, until)."""
    reading = reading_of(ordinance, down)
    after, before = timedelta(minutes=reading.after), timedelta(minutes=reading.before)
    evening, morning = sun_times(ordinance, day), sun_times(ordinance, day + timedelta(days=1))
    return tuple(((fall + after).timestamp(), (rise - before).timestamp()) for (_, fall), (rise, _) in zip(evening, morning))


def combined(states: set[str]) -> str | None:
    """Several sessions' states as the one the event takes: dark when some session is, light when every one is."""
    return "dark" if "dark" in states else "unsure" if "unsure" in states else "light" if states else None


def end_minutes(ordinance: str, session_start: datetime, until: datetime, down: bool = False) -> set[datetime]:
    """The local ends of a session starting at `session_start`, up to `until`, where its darkness can change: the
    minute darkness begins at each corner on each evening, and the minute after."""
    tz = zone(ordinance_time_zones()[ordinance])
    after = timedelta(minutes=reading_of(ordinance, down).after)
    points: set[datetime] = set()
    day = session_start.date() - timedelta(days=1)
    while day <= until.date():
        for _, fall in sun_times(ordinance, day):
            begins = (fall + after).astimezone(tz).replace(tzinfo=None, second=0, microsecond=0)
            points |= {begins, begins + timedelta(minutes=1)}
        day += timedelta(days=1)
    return points


def clock(moment: datetime) -> str:
    """8:12 p.m. CDT: how an explanation writes a sun time."""
    hour = moment.hour % 12 or 12
    return f"{hour}:{moment.minute:02d} {'a.m.' if moment.hour < 12 else 'p.m.'} {moment.tzname()}"


def _local(moment: datetime) -> str:
    """A session's local start or end as an explanation writes it: 10:00 p.m. on 2027-08-06."""
    hour = moment.hour % 12 or 12
    return f"{hour}:{moment.minute:02d} {'a.m.' if moment.hour < 12 else 'p.m.'} on {moment.date().isoformat()}"


def _plus(minutes: int, words: str) -> str:
    """` plus 30 minutes`, or nothing on a reading that adds none (sunset_to_sunrise)."""
    return f" {words} {minutes} minutes" if minutes else ""


def described(ordinance: str, sessions: list[Session], down: bool = False) -> str:
    """The sun times a darkness read from the sun rests on, in words: for the first session dark at some corner,
    that session, and the corner where that night's darkness begins latest (a session running into it from the
    evening) or ends earliest (one beginning in the night): the corner that decides `dark everywhere`; else the sun
    of the first session's day. `down`: on the reading sunset_to_sunrise."""
    reading = reading_of(ordinance, down)
    tz_name = ordinance_time_zones()[ordinance]
    for session in sessions:
        said = _session_dark(ordinance, session, reading, tz_name, down)
        if said:
            return f"the session from {_local(session.start)} to {_local(session.end)}: {said}"
    first = sessions[0] if sessions else None
    if first is None:
        return ""
    rise, fall = max(t[0] for t in sun_times(ordinance, first.start.date())), \
        min(t[1] for t in sun_times(ordinance, first.start.date()))
    hours = (f"dark from {reading.after} minutes after sunset until {reading.before} minutes before sunrise"
             if not down else "dark from sunset until sunrise")
    return (f"on {first.start.date().isoformat()} the sun rises by {clock(rise)} and sets no earlier than "
            f"{clock(fall)} anywhere in the extent; {hours}")


def _session_dark(ordinance: str, session: Session, reading: Reading, tz_name: str, down: bool) -> str | None:
    """For a session dark at some corner, the sun times that decide it; None for a session dark at none."""
    start = _instant(session.start, tz_name, session.start_occurrence)
    end = _instant(session.end, tz_name, session.end_occurrence)
    for day, corners in nights(ordinance, session, down):
        touched = [k for k, (f, u) in enumerate(corners) if end > f and start < u]
        if not touched:
            continue
        evening = sun_times(ordinance, day)
        plus = _plus(reading.after, "plus")
        if start < min(f for f, _ in corners):  # runs into the night's darkness from the evening
            k = max(range(len(corners)), key=lambda i: corners[i][0])
            said = (f"sunset at {clock(evening[k][1])} on {day.isoformat()} at the {CORNERS[k]} corner of the "
                    f"extent{plus}: dark from {clock(corners[k][0])}")
            if end > corners[k][0]:
                return said
            first = min(range(len(corners)), key=lambda i: corners[i][0])
            return (f"sunset at {clock(evening[first][1])} on {day.isoformat()} at the {CORNERS[first]} corner "
                    f"of the extent{plus}: dark there from {clock(corners[first][0])}, "
                    f"but {said}")
        k = min(range(len(corners)), key=lambda i: corners[i][1])
        rise = sun_times(ordinance, day + timedelta(days=1))[k][0]
        return (f"sunrise at {clock(rise)} on {(day + timedelta(days=1)).isoformat()} at the {CORNERS[k]} corner "
                f"of the extent{_plus(reading.before, 'less')}: dark until {clock(corners[k][1])}")
    return None
