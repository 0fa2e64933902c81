"""Explanations read a session's real-time instants as local date-times in the ordinance's zone and the time
between two of them as a duration: no step of any bundled event's explanation, under any ordinance, prints
minutes since 1970 (a number like 30,301,380), neither in the printed text nor in the JSON sentences."""
from __future__ import annotations

import re
from pathlib import Path

import clingo
import pytest

from reasoner.modes.explain import explain
from reasoner.events.loading import load_events
from reasoner.evaluate import evaluate_any
from reasoner.law.locator import encoded_ordinances
from reasoner.modes.wording import duration, instant
from test_explain_words import printed, sentences

EVENTS = sorted((Path(__file__).parent.parent / "facts" / "events").glob("*.yaml"))
NUMBER = re.compile(r"\d[\d,]*\d|\d")
EPOCH_SIZED = 10_000_000  # minutes since 1970 are about 30,000,000 in this century; no count here comes near


def epoch_sized(text: str) -> list[str]:
    return [n for n in NUMBER.findall(text) if int(n.replace(",", "")) > EPOCH_SIZED]


def bundled_events():
    for path in EVENTS:
        for event in load_events(path):
            yield pytest.param(event, id=f"{path.stem}: {event.id}")


@pytest.mark.parametrize("event", list(bundled_events()))
def test_no_explanation_step_of_a_bundled_event_shows_minutes_since_1970(event):
    for record in evaluate_any([event], encoded_ordinances()):
        report = explain(event, record["ordinance"])  # the tree of every conclusion `evaluate` lists
        explained = " ".join(tree["atom"] for tree in report["trees"])
        for conclusion in record["conclusions"]:
            assert conclusion["name"] in explained, (record["ordinance"], conclusion["name"])
        reports = [report] + ([explain(event, record["ordinance"], "regulated")] if record["status"] == "not_regulated" else [])
        for each in reports:
            text = printed(each)
            assert not epoch_sized(text), f"{epoch_sized(text)} in:\n{text}"
            for node in each["trees"] + each["why_not"]:
                for sentence in sentences(node):
                    assert not epoch_sized(sentence), sentence


def test_the_sweep_finds_a_number_of_minutes_since_1970():
    assert epoch_sized("session clock: America/Chicago, 30,301,380, 30302190") == ["30,301,380", "30302190"]
    assert not epoch_sized("6,000 people at the peak, 2,000, 9,999,999")


CHICAGO_2027_03_14_0130 = 30_083_490  # 07:30 UTC, the night the clocks go forward in Chicago


@pytest.mark.parametrize("minutes, zone, shown", [
    (CHICAGO_2027_03_14_0130, "America/Chicago", "2027-03-14 01:30 CST"),
    (CHICAGO_2027_03_14_0130 + 61, "America/Chicago", "2027-03-14 03:31 CDT"),
    (CHICAGO_2027_03_14_0130, "America/Boise", "2027-03-14 00:30 MST"),
    (CHICAGO_2027_03_14_0130, None, "2027-03-14 07:30 UTC"),
])
def test_an_instant_reads_as_the_local_time_in_the_zone_it_is_counted_in(minutes, zone, shown):
    assert instant(minutes, zone) == shown


@pytest.mark.parametrize("minutes, shown", [
    (0, "0 minutes"), (1, "1 minute"), (59, "59 minutes"), (60, "1 hour"), (61, "1 hour 1 minute"),
    (810, "13 hours 30 minutes"), (3660, "61 hours"),
])
def test_a_duration_reads_as_hours_and_minutes(minutes, shown):
    assert duration(minutes) == shown


def test_the_spring_forward_night_is_explained_in_real_time():
    """1:30 to 3:31 on the night the clocks go forward lasts 61 minutes, and its steps say so in CST and CDT."""
    [event] = load_events_from({"id": "spring-forward-dance", "attendance": {"expected_max": 3000},
                                "schedule": {"start": "2027-03-14T01:30", "end": "2027-03-14T03:31"}})
    report = explain(event, "trempealeau")
    text = printed(report)
    assert "2027-03-14 01:30 CST" in text and "2027-03-14 03:31 CDT" in text
    assert "1 hour 1 minute" in text and "2 hours 1 minute" not in text


def load_events_from(record):
    from reasoner.events.loading import parse_events

    return parse_events(record, "test")


def test_an_instant_without_a_zone_in_its_atom_is_shown_in_utc_not_as_a_number():
    from reasoner.modes.wording import INSTANT, Wording

    assert Wording("e", {}).value(clingo.Number(CHICAGO_2027_03_14_0130), INSTANT) == "2027-03-14 07:30 UTC"
