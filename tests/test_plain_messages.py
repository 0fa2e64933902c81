"""Messages name what is wrong, in the words of the file, not the validator's (issue 33, messages)."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from reasoner.cli import main


@pytest.mark.parametrize(("mark", "name"), [(";", "semicolons"), ("\t", "tabs")])
def test_a_csv_separated_by_another_mark_is_refused_naming_the_separator(tmp_path, mark, name):
    source = tmp_path / "apps.csv"
    source.write_text(mark.join(["id", "name", "attendance"]) + "\n" + mark.join(["x", "y", "100"]) + "\n",
                      encoding="utf-8")
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(main, ["batch", str(source), "--out", str(out), "--workers", "0", "-o", "gem"])
    assert result.exit_code == 2, result.output
    [line] = result.output.splitlines()
    assert f"separated by commas, not {name}" in line and "line 1" in line
    assert not out.exists() and not (tmp_path / "out.jsonl.part").exists()


EVENT = "facts/events/harvest-music-festival.yaml"


@pytest.mark.parametrize(("old", "new", "said"), [
    ("  end: 2027-07-18T02:00", "  end: [1, 2]", "schedule.end: should be a mapping of fields"),
    ("  female: 1800", "  ~: 1800", "attendance: a key is null (written ~, null or left empty); name a field"),
    ("  female: 1800", "  1: 1800", "attendance: a key is not a name; name a field (given: 1)"),
])
def test_a_message_names_fields_not_the_validators_internals(tmp_path, old, new, said):
    path = tmp_path / "event.yaml"
    text = open(EVENT, encoding="utf-8").read()
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    result = CliRunner().invoke(main, ["evaluate", str(path), "-o", "gem"])
    assert result.exit_code == 2, result.output
    assert said in result.output
    for internal in ("function-after", "EndRange", "None", ".datetime"):
        assert internal not in result.output


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be with its mark"])
def test_evaluate_reads_utf16_yaml_as_the_batchs_folder_input_does(tmp_path, encoding):
    text = open(EVENT, encoding="utf-8").read()
    path = tmp_path / "event.yaml"
    path.write_bytes(text.encode("utf-16") if encoding == "utf-16" else b"\xfe\xff" + text.encode("utf-16-be"))
    plain = CliRunner().invoke(main, ["evaluate", EVENT, "-o", "gem", "--format", "json"])
    wide = CliRunner().invoke(main, ["evaluate", str(path), "-o", "gem", "--format", "json"])
    assert wide.exit_code == plain.exit_code == 0, wide.output
    assert wide.stdout == plain.stdout
    folder = tmp_path / "folder"
    folder.mkdir()
    path.rename(folder / "event.yaml")
    out = tmp_path / "out.jsonl"
    assert CliRunner().invoke(main, ["batch", str(folder), "--out", str(out), "--workers", "0", "-o", "gem"]).exit_code == 0


DAILY = "id: a\nattendance: {expected_max: 3000}\nschedule:\n  daily: {first_day: 2027-08-12, last_day: 2027-08-14, open: \"10:00\", close: %s}\n"
SESSIONS = "id: a\nattendance: {expected_max: 3000}\nschedule:\n  sessions:\n    - {start: 2027-08-12T10:00, end: %s}\n"


@pytest.mark.parametrize(("text", "said"), [
    (SESSIONS % '"2027-08-12T10:00pm"', "schedule.sessions[0].end: not a date and time this reader knows"),
    ("id: a\nattendance: {expected_max: 3000}\nschedule: {start: 2027-07-16T12:00, end: \"2027-07-18T10:00pm\"}\n",
     "schedule.end: not a date and time this reader knows"),
    (DAILY % '{min: "10:00pm", max: "23:00"}', "schedule.daily.close.min: not a clock time this reader knows"),
    (SESSIONS % '{min: "2027-08-12T10:00pm", max: 2027-08-12T23:00}', "schedule.sessions[0].end.min: not a date and time"),
])
def test_a_time_or_a_range_of_times_is_told_once_by_the_branch_that_fits_what_was_written(tmp_path, text, said):
    path = tmp_path / "event.yaml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["evaluate", str(path), "-o", "gem"], env={"COLUMNS": "400"})
    assert result.exit_code == 2, result.output
    [line] = result.output.splitlines()
    assert said in line
    for internal in ("mapping of fields", "Input should be", ".datetime", "function-after", "Range"):
        assert internal not in line, line
