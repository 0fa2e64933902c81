"""A why-not lists every condition that fails, not only the first, and says how far each misses (issue 32,
"Explanations a lawyer reads")."""
from __future__ import annotations

from reasoner.events.loading import parse_events
from reasoner.modes.explain import explain


def _event(attendance, **fields):
    record = {"id": "e", "kinds": ["concert"], "attendance": {"expected_max": attendance},
              "schedule": {"start": "2027-08-06T18:00", "end": "2027-08-06T23:00"}, "site": {"kind": "open_land"},
              "organizer": {"kind": "corporation"}, "flags": ["open_to_public", "admission_fee"], **fields}
    [parsed] = parse_events(record, "test")
    return parsed


def _attempt(report):
    [node] = report["why_not"]
    [attempt] = node["attempts"]
    return attempt


def test_vermont_small_event_lists_both_failures_too_many_and_special_services():
    attempt = _attempt(explain(_event(400, special_services=["traffic_control"]), "vermont", "small_event"))
    assert attempt["clause"] == "6.03(2)"
    assert attempt["failed"] == "400 is 300 over 100, which it must be below"
    assert [a["failed_condition"] for a in attempt.get("also_failed", [])] == ["not vermont_special_services_required(1)"]
    assert [a["failed"] for a in attempt["also_failed"]] == ["special services required, which must not be so"]


def test_vermont_small_event_with_one_failure_lists_only_it():
    attempt = _attempt(explain(_event(400), "vermont", "small_event"))
    assert attempt["failed"] == "400 is 300 over 100, which it must be below"
    assert "also_failed" not in attempt
    attempt = _attempt(explain(_event(99, special_services=["traffic_control"]), "vermont", "small_event"))
    assert "also_failed" not in attempt and "special services" in attempt["failed"]


def test_a_count_short_of_a_threshold_says_by_how_much():
    sessions = [{"start": "2027-07-16T08:00", "end": "2027-07-17T06:00", "expected_max": 4950}]
    report = explain(_event(4950, schedule={"sessions": sessions}), "wyoming", "permit_required")
    texts, todo = [], list(report["why_not"])
    while todo:
        node = todo.pop()
        for attempt in node.get("attempts", []):
            texts.append(attempt["failed"])
            if attempt.get("explanation"):
                todo.append(attempt["explanation"])
    assert "4,950 is 50 short of 5,000" in texts
