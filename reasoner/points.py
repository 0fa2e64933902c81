"""Where a conclusion can change: the points that the unknown-fact reasoning, what-if and sweep probe.

Derived in one place from what the encodings state (their `param` facts and daily clock windows, read by
program.law) and from the amounts of the event each param is compared with. Between these points no
conclusion changes and every amount moves monotonically, so reasoning at them is exact. A param's
name says its unit, as the encodings name them: `..._percent...` is a share of an amount,
`..._tenths_...` a rate in tenths, `..._hours...` a duration.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta, timezone

from reasoner.events.clocks import zone
from reasoner.program import law
from reasoner.law.ordinances import ordinance_time_zones

MINUTES_PER_DAY = 1440


def stated_numbers(ordinances: Sequence[str]) -> set[int]:
    """Every number the chosen ordinances state."""
    return {value for _, _, value, _ in law(tuple(ordinances)).params}


def number_points(ordinances: Sequence[str], amounts: Iterable[int] = ()) -> set[int]:
    """Each stated number and its neighbours, and where a param added to, multiplied with, dividing or
    taken as a share of one of the event's amounts (a seating capacity, a split of the peak, a provision)
    is crossed."""
    amounts = [k for k in amounts if isinstance(k, int) and not isinstance(k, bool)]
    points: set[int] = set()
    for _, name, p, _ in law(tuple(ordinances)).params:
        points |= {p - 1, p, p + 1}
        for k in amounts:
            points |= {k + p - 1, k + p, k + p + 1, k * p, k * p + 1}
            if p:
                points |= {k // p, k // p + 1}
            if "percent" in name:
                points |= {k + k * p // 100, k + k * p // 100 + 1}
            if "tenths" in name and p:
                points |= {k * 10 // p, k * 10 // p + 1}
    return points


def duration_points(ordinances: Sequence[str]) -> set[int]:
    """Durations, in minutes, on either side of each number of hours the ordinances state."""
    return {value * 60 + d for _, name, value, _ in law(tuple(ordinances)).params if "hours" in name
            for d in (-1, 0, 1) if value * 60 + d > 0}


def clock_points(ordinances: Sequence[str]) -> set[int]:
    """Minutes of the day at and around midnight and the ends of each daily window the ordinances state."""
    points = {0}
    for start, end in law(tuple(ordinances)).windows:
        points |= {(m + d) % MINUTES_PER_DAY for m in (start, end) for d in (-1, 0, 1)}
    return points


def end_points(ordinances: Sequence[str], start: datetime, origins: Iterable[datetime], until: datetime,
               also_at: Iterable[int] = ()) -> set[datetime]:
    """Ends of a session that starts at `start` where a conclusion can change, up to `until` (local date-times): where
    a duration the ordinances state is crossed, counted in real time in each ordinance's zone from each origin (the
    session's start, the start of a stretch it may close), and the clock points of each day it may touch, with the
    minutes of the day `also_at`."""
    durations = duration_points(ordinances)
    zones = {ordinance_time_zones()[o] for o in ordinances}
    points: set[datetime] = set()
    for origin in origins:
        for name in zones:
            at = origin.replace(tzinfo=zone(name)).astimezone(timezone.utc)
            points |= {(at + timedelta(minutes=m)).astimezone(zone(name)).replace(tzinfo=None) for m in durations}
    day = start.replace(hour=0, minute=0, second=0, microsecond=0)
    clock = sorted(clock_points(ordinances) | set(also_at))
    while day <= until:
        points |= {day + timedelta(minutes=m) for m in clock}
        day += timedelta(days=1)
    return {p for p in points if start < p <= until}
