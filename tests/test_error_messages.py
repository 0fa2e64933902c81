"""Errors a person understands: each mistake an analyst makes writing an event file, and what they are told."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from reasoner.cli import main

SCHEDULE = "schedule: {start: 2027-07-16T12:00, end: 2027-07-18T02:00}\n"
CASES = [
    ("a misspelt field gets the field it was meant to be",
     "event.yaml", "id: a\nattendence: {expected_max: 3}\n" + SCHEDULE, ["attendence: no such field; did you mean attendance?"],
     ["Field required", "Extra inputs"]),
    ("a US-style date names the expected format",
     "event.yaml", "id: a\nattendance: {expected_max: 3}\nschedule: {start: 07/16/2027 12:00, end: 2027-07-18T02:00}\n",
     ["schedule.start:", "2027-07-16T12:00"], []),
    ("a tab in YAML is called a tab",
     "event.yaml", "id: a\nattendance:\n\texpected_max: 3\n" + SCHEDULE, ["a tab at line 3", "spaces"], []),
    ("a number with thousands separators is explained",
     "event.yaml", "id: a\nattendance: {expected_max: 1,200}\n" + SCHEDULE,
     ["line 2: 1,200 is read as separate values", "without thousands separators (1200)"], []),
    ("yes is no number of toilets",
     "event.yaml", "id: a\nattendance: {expected_max: 3000}\n" + SCHEDULE + "provisions: {toilets: yes}\n",
     ["provisions: toilets: must be a whole number, not yes/no"], []),
    ("a quoted number is refused for the peak",
     "event.yaml", "id: a\nattendance: {expected_max: \"1800\"}\n" + SCHEDULE, ["attendance.expected_max: must be a whole number"], []),
    ("a quoted number is refused for a split of the peak too",
     "event.yaml", "id: a\nattendance: {expected_max: 3000, female: \"1800\"}\n" + SCHEDULE,
     ["attendance.female: must be a whole number, not text"], []),
    ("a quoted number is refused for a provision too",
     "event.yaml", "id: a\nattendance: {expected_max: 3000}\n" + SCHEDULE + "provisions: {toilets: \"12\"}\n",
     ["provisions: toilets: must be a whole number, not text"], []),
    ("a quoted amount of insurance is refused",
     "event.yaml", "id: a\nattendance: {expected_max: 3000}\n" + SCHEDULE
     + "application: {insurance: {fire_legal_liability_usd: \"1000000\"}}\n", ["must be a whole number, not text"], []),
    ("more staying overnight than the peak is refused, naming both",
     "event.yaml", "id: a\nattendance: {expected_max: 3000, overnight: 3001}\n" + SCHEDULE,
     ["attendance: overnight (3,001) exceeds expected_max (3,000)"], []),
    ("a negative number staying overnight is refused",
     "event.yaml", "id: a\nattendance: {expected_max: 3000, overnight: -1}\n" + SCHEDULE,
     ["attendance.overnight: must be a whole number from 0"], []),
    ("nobody staying overnight contradicts attendees camping",
     "event.yaml", "id: a\nattendance: {expected_max: 3000, overnight: 0}\nflags: [camping]\n" + SCHEDULE,
     ["attendance.overnight is 0 but flags say camping"], []),
    ("a range of nobody staying contradicts the overnight-stay flag",
     "event.yaml", "id: a\nattendance: {expected_max: 3000, overnight: {min: 0, max: 0}}\nflags: [overnight_stay]\n" + SCHEDULE,
     ["attendance.overnight is 0 but flags say overnight_stay"], []),
    ("a negative sleeping capacity is refused",
     "event.yaml", "id: a\nattendance: {expected_max: 3000}\nsite: {sleeping_capacity: -5}\n" + SCHEDULE,
     ["site.sleeping_capacity: Input should be greater than or equal to 0"], ["Traceback"]),
    ("a YAML merge key is refused like a key written twice",
     "event.yaml", "id: a\nattendance: &b {expected_max: 3000}\n" + SCHEDULE + "site:\n  <<: *b\n",
     ["merge key (<<) is not accepted"], []),
    ("a date that does not exist names its field",
     "event.yaml", "id: a\nattendance: {expected_max: 3000}\n" + SCHEDULE + "application: {filed: 2027-02-30}\n",
     ["line 4", "filed: 2027-02-30 is no date"], []),
    # (an unquoted 10:00 in YAML is the clock time it looks like: the loader reads no base-60 numbers)
    ("a clock time given as a number is told to be written as one",
     "event.json", '{"id": "a", "attendance": {"expected_max": 3000}, "schedule": {"daily": {"first_day": "2027-08-12", '
     '"last_day": "2027-08-14", "open": 600, "close": "23:30"}}}',
     ['schedule.daily.open: write the time in quotes, as "10:00": unquoted, YAML reads 10:00 as the number 600'],
     ["UTC offset"]),
    ("a 12-hour clock time is told in words, not the parser's",
     "event.yaml", "id: a\nattendance: {expected_max: 3000}\nschedule:\n  daily: {first_day: 2027-08-12, last_day: "
     "2027-08-14, open: \"10:00\", close: \"10:00pm\"}\n",
     ["schedule.daily.close: not a clock time this reader knows: write the 24-hour clock in quotes, as \"22:00\""],
     ["timezone sign", "CloseRange", "valid dictionary"]),
    ("a misspelt provision gets the name it was meant to be, at a clean path",
     "event.yaml", "id: a\nattendance: {expected_max: 3000}\n" + SCHEDULE + "provisions: {toilet: 14}\n",
     ["provisions.toilet: not a name this field knows; did you mean toilets? (given: 'toilet')"],
     ["[key]", "'admission_control'"]),
    ("a misspelt flag and special service get their names",
     "event.yaml", "id: a\nattendance: {expected_max: 3000}\n" + SCHEDULE
     + "flags: [overnight]\nspecial_services: [road_closures]\n",
     ["flags[0]: not a name this field knows; did you mean overnight_stay?",
      "special_services[0]: not a name this field knows; did you mean road_closure?"], ["'open_to_public'"]),
    ("a provision's name among the flags is pointed to the provisions",
     "event.yaml", "id: a\nattendance: {expected_max: 3000}\n" + SCHEDULE + "flags: [toilet]\n",
     ["flags[0]: not a name this field knows; did you mean toilets, a name of provisions? (given: 'toilet')"],
     ["reasoner schema lists them"]),
    ("a special service and a flag among the provisions are pointed to their fields",
     "event.yaml", "id: a\nattendance: {expected_max: 3000}\n" + SCHEDULE + "provisions: {road_closures: 1, overnight: 3}\n",
     ["provisions.road_closures: not a name this field knows; did you mean road_closure, a name of special_services?",
      "provisions.overnight: not a name this field knows; did you mean overnight_stay, a name of flags?"],
     ["reasoner schema lists them", "[key]"]),
    ("a provision named among the special services is said to be one",
     "event.yaml", "id: a\nattendance: {expected_max: 3000}\n" + SCHEDULE + "special_services: [toilets]\n",
     ["special_services[0]: not a name this field knows: toilets is a name of provisions"], ["Input should be"]),
    ("a field of few names lists them in words, not the validator's",
     "event.yaml", "id: a\nattendance: {expected_max: 3000}\n" + SCHEDULE + "site: {kind: road}\n",
     ["site.kind: not a name this field knows (it knows open_land, private_property, permanent_venue, fairgrounds, "
      "park, public_road, localized_area) (given: 'road')"], ["Input should be"]),
    ("a list value like no name is pointed to the schema, not given every name",
     "event.yaml", "id: a\nattendance: {expected_max: 3000}\n" + SCHEDULE + "flags: [zzqx]\n",
     ["flags[0]: not a name this field knows (it knows", "reasoner schema lists them"], ["'open_to_public'"]),
    ("a malformed JSONL row gives its line and column",
     "events.jsonl", '{"id": "a", "attendance": {"expected_max": 3}, "schedule": {"start": "2027-07-16T12:00", '
     '"end": "2027-07-18T02:00"}}\n{"id": "b",, "x": 1}\n', ["malformed JSON at line 2, column 12"], []),
]


@pytest.mark.parametrize("name, filename, text, said, unsaid", CASES, ids=[c[0] for c in CASES])
def test_an_event_file_mistake_is_told_in_words(tmp_path, name, filename, text, said, unsaid):
    path = tmp_path / filename
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["evaluate", str(path), "-o", "gem"], env={"COLUMNS": "400"})
    assert result.exit_code == 2, result.output
    output = " ".join(result.output.split())
    for words in said:
        assert words in output, output
    for words in unsaid:
        assert words not in output, output


@pytest.mark.parametrize("given, said", [("2027-13-01", "month must be in 1..12"),
                                         ("2027-02-30", "day is out of range for month"),
                                         ("07/01/2027", "written year-month-day, as 2027-06-01")])
def test_a_filing_date_on_the_command_line_says_what_is_wrong(given, said):
    result = CliRunner().invoke(main, ["evaluate", "facts/events/harvest-music-festival.yaml", "--filed", given])
    assert result.exit_code == 2 and said in result.output


def test_a_jsonl_file_of_good_rows_evaluates(tmp_path):
    path = tmp_path / "events.jsonl"
    path.write_text('{"id": "a", "attendance": {"expected_max": 3}, "schedule": {"start": "2027-07-16T12:00", '
                    '"end": "2027-07-18T02:00"}}\n', encoding="utf-8")
    assert CliRunner().invoke(main, ["evaluate", str(path), "-o", "gem", "--format", "json"]).exit_code == 0
