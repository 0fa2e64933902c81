"""A batch a clerk can trust (issue 19): one writer per output, resume only the same input, checkpoints
checked, outputs committed together, faults ending in one line with the rows kept, bounded reading."""
from __future__ import annotations

import errno
import io
import json
import os
import signal
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
from click.testing import CliRunner

from reasoner.batch import run as batch
from reasoner.batch.files import BatchFault, BatchInputError, Source
from reasoner.cli import main

from test_batch import read_jsonl, scenario_events

EVENTS = scenario_events(3)


@pytest.fixture()
def source(tmp_path) -> Path:
    path = tmp_path / "apps.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in EVENTS), encoding="utf-8")
    return path


def options(source: Path, out: Path, **given) -> batch.BatchOptions:
    return batch.BatchOptions(str(source), str(out), given.pop("ordinances", ("gem", "fulton")),
                              workers=given.pop("workers", 0), chunk_size=given.pop("chunk_size", 8), **given)


def interrupted(source: Path, out: Path, after: int = 2, **given) -> None:
    """A run stopped by Ctrl-C after `after` chunks, leaving OUTPUT.part and its checkpoint."""
    seen = []

    def stop(summary, position, size):
        seen.append(1)
        if len(seen) == after:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        batch.run(options(source, out, **given), stop)
    assert Path(f"{out}.part.state.json").is_file()


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "reasoner.cli", "batch", *args]


# ---- one writer per output ------------------------------------------------------------------------

def test_a_second_batch_on_the_same_output_is_refused_naming_the_running_one(source, tmp_path):
    out = tmp_path / "out.jsonl"
    second = []

    def start_another(summary, position, size):
        if not second:
            second.append(CliRunner().invoke(main, ["batch", str(source), "--out", str(out), "--workers", "0"]))

    batch.run(options(source, out), start_another)
    [result] = second
    assert result.exit_code == 2
    assert "another batch is writing it" in result.output and f"process {os.getpid()}" in result.output
    clean = tmp_path / "clean.jsonl"
    batch.run(options(source, clean))
    assert out.read_bytes() == clean.read_bytes()  # the first run's rows, never mixed


def test_an_interrupted_runs_rows_are_not_discarded_without_resume_or_restart(source, tmp_path):
    out = tmp_path / "out.jsonl"
    interrupted(source, out)
    kept = Path(f"{out}.part").read_bytes()
    with pytest.raises(BatchInputError, match="--resume, or start over with --restart"):
        batch.run(options(source, out))
    assert Path(f"{out}.part").read_bytes() == kept
    batch.run(options(source, out, restart=True))
    clean = tmp_path / "clean.jsonl"
    batch.run(options(source, clean))
    assert out.read_bytes() == clean.read_bytes() and not Path(f"{out}.part").exists()


# ---- resume only the same input -------------------------------------------------------------------

def test_resume_refuses_an_input_changed_in_what_was_read(source, tmp_path):
    out = tmp_path / "out.jsonl"
    interrupted(source, out)
    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[3] = lines[3].replace('"id": "', '"id": "changed ')
    source.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(BatchInputError, match="not the input the interrupted run read"):
        batch.run(options(source, out, resume=True))
    assert Path(f"{out}.part.state.json").is_file()  # still there for the right input


def test_resume_accepts_the_same_input_and_an_input_grown_past_what_was_read(source, tmp_path):
    out, clean = tmp_path / "out.jsonl", tmp_path / "clean.jsonl"
    interrupted(source, out)
    with source.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({**EVENTS[0], "id": "appended"}) + "\n")
    batch.run(options(source, out, resume=True))
    batch.run(options(source, clean))
    assert out.read_bytes() == clean.read_bytes()


def test_resume_from_standard_input_needs_the_same_bytes(source, tmp_path, monkeypatch):
    out = tmp_path / "out.jsonl"
    given = source.read_bytes()

    def stdin(data: bytes) -> None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))

    stdin(given)
    interrupted(Path("-"), out)
    stdin(given.replace(b'"id": "', b'"id": "other ', 5))
    with pytest.raises(BatchInputError, match="standard input: not the bytes the interrupted run read"):
        batch.run(options(Path("-"), out, resume=True))
    stdin(given)
    batch.run(options(Path("-"), out, resume=True))
    clean = tmp_path / "clean.jsonl"
    batch.run(options(source, clean))
    assert out.read_bytes() == clean.read_bytes()


# ---- checkpoints checked --------------------------------------------------------------------------

def _state(tmp_path: Path) -> Path:
    return tmp_path / "out.jsonl.part.state.json"


@pytest.mark.parametrize("change", [
    lambda state: [state],
    lambda state: {},
    lambda state: {**state, "records": -5},
    lambda state: {**state, "records": 10**30, "events": 10**30},
    lambda state: {**state, "records": "16"},
    lambda state: {**state, "bytes": {}},
    lambda state: {**state, "bytes": [1, 2]},
    lambda state: {**state, "input": None},
    lambda state: {**state, "version": 99},
    lambda state: {**state, "records": 10**6, "events": 10**6 - state["failed"]},  # more than the input holds
    "folder",
])
def test_a_checkpoint_that_is_not_one_is_refused_with_exit_2(source, tmp_path, change):
    out = tmp_path / "out.jsonl"
    interrupted(source, out)
    path = _state(tmp_path)
    if change == "folder":
        path.unlink()
        path.mkdir()
    else:
        path.write_text(json.dumps(change(json.loads(path.read_text()))), encoding="utf-8")
    result = CliRunner().invoke(main, ["batch", str(source), "--out", str(out), "--workers", "0", "--resume",
                                       "-o", "gem", "-o", "fulton", "--chunk-size", "8"])
    assert result.exit_code == 2, result.output
    assert str(path) in result.output  # refused for the checkpoint, not for the options
    assert "Traceback" not in result.output and not out.exists()


# ---- committed together ---------------------------------------------------------------------------

def test_output_and_errors_are_committed_together_or_not_at_all(tmp_path, monkeypatch):
    source = tmp_path / "apps.jsonl"
    source.write_text("".join(json.dumps(e) + "\n" for e in EVENTS[:10]) + "{broken\n", encoding="utf-8")
    out, errors = tmp_path / "out.jsonl", tmp_path / "errors.jsonl"
    real = os.replace

    def failing(src, dst):
        if str(dst) == str(out):
            raise OSError(errno.EIO, "Input/output error")
        return real(src, dst)

    monkeypatch.setattr(os, "replace", failing)
    with pytest.raises(BatchFault, match="nothing was committed"):
        batch.run(options(source, out, errors=str(errors)))
    assert not out.exists() and not errors.exists()
    monkeypatch.setattr(os, "replace", real)
    summary = batch.run(options(source, out, errors=str(errors), resume=True))
    assert summary.resumed == 11 and len(read_jsonl(errors)) == 1 and len(read_jsonl(out)) == 20


# ---- faults end cleanly ---------------------------------------------------------------------------

class Full:
    """A file on a full disk: writes fail with ENOSPC after the first few."""

    def __init__(self, handle):
        self.handle, self.writes = handle, 0

    def write(self, data):
        self.writes += 1
        if self.writes > 1:
            raise OSError(errno.ENOSPC, "No space left on device")
        return self.handle.write(data)

    def __getattr__(self, name):
        return getattr(self.handle, name)


def test_a_full_disk_ends_with_one_line_exit_4_and_the_rows_kept(source, tmp_path, monkeypatch):
    out = tmp_path / "out.jsonl"
    append = batch._Sink.append

    def on_a_full_disk(self, *args):
        self.handles[self.output] = self.handles[self.output] if isinstance(self.handles[self.output], Full) \
            else Full(self.handles[self.output])
        return append(self, *args)

    monkeypatch.setattr(batch._Sink, "append", on_a_full_disk)
    result = CliRunner().invoke(main, ["batch", str(source), "--out", str(out), "--workers", "0", "-o", "gem",
                                       "--chunk-size", "8"])
    assert result.exit_code == 4
    [line] = result.output.splitlines()
    assert "No space left on device" in line and "--resume" in line and "Traceback" not in result.output
    monkeypatch.setattr(batch._Sink, "append", append)
    summary = batch.run(options(source, out, ordinances=("gem",), resume=True))
    assert summary.resumed == 8


def test_a_read_only_place_is_refused_with_one_line(source, tmp_path, monkeypatch):
    real = os.open

    def read_only(path, flags, *args):
        if str(path).endswith(".part"):
            raise OSError(errno.EROFS, "Read-only file system")
        return real(path, flags, *args)

    monkeypatch.setattr(os, "open", read_only)
    result = CliRunner().invoke(main, ["batch", str(source), "--out", str(tmp_path / "out.jsonl"), "--workers", "0"])
    assert result.exit_code == 2 and len(result.output.splitlines()) == 1
    assert "Read-only file system" in result.output


def _workers() -> list[int]:
    """The worker processes of this process's pools: children of its forkserver."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    servers = {pid for pid, parent in parents.items() if parent == os.getpid()}
    return [pid for pid, parent in parents.items() if parent in servers]


def test_a_killed_worker_ends_with_a_fault_and_the_rows_kept(source, tmp_path):
    out = tmp_path / "out.jsonl"
    killed = []

    def kill_a_worker(summary, position, size):
        if not killed:
            for pid in _workers():
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)

    with pytest.raises(BatchFault, match="a worker process ended unexpectedly"):
        batch.run(options(source, out, workers=1, chunk_size=4), kill_a_worker)
    summary = batch.run(options(source, out, workers=0, resume=True))
    clean = tmp_path / "clean.jsonl"
    batch.run(options(source, clean))
    assert summary.resumed >= 4 and out.read_bytes() == clean.read_bytes()


def test_a_closed_standard_input_is_one_line_and_exit_2(tmp_path):
    result = subprocess.run(command("-", "--out", str(tmp_path / "out.jsonl"), "--workers", "0"),
                            stdin=subprocess.DEVNULL, capture_output=True, text=True, preexec_fn=lambda: os.close(0))
    assert result.returncode == 2 and result.stderr.strip().endswith("standard input is closed: give a file, or pipe the records in")


@pytest.mark.parametrize("streams", ["stdout closed", "stderr to /dev/full", "stdout to /dev/full"])
def test_closed_or_full_standard_streams_do_not_change_the_result(source, tmp_path, streams):
    out = tmp_path / "out.jsonl"
    redirect = {"stdout closed": lambda: os.close(1),
                "stderr to /dev/full": lambda: os.dup2(os.open("/dev/full", os.O_WRONLY), 2),
                "stdout to /dev/full": lambda: os.dup2(os.open("/dev/full", os.O_WRONLY), 1)}[streams]
    result = subprocess.run(command(str(source), "--out", str(out), "--workers", "0", "-o", "gem"),
                            capture_output=True, preexec_fn=redirect)
    assert result.returncode == 0 and len(read_jsonl(out)) == len(EVENTS)


def _big(tmp_path: Path, count: int = 3000) -> Path:
    path = tmp_path / "big.jsonl"
    path.write_text("".join(json.dumps({**EVENTS[n % len(EVENTS)], "id": f"e{n}"}) + "\n" for n in range(count)),
                    encoding="utf-8")
    return path


@pytest.mark.parametrize("when", ["start-up", "running"])
def test_ctrl_c_stops_within_a_second_and_a_second_one_never_hangs(tmp_path, when):
    big, out = _big(tmp_path), tmp_path / "out.jsonl"
    process = subprocess.Popen(command(str(big), "--out", str(out), "--workers", "2", "--chunk-size", "200"),
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    state = Path(f"{out}.part.state.json")
    deadline = time.time() + 60
    if when == "start-up":
        time.sleep(0.5)
    else:
        while time.time() < deadline and not (state.is_file() and json.loads(state.read_text() or "{}").get("records")):
            time.sleep(0.01)
    start = time.perf_counter()
    os.killpg(process.pid, signal.SIGINT)  # as a terminal does: to the command and its workers
    time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        pytest.fail("the batch hung after a second Ctrl-C")
    took = time.perf_counter() - start
    stderr = process.stderr.read()
    assert process.returncode == 130 and len(stderr.splitlines()) == 1 and "Traceback" not in stderr, stderr
    assert took < 1.5  # 1 s on a quiet machine; this one is shared
    if when == "running":
        assert "--resume" in stderr


# ---- bounded reading ------------------------------------------------------------------------------

def test_an_oversized_jsonl_line_is_an_error_row_read_with_a_bound(tmp_path):
    path = tmp_path / "big-line.jsonl"
    with path.open("wb") as handle:
        handle.write(json.dumps(EVENTS[0]).encode() + b"\n")
        handle.write(b'{"id": "huge", "name": "' + b"x" * (40 * 2**20) + b'"}\n')
        handle.write(json.dumps(EVENTS[1]).encode() + b"\n")
    tracemalloc.start()
    records = list(Source(str(path), "jsonl").records())
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert [r.problem for r in records] == [None, "the record is larger than 16 MiB, the limit of an event", None]
    assert records[1].line == 2 and records[2].line == 3
    assert peak < 34 * 2**20  # never the 40 MiB line whole


def test_every_unreadable_entry_of_a_folder_is_an_error_row(tmp_path):
    folder = tmp_path / "events"
    folder.mkdir()
    (folder / "a.yaml").write_text(json.dumps(EVENTS[0]), encoding="utf-8")
    (folder / "b.yaml").mkdir()
    os.mkfifo(folder / "c.yaml")
    (folder / "d.yaml").symlink_to(folder / "d.yaml")
    (folder / "e.yaml").symlink_to(folder / "nowhere")
    with (folder / "f.yaml").open("wb") as handle:  # sparse: 300 MB named, none written
        handle.truncate(300 * 2**20)
    out = tmp_path / "out.jsonl"
    batch.run(options(folder, out, ordinances=("gem",)))
    [good, *bad] = read_jsonl(out)
    rows = {Path(row["source"]).name: row["error"] for row in bad}
    assert good["event"] == EVENTS[0]["id"] and rows == {"b.yaml": "a folder, not an event file",
                    "c.yaml": "a FIFO (named pipe), not an event file", "d.yaml": "a symbolic link that loops",
                    "e.yaml": "a symbolic link to nothing",
                    "f.yaml": "the file is larger than 16 MiB, the limit of an event file; split it"}


def test_a_fifo_given_as_input_is_named_as_one(tmp_path):
    os.mkfifo(tmp_path / "pipe.jsonl")
    result = CliRunner().invoke(main, ["batch", str(tmp_path / "pipe.jsonl"), "--out", str(tmp_path / "o.jsonl")])
    assert result.exit_code == 2 and "a FIFO (named pipe)" in result.output


def test_a_csv_row_with_an_unterminated_quote_is_one_error_row(tmp_path):
    path = tmp_path / "events.csv"
    rows = [f"e{n},{n + 10},2027-07-16T12:00,2027-07-16T23:00" for n in range(15)]
    rows.insert(2, 'broken,"12,2027-07-16T12:00,2027-07-16T23:00')
    path.write_text("id,attendance.expected_max,schedule.start,schedule.end\n" + "\n".join(rows) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    summary = batch.run(options(path, out, ordinances=("gem",)))
    got = read_jsonl(out)
    assert summary.failed == 1 and len(got) == 16
    assert got[2]["line"] == 4 and "never closed" in got[2]["error"]
    assert [row["event"] for row in got if "error" not in row] == [f"e{n}" for n in range(15)]


def test_yaml_is_streamed_record_by_record(tmp_path):
    path = tmp_path / "events.yaml"
    text = "".join(f"- id: e{n}\n  attendance: {{expected_max: {n + 5}}}\n"
                   f"  schedule: {{start: 2027-07-16T12:00, end: 2027-07-16T23:00}}\n  kinds: [fair, concert]\n"
                   for n in range(20_000))
    path.write_text(text, encoding="utf-8")
    tracemalloc.start()
    count = sum(1 for _ in Source(str(path), "yaml").records())
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert count == 20_000 and peak < 4 * 2**20  # the whole node graph took about 60 times the file


def test_aliases_are_expanded_against_one_budget_for_the_file(tmp_path):
    laughs = "a: &a [" + ",".join(["x"] * 100) + "]\n"
    for level in "bcd":
        laughs += f"{level}: &{level} [" + ",".join([f"*{chr(ord(level) - 1)}"] * 10) + "]\n"
    path = tmp_path / "aliases.yaml"
    path.write_text("- id: first\n  notes: {" + laughs.replace("\n", ", ").rstrip(", ") + "}\n"
                    + "".join(f"- id: r{n}\n  notes: *d\n" for n in range(200)), encoding="utf-8")
    records = list(Source(str(path), "yaml").records())
    assert "expands to more than 1,000,000 values" in records[-1].problem and len(records) < 20


def test_a_huge_list_of_bad_values_is_one_bounded_problem(tmp_path):
    path = tmp_path / "flags.jsonl"
    huge = {**EVENTS[0], "id": "huge", "flags": ["no-such-flag"] * 900_000}
    path.write_text(json.dumps(huge) + "\n", encoding="utf-8")
    tracemalloc.start()
    batch.run(options(path, tmp_path / "out.jsonl", ordinances=("gem",)))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    [row] = read_jsonl(tmp_path / "out.jsonl")
    assert row["error"] == "flags: a list of 900,000 items; at most 1,000 are read"
    assert peak < 40 * path.stat().st_size


@pytest.mark.parametrize("count, refused", [(1_000, False), (1_001, True)])
def test_a_list_holds_at_most_a_thousand_items(count, refused):
    from reasoner.events.loading import EventFileError, parse_events

    event = {**EVENTS[0], "kinds": ["fair"] * count}
    if refused:
        with pytest.raises(EventFileError, match="a list of 1,001 items"):
            parse_events(event, "x")
    else:
        parse_events(event, "x")
