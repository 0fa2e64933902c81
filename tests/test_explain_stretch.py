"""`reasoner explain` names the stretch a count-with-duration threshold is tested on, from its start to its end,
with that stretch's head count, and for darkness the session and the sun times it used (issue 28, checks).

The times are the program's own: the stretch's end is the real time the vocabulary reaches (stretch_end,
presence_end), the sun's from reasoner/events/sun.py, computed once per date and place."""
from __future__ import annotations

import json
from datetime import timedelta

from reasoner.events.loading import parse_events
from reasoner.events.sun import CORNERS, clock, nights, readings, sun_times
from reasoner.modes.explain import explain


def _event(sessions, **fields):
    record = {"id": "e", "kinds": ["festival"], "attendance": {"expected_max": 6000},
              "flags": ["open_to_public", "admission_fee"], "site": {"kind": "open_land"},
              "organizer": {"kind": "corporation"}, "schedule": {"sessions": sessions}, **fields}
    [parsed] = parse_events(record, "test")
    return parsed


def _texts(report):
    """Every sentence of an explanation, holding steps and why-nots alike."""
    found, todo = [], list(report["trees"]) + list(report["why_not"])
    while todo:
        node = todo.pop()
        found += [node.get("because") or "", node.get("text") or "", node.get("sun") or ""]
        todo += node.get("children", []) + node.get("unless", [])
        for attempt in node.get("attempts", []):
            found.append(attempt.get("would_mean") or "")
            if attempt.get("explanation"):
                todo.append(attempt["explanation"])
    return found


LONG = {"start": "2027-07-16T08:00", "end": "2027-07-17T06:00"}
CONCERT = {"start": "2027-07-17T18:00", "end": "2027-07-17T21:00", "expected_max": 6000}


def test_a_wyoming_stretch_too_small_is_named_from_start_to_end_with_its_head_count():
    report = explain(_event([{**LONG, "expected_max": 300}, CONCERT]), "wyoming", "permit_required")
    assert report["holds"] is False
    [said] = [t for t in _texts(report) if "runs the consecutive hours and draws" in t]
    assert "from the session of 2027-07-16 at 8:00 a.m. until 2027-07-17 06:00 MDT" in said
    assert "draws 300 at its peak" in said


def test_a_wyoming_stretch_that_counts_is_named_from_start_to_end_with_its_head_count():
    report = explain(_event([{**LONG, "expected_max": 5000}, CONCERT]), "wyoming", "permit_required")
    assert report["holds"] is True
    texts = _texts(report)
    assert any("until 2027-07-17 06:00 MDT runs the consecutive hours and draws 5,000 at its peak" in t for t in texts)
    # the vocabulary's peak names the stretch by its start only: joined to the end it grounded one aggregate per
    # reachable end under whatif (9 GB for 12 sessions); the text's own step above names the end
    assert any(t.startswith("At most 5,000 people are present at once during the stretch that begins with the "
                            "session of 2027-07-16 at 8:00 a.m.") for t in texts)


def test_a_stretch_of_touching_sessions_ends_where_the_last_of_them_ends():
    touching = [{"start": "2027-07-16T08:00", "end": "2027-07-16T20:00", "expected_max": 5500},
                {"start": "2027-07-16T20:00", "end": "2027-07-17T06:00", "expected_max": 5200}]
    texts = _texts(explain(_event(touching, attendance={"expected_max": 5500}), "wyoming", "permit_required"))
    assert any("from the session of 2027-07-16 at 8:00 a.m. until 2027-07-17 06:00 MDT runs the consecutive hours "
               "and draws 5,500 at its peak" in t for t in texts)


def test_a_stretch_of_presence_is_named_to_the_end_of_its_last_session():
    days = [{"start": f"2027-07-{d}T10:00", "end": f"2027-07-{d}T23:00"} for d in (16, 17, 18)]
    report = explain(_event(days, attendance={"expected_max": 6000, "overnight": 5000}), "wyoming", "permit_required")
    assert report["holds"] is True
    assert any("from the session of 2027-07-16 at 10:00 a.m. until 2027-07-18 23:00 MDT runs the consecutive hours" in t
               for t in _texts(report))


def test_trempealeau_names_the_stretch_on_either_reading_of_the_count():
    from reasoner.program import chosen_readings, parse_reading

    event = _event([{"start": "2027-08-06T10:00", "end": "2027-08-06T22:00"}], kinds=["fair"],
                   attendance={"expected_max": 3000}, site={"kind": "fairgrounds"})
    # the default counts at any time of the gathering; the stretch that runs the hours is named from start to end
    assert "runs without a break until 2027-08-06 22:00 CDT: 12 hours" in json.dumps(
        explain(event, "trempealeau", "permit_required"))
    with chosen_readings([parse_reading("trempealeau.count_during_the_gathering=count_of_the_stretch")]):
        texts = _texts(explain(event, "trempealeau", "permit_required"))
    assert "That stretch, from the session of 2027-08-06 at 10:00 a.m. until 2027-08-06 22:00 CDT, draws 3,000 at its " \
           "peak, at least 2,000." in texts


def test_the_dark_session_and_the_sun_times_are_named():
    event = _event([{"start": "2027-08-06T10:00", "end": "2027-08-06T22:00"}], kinds=["fair"],
                   attendance={"expected_max": 3000})
    report = explain(event, "trempealeau", "illumination_footcandles")
    [sun] = {n for n in _texts(report) if n.startswith("the session from")}
    assert sun.startswith("the session from 10:00 a.m. on 2027-08-06 to 10:00 p.m. on 2027-08-06: sunset at ")
    # the times are the ones sun.py computes for the darkness the program reads, at the corner that decides it
    [session] = event.schedule.runs
    day, corners = next((d, c) for d, c in nights("trempealeau", session) if d == session.start.date())
    k = max(range(len(corners)), key=lambda i: corners[i][0])
    assert f"sunset at {clock(sun_times('trempealeau', day)[k][1])} on {day.isoformat()} at the {CORNERS[k]} corner" in sun
    assert f"plus {readings()['trempealeau'].after} minutes: dark from {clock(corners[k][0])}" in sun
    assert corners[k][0] == sun_times("trempealeau", day)[k][1] + timedelta(minutes=readings()["trempealeau"].after)
