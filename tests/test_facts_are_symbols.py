"""Text from an event file reaches clingo only as symbols: no id can change the program."""
from __future__ import annotations

from reasoner.evaluate import evaluate
from reasoner.events.loading import parse_events
from reasoner.law.locator import encoded_ordinances

# (An id with a newline or other control character is refused outright: tests/test_event_file.py.)
HOSTILE_IDS = ['x"). license_required(y', 'a). #include "/etc/passwd".', "b :- c.", "#script (python) import os #end.",
               "no break % comment", '"quoted"']


def record(event_id: str) -> dict:
    return {"id": event_id, "name": event_id, "attendance": {"expected_max": 3500},
            "schedule": {"start": "2027-07-16T12:00", "end": "2027-07-18T02:00"}}


def test_hostile_ids_give_the_same_conclusions_as_a_plain_id():
    ordinances = encoded_ordinances()
    plain = evaluate(parse_events(record("plain"), "t"), ordinances)
    hostile = evaluate(parse_events([record(i) for i in HOSTILE_IDS], "t"), ordinances)
    for index, event_id in enumerate(HOSTILE_IDS):
        for ordinance_index, expected in enumerate(plain):
            got = hostile[index * len(ordinances) + ordinance_index]
            assert got["event"] == event_id
            assert got["conclusions"] == expected["conclusions"]
