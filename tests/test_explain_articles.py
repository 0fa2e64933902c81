"""A `%@` sentence names a kind with its own article ("an association", "a corporation"), never "a(n)" (issue 32,
"Explanations a lawyer reads"): `{K:article}` in the encodings."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from reasoner.events.loading import parse_events
from reasoner.law.locator import encodings_folder
from reasoner.law.vocabulary import vocabulary
from reasoner.modes.explain import explain
from reasoner.modes.wording import words

WASHINGTON = Path(__file__).resolve().parents[1] / "facts/events/washington-columbia-gorge-music-festival.yaml"
SIGNERS = ["connecticut", "fulton", "gem", "trempealeau", "wyoming"]


def _festival(organizer: str):
    record = {"id": "e", "kinds": ["festival"], "attendance": {"expected_max": 6000},
              "flags": ["open_to_public", "admission_fee"], "site": {"kind": "open_land"},
              "organizer": {"kind": organizer},
              "schedule": {"start": "2027-07-16T12:00", "end": "2027-07-18T02:00"}}
    [parsed] = parse_events(record, "test")
    return parsed


def _sentences(report):
    found, todo = [], list(report["trees"])
    while todo:
        node = todo.pop()
        found.append(node.get("because") or "")
        todo += node.get("children", [])
    return found


def test_no_sentence_of_the_encodings_writes_a_n():
    written = [(path.name, line) for path in sorted(encodings_folder().glob("*.lp"))
               for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("%@")]
    assert written
    assert not [(name, line) for name, line in written if re.search(r"\b[Aa]\(n\)", line)]


@pytest.mark.parametrize("ordinance", SIGNERS)
@pytest.mark.parametrize("organizer", [k for k in vocabulary()["organizer_kinds"] if k != "individual"])
def test_who_signs_names_the_organizer_with_its_article(ordinance, organizer):
    event = _festival(organizer)
    report = explain(event, ordinance, "signers")
    if not report["holds"]:  # an organizer the ordinance exempts (Trempealeau's municipal corporation) signs nothing
        assert not explain(event, ordinance, "permit_required")["holds"]
        return
    said = [s for s in _sentences(report) if words(organizer) in s]
    assert said, f"{ordinance} says nothing of the {words(organizer)} who signs"
    wanted = ("an " if organizer[0] in "aeiou" else "a ") + words(organizer)
    assert all(wanted in s for s in said), said
    assert "a(n)" not in json.dumps(report)



@pytest.mark.parametrize("kind, wanted", [("athletic_event", "The event is an athletic event"),
                                          ("dance", "The event is a dance"),
                                          ("auction", "The event, an auction, is not read")])
def test_village_names_the_kind_of_event_with_its_article(kind, wanted):
    event = _festival("corporation").model_copy(update={"kinds": [kind]})
    text = json.dumps(explain(event, "village"))
    assert wanted in text and "a(n)" not in text.lower()


@pytest.mark.parametrize("organizer, wanted", [("association", "the organizer is an association"),
                                               ("corporation", "the organizer is a corporation")])
def test_washington_names_an_organizer_beyond_the_age_limit_with_its_article(organizer, wanted):
    with open(WASHINGTON, encoding="utf-8") as file:
        record = yaml.safe_load(file)
    record["organizer"] = {**record["organizer"], "kind": organizer}
    [event] = parse_events(record, "test")
    text = json.dumps(explain(event, "washington", "age_limit_natural_persons"))
    assert wanted in text and "a(n)" not in text
