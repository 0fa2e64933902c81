"""The quick pass of clocks.check_local_time (dates far from a change of the clocks) gives the full check's answer."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reasoner.events import clocks


def _full_answer(moment: datetime, occurrence: str | None) -> str | None:
    """The check with every zone examined, as before the quick pass: the message, or None."""
    names = clocks.zone_names()
    missing = [name for name in names if not clocks._exists(moment, clocks.zone(name))]
    twice = [name for name in names if clocks._twice(moment, clocks.zone(name))]
    if missing:
        return "missing " + " ".join(missing)
    if twice and occurrence is None:
        return "twice " + " ".join(twice)
    return None


def _answer(moment: datetime, occurrence: str | None) -> str | None:
    try:
        clocks.check_local_time(moment, occurrence, "schedule.start")
    except ValueError as error:
        return ("missing " if "does not exist" in str(error) else "twice ") + " ".join(
            name for name in clocks.zone_names() if name in str(error))
    return None


def _changes(year: int) -> list[datetime]:
    """Each local hour of `year` at which some ordinance's zone changes its offset."""
    found = []
    moment = datetime(year, 1, 1)
    while moment.year == year:
        for name in clocks.zone_names():
            tz = clocks.zone(name)
            if moment.replace(tzinfo=tz).utcoffset() != (moment + timedelta(hours=1)).replace(tzinfo=tz).utcoffset():
                found.append(moment)
        moment += timedelta(hours=1)
    return found


@pytest.mark.parametrize("year", [2005, 2026, 2027, 2038, 2061])
def test_every_quarter_hour_near_each_change_of_the_clocks_gets_the_full_answer(year):
    changes = _changes(year)
    assert len(changes) >= 2 * len(clocks.zone_names()) - 2   # spring and autumn, though zones may share an hour
    refused = 0
    for change in changes:
        for quarter in range(-4 * 30, 4 * 30):
            moment = change + timedelta(minutes=15 * quarter)
            for occurrence in (None, "earlier"):
                expected = _full_answer(moment, occurrence)
                assert _answer(moment, occurrence) == expected, (moment, occurrence)
                refused += expected is not None
    assert refused > 0   # the skipped and doubled hours were among them


@settings(max_examples=400, deadline=None)
@given(st.datetimes(min_value=datetime(1900, 1, 3), max_value=datetime(9998, 12, 28)), st.sampled_from([None, "later"]))
def test_any_moment_gets_the_full_answer(moment, occurrence):
    assert _answer(moment, occurrence) == _full_answer(moment, occurrence)


def test_a_date_far_from_any_change_is_passed_without_the_full_check(monkeypatch):
    def full_check(*_):
        raise AssertionError("the full check ran")

    monkeypatch.setattr(clocks, "_exists", full_check)
    clocks.check_local_time(datetime(2027, 7, 4, 2, 30), None, "schedule.start")
    with pytest.raises(AssertionError):
        clocks.check_local_time(datetime(2027, 3, 14, 2, 30), None, "schedule.start")
