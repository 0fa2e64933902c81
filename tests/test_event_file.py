"""Bad event files give one clear message naming the file, the field and what was wrong."""
from __future__ import annotations

from pathlib import Path

import pytest

from reasoner.events.loading import EventFileError, load_events

BAD = Path(__file__).parent / "bad_events"
EXAMPLES = Path(__file__).resolve().parents[1] / "facts" / "events"

CASES = [
    ("wrong_type.yaml", "attendance.expected_max", "must be a whole number"),
    ("negative_attendance.yaml", "attendance.expected_max", "from 0 to 10,000,000"),
    ("end_before_start.yaml", "schedule", "must be after start"),
    ("unknown_field.yaml", "attendance.expected_minimum", "no such field; did you mean expected_max?"),
    ("malformed.yaml", "", "malformed YAML at line"),
    ("unknown_kind.yaml", "kinds[0]", "not a name this field knows; did you mean race?"),
    ("missing_attendance.yaml", "attendance", "Field required"),
    ("empty.yaml", "", "the file is empty"),
    ("second_record_bad.json", "[1].schedule", "must be after start"),
    # a key written twice would let the last one win silently: 3,500 people read as 10
    ("duplicate_key.yaml", "", "line 4, column 1: the key 'attendance' is written twice"),
    ("duplicate_key.json", "", "the key 'attendance' is written twice in one object"),
    ("utc_offset.yaml", "schedule.start", "without a UTC offset"),
    ("control_characters.json", "id", "holds a control character"),
    ("overlapping_sessions.yaml", "schedule", "sessions overlap: 2027-07-16T10:00 to 2027-07-16T18:00 and 2027-07-16T17:00"),
    ("spring_forward_gap.yaml", "schedule", "start 2027-03-14T02:30 does not exist in America/Boise and America/Chicago"),
    ("fall_back_twice.yaml", "schedule.sessions[0]", "end 2027-11-07T01:30 occurs twice in America/Boise and America/Chicago"),
    ("two_schedule_forms.yaml", "schedule", "not start/end and daily together"),
    ("total_below_peak.yaml", "attendance", "total (2,000) is below expected_max (3,000)"),
    ("session_above_peak.yaml", "", "schedule.sessions[0].expected_max (3,500) is above the event's peak, attendance.expected_max (3,000)"),
    # every session states a peak below the event's: the event's peak counted nobody (Wyoming: a licence required, 0 licences)
    ("peak_above_every_session.yaml", "", "attendance.expected_max (6,000) is above every session's peak, the largest being "
                                          "schedule.sessions[0].expected_max (4,000)"),
]


@pytest.mark.parametrize("name, field, words", CASES, ids=[c[0] for c in CASES])
def test_a_bad_file_names_the_file_the_field_and_the_problem(name, field, words):
    with pytest.raises(EventFileError) as caught:
        load_events(BAD / name)
    message = str(caught.value)
    assert str(BAD / name) in message
    assert field in message and words in message, message


def test_a_missing_file_is_an_event_file_error():
    with pytest.raises(EventFileError, match="cannot read file"):
        load_events(BAD / "no-such-file.yaml")


def test_non_utf8_bytes_are_reported(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"id: caf\xe9\n")
    with pytest.raises(EventFileError, match="not UTF-8"):
        load_events(path)


def test_duplicate_ids_in_one_file_are_reported(tmp_path):
    record = '{"id": "same", "attendance": {"expected_max": 1}, "schedule": {"start": "2027-01-01T10:00", "end": "2027-01-01T11:00"}}'
    path = tmp_path / "dupes.json"
    path.write_text(f"[{record}, {record}]")
    with pytest.raises(EventFileError, match="duplicate event id 'same'"):
        load_events(path)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_every_bundled_example_is_valid(path):
    assert load_events(path)


def _field_paths(model, prefix=""):
    import pydantic

    for name, field in model.model_fields.items():
        path = f"{prefix}{name}"
        yield path
        annotation = field.annotation
        if isinstance(annotation, type) and issubclass(annotation, pydantic.BaseModel):
            yield from _field_paths(annotation, f"{path}.")
        for arg in getattr(annotation, "__args__", ()):
            if isinstance(arg, type) and issubclass(arg, pydantic.BaseModel):
                yield from _field_paths(arg, f"{path}.")


def test_every_field_of_the_event_format_is_documented():
    from reasoner.events.model import Event

    doc = (Path(__file__).resolve().parents[1] / "docs" / "event-format.md").read_text(encoding="utf-8")
    undocumented = [p for p in _field_paths(Event) if p not in doc and p.rsplit(".", 1)[-1] not in doc]
    assert not undocumented, undocumented


@pytest.mark.parametrize("split", [{"female": 2000}, {"male": 1001}])
def test_one_sex_alone_cannot_exceed_the_peak(split):
    from reasoner.events.loading import parse_events

    record = {"id": "x", "attendance": {"expected_max": 1000, **split},
              "schedule": {"start": "2027-07-17T10:00", "end": "2027-07-17T23:00"}}
    with pytest.raises(EventFileError, match="exceeds expected_max"):
        parse_events(record, "t")
