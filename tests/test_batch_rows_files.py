"""Worker processes write a chunk's rows to a file of their own (OUTPUT.part.rows/), which the parent appends to
OUTPUT.part in the kernel: the rows are the same bytes, nothing is left behind, and where a file cannot be
written or copied the rows still arrive."""
from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from reasoner.batch import run as batch
from reasoner.batch.files import Record
from reasoner.law.locator import encoded_ordinances

from test_batch import assert_rows_match, read_jsonl, run_batch, mixed, scenario_events  # noqa: F401 - the fixture

ORDINANCES = encoded_ordinances()


def test_workers_hand_over_files_and_the_output_is_the_same_bytes(mixed, tmp_path, monkeypatch):
    clean = tmp_path / "clean.jsonl"
    run_batch(mixed["path"], clean, workers=0, chunk_size=32)
    handed = []
    append = batch._Sink.append

    def watch(self, result, summary, mark):
        if result.events:
            handed.append((result.output_file, len(result.output)))
            assert Path(result.output_file).parent == Path(str(tmp_path / "out.jsonl.part.rows"))
        append(self, result, summary, mark)
        if result.output_file:
            assert not Path(result.output_file).exists()   # joined, then removed at once

    monkeypatch.setattr(batch._Sink, "append", watch)
    out = tmp_path / "out.jsonl"
    run_batch(mixed["path"], out, workers=2, chunk_size=32)
    assert handed and all(file and size == 0 for file, size in handed)
    assert out.read_bytes() == clean.read_bytes()
    assert not (tmp_path / "out.jsonl.part.rows").exists()


@pytest.mark.parametrize("copied_first", [0, 100])
def test_rows_are_copied_by_hand_where_the_kernel_cannot(tmp_path, monkeypatch, copied_first):
    real = os.copy_file_range
    calls = []

    def refuse(source, target, count, *args):
        calls.append(count)
        if copied_first and len(calls) == 1:
            return real(source, target, copied_first)   # part of it, then the kernel gives up
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    monkeypatch.setattr(os, "copy_file_range", refuse)
    rows = tmp_path / "chunk.rows"
    rows.write_bytes(b"".join(b'{"event": "%d"}\n' % n for n in range(500)))
    target = tmp_path / "out.part"
    target.write_bytes(b"before\n")
    with open(target, "r+b") as handle:
        handle.seek(0, os.SEEK_END)
        handle.write(b"buffered\n")   # not yet written out: must come before the copy
        batch._join(str(rows), handle)
        handle.write(b"after\n")
        assert handle.tell() == len(b"before\nbuffered\n") + sum(len(b'{"event": "%d"}\n' % n) for n in range(500)) + 6
    expected = b"before\nbuffered\n" + b"".join(b'{"event": "%d"}\n' % n for n in range(500)) + b"after\n"
    assert target.read_bytes() == expected and calls and not rows.exists()


def test_a_fault_of_the_copy_itself_is_not_hidden(tmp_path, monkeypatch):
    def full(*_):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "copy_file_range", full)
    rows = tmp_path / "chunk.rows"
    rows.write_bytes(b"x\n")
    with open(tmp_path / "out.part", "w+b") as handle, pytest.raises(OSError, match="No space left"):
        batch._join(str(rows), handle)


def test_a_worker_that_cannot_write_its_file_sends_the_rows_back(tmp_path):
    [event] = scenario_events(400)[:1]
    record = Record(source="x.jsonl", line=1, payload=json.dumps(event).encode())
    chunk = batch.Chunk(ORDINANCES, "jsonl", None, [record], "jsonl", None,
                        rows_folder=str(tmp_path / "no-such-folder"))
    result = batch.evaluate_chunk(chunk)
    assert result.output_file is None and result.output.count(b"\n") == len(ORDINANCES)
    written = batch.evaluate_chunk(batch.Chunk(ORDINANCES, "jsonl", None, [record], "jsonl", None,
                                               rows_folder=str(tmp_path)))
    assert written.output == b"" and Path(written.output_file).read_bytes() == result.output


def test_a_killed_runs_leftover_rows_files_are_cleared_and_never_joined(mixed, tmp_path):
    out = tmp_path / "out.jsonl"
    leftover = tmp_path / "out.jsonl.part.rows"
    leftover.mkdir()
    (leftover / "tmpold.rows").write_bytes(b'{"event": "from a run killed outright"}\n')
    run_batch(mixed["path"], out, workers=2, chunk_size=64)
    assert not leftover.exists()
    assert_rows_match(read_jsonl(out), mixed["expected"])


def test_rows_in_files_still_bound_the_size_of_a_chunk(tmp_path, monkeypatch):
    """The parent sizes chunks by the bytes of their rows (batch.CHUNK_ROWS_BYTES), which it no longer holds."""
    events = scenario_events(2)
    source = tmp_path / "events.jsonl"
    source.write_text("".join(json.dumps({**events[n % len(events)], "id": f"e{n}"}) + "\n" for n in range(600)),
                      encoding="utf-8")
    monkeypatch.setattr(batch, "CHUNK_ROWS_BYTES", 60_000)
    sizes: list[int] = []
    batch.run(batch.BatchOptions(str(source), str(tmp_path / "out.jsonl"), ORDINANCES, workers=1, chunk_size=1000),
              progress=lambda summary, position, size: sizes.append(summary.records))
    chunks = [b - a for a, b in zip([0, *sizes], sizes)]
    # the first chunks go out before any rows are back (a window of workers + 2); every later one is bounded
    assert sum(chunks) == 600 and len(chunks) > 6 and max(chunks[3:]) < 40, chunks
