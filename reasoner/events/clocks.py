"""Real clocks: local date-times read in an ordinance's own time zone (its registry's `time_zone`).

An event file gives local date-times at the event's place. A duration is the elapsed time between two of
them in the zone of the ordinance that counts it, so a session across the night the clocks go forward is
an hour shorter than its wall-clock times say. A local time that does not exist that night is refused;
one that the clocks show twice must say which (`earlier` or `later`).
"""
from __future__ import annotations

from datetime import date, datetime, time, timedelta, timezone
from functools import cache, lru_cache
from typing import Literal
from zoneinfo import ZoneInfo

from reasoner.law.ordinances import ordinance_time_zones

Occurrence = Literal["earlier", "later"]


@cache
def zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


def _exists(moment: datetime, tz: ZoneInfo) -> bool:
    aware = moment.replace(tzinfo=tz)
    return aware.astimezone(timezone.utc).astimezone(tz).replace(tzinfo=None) == moment


def _twice(moment: datetime, tz: ZoneInfo) -> bool:
    return moment.replace(tzinfo=tz, fold=0).utcoffset() != moment.replace(tzinfo=tz, fold=1).utcoffset()


@cache
def zone_names() -> tuple[str, ...]:
    """Every ordinance's time zone, each once, sorted."""
    return tuple(sorted(set(ordinance_time_zones().values())))


@lru_cache(maxsize=256)
def _changing_days(name: str, year: int) -> frozenset[date]:
    """The local dates of `year` within a day of a change of the zone's offset from UTC: the only dates on which
    a clock time can be skipped or shown twice. Found from the offset at each noon, so a change between two
    noons marks both days and one more on each side (a change at any hour, of up to a day, is covered)."""
    tz = zone(name)
    day = date(year, 1, 1) - timedelta(days=2)
    offset = datetime.combine(day, time(12), tz).utcoffset()
    near: set[date] = set()
    for _ in range(368):
        day += timedelta(days=1)
        changed = datetime.combine(day, time(12), tz).utcoffset()
        if changed != offset:
            near.update(day + timedelta(days=shift) for shift in (-2, -1, 0, 1))
            offset = changed
    return frozenset(near)


def check_local_time(moment: datetime, occurrence: Occurrence | None, field: str) -> None:
    """Refuse a local time that does not exist in some ordinance's zone, and one shown twice without `occurrence`.
    A date far from every change of the clocks is passed at once (every record's every time is checked)."""
    names = zone_names()
    if 1 < moment.year < 9999 and not any(moment.date() in _changing_days(name, moment.year) for name in names):
        return
    missing = [name for name in names if not _exists(moment, zone(name))]
    if missing:
        raise ValueError(f"{field} {moment.isoformat(timespec='minutes')} does not exist in {' and '.join(missing)}: "
                         "the clocks jump forward an hour that night; give a time that exists")
    twice = [name for name in names if _twice(moment, zone(name))]
    if twice and occurrence is None:
        raise ValueError(f"{field} {moment.isoformat(timespec='minutes')} occurs twice in {' and '.join(twice)} (the "
                         f"clocks go back that night): say which with {field}_occurrence: earlier or later")


def exists_once(moment: datetime) -> bool:
    """Whether a local time exists, once, in every ordinance's zone: an end that needs no `end_occurrence`."""
    try:
        check_local_time(moment, None, "end")
    except ValueError:
        return False
    return True


@lru_cache(maxsize=1 << 16)  # a batch's events share their opening and closing times
def elapsed_minutes(moment: datetime, origin: datetime, tz_name: str, occurrence: Occurrence | None = None,
                    origin_occurrence: Occurrence | None = None) -> int:
    """Whole minutes of real time from `origin` to `moment`, both local times in zone `tz_name`."""
    tz = zone(tz_name)
    at = moment.replace(tzinfo=tz, fold=1 if occurrence == "later" else 0)
    since = origin.replace(tzinfo=timezone.utc) if origin.tzinfo is None and origin.year == 1970 \
        else origin.replace(tzinfo=tz, fold=1 if origin_occurrence == "later" else 0)
    return int((at.astimezone(timezone.utc) - since.astimezone(timezone.utc)) // timedelta(minutes=1))
