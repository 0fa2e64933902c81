"""A checkpoint proves itself against the rows it counts, or --resume refuses it (issue 33, item 11): hand edits
of its counts or bytes, rows files edited or replaced, hostile JSON; and a fault before the first chunk is
written leaves a run that --resume (or a plain rerun) continues."""
from __future__ import annotations

import errno
import fcntl
import json
import os
import random
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner

from reasoner.batch import run as batch
from reasoner.batch.proof import crc32_combine
from reasoner.cli import main

from test_batch_trust import EVENTS, Full, interrupted, options

ARGS = ["--workers", "0", "-o", "gem", "-o", "fulton", "--chunk-size", "8"]


@pytest.fixture()
def source(tmp_path) -> Path:
    path = tmp_path / "apps.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in EVENTS[:40]), encoding="utf-8")
    return path


def _resume(source: Path, out: Path, *more: str):
    return CliRunner().invoke(main, ["batch", str(source), "--out", str(out), *ARGS, *more])


def _clean(source: Path, tmp_path: Path) -> bytes:
    clean = tmp_path / "clean.jsonl"
    batch.run(options(source, clean))
    return clean.read_bytes()


def test_crc32_combine_is_the_crc_of_the_joined_bytes():
    chance = random.Random(33)
    for _ in range(200):
        first = bytes(chance.randrange(256) for _ in range(chance.randrange(0, 300)))
        second = bytes(chance.randrange(256) for _ in range(chance.randrange(0, 300)))
        assert crc32_combine(zlib.crc32(first), zlib.crc32(second), len(second)) == zlib.crc32(first + second)


def test_a_checkpoint_nested_past_any_depth_is_refused_in_one_line(source, tmp_path):
    out = tmp_path / "out.jsonl"
    interrupted(source, out)
    state = Path(f"{out}.part.state.json")
    state.write_text("[" * 100_000, encoding="utf-8")
    result = _resume(source, out, "--resume")
    assert result.exit_code == 2, result.output
    [line] = result.output.splitlines()
    assert str(state) in line and "nested" in line and "--restart" in line


def test_the_running_batch_is_named_or_not_whatever_its_checkpoint_holds(source, tmp_path):
    out = tmp_path / "out.jsonl"
    interrupted(source, out)
    Path(f"{out}.part.state.json").write_text("[" * 100_000, encoding="utf-8")
    with open(f"{out}.part", "r+b") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        result = _resume(source, out, "--resume")
    assert result.exit_code == 2, result.output
    [line] = result.output.splitlines()
    assert "another batch is writing it" in line


def _edit_state(out: Path, change) -> None:
    path = Path(f"{out}.part.state.json")
    state = json.loads(path.read_text(encoding="utf-8"))
    change(state, str(out))
    path.write_text(json.dumps(state), encoding="utf-8")


def _zero_counts(state, out):
    state.update(records=0, events=0, failed=0, rows=0)


def _bytes(value):
    def change(state, out):
        state["bytes"][out] = value(state["bytes"][out])
    return change


def _edit_rows(out: Path) -> None:
    part = Path(f"{out}.part")
    rows = bytearray(part.read_bytes())
    at = rows.index(b'"gem"')
    rows[at + 1:at + 4] = b"GEM"
    part.write_bytes(bytes(rows))


def _replace_rows(out: Path, source: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.jsonl"
    batch.run(options(source, other, ordinances=("fulton", "gem")))
    Path(f"{out}.part").write_bytes(other.read_bytes())


@pytest.mark.parametrize("damage", [
    "bytes 0", "counts 0, bytes kept", "bytes mid-row", "bytes one row short", "a row edited", "rows replaced",
])
def test_a_checkpoint_that_does_not_match_its_rows_is_refused(source, tmp_path, damage):
    out = tmp_path / "out.jsonl"
    interrupted(source, out)
    {"bytes 0": lambda: _edit_state(out, _bytes(lambda n: 0)),
     "counts 0, bytes kept": lambda: _edit_state(out, _zero_counts),
     "bytes mid-row": lambda: _edit_state(out, _bytes(lambda n: n - 10)),
     "bytes one row short": lambda: _edit_state(
         out, _bytes(lambda n: Path(f"{out}.part").read_bytes()[:n - 1].rindex(b"\n") + 1)),
     "a row edited": lambda: _edit_rows(out),
     "rows replaced": lambda: _replace_rows(out, source, tmp_path)}[damage]()
    kept = Path(f"{out}.part").read_bytes()
    result = _resume(source, out, "--resume")
    assert result.exit_code == 2, result.output
    [line] = result.output.splitlines()
    assert "--restart" in line and "Traceback" not in result.output
    assert Path(f"{out}.part").read_bytes() == kept and not out.exists()   # nothing cut or added
    assert _resume(source, out, "--restart").exit_code == 0
    assert out.read_bytes() == _clean(source, tmp_path)


def test_an_untouched_checkpoint_still_resumes_byte_identical(source, tmp_path):
    out = tmp_path / "out.jsonl"
    interrupted(source, out, after=3)
    result = _resume(source, out, "--resume")
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == _clean(source, tmp_path)


def test_a_full_disk_at_the_first_chunk_leaves_a_run_resume_continues(source, tmp_path, monkeypatch):
    out = tmp_path / "out.jsonl"
    append = batch._Sink.append

    def full_at_once(self, *args):
        full = Full(self.handles[self.output])
        full.writes = 1   # the very first write of rows fails
        self.handles[self.output] = full
        return append(self, *args)

    monkeypatch.setattr(batch._Sink, "append", full_at_once)
    result = _resume(source, out)
    assert result.exit_code == 4 and "--resume" in result.output, result.output
    monkeypatch.setattr(batch._Sink, "append", append)
    assert json.loads(Path(f"{out}.part.state.json").read_text())["records"] == 0
    result = _resume(source, out, "--resume")
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == _clean(source, tmp_path)


def test_a_run_stopped_before_its_first_chunk_is_started_over_by_a_plain_rerun(source, tmp_path, monkeypatch):
    out = tmp_path / "out.jsonl"

    def stopped(self, *args):
        raise batch.BatchFault(f"{out}.part: cannot write ({os.strerror(errno.ENOSPC)})")

    append = batch._Sink.append
    monkeypatch.setattr(batch._Sink, "append", stopped)
    assert _resume(source, out).exit_code == 4
    monkeypatch.setattr(batch._Sink, "append", append)
    result = _resume(source, out)
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == _clean(source, tmp_path)


def test_resume_with_restart_is_refused_in_one_line(source, tmp_path):
    result = _resume(source, tmp_path / "out.jsonl", "--resume", "--restart")
    assert result.exit_code == 2
    assert result.output.splitlines() == ["error: --resume and --restart: give one of them"]
