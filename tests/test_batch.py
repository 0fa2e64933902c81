"""Batch evaluation: every row equals what `evaluate --format json` says of that event alone, whatever the
workers, chunk size, input format or scheduler; bad records become rows naming their line and field;
an interrupted run resumes without a duplicate; the output appears only when it is whole."""
from __future__ import annotations

import csv
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from reasoner.batch import run as batch
from reasoner.events.atoms import event_atoms, facts_program
from reasoner.batch.files import CSV_COLUMNS, BatchInputError
from reasoner.cli import main
from reasoner.events.loading import parse_events
from reasoner.events.model import Event
from reasoner.program import Program, SolveTimeout, solve, time_limit
from reasoner.evaluate import evaluate_any
from reasoner.quality.coverage import scenario_cases
from reasoner.law.labels import listed
from reasoner.law.locator import encoded_ordinances

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "tests" / "scenarios"
ORDINANCES = encoded_ordinances()


def test_a_batch_never_writes_over_its_input(tmp_path):
    source = tmp_path / "apps.jsonl"
    source.write_text(json.dumps(scenario_events(40)[0]) + "\n", encoding="utf-8")
    before = source.read_bytes()
    with pytest.raises(BatchInputError, match="is the input"):
        batch.run(batch.BatchOptions(str(source), str(source), ORDINANCES, workers=0))
    with pytest.raises(BatchInputError, match="is the input"):  # a folder of inputs, the output inside it
        batch.run(batch.BatchOptions(str(tmp_path), str(tmp_path / "out.jsonl"), ORDINANCES, workers=0))
    assert source.read_bytes() == before


def test_an_output_that_cannot_be_created_is_an_input_error(tmp_path):
    source = tmp_path / "apps.jsonl"
    source.write_text(json.dumps(scenario_events(40)[0]) + "\n", encoding="utf-8")
    with pytest.raises(BatchInputError, match="cannot write there"):
        batch.run(batch.BatchOptions(str(source), "/proc/no-such-dir-x/out.jsonl", ORDINANCES, workers=0))
    with pytest.raises(BatchInputError, match="cannot write there"):
        batch.run(batch.BatchOptions(str(source), "/proc/out.jsonl", ORDINANCES, workers=0))


def test_a_key_written_twice_makes_an_error_row(tmp_path):
    source = tmp_path / "twice.jsonl"
    source.write_text('{"id": "d", "attendance": {"expected_max": 3500}, "attendance": {"expected_max": 10}, '
                      '"schedule": {"start": "2027-07-16T10:00", "end": "2027-07-17T23:00"}}\n', encoding="utf-8")
    out = tmp_path / "out.jsonl"
    summary = batch.run(batch.BatchOptions(str(source), str(out), ORDINANCES, workers=0))
    [row] = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert summary.failed == 1 and "'attendance' is written twice" in row["error"]


ID_LENGTH = next(m.max_length for m in Event.model_fields["id"].metadata if hasattr(m, "max_length"))


def scenario_events(step: int) -> list[dict]:
    """Every `step`-th scenario case of every ordinance as an event: valid events of every shape."""
    found = []
    by_file: dict[str, list] = {}
    for case in scenario_cases(SCENARIOS):
        by_file.setdefault(case.file, []).append(case)
    for file, cases in by_file.items():
        for index, case in enumerate(cases[::step]):
            # a case's name describes it at any length; an event's id is bounded (the event model's)
            record = {**case.record, "id": f"{Path(file).stem}-{index}: {case.name}"[:ID_LENGTH]}
            found.append(json.loads(json.dumps(record, default=str)))  # dates as text, as in JSON
    return found


BAD = [  # (record, field the error must name)
    ({"id": "bad-attendance", "attendance": {"expected_max": "lots"},
      "schedule": {"start": "2027-07-16T12:00", "end": "2027-07-16T23:00"}}, "attendance.expected_max"),
    ({"id": "bad-schedule", "attendance": {"expected_max": 10},
      "schedule": {"start": "2027-07-16T12:00", "end": "2027-07-16T11:00"}}, "schedule"),
    ({"id": "bad-kind", "kinds": ["circus-of-doom"], "attendance": {"expected_max": 10},
      "schedule": {"start": "2027-07-16T12:00", "end": "2027-07-16T23:00"}}, "kinds[0]"),
    ({"id": "bad-field", "attendence": 5, "attendance": {"expected_max": 10},
      "schedule": {"start": "2027-07-16T12:00", "end": "2027-07-16T23:00"}}, "attendence"),
    ({"id": "no-schedule", "attendance": {"expected_max": 10}}, "schedule"),
    ([1, 2, 3], ""),
]
UNKNOWN = {"id": "open-question", "kinds": ["festival"], "attendance": {"expected_max": {"min": 1500, "max": 2500}},
           "schedule": {"start": "2027-07-17T10:00", "end": "2027-07-17T23:00"}, "unknown": ["flags.alcohol_sold"]}


@pytest.fixture(scope="module")
def mixed(tmp_path_factory) -> dict:
    """A JSONL file of ~200 mixed records (valid, invalid, malformed, with unknown facts) and the rows
    expected for it: each event evaluated alone, as `evaluate --format json` does."""
    valid = scenario_events(5)
    records: list = []
    for index, record in enumerate(valid):
        records.append(record)
        if index % 16 == 3:
            records.append(BAD[(index // 16) % len(BAD)][0])
        if index % 60 == 10:
            records.append("{this is not json")
    records.append(UNKNOWN)
    lines, expected, bad_lines = [], [], {}
    for line, record in enumerate(records, start=1):
        text = record if isinstance(record, str) else json.dumps(record, ensure_ascii=False)
        lines.append(text)
        try:
            event = parse_events(record, "x")[0] if isinstance(record, dict) else None
        except Exception:  # noqa: BLE001 - an invalid record: an error row
            event = None
        if event is None:
            expected.append({"error": line})
            bad_lines[line] = record
        else:
            expected.extend(evaluate_any([event], ORDINANCES))
    path = tmp_path_factory.mktemp("mixed") / "events.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return {"path": path, "records": records, "expected": expected, "bad_lines": bad_lines}


def run_batch(source: Path, out: Path, **options) -> batch.BatchSummary:
    chosen = options.pop("ordinances", ORDINANCES)
    return batch.run(batch.BatchOptions(str(source), str(out), tuple(chosen), **options))


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def assert_rows_match(rows: list[dict], expected: list[dict]) -> None:
    assert len(rows) == len(expected)
    for row, want in zip(rows, expected):
        if "error" in want:
            assert row["line"] == want["error"] and row["error"], row
        else:
            assert row == want


@pytest.mark.parametrize("workers, chunk_size", [(0, 1000), (1, 7), (2, 64)])
def test_batch_equals_each_event_evaluated_alone(mixed, tmp_path, workers, chunk_size):
    out = tmp_path / "out.jsonl"
    summary = run_batch(mixed["path"], out, workers=workers, chunk_size=chunk_size)
    assert_rows_match(read_jsonl(out), mixed["expected"])
    assert summary.failed == len(mixed["bad_lines"]) and summary.records == len(mixed["records"])
    assert not (tmp_path / "out.jsonl.part").exists() and not (tmp_path / "out.jsonl.part.state.json").exists()


def test_rows_are_byte_for_byte_the_json_of_evaluate(mixed, tmp_path):
    out = tmp_path / "out.jsonl"
    run_batch(mixed["path"], out, workers=0, chunk_size=50)
    lines = out.read_text(encoding="utf-8").splitlines()
    for line, want in zip(lines, mixed["expected"]):
        if "error" not in want:
            assert line == json.dumps(want, ensure_ascii=False)


def test_a_few_rows_equal_the_evaluate_command_itself(mixed, tmp_path):
    out = tmp_path / "out.jsonl"
    run_batch(mixed["path"], out, workers=0)
    rows = read_jsonl(out)
    for record in [r for r in mixed["records"] if isinstance(r, dict)][:200:50]:
        single = tmp_path / "one.json"
        single.write_text(json.dumps(record), encoding="utf-8")
        result = CliRunner().invoke(main, ["evaluate", str(single), "--format", "json"])
        assert result.exit_code == 0, result.output
        printed = json.loads(result.output)
        assert printed == [row for row in rows if row.get("event") == record["id"] and "error" not in row]


def test_a_bad_record_names_its_line_and_field_and_the_batch_goes_on(mixed, tmp_path):
    out = tmp_path / "out.jsonl"
    summary = run_batch(mixed["path"], out, workers=0)
    errors = {row["line"]: row for row in read_jsonl(out) if "error" in row}
    assert set(errors) == set(mixed["bad_lines"])
    fields = {json.dumps(record): field for record, field in BAD}
    for line, record in mixed["bad_lines"].items():
        row = errors[line]
        assert row["source"] == str(mixed["path"])
        if isinstance(record, str):
            assert row["error"].startswith("malformed JSON at column")
            continue
        assert row["event"] == (record.get("id") if isinstance(record, dict) else None)
        want = fields[json.dumps(record)]
        assert any(problem["field"] == want for problem in row["problems"]), row
    assert summary.events == len(mixed["records"]) - len(mixed["bad_lines"])


def test_errors_can_go_to_their_own_file(mixed, tmp_path):
    out, errors = tmp_path / "out.jsonl", tmp_path / "errors.csv"
    run_batch(mixed["path"], out, workers=0, errors=str(errors))
    assert all("error" not in row for row in read_jsonl(out))
    rows = list(csv.DictReader(errors.open(encoding="utf-8")))
    assert {int(row["line"]) for row in rows} == set(mixed["bad_lines"])
    assert all(row["error"] and row["source"] == str(mixed["path"]) for row in rows)


def flatten(record: dict, prefix: str = "") -> dict[str, str]:
    """An event as one CSV row: dotted columns, lists joined with ';'."""
    cells = {}
    for key, value in record.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            cells.update(flatten(value, f"{name}."))
        elif isinstance(value, list):
            cells[name] = ";".join(f"{v['start']}/{v['end']}" if isinstance(v, dict) else v for v in value)
        else:
            cells[name] = "" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
    return cells


def test_csv_input_gives_the_rows_of_jsonl_input(tmp_path):
    # a CSV row holds the one-session form, the daily shorthand, and sessions given by start and end alone
    # (START/END items); a session with more (its own peak, an end known as a range) needs JSONL
    def plain_sessions(event: dict) -> bool:
        sessions = (event.get("schedule") or {}).get("sessions") or []
        return all(set(session) == {"start", "end"} and isinstance(session["end"], str) for session in sessions)

    every = scenario_events(1)
    events = [e for e in every[::9] if plain_sessions(e)]
    with_sessions = [e for e in every if (e.get("schedule") or {}).get("sessions") and plain_sessions(e)]
    assert len(with_sessions) >= 8
    events += with_sessions
    rows = [flatten(e) for e in events]
    columns = sorted({c for row in rows for c in row})
    source = tmp_path / "events.csv"
    with source.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, columns)
        writer.writeheader()
        writer.writerows(rows)
    jsonl = tmp_path / "events.jsonl"
    jsonl.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    run_batch(source, tmp_path / "from-csv.jsonl", workers=0, chunk_size=40)
    run_batch(jsonl, tmp_path / "from-jsonl.jsonl", workers=0, chunk_size=40)
    assert read_jsonl(tmp_path / "from-csv.jsonl") == read_jsonl(tmp_path / "from-jsonl.jsonl")


def test_csv_output_holds_the_same_conclusions_as_jsonl(mixed, tmp_path):
    run_batch(mixed["path"], tmp_path / "out.jsonl", workers=0)
    run_batch(mixed["path"], tmp_path / "out.csv", workers=0, layout="long")
    want = read_jsonl(tmp_path / "out.jsonl")
    with (tmp_path / "out.csv").open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        assert tuple(reader.fieldnames) == CSV_COLUMNS
        got = list(reader)
    assert len(got) == len(want)
    for row, record in zip(got, want):
        if "error" in record:
            assert (int(row["line"]), row["error"]) == (record["line"], record["error"])
            continue
        assert (row["event"], row["ordinance"], row["status"]) == (record["event"], record["ordinance"], record["status"])
        assert json.loads(row["conclusions"]) == record["conclusions"]
        for item in record["conclusions"]:
            if item["kind"] == "obligation":
                assert listed(item) in row["obligations"]  # the one phrasing (reasoner/law/labels.py)


def test_a_csv_session_that_is_not_start_slash_end_is_an_error_row_naming_the_column(tmp_path):
    source = tmp_path / "events.csv"
    source.write_text('id,attendance.expected_max,schedule.sessions\n'
                      'a,3000,2027-07-16T18:00/2027-07-16T23:00; 2027-07-17T10:00/2027-07-17T23:00\n'
                      'b,3000,2027-07-16T18:00 to 2027-07-16T23:00\n'
                      'c,3000,2027-07-16T18:00/2027-07-16T12:00\n', encoding="utf-8")
    out = tmp_path / "out.jsonl"
    run_batch(source, out, workers=0, ordinances=["gem"])
    good, slash, backwards = read_jsonl(out)
    assert good["event"] == "a" and good["status"]
    assert slash["problems"][0]["field"] == "schedule.sessions" and "START/END" in slash["problems"][0]["message"]
    assert backwards["problems"][0]["field"].startswith("schedule.sessions[0]")   # the model's own check


def test_a_csv_error_names_the_line_where_its_row_starts(tmp_path):
    source = tmp_path / "events.csv"
    source.write_text('id,name,attendance.expected_max,schedule.start,schedule.end,kinds\n'
                      'a,"two\nlines",100,2027-07-16T12:00,2027-07-16T23:00,fair;concert\n'
                      'b,plain,-5,2027-07-16T12:00,2027-07-16T23:00,\n', encoding="utf-8")
    out = tmp_path / "out.jsonl"
    run_batch(source, out, workers=0, ordinances=["gem"])
    first, second = read_jsonl(out)
    assert first["event"] == "a" and first["ordinance"] == "gem"
    assert second["line"] == 4 and second["problems"][0]["field"] == "attendance.expected_max"


def test_yaml_lists_folders_and_standard_input(tmp_path):
    events = scenario_events(40)[:6]
    folder = tmp_path / "events"
    folder.mkdir()
    (folder / "a.yaml").write_text(yaml.safe_dump(events[:3], sort_keys=False), encoding="utf-8")
    (folder / "b.json").write_text(json.dumps({"events": events[3:]}, indent=1), encoding="utf-8")
    (folder / "c.yaml").write_text("id: [unclosed\n", encoding="utf-8")
    run_batch(folder, tmp_path / "folder.jsonl", workers=0)
    rows = read_jsonl(tmp_path / "folder.jsonl")
    expected = [r for e in events for r in evaluate_any(parse_events(e, "x"), ORDINANCES)]
    assert rows[:-1] == expected
    assert rows[-1]["source"].endswith("c.yaml") and rows[-1]["line"] == 2
    (tmp_path / "in.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "reasoner.cli", "batch", "-", "--out", str(tmp_path / "stdin.jsonl"),
                             "--workers", "0"], input=(tmp_path / "in.jsonl").read_bytes(), capture_output=True)
    assert result.returncode == 0, result.stderr
    assert read_jsonl(tmp_path / "stdin.jsonl") == expected


def test_a_yaml_error_names_the_line_of_the_item(tmp_path):
    source = tmp_path / "events.yaml"
    source.write_text("- id: a\n  attendance: {expected_max: 10}\n  schedule: {start: 2027-07-16T12:00, end: 2027-07-16T13:00}\n"
                      "- id: b\n  attendance: {expected_max: -1}\n  schedule: {start: 2027-07-16T12:00, end: 2027-07-16T13:00}\n",
                      encoding="utf-8")
    run_batch(source, tmp_path / "out.jsonl", workers=0, ordinances=["gem"])
    good, bad = read_jsonl(tmp_path / "out.jsonl")
    assert good["event"] == "a" and (bad["line"], bad["problems"][0]["field"]) == (4, "attendance.expected_max")


class Interrupt(Exception):
    pass


@pytest.mark.parametrize("workers", [0, 2])
def test_an_interrupted_run_resumes_without_duplicates(mixed, tmp_path, workers):
    clean = tmp_path / "clean.jsonl"
    run_batch(mixed["path"], clean, workers=0, chunk_size=16)
    out = tmp_path / "out.jsonl"
    seen = []

    def stop_after_three(summary, position, size):
        seen.append(summary.records)
        if len(seen) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        batch.run(batch.BatchOptions(str(mixed["path"]), str(out), ORDINANCES, workers=workers, chunk_size=16),
                  stop_after_three)
    assert not out.exists()  # never a half-written output
    assert (tmp_path / "out.jsonl.part").exists()
    assert not (tmp_path / "out.jsonl.part.rows").exists()  # the workers' rows files go with the run
    state = json.loads((tmp_path / "out.jsonl.part.state.json").read_text())
    assert state["records"] == seen[-1] == 48
    with (tmp_path / "out.jsonl.part").open("ab") as handle:  # a crash mid-write leaves a torn row
        handle.write(b'{"event": "torn')
    summary = run_batch(mixed["path"], out, workers=workers, chunk_size=16, resume=True)
    assert summary.resumed == 48 and summary.records == len(mixed["records"])
    assert out.read_bytes() == clean.read_bytes()
    assert not (tmp_path / "out.jsonl.part").exists()


def test_resume_refuses_a_checkpoint_of_another_run(mixed, tmp_path):
    out = tmp_path / "out.jsonl"

    def stop(summary, position, size):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        batch.run(batch.BatchOptions(str(mixed["path"]), str(out), ORDINANCES, workers=0, chunk_size=16), stop)
    with pytest.raises(BatchInputError, match="other input, output or ordinances"):
        run_batch(mixed["path"], out, workers=0, resume=True, ordinances=["gem"])


def test_a_killed_process_resumes_from_its_checkpoint(mixed, tmp_path):
    big = tmp_path / "big.jsonl"
    big.write_bytes(mixed["path"].read_bytes() * 6)
    out = tmp_path / "out.jsonl"
    command = [sys.executable, "-m", "reasoner.cli", "batch", str(big), "--out", str(out), "--workers", "0",
               "--chunk-size", "20"]
    process = subprocess.Popen(command, stderr=subprocess.PIPE)
    state = tmp_path / "out.jsonl.part.state.json"
    deadline = time.time() + 60
    while time.time() < deadline and process.poll() is None:
        if state.exists() and json.loads(state.read_text() or "{}").get("records", 0) >= 60:
            break
        time.sleep(0.02)
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert not out.exists()
    resumed = subprocess.run(command + ["--resume"], capture_output=True, text=True)
    assert resumed.returncode == 1, resumed.stderr  # the file holds bad records
    assert "done before --resume" in resumed.stderr
    clean = tmp_path / "clean.jsonl"
    run_batch(big, clean, workers=0, chunk_size=20)
    assert out.read_bytes() == clean.read_bytes()


def test_the_command_reports_and_exits_1_when_records_failed(mixed, tmp_path):
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(main, ["batch", str(mixed["path"]), "--out", str(out), "--workers", "0",
                                       "--ordinances", "gem,fulton"])
    assert result.exit_code == 1
    assert f"{len(mixed['bad_lines'])} failed" in result.output and "events/s" in result.output
    assert {row.get("ordinance") for row in read_jsonl(out)} == {"gem", "fulton", None}


@pytest.mark.parametrize("args, message", [
    (["missing.jsonl", "--out", "out.jsonl"], "no such file"),
    (["events.txt", "--out", "out.jsonl"], "--input-format"),
    (["events.jsonl", "--out", "out.parquet"], "JSONL (.jsonl) or CSV (.csv)"),
    (["events.jsonl", "--out", "out.jsonl", "-o", "atlantis"], "unknown ordinance"),
])
def test_unusable_input_exits_2(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "events.txt").write_text("{}\n")
    (tmp_path / "events.jsonl").write_text("{}\n")
    result = CliRunner().invoke(main, ["batch", *args])
    assert result.exit_code == 2 and message in result.output


def test_dask_local_cluster_gives_the_same_rows(mixed, tmp_path):
    distributed = pytest.importorskip("distributed")
    with local_cluster(distributed, threads_per_worker=2) as cluster:
        out = tmp_path / "out.jsonl"
        summary = run_batch(mixed["path"], out, scheduler=cluster.scheduler_address, chunk_size=32)
    assert_rows_match(read_jsonl(out), mixed["expected"])
    assert summary.failed == len(mixed["bad_lines"])



def test_a_malformed_scheduler_address_is_exit_2_naming_it(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "events.jsonl").write_text("{}\n")
    result = CliRunner().invoke(main, ["batch", "events.jsonl", "--out", "out.jsonl", "--scheduler", "not a url::"])
    assert result.exit_code == 2, result.output
    assert "not a scheduler address" in result.output and "Traceback" not in result.output


def local_cluster(distributed, **options):
    """A LocalCluster of one worker process. distributed gives its IO loop thread 10 s to start and asserts on it,
    which a loaded machine can miss (it failed so in a fresh-clone CI run, 4,483 other tests passing): tried again,
    since what is tested is the batch, not distributed's start-up."""
    for attempt in range(3):
        try:
            return distributed.LocalCluster(n_workers=1, processes=True, host="127.0.0.1", dashboard_address=None,
                                            **options)
        except AssertionError:
            if attempt == 2:
                raise


def test_a_scheduler_lost_mid_run_is_a_fault_exit_4_and_resumable(mixed, tmp_path):
    distributed = pytest.importorskip("distributed")
    out = tmp_path / "out.jsonl"
    cluster = local_cluster(distributed, threads_per_worker=1)
    try:
        def lose_the_scheduler(summary, position, size):  # after the first chunk is written
            cluster.close()

        with pytest.raises(batch.BatchFault, match="went away mid-run"):
            batch.run(batch.BatchOptions(str(mixed["path"]), str(out), tuple(ORDINANCES), chunk_size=2,
                                         scheduler=cluster.scheduler_address), lose_the_scheduler)
    finally:
        cluster.close()
    assert Path(str(out) + ".part.state.json").is_file()  # --resume continues from here

def test_facts_text_is_what_clingo_renders_for_the_atoms():
    events = [parse_events(e, "x")[0] for e in scenario_events(3)]
    assert facts_program(events) == "".join(f"{a}.\n" for i, e in enumerate(events, 1) for a in event_atoms(i, e))


def test_a_solver_call_past_its_time_limit_raises():
    [event] = parse_events(scenario_events(50)[0], "x")
    assert solve([event], ["gem"], time_limit=30)
    with pytest.raises(SolveTimeout, match="time limit of 0.05 s"), time_limit(0.05):
        Program(["gem"]).add("slow(X) :- X = 1..20000000.").add_events([event]).ground()


def test_a_csv_header_naming_a_column_twice_is_refused(tmp_path):
    source = tmp_path / "twice.csv"
    source.write_text("id,attendance.expected_max,schedule.start,schedule.end,attendance.expected_max\n"
                      "d1,5,2027-07-16T10:00,2027-07-16T12:00,6\n", encoding="utf-8")
    with pytest.raises(BatchInputError, match="names attendance.expected_max more than once"):
        batch.run(batch.BatchOptions(str(source), str(tmp_path / "out.jsonl"), ORDINANCES, workers=0))


def test_resume_without_an_interrupted_run_says_it_starts_afresh(tmp_path):
    source = tmp_path / "apps.jsonl"
    source.write_text(json.dumps(scenario_events(40)[0]) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(main, ["batch", str(source), "--out", str(out), "--workers", "0", "--resume", "-o", "gem"])
    assert result.exit_code == 0 and "no interrupted run to resume" in result.output
    assert len(out.read_text(encoding="utf-8").splitlines()) == 1


def test_a_key_written_twice_in_a_json_document_fails_its_record_only(tmp_path):
    source = tmp_path / "events.json"
    twice = ('{"id": "a", "attendance": {"expected_max": 5}, "attendance": {"expected_max": 50000}, '
             '"schedule": {"start": "2027-07-16T10:00", "end": "2027-07-17T23:00"}}')
    source.write_text(f"[{twice},\n{json.dumps(scenario_events(40)[0])}]", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    summary = batch.run(batch.BatchOptions(str(source), str(out), ("gem",), workers=0))
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert summary.failed == 1 and "written twice" in rows[0]["error"] and rows[1]["ordinance"] == "gem"


def test_neither_a_part_file_as_input_nor_a_bad_header_leaves_a_checkpoint_behind(tmp_path):
    part = tmp_path / "x.jsonl.part"
    part.write_text(json.dumps(scenario_events(40)[0]) + "\n", encoding="utf-8")
    with pytest.raises(BatchInputError, match="is the input"):
        batch.run(batch.BatchOptions(str(part), str(tmp_path / "x.jsonl"), ORDINANCES, input_format="jsonl", workers=0))
    assert part.read_text(encoding="utf-8").strip()
    source = tmp_path / "twice.csv"
    source.write_text("id,id\na,b\n", encoding="utf-8")
    with pytest.raises(BatchInputError, match="more than once"):
        batch.run(batch.BatchOptions(str(source), str(tmp_path / "out.jsonl"), ORDINANCES, workers=0))
    assert not list(tmp_path.glob("out.jsonl*"))


def test_a_watched_batch_reports_early_and_writes_the_same_rows(tmp_path):
    """With a progress bar the first chunks are small (125, then doubling), so progress moves at once."""
    events = scenario_events(2)
    source = tmp_path / "events.jsonl"
    source.write_text("".join(json.dumps({**events[n % len(events)], "id": f"e{n}"}) + "\n" for n in range(400)),
                      encoding="utf-8")
    seen: list[int] = []
    watched, plain = tmp_path / "watched.jsonl", tmp_path / "plain.jsonl"
    batch.run(batch.BatchOptions(str(source), str(watched), ("gem",), workers=0),
              progress=lambda summary, position, size: seen.append(summary.records))
    batch.run(batch.BatchOptions(str(source), str(plain), ("gem",), workers=0))
    assert watched.read_bytes() == plain.read_bytes()
    assert seen == [125, 375, 400]


def test_heavy_events_go_in_smaller_chunks_and_solver_calls_with_the_same_rows(tmp_path, monkeypatch):
    """A chunk holds at most about CHUNK_ROWS_BYTES of rows, and a worker solves it in calls of about
    SOLVE_ATOMS shown atoms: both bound a worker's memory, and neither changes a row."""
    events = scenario_events(2)
    source = tmp_path / "events.jsonl"
    source.write_text("".join(json.dumps({**events[n % len(events)], "id": f"e{n}"}) + "\n" for n in range(300)),
                      encoding="utf-8")
    plain, bounded = tmp_path / "plain.jsonl", tmp_path / "bounded.jsonl"
    batch.run(batch.BatchOptions(str(source), str(plain), ORDINANCES, workers=0, chunk_size=1000))
    sizes: list[int] = []
    solved: list[int] = []
    monkeypatch.setattr(batch, "CHUNK_ROWS_BYTES", 60_000)
    monkeypatch.setattr(batch, "SOLVE_ATOMS", 500)
    monkeypatch.setattr(batch, "_shown", {"events": 0, "atoms": 0})
    real = batch._bodies
    monkeypatch.setattr(batch, "_bodies", lambda evs, *rest: solved.append(len(evs)) or real(evs, *rest))
    batch.run(batch.BatchOptions(str(source), str(bounded), ORDINANCES, workers=0, chunk_size=1000),
              progress=lambda summary, position, size: sizes.append(summary.records))
    assert bounded.read_bytes() == plain.read_bytes()
    chunks = [b - a for a, b in zip([0, *sizes], sizes)]
    assert chunks[0] == batch.FIRST_CHUNK and max(chunks[1:]) < batch.FIRST_CHUNK, chunks
    assert solved[0] == batch.FIRST_SOLVE and max(solved[1:]) < 25, solved


def test_evaluating_a_chunk_makes_no_reference_cycles(mixed):
    # batch workers run without the cyclic garbage collector (batch._worker_start): safe only while a chunk's
    # work leaves nothing that reference counting cannot free, for valid events, unknown facts and bad records
    import gc

    from reasoner.batch.files import Record

    def chunk(lines: list[str]) -> batch.Chunk:
        records = [Record("mixed.jsonl", number, line.encode()) for number, line in enumerate(lines, start=1)]
        return batch.Chunk(ORDINANCES, "jsonl", None, records, "jsonl", None)

    lines = mixed["path"].read_text(encoding="utf-8").splitlines()
    warm_up = [lines[0], json.dumps(UNKNOWN), *(json.dumps(record) for record, _ in BAD), "{this is not json"]
    batch.evaluate_chunk(chunk(warm_up))  # first imports and first caches leave garbage of their own
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        result = batch.evaluate_chunk(chunk(lines))
        assert result.events > 100 and result.failed > 5
        assert gc.collect() == 0
    finally:
        if was_enabled:
            gc.enable()
