"""The hours the reasoner takes as dark, or light, all year (reasoner/atoms.py) hold wherever an encoded law applies.

"Hours of darkness" is read as from half an hour after sunset to half an hour before sunrise. When an event
file does not state schedule.darkness, a session running past midnight or into the evening hours that are dark
every day of the year is taken to run in darkness, and one inside the daytime hours that are light every day is
taken not to. Those hours depend on where the event is: each registry states its jurisdiction's bounding box
(`extent`), and the sun is computed at its four corners (where the latest and earliest sunrises and sunsets
fall) for every day of four years, in the ordinance's own time zone, daylight saving included.
"""
from __future__ import annotations

import math
import re
from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from reasoner.atoms import ALWAYS_DARK_FROM, ALWAYS_LIGHT_FROM, ALWAYS_LIGHT_UNTIL, session_darkness
from reasoner.registry import registry
from reasoner.vocabulary import encoded_ordinances

HALF_HOUR = timedelta(minutes=30)
YEARS = (2026, 2027, 2028, 2038)


def sunrise_and_sunset(latitude: float, longitude: float, day: date) -> tuple[datetime, datetime]:
    """NOAA's approximate solar equations (within about a minute at these latitudes), as UTC date-times."""
    angle = 2 * math.pi / (366 if day.year % 4 == 0 else 365) * (day.timetuple().tm_yday - 1)
    equation_of_time = 229.18 * (0.000075 + 0.001868 * math.cos(angle) - 0.032077 * math.sin(angle)
                                 - 0.014615 * math.cos(2 * angle) - 0.040849 * math.sin(2 * angle))
    declination = (0.006918 - 0.399912 * math.cos(angle) + 0.070257 * math.sin(angle) - 0.006758 * math.cos(2 * angle)
                   + 0.000907 * math.sin(2 * angle) - 0.002697 * math.cos(3 * angle) + 0.00148 * math.sin(3 * angle))
    phi = math.radians(latitude)
    hour_angle = math.degrees(math.acos(math.cos(math.radians(90.833)) / (math.cos(phi) * math.cos(declination))
                                        - math.tan(phi) * math.tan(declination)))
    midnight = datetime(day.year, day.month, day.day, tzinfo=timezone.utc)
    return tuple(midnight + timedelta(minutes=720 - 4 * (longitude + sign * hour_angle) - equation_of_time)
                 for sign in (1, -1))


def local_extremes(ordinance: str) -> dict[str, time]:
    """The latest sunrise, earliest sunset and latest sunset, local clock time, anywhere in the extent."""
    metadata = registry(ordinance).metadata
    zone = ZoneInfo(metadata.time_zone)
    south, north, west, east = metadata.extent
    rises, sets = [], []
    for year in YEARS:
        day = date(year, 1, 1)
        while day.year == year:
            for latitude in (south, north):
                for longitude in (west, east):
                    rise, fall = sunrise_and_sunset(latitude, longitude, day)
                    rises.append(rise.astimezone(zone).time())
                    sets.append(fall.astimezone(zone).time())
            day += timedelta(days=1)
    return {"latest sunrise": max(rises), "earliest sunset": min(sets), "latest sunset": max(sets)}


def minus(clock: time, delta: timedelta) -> time:
    return (datetime.combine(date(2027, 1, 2), clock) - delta).time()


def plus(clock: time, delta: timedelta) -> time:
    return (datetime.combine(date(2027, 1, 2), clock) + delta).time()


def test_the_solar_equations_match_published_times():
    """Madison, WI on 2027-06-21: the Naval Observatory gives sunrise 5:19 and sunset 20:42 CDT; Boise on
    2027-12-21: 8:15 and 17:10 MST."""
    for (latitude, longitude, day, zone), (rise, fall) in {
            (43.07, -89.40, date(2027, 6, 21), "America/Chicago"): ("05:19", "20:42"),
            (43.62, -116.20, date(2027, 12, 21), "America/Boise"): ("08:15", "17:10")}.items():
        found = [t.astimezone(ZoneInfo(zone)) for t in sunrise_and_sunset(latitude, longitude, day)]
        for got, expected in zip(found, (rise, fall)):
            wanted = datetime.combine(day, time.fromisoformat(expected), ZoneInfo(zone))
            assert abs(got - wanted) <= timedelta(minutes=2), (got, expected)


@pytest.mark.parametrize("ordinance", encoded_ordinances())
def test_every_registry_states_its_extent(ordinance):
    south, north, west, east = registry(ordinance).metadata.extent
    assert -90 < south < north < 90 and -180 < west < east < 180
    assert (south, north, west, east) != (0, 0, 0, 0)


@pytest.mark.parametrize("ordinance", encoded_ordinances())
def test_the_hours_taken_as_dark_or_light_hold_all_year_there(ordinance):
    extremes = local_extremes(ordinance)
    # dark all year from ALWAYS_DARK_FROM: half an hour after the latest sunset is no later
    assert plus(extremes["latest sunset"], HALF_HOUR) <= ALWAYS_DARK_FROM, extremes
    # light all year within ALWAYS_LIGHT_FROM..ALWAYS_LIGHT_UNTIL
    assert minus(extremes["latest sunrise"], HALF_HOUR) <= ALWAYS_LIGHT_FROM, extremes
    assert plus(extremes["earliest sunset"], HALF_HOUR) >= ALWAYS_LIGHT_UNTIL, extremes


def test_gem_county_is_why_the_dark_hours_begin_after_ten():
    """Western Gem County's late-June sunset (about 21:35 MDT) puts darkness after 22:00 there: the hour taken as
    dark everywhere must not be 22:00. The bound is no looser than it needs to be: within 15 minutes of it."""
    latest = max(plus(local_extremes(name)["latest sunset"], HALF_HOUR) for name in encoded_ordinances())
    assert latest > time(22, 0)
    assert ALWAYS_DARK_FROM >= latest
    assert datetime.combine(date(2027, 1, 2), ALWAYS_DARK_FROM) - datetime.combine(date(2027, 1, 2), latest) <= timedelta(minutes=15)


def _session(start: str, end: str):
    from reasoner.event import Session

    return Session(start=datetime.fromisoformat(start), end=datetime.fromisoformat(end))


def test_a_session_is_dark_only_past_the_dark_hour_and_light_only_inside_the_light_hours():
    day = "2027-06-26"
    dark_from = ALWAYS_DARK_FROM.strftime("%H:%M")
    after = plus(ALWAYS_DARK_FROM, timedelta(minutes=1)).strftime("%H:%M")
    assert session_darkness(_session(f"{day}T18:00", f"{day}T{dark_from}")) is None
    assert session_darkness(_session(f"{day}T18:00", f"{day}T{after}")) is True
    light_from, light_until = ALWAYS_LIGHT_FROM.strftime("%H:%M"), ALWAYS_LIGHT_UNTIL.strftime("%H:%M")
    assert session_darkness(_session(f"{day}T{light_from}", f"{day}T{light_until}")) is False
    before = minus(ALWAYS_LIGHT_FROM, timedelta(minutes=1)).strftime("%H:%M")
    later = plus(ALWAYS_LIGHT_UNTIL, timedelta(minutes=1)).strftime("%H:%M")
    assert session_darkness(_session(f"{day}T{before}", f"{day}T{light_until}")) is None
    assert session_darkness(_session(f"{day}T{light_from}", f"{day}T{later}")) is None


def _clock(value: time) -> str:
    """8:30 a.m., 10:10 p.m.: how the registries write a clock time."""
    hour = value.hour % 12 or 12
    return f"{hour}:{value.minute:02d} {'a.m.' if value.hour < 12 else 'p.m.'}"


@pytest.mark.parametrize("ordinance", encoded_ordinances())
def test_the_registries_state_the_hours_the_reasoner_uses(ordinance):
    """Each reading of the hours of darkness names the clock times reasoner/atoms.py applies, no others."""
    readings = {name: item.text for name, item in registry(ordinance).interpretations.items() if name.startswith("darkness_")}
    for name, text in readings.items():
        stated = set(re.findall(r"\d{1,2}:\d{2} [ap]\.m\.", text))
        assert stated == {_clock(ALWAYS_DARK_FROM), _clock(ALWAYS_LIGHT_FROM), _clock(ALWAYS_LIGHT_UNTIL)}, (name, stated)


LIGHTING = {"gem": "5.lighting", "trempealeau": "6.01(3)6", "village": "6-18C(6)", "wyoming": "35-15-107(a)(ii)(E)"}


def _festival(end: str, darkness: bool | None = None) -> dict:
    schedule = {"start": "2027-06-26T02:00", "end": f"2027-06-26T{end}"}  # 20 hours: Wyoming's reach
    if darkness is not None:
        schedule["darkness"] = darkness
    return {"id": "festival", "kinds": ["festival"], "schedule": schedule,
            "attendance": {"expected_max": 12000}, "site": {"kind": "open_land"}}


def _notes(record: dict) -> set[str]:
    return {c["name"] for c in record["conclusions"] if c["kind"] in ("note", "interpretation")}


@pytest.mark.parametrize("ordinance", sorted(LIGHTING))
def test_each_lighting_clause_says_how_darkness_was_read(ordinance):
    from reasoner.conclusions import evaluate
    from reasoner.loading import parse_events

    after = plus(ALWAYS_DARK_FROM, timedelta(minutes=1)).strftime("%H:%M")
    at = ALWAYS_DARK_FROM.strftime("%H:%M")
    read, unsure, stated = (evaluate(parse_events(_festival(end, darkness), "test"), [ordinance])[0]
                            for end, darkness in ((after, None), (at, None), (after, True)))
    assert all(r["status"] == "permit_required" for r in (read, unsure, stated))
    assert "darkness_read_from_hours" in _notes(read) and "darkness_not_stated" not in _notes(read)
    assert "darkness_not_stated" in _notes(unsure) and "darkness_read_from_hours" not in _notes(unsure)
    assert not {"darkness_read_from_hours", "darkness_not_stated"} & _notes(stated)
    lit = {c["name"] for c in read["conclusions"] if c["clauses"] == [LIGHTING[ordinance]] and c["kind"] != "note"}
    assert "illumination_footcandles" in lit


def test_the_explanation_of_the_lighting_duty_gives_the_reading():
    from reasoner.explain import explain
    from reasoner.loading import parse_events

    [event] = parse_events(_festival("23:00"), "test")
    report = explain(event, "gem", "illumination_footcandles")
    readings = [r["id"] for node in _nodes(report) for r in node.get("interpretations", [])]
    assert "darkness_read_from_hours" in readings
    assert {n.get("read_from_hours") for n in _nodes(report) if n["atom"] == "darkness(1)"} == {True}
    [stated] = parse_events(_festival("23:00", darkness=True), "test")
    report = explain(stated, "gem", "illumination_footcandles")
    assert not [r for node in _nodes(report) for r in node.get("interpretations", []) if r["id"] == "darkness_read_from_hours"]
    assert {n.get("read_from_hours") for n in _nodes(report) if n["atom"] == "darkness(1)"} == {None}


def _nodes(report: dict) -> list[dict]:
    found, todo = [], list(report["trees"])
    while todo:
        node = todo.pop()
        found.append(node)
        todo += node.get("children", [])
    return found

