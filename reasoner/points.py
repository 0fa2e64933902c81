"""Where a conclusion can change: the points that the unknown-fact reasoning, what-if and sweep probe.

Derived in one place from what the encodings state (their `param` facts and daily clock windows, read by
program.law) and from the amounts of the event each param is compared with. Between these points no
conclusion changes and every amount moves monotonically, so reasoning at them is exact. A param's
name says its unit, as the encodings name them: `..._percent...` is a share of an amount,
`..._tenths_...` a rate in tenths, `..._hours...` a duration.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from .program import law

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
