"""Batch evaluation: many events, in chunks, in parallel, streamed to one output file.

Records are read lazily (reasoner/batch/files.py) and sent to workers in chunks. A chunk is one solver
call whose events are numbered 1..n, numbers restarting in every chunk (ids stay in Python): no
program grows past a chunk, and the same atoms recur from chunk to chunk, which is what lets the
Reader of reasoner/conclusions.py read answer sets cheaply. Worker processes are replaced after a
number of chunks (clingo never frees symbols), so memory stays flat over millions of events.

Results come back in input order and are appended to OUTPUT.part (worker processes write a chunk's rows
to a file of their own in OUTPUT.part.rows/, which the parent joins in the kernel: the rows never pass
through a pipe or the parent's memory); after every chunk a checkpoint
(OUTPUT.part.state.json) records how many records and bytes are done, so --resume continues an
interrupted run without redoing or duplicating a record. OUTPUT appears, whole, only at the end.

Every record is validated on its own, as `evaluate` validates a file holding that one event; one that
fails becomes an error row (source, line, field, message) and the batch goes on. The rows of an event
are, byte for byte, the records `evaluate --format json` prints for it, whatever the worker count,
chunk size or scheduler.
"""
from __future__ import annotations

import contextlib
import errno
import json
import os
import signal
import sys
import time
import zlib
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import BrokenExecutor
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from time import perf_counter
from typing import Any

from reasoner.events.loading import DuplicateKey, RefusedFile, read_bounded, shown, unique_object, unreadable_value
from reasoner.batch.proof import crc32_combine, crc32_of
from reasoner.batch.files import (BatchFault, BatchInputError, Record, Source, csv_cells, csv_columns, csv_data, csv_header,
                       csv_layout, csv_text, selected_columns, changes_cells, changes_columns,
                       error_csv_row, error_json, error_record, input_format, output_format, readings_cell, wide_cells)

DEFAULT_CHUNK_SIZE = 1000
FIRST_CHUNK = 125          # chunks grow from this to --chunk-size (doubling with a progress bar): results within a second
CHUNK_ROWS_BYTES = 32 * 2**20   # rows per chunk at most about this: a worker holds a chunk's rows a few times over
# A worker is replaced after this many events' worth of --chunk-size chunks: clingo never frees a symbol, and with
# seven ordinances a worker grew to about 600 MiB over 25,000 events; replaced every 4,000 it stays near 350, and
# no slower. Chunks of applications are bounded by their rows (CHUNK_ROWS_BYTES), so those workers are replaced
# after about 1,450 applications: every 4,000 was no faster (589 against 590 events/s).
RECYCLE_EVENTS = 4_000
STATE_VERSION = 2       # 2: the checkpoint carries a digest of the rows it counts, and a seal over itself
MAX_STATE_BYTES = 1 << 20
SOLVE_ATOMS = 120_000    # shown atoms per solver call: about 1,000 events of a county's mix, 200 full applications
FIRST_SOLVE = 100
_shown = {"events": 0, "atoms": 0}   # events solved by this process and the atoms they showed
PHASES = ("validate", "facts", "ground", "solve", "read", "rows")


@dataclass(frozen=True)
class Chunk:
    """Records to evaluate in one solver call, and how to write their rows."""

    ordinances: tuple[str, ...]
    input_format: str                  # jsonl, csv, or data (YAML/JSON already parsed)
    header: tuple[str, ...] | None     # CSV columns
    records: list[Record]
    output_format: str                 # jsonl or csv
    errors_format: str | None          # errors to their own file in this format; None: into the output
    layout: str | None = None          # a CSV output's: wide (a row per event) or long (a row per event and ordinance)
    as_of: date | None = None          # the law date of every event (`--as-of`); None: each event's own
    rows_folder: str | None = None     # where a worker on this machine writes the rows; None: in the result
    time_limit: float | None = None    # seconds per record (`--time-limit`); past it the record is an error row
    readings: tuple[tuple[tuple[str, str], str], ...] = ()   # readings chosen instead of the defaults (`--reading`)
    depends: bool = False              # each row says which answers depend on a reading (`--readings`)
    kept: tuple[int, ...] | None = None   # `--columns`: the places of the CSV columns written; None: all
    versions: tuple[date, ...] = ()    # `--versions D,D --changes`: the impact report between the law on these dates


@dataclass
class ChunkResult:
    records: int
    events: int
    failed: int
    rows: int
    output: bytes                      # rows, encoded
    errors: bytes
    timings: dict[str, float]
    output_file: str | None = None     # the rows are in this file instead (Chunk.rows_folder)
    output_bytes: int = 0              # the size of the rows, wherever they are
    output_crc: int = 0                # their CRC-32, and that of the errors: the checkpoint's digest (proof.py)
    errors_crc: int = 0


# ---- the worker side ----------------------------------------------------------------------------

def _data(record: Record, chunk: Chunk) -> tuple[Any, list[tuple[str, str]]]:
    if record.problem is not None:
        return None, [("", record.problem)]
    if chunk.input_format == "csv":
        return csv_data(chunk.header or (), record.payload)
    if chunk.input_format != "jsonl":
        return record.payload, []
    try:
        text = record.payload.decode("utf-8").lstrip("\ufeff")
    except UnicodeDecodeError as error:
        return None, [("", f"not UTF-8 text (byte {error.start})")]
    try:
        return json.loads(text, object_pairs_hook=unique_object), []
    except DuplicateKey as error:
        return None, [("", str(error))]
    except json.JSONDecodeError as error:
        return None, [("", f"malformed JSON at column {error.colno}: {error.msg}")]
    except RecursionError:
        return None, [("", "nested too deeply")]
    except ValueError as error:  # e.g. an integer literal of thousands of digits
        return None, [("", unreadable_value(error))]


def _validate(record: Record, chunk: Chunk) -> tuple[Any, Any, list[tuple[str, str]]]:
    """(event, (id, name) as given, problems): the record validated as `evaluate` validates a one-event file."""
    from reasoner.events.loading import EventFileError, parse_events

    data, problems = _data(record, chunk)
    given = (data.get("id"), data.get("name")) if isinstance(data, dict) else (None, None)
    if problems:
        return None, given, problems
    if isinstance(data, list) or (isinstance(data, dict) and set(data) == {"events"}):
        return None, (None, None), [("", "a record holds one event, not a list of events")]
    try:
        [event] = parse_events(data, record.source)
    except EventFileError as error:
        return None, given, error.problems
    except RecursionError:
        return None, given, [("", "nested too deeply")]
    if chunk.as_of is not None:
        from reasoner.events.rules import with_law_date

        [event] = with_law_date([event], chunk.as_of)
    return event, given, []


def _solved(events: list, ordinances: tuple[str, ...], timings: dict[str, float], limit: float | None = None,
            versions: bool = False) -> list[Any]:
    """Body per (event, ordinance), from solver calls of about SOLVE_ATOMS shown atoms each: a worker's memory
    follows the size of the program it grounds, and an application shows five times the atoms of a small
    event. The first call of a process takes FIRST_SOLVE events, to learn how many atoms an event shows.
    `versions`: each a pair (Body, the version in force as conclusions.versions_from_symbols reads it)."""
    found: list[Any] = []
    start = 0
    while start < len(events):
        size = FIRST_SOLVE if _shown["events"] == 0 else max(1, SOLVE_ATOMS * _shown["events"] // max(1, _shown["atoms"]))
        found += _bodies(events[start:start + size], ordinances, timings, limit, versions)
        start += size
    return found


def _bodies(events: list, ordinances: tuple[str, ...], timings: dict[str, float], limit: float | None = None,
            versions: bool = False) -> list[Any]:
    """Body per (event, ordinance) from one solver call (`versions`: as _solved); an event that breaks the call
    gets its exception. With a time limit per record, a call of n events has n times it: past that, each event is
    solved alone within its own, and only the ones that still take longer fail."""
    from reasoner.conclusions import reader, versions_from_symbols
    from reasoner.program import solve

    try:
        symbols = solve(events, ordinances, timings=timings, time_limit=None if limit is None else limit * len(events),
                        parts=("versions",) if versions else ())
        start = perf_counter()
        found = reader(ordinances).read(symbols, len(events))
        if versions:
            found = list(zip(found, versions_from_symbols(symbols, len(events), ordinances)))
        timings["read"] += perf_counter() - start
        _shown["events"] += len(events)
        _shown["atoms"] += len(symbols)
        return found
    except Exception as error:  # noqa: BLE001 - isolated below, event by event
        if len(events) == 1:
            return [error] * len(ordinances)
    return [body for event in events for body in _bodies([event], ordinances, timings, limit, versions)]


def _csv_body(body: Any, layout: str) -> list[Any]:
    """The CSV cells of a Body in `layout` (after the event id and name in a long row; its ordinance's block in a wide
    one), worked out once per Body and layout (Bodies recur, as atoms do)."""
    if body.extra is None:
        body.extra = {}
    cells = body.extra.get(layout)
    if cells is None:
        from reasoner.law.registry import registry

        record = {"event": "", "ordinance": body.ordinance, "jurisdiction": registry(body.ordinance).jurisdiction,
                  "status": body.status, "permit_required": body.status == "permit_required",
                  "conclusions": body.conclusions}
        cells = body.extra[layout] = wide_cells(record) if layout == "wide" else csv_cells(record)[2:]
    return cells


def _likeness(event: Any) -> int:
    """Events that look alike are numbered alike in every chunk, so the same atoms recur from chunk to chunk
    and the Reader's caches hit more often (a third less reading); attendance decides most conclusions."""
    people = event.attendance.expected_max
    return people if isinstance(people, int) else people.min


def _in_order(events: list, bodies: list, width: int) -> list:
    """Bodies of events solved in `sorted(events, key=_likeness)` order, put back in the order of `events`."""
    order = sorted(range(len(events)), key=lambda index: _likeness(events[index]))
    placed: list = [None] * len(bodies)
    for position, index in enumerate(order):
        placed[index * width:(index + 1) * width] = bodies[position * width:(position + 1) * width]
    return placed


def evaluate_chunk(chunk: Chunk) -> ChunkResult:
    """Validate, evaluate and render one chunk. The worker function of every scheduler."""
    if not chunk.readings:
        return _evaluate_chunk(chunk)
    from reasoner.program import chosen_readings

    # A worker process does not share the parent's chosen readings: the chunk carries them.
    with chosen_readings(chunk.readings):
        return _evaluate_chunk(chunk)


def _evaluate_chunk(chunk: Chunk) -> ChunkResult:
    from reasoner.conclusions import utf8

    if chunk.versions:
        return _changes_chunk(chunk)
    timings = dict.fromkeys(PHASES, 0.0)
    start = perf_counter()
    checked = [_validate(record, chunk) for record in chunk.records]
    events = [event for event, _, _ in checked if event is not None]
    # --readings: every event by the way of evaluate_any, whose records modes/readings.py marks
    fast = not chunk.depends
    plain = [event for event in events if fast and not getattr(event, "has_unknowns", False)]
    timings["validate"] = perf_counter() - start
    width = len(chunk.ordinances)
    bodies = _in_order(plain, _solved(sorted(plain, key=_likeness), chunk.ordinances, timings, chunk.time_limit),
                       width) if plain else []

    start = perf_counter()
    out: list[Any] = []
    errors: list[Any] = []
    evaluated = failed = rows = 0
    position = 0
    csv_out = chunk.output_format == "csv"
    wide = csv_out and chunk.layout == "wide"
    for record, (event, (given_id, given_name), problems) in zip(chunk.records, checked):
        if event is not None and fast and not getattr(event, "has_unknowns", False):
            mine = bodies[position:position + width]
            position += width
            broken = next((b for b in mine if isinstance(b, Exception)), None)
            if broken is not None:
                problems = [("", f"could not be evaluated: {broken}")]
            else:
                if wide:
                    out.append([event.id, event.name or "", *(c for body in mine for c in _csv_body(body, "wide")),
                                record.source, record.line, ""])
                elif csv_out:
                    out.extend([event.id, event.name or "", *_csv_body(body, "long"), record.source, record.line, ""]
                               for body in mine)
                else:
                    out.extend(body.line(event.id) for body in mine)
                evaluated += 1
                rows += 1 if wide else width
                continue
        elif event is not None:
            from reasoner.evaluate import evaluate_any
            from reasoner.program import time_limit

            try:
                with time_limit(chunk.time_limit):
                    results = evaluate_any([event], chunk.ordinances)
                    if chunk.depends:
                        from reasoner.modes.readings import with_dependencies

                        results = with_dependencies([event], results)
            except Exception as error:  # noqa: BLE001 - the record fails, the batch goes on
                problems = [("", f"could not be evaluated: {error}")]
            else:
                if wide:
                    moving = [readings_cell(result) for result in results] if chunk.depends else []
                    out.append([event.id, event.name or "", *(c for result in results for c in wide_cells(result)),
                                *moving, record.source, record.line, ""])
                else:
                    for result in results:
                        moving = [readings_cell(result)] if chunk.depends else []
                        out.append(csv_cells(result, event.name or "") + moving + [record.source, record.line, ""] if csv_out
                                   else utf8(json.dumps(result, ensure_ascii=False) + "\n"))
                evaluated += 1
                rows += 1 if wide else len(results)
                continue
        failed += 1
        error = error_record(record.source, record.line, given_id, problems, given_name)
        apart = chunk.errors_format is not None
        if apart:
            errors.append(error_csv_row(error, "errors") if chunk.errors_format == "csv" else utf8(error_json(error)))
        else:
            out.append(error_csv_row(error, chunk.layout, chunk.ordinances, chunk.depends) if csv_out
                       else utf8(error_json(error)))
        rows += not apart
    # Encoded here: bytes cross to the parent process as they are, where text would be decoded and encoded again.
    # JSONL rows are bytes already (Body.line). The rows given up once joined: a chunk of applications writes
    # about 90 KB an event, held once fewer.
    if chunk.kept is not None:
        out = [[row[index] for index in chunk.kept] for row in out]
    output_text = utf8(csv_text(out)) if csv_out else b"".join(out)
    out.clear()
    errors_text = (utf8(csv_text(errors)) if chunk.errors_format == "csv" else b"".join(errors)) if errors else b""
    output_file = _written(chunk.rows_folder, output_text) if chunk.rows_folder and output_text else None
    timings["rows"] = perf_counter() - start
    return ChunkResult(len(chunk.records), evaluated, failed, rows, b"" if output_file else output_text, errors_text,
                       timings, output_file, len(output_text), zlib.crc32(output_text), zlib.crc32(errors_text))


# Reports of `--versions D,D --changes` by the Bodies they compare: like events share Bodies, and so their report.
_reports: dict[tuple, tuple[dict[str, Any], list[Any]]] = {}
REPORTS_LIMIT = 20_000


def _changes_chunk(chunk: Chunk) -> ChunkResult:
    """`--versions D,D --changes`: a row per event and ordinance saying what the change of law changes for it
    (modes/compare.py event_changes), from its records under the version in force on each date. The events without
    unknown facts are solved together once per date, as a plain chunk solves them once; a bad record is an error row."""
    from reasoner.conclusions import json_text, utf8
    from reasoner.events.rules import with_law_date
    from reasoner.evaluate import evaluate_any
    from reasoner.law.ordinances import record_heading
    from reasoner.modes.compare import event_changes
    from reasoner.program import time_limit

    timings = dict.fromkeys(PHASES, 0.0)
    start = perf_counter()
    checked = [_validate(record, chunk) for record in chunk.records]
    plain = [event for event, _, _ in checked if event is not None and not getattr(event, "has_unknowns", False)]
    timings["validate"] = perf_counter() - start
    ordinances, dates, width = chunk.ordinances, chunk.versions, len(chunk.ordinances)
    solved = [_in_order(plain, _solved(with_law_date(sorted(plain, key=_likeness), day), ordinances, timings,
                                       chunk.time_limit, versions=True), width) for day in dates] if plain else []
    start = perf_counter()
    columns = [[f"{o} as of {day.isoformat()}" for day in dates] for o in ordinances]
    headings = [record_heading(o) for o in ordinances]

    def record(event_id: str, found: tuple[Any, dict[str, Any]], column: str, heading: dict[str, Any]) -> dict[str, Any]:
        body, in_force = found
        return {"event": event_id, "ordinance": body.ordinance, "jurisdiction": heading["jurisdiction"],
                "title": heading["title"], "status": body.status, "permit_required": body.status == "permit_required",
                "conclusions": body.conclusions, "in_force": in_force, "column": column}

    if len(_reports) > REPORTS_LIMIT:
        _reports.clear()
    out: list[Any] = []
    errors: list[Any] = []
    evaluated = failed = rows = 0
    position = 0
    csv_out = chunk.output_format == "csv"
    for source_record, (event, (given_id, given_name), problems) in zip(chunk.records, checked):
        if event is not None:
            reports: list[tuple[dict[str, Any], list[Any]]] = []
            try:
                if not getattr(event, "has_unknowns", False):
                    mine = [found[position:position + width] for found in solved]
                    position += width
                    broken = next((f for at in mine for f in at if isinstance(f, Exception)), None)
                    if broken is not None:
                        raise broken
                    for k in range(width):
                        key = (dates, k, *((at[k][0], at[k][1]["version"], *at[k][1]["may_be"]) for at in mine))
                        done = _reports.get(key)
                        if done is None:
                            records = [record("", at[k], columns[k][d], headings[k]) for d, at in enumerate(mine)]
                            done = _reports[key] = _report(event_changes(records, dates), records)
                        reports.append(done)
                else:
                    with time_limit(chunk.time_limit):
                        by_date = [evaluate_any(with_law_date([event], day), ordinances, versions=True) for day in dates]
                    for k in range(width):
                        records = [{**at[k], "column": columns[k][d]} for d, at in enumerate(by_date)]
                        reports.append(_report(event_changes(records, dates), records))
            except Exception as error:  # noqa: BLE001 - the record fails, the batch goes on
                problems = [("", f"could not be evaluated: {error}")]
            else:
                for report, cells in reports:
                    if csv_out:
                        out.append([event.id, event.name or "", *cells, source_record.source, source_record.line, ""])
                    else:
                        out.append(utf8(json_text({"event": event.id, **report}) + "\n"))
                evaluated += 1
                rows += width
                continue
        failed += 1
        error = error_record(source_record.source, source_record.line, given_id, problems, given_name)
        if chunk.errors_format is not None:
            errors.append(error_csv_row(error, "errors") if chunk.errors_format == "csv" else utf8(error_json(error)))
        else:
            out.append(error_csv_row(error, "changes", dates=dates) if csv_out else utf8(error_json(error)))
            rows += 1
    output_text = utf8(csv_text(out)) if csv_out else b"".join(out)
    errors_text = (utf8(csv_text(errors)) if chunk.errors_format == "csv" else b"".join(errors)) if errors else b""
    output_file = _written(chunk.rows_folder, output_text) if chunk.rows_folder and output_text else None
    timings["rows"] = perf_counter() - start
    return ChunkResult(len(chunk.records), evaluated, failed, rows, b"" if output_file else output_text, errors_text,
                       timings, output_file, len(output_text), zlib.crc32(output_text), zlib.crc32(errors_text))


def _report(report: dict[str, Any], records: list[dict[str, Any]]) -> tuple[dict[str, Any], list[Any]]:
    """An event's report without its id, `flips` said after its ordinance, and its CSV cells."""
    row = {"ordinance": report["ordinance"], "flips": bool(report["changed"]),
           **{key: value for key, value in report.items() if key not in ("event", "ordinance")}}
    return row, changes_cells(row, [r["status"] for r in records])


def _written(folder: str, rows: bytes) -> str | None:
    """The rows in a new file of `folder`, for the parent to join (about 90 KB an application: through a pipe,
    copied three times over, they cost the parent about 2 s of CPU and 200 MiB per 10,000 applications); None if
    it cannot be written, and the rows go back in the result instead, to meet the fault where the parent writes them."""
    import tempfile

    try:
        descriptor, path = tempfile.mkstemp(dir=folder, suffix=".rows")
    except OSError:
        return None
    try:
        with open(descriptor, "wb") as handle:
            handle.write(rows)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(path)
        return None
    return path


def _worker_start() -> None:
    """Workers leave Ctrl-C to the parent, which stops the pool and keeps the checkpoint, and end when the
    parent ends, however it ends (a killed parent's pool would otherwise wait for work forever).

    A worker runs without Python's cyclic garbage collector. Evaluating a chunk makes no reference cycles
    (tests/test_batch.py holds this for applications, unknown facts and bad records), so the collector
    found nothing, yet it walked the Reader's ever larger caches again and again: a tenth of a worker's
    time on applications. Whatever a cycle might still hold is freed when the worker is replaced
    (RECYCLE_EVENTS); plain reference counting frees everything else as before."""
    import gc
    import multiprocessing
    import threading

    gc.disable()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:
        def watch() -> None:
            parent.join()
            os._exit(1)

        threading.Thread(target=watch, name="parent-watch", daemon=True).start()


# ---- schedulers ---------------------------------------------------------------------------------

class _InProcess:
    def ordered(self, chunks: Iterable[tuple[Chunk, Any]]) -> Iterator[tuple[ChunkResult, Any]]:
        for chunk, tag in chunks:
            yield evaluate_chunk(chunk), tag

    def close(self, cancel: bool = False) -> None:
        pass


class _Window:
    """Keeps a few chunks in flight and hands results back in input order."""

    window = 4

    def submit(self, chunk: Chunk) -> Any:
        raise NotImplementedError

    def ordered(self, chunks: Iterable[tuple[Chunk, Any]]) -> Iterator[tuple[ChunkResult, Any]]:
        pending: deque[tuple[Any, Any]] = deque()
        for chunk, tag in chunks:
            pending.append((self.submit(chunk), tag))
            if len(pending) >= self.window:
                future, done_tag = pending.popleft()
                yield future.result(), done_tag
        while pending:
            future, done_tag = pending.popleft()
            yield future.result(), done_tag


class _Processes(_Window):
    def __init__(self, workers: int, recycle_after: int):
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        # An interrupted batch leaves without joining its killed pool (cli.batch): the resource tracker
        # then frees the pool's semaphores itself, and is told to do it without a warning of its own.
        from multiprocessing import resource_tracker

        quiet = "ignore:resource_tracker:UserWarning"
        sys.warnoptions.append(quiet)
        try:
            resource_tracker.ensure_running()
        finally:
            sys.warnoptions.remove(quiet)
        method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
        context = multiprocessing.get_context(method)
        if method == "forkserver":
            from reasoner.batch.processes import start_forkserver

            # Started now with SIGINT ignored, which it inherits: a Ctrl-C while it imports the preloaded modules
            # would print its own traceback. The parent stops it (and the workers) itself.
            previous = _hold_interrupts()  # ignored, not deferred: only SIG_IGN outlives exec
            try:
                # Each worker that replaces a recycled one forks from the server with these imported (the event
                # models built): 70 ms less of its first chunk.
                start_forkserver(context, ["reasoner.batch.run", "reasoner.conclusions", "reasoner.events.loading",
                                           "reasoner.events.model", "reasoner.program", "reasoner.events.atoms",
                                           "reasoner.law.registry"])
            finally:
                _release_interrupts(previous)
        self.others = set(multiprocessing.active_children())
        self.executor = ProcessPoolExecutor(workers, mp_context=context, initializer=_worker_start,
                                            max_tasks_per_child=recycle_after)
        self.window = workers + 2

    def submit(self, chunk: Chunk) -> Any:
        with _Deferred():  # a worker cut off while it starts would print a traceback of its own
            return self.executor.submit(evaluate_chunk, chunk)

    def close(self, cancel: bool = False) -> None:
        if not cancel:
            self.executor.shutdown(wait=True)
            return
        # Stopped (Ctrl-C, a fault): the chunks in flight are not waited for, which took seconds; their
        # records are done again by --resume. Workers ignore SIGINT, so they are ended here.
        processes = list((getattr(self.executor, "_processes", None) or {}).values())
        # The queue's feeder thread may be blocked writing a chunk into a pipe no worker will read again;
        # joined at exit, it would hang the exit for ever.
        calls = getattr(self.executor, "_call_queue", None)
        if calls is not None:
            calls.cancel_join_thread()
        results = getattr(self.executor, "_result_queue", None)
        manager = getattr(self.executor, "_executor_manager_thread", None)
        self.executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            with contextlib.suppress(Exception):
                process.terminate()
        deadline = perf_counter() + 0.5
        for process in processes:
            with contextlib.suppress(Exception):
                process.join(max(0.0, deadline - perf_counter()))
                if process.is_alive():
                    process.kill()
                    process.join(0.5)
        # A worker ended while it sent a result leaves half a message: the pool's manager thread would wait for
        # the rest for ever (and the exit for it). With this process's end of the pipe closed too, it reads the
        # end of the pipe instead, and stops.
        with contextlib.suppress(Exception):
            results._writer.close()
        if manager is not None:
            manager.join(1.0)
            if manager.is_alive():  # never hang the exit on it
                from concurrent.futures import process as futures_process

                getattr(futures_process, "_threads_wakeups", {}).pop(manager, None)
        # A worker started to replace a recycled one as the others were ended would outlive them, and the
        # exit would wait for it while it waits for the exit (its parent-watch): none is left.
        import multiprocessing

        for process in set(multiprocessing.active_children()) - self.others:
            with contextlib.suppress(Exception):
                process.kill()
                process.join(0.5)


# Long enough for a scheduler across a network; an address nobody answers is said within it, not after 30 s.
DASK_CONNECT_SECONDS = 10


class _Dask(_Window):
    def __init__(self, address: str):
        try:
            from distributed import Client
        except ImportError:
            raise BatchInputError("--scheduler needs Dask: pip install 'reasoner[dask]'") from None
        try:
            self.client = Client(address, timeout=DASK_CONNECT_SECONDS)
        except ValueError as error:  # distributed's parser: "invalid address ..."
            raise BatchInputError(f"--scheduler {address!r}: not a scheduler address (e.g. tcp://host:8786): "
                                  f"{error}") from None
        except OSError as error:
            raise BatchInputError(f"--scheduler {address}: cannot reach the Dask scheduler within "
                                  f"{DASK_CONNECT_SECONDS} s ({error})") from None
        self.address = address
        self.window = 2 * max(1, sum(self.client.nthreads().values())) + 1

    def submit(self, chunk: Chunk) -> Any:
        return self.client.submit(evaluate_chunk, chunk, pure=False)

    def ordered(self, chunks: Iterable[tuple[Chunk, Any]]) -> Iterator[tuple[ChunkResult, Any]]:
        """As _Window's, but a scheduler lost mid-run is a fault of the machine (exit 4, resumable), not a
        traceback: its futures come back cancelled, or its connection closes."""
        from concurrent.futures import CancelledError

        from distributed.comm.core import CommClosedError

        try:
            yield from super().ordered(chunks)
        except (CancelledError, CommClosedError, OSError) as error:
            raise BatchFault(f"--scheduler {self.address}: the Dask scheduler went away mid-run "
                             f"({type(error).__name__}); --resume continues once it is back") from None

    def close(self, cancel: bool = False) -> None:
        self.client.close()


# ---- the output and its checkpoint --------------------------------------------------------------

@dataclass
class BatchSummary:
    records: int = 0
    events: int = 0
    failed: int = 0
    rows: int = 0
    resumed: int = 0                       # records already done by the interrupted run
    seconds: float = 0.0
    timings: dict[str, float] = field(default_factory=lambda: dict.fromkeys(PHASES, 0.0))
    output: str = ""
    errors: str | None = None

    resumed_events: int = 0

    @property
    def events_per_second(self) -> float:
        """Events evaluated by this run (not before --resume) per second of it."""
        return (self.events - self.resumed_events) / self.seconds if self.seconds else 0.0


class _Sink:
    """OUTPUT.part (and ERRORS.part) with a checkpoint; moved into place, together, when the run is done.

    The .part files are locked (an OS lock, released when the process ends however it ends) while a run
    writes them: a second batch on the same OUTPUT is refused, never interleaved with the first."""

    def __init__(self, output: str, errors: str | None, run: dict[str, Any]):
        self.output, self.errors = output, errors
        self.paths = [p for p in (errors, output) if p]   # the output last: when it is in place, all is
        self.state_path = Path(output + ".part.state.json")
        self.run = run
        self.handles: dict[str, Any] = {}
        self.crcs: dict[str, int] = {}     # CRC-32 of each .part file's rows, as written so far
        self.created: list[Path] = []
        self.input_mark: dict[str, Any] = {}
        self.state: dict[str, Any] | None = None
        self.opened = False
        self.header = ""          # written first into a new OUTPUT (CSV)
        self.errors_header = ""   # and into a new ERRORS

    def _part(self, path: str) -> Path:
        return Path(path + ".part")

    def open(self, resume: bool, restart: bool, summary: BatchSummary) -> None:
        if self.state_path.exists() and not self.state_path.is_file():
            raise BatchInputError(f"{self.state_path}: not a checkpoint file (a folder or a device is in its place); "
                                  "remove it")
        leftover = self.state_path.exists() or any(self._part(p).exists() for p in self.paths)
        for path in self.paths:
            self._lock(path)
        if leftover and not (resume or restart or self._nothing_done()):
            raise BatchInputError(f"{self._part(self.output)}: an interrupted run's rows are there; continue it with "
                                  "--resume, or start over with --restart")
        state = self._checkpoint() if resume and not restart and self.state_path.exists() else None
        try:
            for path in self.paths:
                handle = self.handles[path]
                handle.truncate(state["bytes"][path] if state else 0)  # rows after the checkpoint are written again
                handle.seek(0, os.SEEK_END)
                self.crcs[path] = state["digest"][path] if state else 0
                header = "" if state else self.header if path == self.output else self.errors_header
                if header:
                    handle.write(header.encode("utf-8"))
                    self.crcs[path] = zlib.crc32(header.encode("utf-8"))
        except OSError as error:
            raise BatchFault(f"{self._part(path)}: cannot write ({error.strerror})") from None
        if state is not None:
            for key in ("records", "events", "failed", "rows"):
                setattr(summary, key, state[key])
            summary.resumed = summary.records
            summary.resumed_events = summary.events
            self.input_mark = state["input"]
            self.state = state
        self.opened = True
        self._save(summary, self.input_mark)

    def _lock(self, path: str) -> None:
        import fcntl

        part = self._part(path)
        if not part.parent.is_dir():
            raise BatchInputError(f"{path}: cannot write there (no such folder)")
        existed = part.exists()
        try:
            handle = open(os.open(part, os.O_RDWR | os.O_CREAT, 0o666), "r+b")  # noqa: SIM115 - closed in close()
        except OSError as error:
            raise BatchInputError(f"{path}: cannot write there ({error.strerror})") from None
        if not existed:
            self.created.append(part)
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise BatchInputError(f"{path}: another batch is writing it{self._holder()}; wait for it to end, "
                                  "or give another --out") from None
        self.handles[path] = handle

    def _holder(self) -> str:
        """The running batch that holds the lock, as its checkpoint names it."""
        try:
            state = self._read_state()
            return f" (process {int(state['pid'])}, reading {state['run']['input']})"
        except (BatchInputError, ValueError, KeyError, TypeError):
            return ""

    def _read_state(self) -> Any:
        """The checkpoint file as JSON: bounded in size, and nesting of any depth refused, not a traceback."""
        restart = "run again with --restart to start over"
        try:
            return json.loads(read_bounded(self.state_path, "a checkpoint", MAX_STATE_BYTES).decode("utf-8"))
        except RefusedFile as error:
            raise BatchInputError(f"{self.state_path}: the checkpoint cannot be read ({error}); {restart}") from None
        except RecursionError:
            raise BatchInputError(f"{self.state_path}: not a checkpoint of this program (JSON nested past any "
                                  f"checkpoint's depth); {restart}") from None
        except ValueError as error:  # malformed JSON or UTF-8
            raise BatchInputError(f"{self.state_path}: the checkpoint cannot be read ({error}); {restart}") from None

    def _nothing_done(self) -> bool:
        """The leftover is a run that stopped before its first chunk was written (killed at once, or a full disk):
        a plain rerun starts it over, as nothing is lost."""
        try:
            return self.state_path.is_file() and self._checkpoint()["records"] == 0
        except BatchInputError:
            return False

    def _checkpoint(self) -> dict[str, Any]:
        """The checkpoint, checked key by key, and against the rows it counts: anything else is refused, never
        half-trusted."""
        restart = "run again with --restart to start over"
        state = self._read_state()
        problem = _checkpoint_problem(state, self.paths)
        if problem:
            raise BatchInputError(f"{self.state_path}: not a checkpoint of this program ({problem}); {restart}")
        if state["run"].get("readings") != self.run.get("readings"):
            raise BatchInputError(f"{self.state_path}: the interrupted run applied {_readings_said(state['run'])}; "
                                  f"this one applies {_readings_said(self.run)}: give it the same --reading, or "
                                  f"{restart}")
        if state["run"].get("time_limit") != self.run.get("time_limit"):
            said = lambda run: f"--time-limit {run['time_limit']:g}" if run.get("time_limit") is not None else "no --time-limit"
            raise BatchInputError(f"{self.state_path}: the interrupted run had {said(state['run'])}, this one "
                                  f"{said(self.run)} (a record past the limit is an error row): give it the same, "
                                  f"or {restart}")
        if state["run"].get("changes_between") != self.run.get("changes_between"):
            said = lambda run: (f"the impact report between {', '.join(run['changes_between'])}"
                                if run.get("changes_between") else "no impact report (--versions, --changes)")
            raise BatchInputError(f"{self.state_path}: the interrupted run wrote {said(state['run'])}, this one "
                                  f"{said(self.run)}: give it the same --versions, or {restart}")
        if state["run"] != self.run:
            raise BatchInputError(f"{self.state_path}: the interrupted run had other input, output or "
                                  f"ordinances (or another --layout or --columns); {restart}")
        for path in self.paths:
            if self._part(path).stat().st_size < state["bytes"][path]:
                raise BatchInputError(f"{self._part(path)}: shorter than its checkpoint; {restart}")
            try:
                crc = crc32_of(self.handles[path], state["bytes"][path])
            except OSError as error:
                raise BatchInputError(f"{self._part(path)}: cannot be read ({error.strerror}); {restart}") from None
            if crc != state["digest"][path]:
                raise BatchInputError(f"{self._part(path)}: its rows are not the ones its checkpoint counts (edited, "
                                      f"cut or replaced since); {restart}")
        return state

    def _rows_path(self) -> Path:
        return Path(self.output + ".part.rows")

    def rows_folder(self) -> str:
        """OUTPUT.part.rows/, emptied: where worker processes write the rows of a chunk (a run killed outright
        leaves files there that no checkpoint counts)."""
        folder = self._rows_path()
        self.remove_rows_folder()
        try:
            folder.mkdir()
        except OSError as error:
            raise BatchInputError(f"{folder}: cannot write there ({error.strerror})") from None
        return str(folder)

    def remove_rows_folder(self) -> None:
        import shutil

        folder = self._rows_path()
        if folder.is_dir() and not folder.is_symlink():
            shutil.rmtree(folder, ignore_errors=True)

    def append(self, result: ChunkResult, summary: BatchSummary, mark: dict[str, Any]) -> None:
        path = self.output
        try:
            if result.output_file:
                _join(result.output_file, self.handles[path])
            else:
                self.handles[path].write(result.output)
            self.crcs[path] = crc32_combine(self.crcs[path], result.output_crc, result.output_bytes)
            if self.errors and result.errors:
                path = self.errors
                self.handles[path].write(result.errors)
                self.crcs[path] = crc32_combine(self.crcs[path], result.errors_crc, len(result.errors))
        except OSError as error:
            raise BatchFault(f"{self._part(path)}: cannot write ({error.strerror})") from None
        self._save(summary, mark)

    def _save(self, summary: BatchSummary, mark: dict[str, Any]) -> None:
        try:
            for handle in self.handles.values():
                handle.flush()
            state = {"version": STATE_VERSION, "run": self.run, "pid": os.getpid(), "records": summary.records,
                     "events": summary.events, "failed": summary.failed, "rows": summary.rows,
                     "bytes": {path: handle.tell() for path, handle in self.handles.items()},
                     "digest": dict(self.crcs), "input": mark}
            state["seal"] = _seal(state)
            temporary = self.state_path.with_name(self.state_path.name + ".tmp")
            temporary.write_text(json.dumps(state), encoding="utf-8")
            os.replace(temporary, self.state_path)
        except OSError as error:
            raise BatchFault(f"{self.state_path}: cannot write the checkpoint ({error.strerror})") from None

    def commit(self) -> None:
        """Put ERRORS, then OUTPUT, in place; should a rename fail, the ones done are undone, so that
        either all are committed or none is and --resume still works."""
        done: list[str] = []
        try:
            for handle in self.handles.values():
                handle.flush()
                os.fsync(handle.fileno())
            for path in self.paths:
                os.replace(self._part(path), path)
                done.append(path)
        except OSError as error:
            for path in reversed(done):
                with contextlib.suppress(OSError):
                    os.replace(path, self._part(path))
            raise BatchFault(f"{path}: cannot be put in place ({error.strerror}); nothing was committed") from None
        self.state_path.unlink(missing_ok=True)
        self.close()

    def close(self) -> None:
        for handle in self.handles.values():
            with contextlib.suppress(OSError):
                handle.close()
        self.handles.clear()

    def discard(self) -> None:
        """Remove what a run that did nothing left: no checkpoint to resume from an input that cannot be read.
        Only a run that holds the lock removes anything, and never an interrupted run's rows it did not open."""
        if self.handles:
            if self.opened and self.state is None:
                self.state_path.unlink(missing_ok=True)
                for path in self.paths:
                    self._part(path).unlink(missing_ok=True)
            else:
                for part in self.created:
                    part.unlink(missing_ok=True)
        self.close()


def _join(file: str, handle: Any) -> None:
    """Append `file` to the open `handle` and remove it: copied by the kernel (copy_file_range) where it can."""
    import shutil

    handle.seek(0, os.SEEK_END)   # writes out what is buffered: the copy goes after it
    with open(file, "rb") as source:
        left = os.fstat(source.fileno()).st_size
        try:
            while left > 0:
                copied = os.copy_file_range(source.fileno(), handle.fileno(), left)
                if copied == 0:
                    break
                left -= copied
        except (AttributeError, OSError) as error:  # no such call here, or not between these files: by hand
            if isinstance(error, OSError) and error.errno not in (errno.EXDEV, errno.ENOSYS, errno.EINVAL,
                                                                   errno.EOPNOTSUPP, errno.EBADF):
                raise
        handle.seek(0, os.SEEK_END)   # the handle learns where the copy left the file
        shutil.copyfileobj(source, handle)   # whatever the kernel did not copy (nothing, as a rule)
    os.unlink(file)


def _seal(state: dict[str, Any]) -> str:
    """A digest of the checkpoint's own keys: counts or bytes edited by hand no longer match it."""
    import hashlib

    body = {key: value for key, value in state.items() if key != "seal"}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode("utf-8")).hexdigest()


def _checkpoint_problem(state: Any, paths: list[str]) -> str | None:
    """What makes `state` not a checkpoint of this version, or None."""
    def count(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**53

    if not isinstance(state, dict):
        return f"a JSON {type(state).__name__}, not an object"
    if state.get("version") != STATE_VERSION:
        return f"version {shown(state.get('version'))}, not {STATE_VERSION}"
    for key in ("records", "events", "failed", "rows"):
        if not count(state.get(key)):
            return f"{key} is {shown(state.get(key))}, not a count"
    if state["events"] + state["failed"] != state["records"]:
        return "its counts do not add up"
    written = state.get("bytes")
    if not isinstance(written, dict) or sorted(written) != sorted(paths) or not all(map(count, written.values())):
        return "bytes written are not given for each output file"
    digest = state.get("digest")
    if not isinstance(digest, dict) or sorted(digest) != sorted(paths) or not all(map(count, digest.values())):
        return "no digest of the rows written is given for each output file"
    mark = state.get("input")
    # {} only before the first chunk is written: nothing was read yet
    if mark != {} and (not isinstance(mark, dict) or not count(mark.get("bytes"))
                       or not isinstance(mark.get("digest"), str)):
        return "what was read of the input is not given"
    if mark == {} and state["records"]:
        return "records are counted, but nothing was read of the input"
    if not isinstance(state.get("run"), dict):
        return "the run is not described"
    if state.get("seal") != _seal(state):
        return "changed since it was written: its counts, bytes or digest do not match its seal"
    return None


# ---- the run ------------------------------------------------------------------------------------

@dataclass
class BatchOptions:
    input: str
    output: str
    ordinances: tuple[str, ...]
    input_format: str | None = None
    errors: str | None = None
    workers: int = field(default_factory=lambda: os.cpu_count() or 1)
    chunk_size: int = DEFAULT_CHUNK_SIZE
    scheduler: str | None = None
    resume: bool = False
    restart: bool = False                 # discard an interrupted run's rows and start over
    recycle_after: int | None = None      # chunks per worker process; default about RECYCLE_EVENTS events
    layout: str | None = None             # CSV output: wide (default) or long
    as_of: date | None = None             # evaluate every event under the law in force on this date
    time_limit: float | None = None       # seconds per record; a record past it is an error row
    readings: tuple[tuple[tuple[str, str], str], ...] = ()   # ((ordinance, interpretation), reading) chosen
    depends: bool = False                 # each row says which answers depend on a reading (`--readings`)
    columns: tuple[str, ...] = ()         # CSV output: only the columns these patterns name (`--columns`)
    versions: tuple[date, ...] = ()       # the impact report between the law on these dates (`--versions D,D --changes`)


Progress = Callable[[BatchSummary, int, "int | None"], None]


def _refuse_overwriting_input(source: str, targets: list[str]) -> None:
    """OUTPUT (or ERRORS) must not be the input, nor lie inside an input folder: the run would write over what it reads."""
    if source == "-":
        return
    read = Path(source).resolve()
    for target in targets:
        written = Path(target).resolve()
        if written == read or (read.is_dir() and read in written.parents):
            raise BatchInputError(f"{target}: is the input {source} or inside it; write the output elsewhere")


def _changed_input(source: Source, recorded: dict[str, Any], at_start: os.stat_result | None) -> str:
    """Why --resume refuses: the input now is not what the interrupted run read."""
    restart = "run again with --restart to start over"
    if source.path == "-":
        return f"standard input: not the bytes the interrupted run read; give it the same input, or {restart}"
    changed = "" if at_start is None else f", modified {time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(at_start.st_mtime))}"
    return (f"{source.path}: not the input the interrupted run read (its first {recorded['bytes']:,} bytes differ"
            f"{changed}); {restart}")


def _readings(options: BatchOptions) -> tuple[tuple[tuple[str, str], str], ...]:
    """The readings of the run: those in force where it is called (`chosen_readings`), then options.readings, of
    the ordinances it evaluates, sorted (a checkpoint compares them as a list). A reading chosen by the name of its
    default is left out: it is the run without readings, and resumes as one."""
    from reasoner.law.ordinances import ordinance_readings
    from reasoner.program import readings_in_force

    known = ordinance_readings()
    chosen = {**readings_in_force(), **dict(options.readings)}
    return tuple(sorted((key, reading) for key, reading in chosen.items()
                        if key[0] in options.ordinances and known.get(key[0], {}).get(key[1], (None,))[0] != reading))


def _check_versions(options: BatchOptions) -> None:
    """What the impact report of a change of law (`--versions D,D --changes`) cannot be given with (its dates are
    checked by the service: service.versions_checked)."""
    for given, flag in ((options.as_of, "--as-of"), (options.depends, "--readings"), (options.layout, "--layout"),
                        (options.columns, "--columns")):
        if given:
            raise BatchInputError(f"--versions with --changes writes the impact report, a row per event and ordinance "
                                  f"under the law on each date: {flag} does not apply to it")


def _readings_said(run: dict[str, Any]) -> str:
    given = run.get("readings")
    return ", ".join(given) if isinstance(given, list) and given else "every default reading"


def run(options: BatchOptions, progress: Progress | None = None) -> BatchSummary:
    """Evaluate every record of options.input under options.ordinances into options.output.

    Raises BatchInputError when the input or the options cannot be used at all, BatchFault when the run
    stops on a fault of the machine. KeyboardInterrupt and BatchFault leave OUTPUT.part and its checkpoint
    for --resume.
    """
    fmt = input_format(options.input, options.input_format)
    out_format = output_format(options.output)
    errors = options.errors if options.errors and os.path.abspath(options.errors) != os.path.abspath(options.output) else None
    errors_format = output_format(errors) if errors else None
    if options.versions:
        _check_versions(options)
    layout = csv_layout(out_format, options.layout) if not options.versions else "changes" if out_format == "csv" else None
    if options.chunk_size < 1:
        raise BatchInputError("--chunk-size must be at least 1")
    if options.resume and options.restart:
        raise BatchInputError("--resume and --restart: give one of them")
    written = [p for p in (options.output, errors) if p]
    _refuse_overwriting_input(options.input, [*written, *(p + ".part" for p in written), options.output + ".part.state.json",
                                              options.output + ".part.rows"])
    source = Source(options.input, fmt)
    identity = {"input": "-" if options.input == "-" else os.path.abspath(options.input), "input_format": fmt,
                "ordinances": list(options.ordinances), "output_format": out_format, "layout": layout,
                "errors": os.path.abspath(errors) if errors else None}
    if options.as_of is not None:  # only then, so a checkpoint written without it still resumes
        identity["as_of"] = options.as_of.isoformat()
    readings = _readings(options)
    if readings:  # likewise
        identity["readings"] = [f"{o}.{i}={r}" for (o, i), r in readings]
    if options.depends:
        identity["depends_on_readings"] = True
    if options.time_limit is not None:  # a record past the limit is an error row: another limit, other rows
        identity["time_limit"] = options.time_limit
    if options.versions:
        identity["changes_between"] = [day.isoformat() for day in options.versions]
    kept = None
    if options.columns:
        if out_format != "csv":
            raise BatchInputError("--columns is for a CSV output (.csv); a JSONL output holds every record whole")
        columns = csv_columns(layout, options.ordinances, options.depends)
        kept = selected_columns(columns, options.columns)
        identity["columns"] = list(options.columns)  # only then, so a checkpoint written without it still resumes
    summary = BatchSummary(output=options.output, errors=errors)
    sink = _Sink(options.output, errors, identity)
    if options.versions:
        sink.header = csv_text([changes_columns(options.versions)]) if out_format == "csv" else ""
    elif out_format == "csv":
        sink.header = csv_header(layout, options.ordinances, options.depends) if kept is None else \
            csv_text([[columns[index] for index in kept]])
    if errors_format == "csv":
        sink.errors_header = csv_header("errors", options.ordinances)
    chunk_format = fmt if fmt in ("jsonl", "csv") else "data"

    rows_folder: list[str] = []   # set when worker processes of this machine write the rows

    def chunk(records: list[Record]) -> Chunk:
        return Chunk(options.ordinances, chunk_format, source.header, records, out_format, errors_format, layout,
                     options.as_of, rows_folder[0] if rows_folder else None, options.time_limit,
                     readings, options.depends, kept, tuple(options.versions))

    written = {"events": 0, "bytes": 0}   # events done by this run and the bytes of their rows

    def chunks() -> Iterator[tuple[Chunk, dict[str, Any]]]:
        batch: list[Record] = []
        skip = summary.resumed
        # Chunks start small: shown progress moves at once, and the first rows tell how large an event's rows
        # are before a chunk of heavy ones is sent. Shown progress then doubles the size, else it goes to
        # --chunk-size at once; either way no larger than about CHUNK_ROWS_BYTES of rows.
        size = min(options.chunk_size, FIRST_CHUNK)
        for record in source.records():
            if skip:
                skip -= 1
                if not skip and source.mark() != sink.input_mark:
                    raise BatchInputError(_changed_input(source, sink.input_mark, source.stat))
                continue
            batch.append(record)
            if len(batch) >= size:
                yield chunk(batch), source.mark()
                batch = []
                if written["events"]:
                    fits = max(1, CHUNK_ROWS_BYTES * written["events"] // max(1, written["bytes"]))
                    size = min(options.chunk_size, fits, 2 * size if progress is not None else options.chunk_size)
        if skip:
            raise BatchInputError(_changed_input(source, sink.input_mark, source.stat))
        if batch:
            yield chunk(batch), source.mark()

    recycle = options.recycle_after or max(1, RECYCLE_EVENTS // options.chunk_size)
    started = perf_counter()
    finished = False
    scheduler: Any = None
    try:
        sink.open(options.resume, options.restart, summary)
        if options.scheduler:
            scheduler = _Dask(options.scheduler)
        elif options.workers > 0:
            rows_folder.append(sink.rows_folder())
            scheduler = _Processes(options.workers, recycle)
        else:
            scheduler = _InProcess()
        for result, mark in scheduler.ordered(chunks()):
            summary.records += result.records
            summary.events += result.events
            summary.failed += result.failed
            summary.rows += result.rows
            written["events"] += result.records
            written["bytes"] += result.output_bytes + len(result.errors)
            for phase, seconds in result.timings.items():
                summary.timings[phase] = summary.timings.get(phase, 0.0) + seconds
            sink.append(result, summary, mark)
            summary.seconds = perf_counter() - started
            if progress is not None:
                progress(summary, mark["bytes"], source.size)
        finished = True
    except BrokenExecutor:
        raise BatchFault("a worker process ended unexpectedly (killed, or out of memory)") from None
    finally:
        # Cleaning up must not be cut short: a second Ctrl-C waits the second it takes, never more.
        previous = _hold_interrupts()
        try:
            if scheduler is not None:
                scheduler.close(cancel=not finished)
            if rows_folder:
                sink.remove_rows_folder()
            if finished:
                sink.commit()
            elif summary.records == summary.resumed and not options.resume:
                sink.discard()
            else:
                sink.close()
        finally:
            _release_interrupts(previous)
    summary.seconds = perf_counter() - started
    return summary


class _Deferred:
    """Ctrl-C held back while processes start, then raised: a process started with SIGINT ignored inherits
    that, and one cut off half-started prints a traceback of its own."""

    def __enter__(self) -> None:
        import threading

        self.previous, self.hit = None, False
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGINT, self._note)

    def _note(self, signum: int, frame: Any) -> None:
        self.hit = True

    def __exit__(self, *exc: Any) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)
            if self.hit:
                signal.raise_signal(signal.SIGINT)  # to the handler in place, as if it came now


def _hold_interrupts() -> Any:
    import threading

    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGINT, signal.SIG_IGN)


def _release_interrupts(previous: Any) -> None:
    if previous is not None:
        signal.signal(signal.SIGINT, previous)
