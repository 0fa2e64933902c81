"""Darkness read from the sun (reasoner/events/sun.py) at the corners of each registry's `extent`.

"Hours of darkness" is read as from half an hour after sunset to half an hour before sunrise (each lighting
clause's params darkness_after_sunset_minutes and darkness_before_sunrise_minutes). When an event file does not
state schedule.darkness, each session is dark if it reaches that darkness at every corner of the ordinance's
extent on its own dates, light if at none, and unsure where the corners disagree. The sun comes from astral;
NOAA's approximate solar equations, written out here, are the independent check (within 3 minutes).
"""
from __future__ import annotations

import math
from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from reasoner.program import law
from reasoner.law.registry import registry
from reasoner.events.sun import described, readings, session_darkness, sun_times
from reasoner.law.locator import encoded_ordinances

YEARS = (2026, 2027, 2028, 2038)
TOLERANCE = timedelta(minutes=3)


def sunrise_and_sunset(latitude: float, longitude: float, day: date) -> tuple[datetime, datetime]:
    """NOAA's approximate solar equations, as UTC date-times. The fractional year is taken at the moment itself
    (NOAA's `hour` term), found by iterating from solar noon: at noon alone the declination is hours stale at
    sunset and the times drift by up to 3.5 minutes near the equinoxes."""
    phi = math.radians(latitude)
    days = 366 if day.year % 4 == 0 else 365
    midnight = datetime(day.year, day.month, day.day, tzinfo=timezone.utc)
    found = []
    for sign in (1, -1):
        minutes = 720 - 4 * longitude
        for _ in range(3):
            angle = 2 * math.pi / days * (day.timetuple().tm_yday - 1 + (minutes / 60 - 12) / 24)
            equation_of_time = 229.18 * (0.000075 + 0.001868 * math.cos(angle) - 0.032077 * math.sin(angle)
                                         - 0.014615 * math.cos(2 * angle) - 0.040849 * math.sin(2 * angle))
            declination = (0.006918 - 0.399912 * math.cos(angle) + 0.070257 * math.sin(angle)
                           - 0.006758 * math.cos(2 * angle) + 0.000907 * math.sin(2 * angle)
                           - 0.002697 * math.cos(3 * angle) + 0.00148 * math.sin(3 * angle))
            hour_angle = math.degrees(math.acos(math.cos(math.radians(90.833)) / (math.cos(phi) * math.cos(declination))
                                                - math.tan(phi) * math.tan(declination)))
            minutes = 720 - 4 * (longitude + sign * hour_angle) - equation_of_time
        found.append(midnight + timedelta(minutes=minutes))
    return tuple(found)


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


@pytest.mark.parametrize("ordinance", sorted(readings()))
def test_astral_agrees_with_the_noaa_equations_at_every_corner(ordinance):
    """Every fifth day of four years, at each corner of the extent, in the ordinance's zone: within 3 minutes."""
    metadata = registry(ordinance).metadata
    south, north, west, east = metadata.extent
    corners = [(latitude, longitude) for latitude in (south, north) for longitude in (west, east)]
    worst = timedelta()
    for year in YEARS:
        day = date(year, 1, 1)
        while day.year == year:
            for (latitude, longitude), (rise, fall) in zip(corners, sun_times(ordinance, day)):
                noaa_rise, noaa_fall = sunrise_and_sunset(latitude, longitude, day)
                worst = max(worst, abs(rise - noaa_rise), abs(fall - noaa_fall))
            day += timedelta(days=5)
    assert worst <= TOLERANCE, (ordinance, worst)


# Missouri's "remain at night" (316.160(8), the arrangements for illuminating the premises) is read the same way.
LIGHTING = {"gem": "5.lighting", "trempealeau": "6.01(3)6", "village": "6-18C(6)", "wyoming": "35-15-107(a)(ii)(E)",
            "missouri": "316.160(8)"}


def test_exactly_the_texts_with_a_lighting_clause_read_darkness_and_state_their_minutes():
    """Half an hour each side, stated under each lighting clause; the texts that never speak of darkness or night
    (Connecticut, Fulton, Vermont, Washington, Mississippi) state no reading."""
    assert sorted(readings()) == sorted(LIGHTING)
    stated = {(o, n): (v, c) for o, n, v, c in law(encoded_ordinances()).params if n.startswith("darkness_")}
    for ordinance, clause in LIGHTING.items():
        for name in ("darkness_after_sunset_minutes", "darkness_before_sunrise_minutes"):
            assert stated[(ordinance, name)] == (30, clause)


def _session(start: str, end: str):
    from reasoner.events.model import Session

    return Session(start=datetime.fromisoformat(start), end=datetime.fromisoformat(end))


def _dark_from(ordinance: str, day: date) -> tuple[datetime, datetime]:
    """The earliest and latest minute darkness begins on `day` across the extent, local clock."""
    after = timedelta(minutes=readings()[ordinance].after)
    starts = [(fall + after).replace(tzinfo=None) for _, fall in sun_times(ordinance, day)]
    return min(starts), max(starts)


@pytest.mark.parametrize("ordinance", sorted(LIGHTING))
@pytest.mark.parametrize("day", [date(2027, 3, 20), date(2027, 6, 21), date(2027, 8, 6), date(2027, 12, 21)])
def test_a_session_ten_minutes_past_darkness_everywhere_is_dark_ten_minutes_before_it_anywhere_light(ordinance, day):
    earliest, latest = _dark_from(ordinance, day)
    morning = f"{day.isoformat()}T10:00"
    after = (latest + timedelta(minutes=10)).isoformat(timespec="minutes")
    before = (earliest - timedelta(minutes=10)).isoformat(timespec="minutes")
    assert session_darkness(ordinance, _session(morning, after)) == "dark"
    assert session_darkness(ordinance, _session(morning, before)) == "light"
    if latest - earliest >= timedelta(minutes=2):
        between = (earliest + (latest - earliest) / 2).isoformat(timespec="minutes")
        assert session_darkness(ordinance, _session(morning, between)) == "unsure"


@pytest.mark.parametrize("ordinance", sorted(LIGHTING))
def test_a_session_before_dawn_is_dark_and_one_past_midnight_too(ordinance):
    """Issue 28: 04:00-10:00 and 00:00-03:00 (Wisconsin), 01:00-05:00 and 00:30-06:30 (Gem), at midsummer too."""
    for start, end in (("04:00", "10:00"), ("00:00", "03:00"), ("01:00", "05:00"), ("00:30", "06:30")):
        if ordinance == "wyoming" and start == "04:00":
            continue  # eastern Wyoming's midsummer dawn comes before 04:40 MDT: unsure there
        assert session_darkness(ordinance, _session(f"2027-06-21T{start}", f"2027-06-21T{end}")) == "dark", (start, end)
    assert session_darkness(ordinance, _session("2027-06-21T20:00", "2027-06-22T00:30")) == "dark"


def test_the_village_extent_is_all_of_wisconsin_so_evenings_differ_by_about_forty_minutes():
    """The village is not named: its extent is the state, whose western darkness comes about 40 minutes after
    the eastern; between the two the answer is unsure, and said (darkness_not_stated)."""
    earliest, latest = _dark_from("village", date(2027, 8, 6))
    assert timedelta(minutes=35) <= latest - earliest <= timedelta(minutes=45)
    earliest, latest = _dark_from("trempealeau", date(2027, 8, 6))
    assert latest - earliest <= timedelta(minutes=6)


@pytest.mark.parametrize("ordinance", sorted(LIGHTING))
def test_the_bounds_that_spare_the_exact_sun_hold_every_day(ordinance):
    """reasoner/events/sun.py decides a session clear of darkness from bounds carried from every 8th day: each day's exact
    darkness, at every corner, lies within them, and a session decided by them gets the exact answer."""
    from reasoner.events import sun

    for year in YEARS:
        day = date(year, 1, 1)
        while day.year == year:
            low_from, high_from, low_until, high_until = sun._envelope(ordinance, day.toordinal())
            for dark_from, dark_until in sun._night(ordinance, day):
                assert low_from <= dark_from <= high_from and low_until <= dark_until <= high_until, day
            day += timedelta(days=1)
    for minutes in range(0, 365 * 1440, 997):
        start = datetime(2027, 1, 1) + timedelta(minutes=minutes)
        for hours in (2, 7, 13, 26):
            end = start + timedelta(hours=hours)
            tz_name = sun.ordinance_time_zones()[ordinance]
            days = [start.date() + timedelta(days=d) for d in range(-1, (end.date() - start.date()).days + 1)]
            exact = sun._exact(ordinance, days, sun._instant(start, tz_name, None).timestamp(),
                               sun._instant(end, tz_name, None).timestamp())
            assert sun._state(ordinance, start, end, None, None) == exact, (start, end)


ORDER = {"light": 0, "unsure": 1, "dark": 2}


@pytest.mark.parametrize("ordinance", sorted(LIGHTING))
def test_a_longer_or_earlier_session_is_never_less_dark(ordinance):
    """Issue 28's property: a darker session never removes darkness. Ending later or beginning earlier never
    moves a session from dark to unsure or light, nor from unsure to light."""
    for minutes in range(0, 365 * 1440, 1733):
        start = datetime(2027, 1, 1) + timedelta(minutes=minutes)
        for hours in (1, 5, 11):
            end = start + timedelta(hours=hours)
            state = ORDER[session_darkness(ordinance, _session(start.isoformat(), end.isoformat()))]
            longer = end + timedelta(minutes=37)
            earlier = start - timedelta(minutes=37)
            assert ORDER[session_darkness(ordinance, _session(start.isoformat(), longer.isoformat()))] >= state
            assert ORDER[session_darkness(ordinance, _session(earlier.isoformat(), end.isoformat()))] >= state


def test_the_sun_is_said_in_words():
    words = described("trempealeau", [_session("2027-08-06T10:00", "2027-08-06T22:00")])
    assert words == ("the session from 10:00 a.m. on 2027-08-06 to 10:00 p.m. on 2027-08-06: sunset at 8:25 p.m. CDT on 2027-08-06 at the north-western corner of the extent plus 30 "
                     "minutes: dark from 8:55 p.m. CDT")


def _festival(end: str, darkness: bool | None = None, start: str = "02:00") -> dict:
    schedule = {"start": f"2027-06-26T{start}", "end": f"2027-06-26T{end}"}  # from 02:00, 20 hours: Wyoming's reach
    if darkness is not None:
        schedule["darkness"] = darkness
    return {"id": "festival", "kinds": ["festival"], "schedule": schedule, "flags": ["music_provided", "open_to_public"],  # Missouri: music, the public invited
            "attendance": {"expected_max": 12000}, "site": {"kind": "open_land"}}


def _notes(record: dict) -> set[str]:
    return {c["name"] for c in record["conclusions"] if c["kind"] in ("note", "interpretation")}


@pytest.mark.parametrize("ordinance", sorted(LIGHTING))
def test_each_lighting_clause_says_how_darkness_was_read(ordinance):
    from reasoner.evaluate import evaluate
    from reasoner.events.loading import parse_events

    earliest, latest = _dark_from(ordinance, date(2027, 6, 26))
    after = max(latest + timedelta(minutes=10), datetime(2027, 6, 26, 22)).strftime("%H:%M")  # 20 hours for Wyoming
    between = (earliest + (latest - earliest) / 2).strftime("%H:%M")
    read, stated = (evaluate(parse_events(_festival(end, darkness), "test"), [ordinance])[0]
                    for end, darkness in ((after, None), (after, True)))
    assert all(r["status"] == "permit_required" for r in (read, stated))
    assert "darkness_read_from_sun" in _notes(read) and "darkness_not_stated" not in _notes(read)
    if ordinance != "wyoming":  # 20 hours from after dawn always reach the night: never unsure under 35-15-104
        [unsure] = evaluate(parse_events(_festival(between, start="05:40"), "test"), [ordinance])
        assert unsure["status"] == "permit_required"
        assert "darkness_not_stated" in _notes(unsure) and "darkness_read_from_sun" not in _notes(unsure)
    assert not {"darkness_read_from_sun", "darkness_not_stated"} & _notes(stated)
    lit = {c["name"] for c in read["conclusions"] if c["clauses"] == [LIGHTING[ordinance]] and c["kind"] != "note"}
    # Missouri's clause asks the application for the lighting arrangements; the others set the illumination
    assert ("lighting_plan" if ordinance == "missouri" else "illumination_footcandles") in lit


def test_the_explanation_of_the_lighting_duty_gives_the_reading():
    from reasoner.modes.explain import explain
    from reasoner.events.loading import parse_events

    [event] = parse_events(_festival("23:00", start="10:00"), "test")
    report = explain(event, "gem", "illumination_footcandles")
    readings_used = [r["id"] for node in _nodes(report) for r in node.get("interpretations", [])]
    assert "darkness_read_from_sun" in readings_used
    [sun] = {n["sun"] for n in _nodes(report) if n["atom"] == "sun_darkness(1,gem,dark)"}
    assert sun.startswith("the session from 10:00 a.m. on 2027-06-26 to 11:00 p.m. on 2027-06-26: sunset at 9:") and "MDT on 2027-06-26" in sun and "plus 30 minutes: dark from" in sun
    [stated] = parse_events(_festival("23:00", darkness=True, start="10:00"), "test")
    report = explain(stated, "gem", "illumination_footcandles")
    assert not [r for node in _nodes(report) for r in node.get("interpretations", []) if r["id"] == "darkness_read_from_sun"]
    assert not [n for n in _nodes(report) if n.get("sun")]
    assert [n for n in _nodes(report) if n["atom"] == "darkness(1)"]


def _nodes(report: dict) -> list[dict]:
    found, todo = [], list(report["trees"])
    while todo:
        node = todo.pop()
        found.append(node)
        todo += node.get("children", [])
    return found



# ---- issue 29: the alternative reading sunset_to_sunrise, the hours the sun is down (encodings/vocabulary.lp sun_down)

def _sunsets(ordinance: str, day: date) -> tuple[datetime, datetime]:
    """The earliest and latest sunset on `day` across the extent, local clock."""
    falls = [fall.replace(tzinfo=None) for _, fall in sun_times(ordinance, day)]
    return min(falls), max(falls)


@pytest.mark.parametrize("ordinance", sorted(LIGHTING))
@pytest.mark.parametrize("day", [date(2027, 3, 20), date(2027, 6, 21), date(2027, 8, 6), date(2027, 12, 21)])
def test_from_sunset_to_sunrise_twenty_minutes_after_the_last_sunset_is_dark_and_before_the_first_light(ordinance, day):
    """Twenty minutes after the extent's last sunset the sun is down everywhere; darkness half an hour after sunset
    has not come everywhere (nowhere, in a county). Ten minutes before the first sunset is light on both readings."""
    earliest, latest = _sunsets(ordinance, day)
    morning = f"{day.isoformat()}T10:00"
    after = _session(morning, (latest + timedelta(minutes=20)).isoformat(timespec="minutes"))
    before = _session(morning, (earliest - timedelta(minutes=10)).isoformat(timespec="minutes"))
    assert session_darkness(ordinance, after, down=True) == "dark"
    assert session_darkness(ordinance, after) == ("light" if latest - earliest < timedelta(minutes=9) else "unsure")
    assert session_darkness(ordinance, before, down=True) == session_darkness(ordinance, before) == "light"


@pytest.mark.parametrize("ordinance", sorted(LIGHTING))
def test_the_sun_is_down_whenever_it_is_dark(ordinance):
    """Why sun_down is stated only where it differs from sun_darkness: on sunset_to_sunrise a session is never less
    dark than on the half-hour reading, so the alternative can only find it darker (unsure or dark)."""
    for minutes in range(0, 365 * 1440, 1733):
        start = datetime(2027, 1, 1) + timedelta(minutes=minutes)
        for hours in (1, 5, 11):
            session = _session(start.isoformat(), (start + timedelta(hours=hours)).isoformat())
            assert ORDER[session_darkness(ordinance, session, down=True)] >= ORDER[session_darkness(ordinance, session)]


@pytest.mark.parametrize("ordinance", sorted(LIGHTING))
def test_the_bounds_that_spare_the_exact_sun_hold_from_sunset_to_sunrise_too(ordinance):
    from reasoner.events import sun

    day = date(2027, 1, 1)
    while day.year == 2027:
        low_from, high_from, low_until, high_until = sun._envelope(ordinance, day.toordinal(), True)
        for dark_from, dark_until in sun._night(ordinance, day, True):
            assert low_from <= dark_from <= high_from and low_until <= dark_until <= high_until, day
        day += timedelta(days=1)
    tz_name = sun.ordinance_time_zones()[ordinance]
    for minutes in range(0, 365 * 1440, 1997):
        start = datetime(2027, 1, 1) + timedelta(minutes=minutes)
        for hours in (2, 13):
            end = start + timedelta(hours=hours)
            days = [start.date() + timedelta(days=d) for d in range(-1, (end.date() - start.date()).days + 1)]
            exact = sun._exact(ordinance, days, sun._instant(start, tz_name, None).timestamp(),
                               sun._instant(end, tz_name, None).timestamp(), True)
            assert sun._state(ordinance, start, end, None, None, True) == exact, (start, end)


def test_sun_down_is_stated_only_where_the_reading_finds_the_sessions_darker():
    from reasoner.events.atoms import sun_facts

    dusk = [_session("2027-08-06T10:00", "2027-08-06T20:45")]  # 20 minutes after Trempealeau County's last sunset
    facts = {(name, args[1]): args[2] for name, args in sun_facts(1, dusk)}
    assert facts[("sun_darkness", "trempealeau")] == "light" and facts[("sun_down", "trempealeau")] == "dark"
    assert facts[("sun_darkness", "village")] == "unsure" and facts[("sun_down", "village")] == "dark"
    for day in ([_session("2027-08-06T10:00", "2027-08-06T18:00")], [_session("2027-08-06T10:00", "2027-08-06T23:00")]):
        assert not [name for name, _ in sun_facts(1, day) if name == "sun_down"]  # light at noon, dark at night: as before


def test_on_sunset_to_sunrise_the_explanation_gives_the_sun_without_the_half_hour():
    from reasoner.modes.explain import explain
    from reasoner.events.loading import parse_events
    from reasoner.program import chosen_readings

    dusk = {**_festival("21:25", start="10:00"), "schedule": {"start": "2027-08-06T10:00", "end": "2027-08-06T21:25"},
            "attendance": {"expected_max": 1000}}
    [event] = parse_events(dusk, "test")
    with chosen_readings([(("gem", "darkness_read_from_sun"), "sunset_to_sunrise")]):
        report = explain(event, "gem", "illumination_footcandles")
    [sun] = {n["sun"] for n in _nodes(report) if n["atom"] == "sun_down(1,gem,dark)"}
    assert sun == ("the session from 10:00 a.m. on 2027-08-06 to 9:25 p.m. on 2027-08-06: sunset at 9:05 p.m. MDT on "
                   "2027-08-06 at the north-western corner of the extent: dark from 9:05 p.m. MDT")
    night = {**dusk, "schedule": {"start": "2027-08-06T10:00", "end": "2027-08-06T23:00"}}  # dark on both: sun_darkness
    [event] = parse_events(night, "test")
    with chosen_readings([(("gem", "darkness_read_from_sun"), "sunset_to_sunrise")]):
        report = explain(event, "gem", "illumination_footcandles")
    [sun] = {n["sun"] for n in _nodes(report) if n["atom"] == "sun_darkness(1,gem,dark)"}
    assert "plus 30 minutes" not in sun and sun.endswith("dark from 9:05 p.m. MDT")
