"""Batch evaluation: many events, in chunks, in parallel, streamed to one output file.

Records are read lazily (reasoner/batch_io.py) and sent to workers in chunks. A chunk is one solver
call whose events are numbered 1..n, numbers restarting in every chunk (ids stay in Python): no
program grows past a chunk, and the same atoms recur from chunk to chunk, which is what lets the
Reader of reasoner/conclusions.py read answer sets cheaply. Worker processes are replaced after a
number of chunks (clingo never frees symbols), so memory stays flat over millions of events.

Results come back in input order and are appended to OUTPUT.part; after every chunk a checkpoint
(OUTPUT.part.state.json) records how many records and bytes are done, so --resume continues an
interrupted run without redoing or duplicating a record. OUTPUT appears, whole, only at the end.

Every record is validated on its own, as `evaluate` validates a file holding that one event; one that
fails becomes an error row (source, line, field, message) and the batch goes on. The rows of an event
are, byte for byte, the records `evaluate --format json` prints for it, whatever the worker count,
chunk size or scheduler.
"""
from __future__ import annotations

import json
import os
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from time import perf_counter
from typing import Any

from .loading import DuplicateKey, unique_object, unreadable_value
from .batch_io import (BatchInputError, Record, Source, csv_cells, csv_data, csv_header, csv_text, error_csv_row,
                       error_json, error_record, input_format, output_format)

DEFAULT_CHUNK_SIZE = 1000
FIRST_CHUNK = 125          # with a progress bar, chunks grow from this to --chunk-size, doubling: results within a second
RECYCLE_EVENTS = 40_000  # a worker is replaced after about this many events: clingo never frees symbols
STATE_VERSION = 1
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


@dataclass
class ChunkResult:
    records: int
    events: int
    failed: int
    rows: int
    output: bytes                      # rows, encoded
    errors: bytes
    timings: dict[str, float]


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
    """(event, id as given, problems): the record validated as `evaluate` validates a one-event file."""
    from .loading import EventFileError, parse_events

    data, problems = _data(record, chunk)
    given_id = data.get("id") if isinstance(data, dict) else None
    if problems:
        return None, given_id, problems
    if isinstance(data, list) or (isinstance(data, dict) and set(data) == {"events"}):
        return None, None, [("", "a record holds one event, not a list of events")]
    try:
        [event] = parse_events(data, record.source)
    except EventFileError as error:
        return None, given_id, error.problems
    except RecursionError:
        return None, given_id, [("", "nested too deeply")]
    return event, given_id, []


def _bodies(events: list, ordinances: tuple[str, ...], timings: dict[str, float]) -> list[Any]:
    """Body per (event, ordinance) from one solver call; an event that breaks the call gets its exception."""
    from .conclusions import reader
    from .program import solve

    try:
        symbols = solve(events, ordinances, timings=timings)
        start = perf_counter()
        found = reader(ordinances).read(symbols, len(events))
        timings["read"] += perf_counter() - start
        return found
    except Exception as error:  # noqa: BLE001 - isolated below, event by event
        if len(events) == 1:
            return [error] * len(ordinances)
    return [body for event in events for body in _bodies([event], ordinances, timings)]


def _csv_body(body: Any) -> list[str]:
    """The CSV cells of a Body after the event id, worked out once per Body (Bodies recur, as atoms do)."""
    if body.extra is None:
        from .registry import registry

        record = {"event": "", "ordinance": body.ordinance, "jurisdiction": registry(body.ordinance).jurisdiction,
                  "status": body.status, "permit_required": body.status == "permit_required",
                  "conclusions": body.conclusions}
        body.extra = csv_cells(record)[1:]
    return body.extra


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
    timings = dict.fromkeys(PHASES, 0.0)
    start = perf_counter()
    checked = [_validate(record, chunk) for record in chunk.records]
    events = [event for event, _, _ in checked if event is not None]
    plain = [event for event in events if not getattr(event, "has_unknowns", False)]
    timings["validate"] = perf_counter() - start
    width = len(chunk.ordinances)
    bodies = _in_order(plain, _bodies(sorted(plain, key=_likeness), chunk.ordinances, timings), width) if plain else []

    start = perf_counter()
    out: list[Any] = []
    errors: list[Any] = []
    evaluated = failed = rows = 0
    position = 0
    csv_out = chunk.output_format == "csv"
    for record, (event, given_id, problems) in zip(chunk.records, checked):
        if event is not None and not getattr(event, "has_unknowns", False):
            mine = bodies[position:position + width]
            position += width
            broken = next((b for b in mine if isinstance(b, Exception)), None)
            if broken is not None:
                problems = [("", f"could not be evaluated: {broken}")]
            else:
                if csv_out:
                    out.extend([event.id, *_csv_body(body), record.source, record.line, ""] for body in mine)
                else:
                    out.extend(body.json(event.id) + "\n" for body in mine)
                evaluated += 1
                rows += width
                continue
        elif event is not None:
            from .unknowns import evaluate_any

            try:
                results = evaluate_any([event], chunk.ordinances)
            except Exception as error:  # noqa: BLE001 - the record fails, the batch goes on
                problems = [("", f"could not be evaluated: {error}")]
            else:
                for result in results:
                    out.append(csv_cells(result) + [record.source, record.line, ""] if csv_out
                               else json.dumps(result, ensure_ascii=False) + "\n")
                evaluated += 1
                rows += len(results)
                continue
        failed += 1
        error = error_record(record.source, record.line, given_id, problems)
        apart = chunk.errors_format is not None
        as_csv = (chunk.errors_format if apart else chunk.output_format) == "csv"
        (errors if apart else out).append(error_csv_row(error) if as_csv else error_json(error))
        rows += not apart
    # Encoded here: bytes cross to the parent process as they are, where text would be decoded and encoded again.
    output_text = (csv_text(out) if csv_out else "".join(out)).encode("utf-8", "backslashreplace")
    errors_text = ((csv_text(errors) if chunk.errors_format == "csv" else "".join(errors)) if errors else ""
                   ).encode("utf-8", "backslashreplace")
    timings["rows"] = perf_counter() - start
    return ChunkResult(len(chunk.records), evaluated, failed, rows, output_text, errors_text, timings)


def _worker_start() -> None:
    """Workers leave Ctrl-C to the parent, which stops the pool and keeps the checkpoint, and end when the
    parent ends, however it ends (a killed parent's pool would otherwise wait for work forever)."""
    import multiprocessing
    import threading

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

        method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
        context = multiprocessing.get_context(method)
        if method == "forkserver":
            context.set_forkserver_preload(["reasoner.batch", "reasoner.conclusions"])
        self.executor = ProcessPoolExecutor(workers, mp_context=context, initializer=_worker_start,
                                            max_tasks_per_child=recycle_after)
        self.window = workers + 2

    def submit(self, chunk: Chunk) -> Any:
        return self.executor.submit(evaluate_chunk, chunk)

    def close(self, cancel: bool = False) -> None:
        self.executor.shutdown(wait=True, cancel_futures=cancel)


class _Dask(_Window):
    def __init__(self, address: str):
        try:
            from distributed import Client
        except ImportError:
            raise BatchInputError("--scheduler needs Dask: pip install 'reasoner[dask]'") from None
        try:
            self.client = Client(address, timeout=30)
        except OSError as error:
            raise BatchInputError(f"--scheduler {address}: cannot reach the Dask scheduler ({error})") from None
        self.window = 2 * max(1, sum(self.client.nthreads().values())) + 1

    def submit(self, chunk: Chunk) -> Any:
        return self.client.submit(evaluate_chunk, chunk, pure=False)

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
    """OUTPUT.part (and ERRORS.part) with a checkpoint; moved into place when the run is done."""

    def __init__(self, output: str, errors: str | None, fingerprint: dict[str, Any]):
        self.output, self.errors = output, errors
        self.state_path = Path(output + ".part.state.json")
        self.fingerprint = fingerprint
        self.handles: dict[str, Any] = {}

    def _part(self, path: str) -> Path:
        return Path(path + ".part")

    def open(self, resume: bool, summary: BatchSummary) -> None:
        paths = [p for p in (self.output, self.errors) if p]
        state = None
        if resume and self.state_path.is_file():
            try:
                state = json.loads(self.state_path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                raise BatchInputError(f"{self.state_path}: the checkpoint cannot be read; run again without --resume") from None
            if state.get("version") != STATE_VERSION or state.get("run") != self.fingerprint:
                raise BatchInputError(f"{self.state_path}: the interrupted run had other input, output or ordinances; "
                                      "run again without --resume to start over")
            for path in paths:
                if not self._part(path).is_file() or self._part(path).stat().st_size < state["bytes"][path]:
                    raise BatchInputError(f"{self._part(path)}: shorter than its checkpoint; run again without --resume")
        for path in paths:
            part = self._part(path)
            if not part.parent.is_dir() or (part.exists() and not os.access(part, os.W_OK)):
                raise BatchInputError(f"{path}: cannot write there")
            if state is not None:
                handle = open(part, "r+b")  # noqa: SIM115 - closed in close()
                handle.truncate(state["bytes"][path])  # rows written after the checkpoint are written again
                handle.seek(0, os.SEEK_END)
            else:
                try:
                    handle = open(part, "wb")  # noqa: SIM115
                except OSError as error:
                    raise BatchInputError(f"{path}: cannot write there ({error.strerror})") from None
                if Path(path).suffix.lower() == ".csv":
                    handle.write(csv_header().encode("utf-8"))
            self.handles[path] = handle
        if state is not None:
            for key in ("records", "events", "failed", "rows"):
                setattr(summary, key, state[key])
            summary.resumed = summary.records
            summary.resumed_events = summary.events
        self._save(summary)

    def append(self, result: ChunkResult, summary: BatchSummary) -> None:
        self.handles[self.output].write(result.output)
        if self.errors and result.errors:
            self.handles[self.errors].write(result.errors)
        self._save(summary)

    def _save(self, summary: BatchSummary) -> None:
        for handle in self.handles.values():
            handle.flush()
        state = {"version": STATE_VERSION, "run": self.fingerprint, "records": summary.records,
                 "events": summary.events, "failed": summary.failed, "rows": summary.rows,
                 "bytes": {path: handle.tell() for path, handle in self.handles.items()}}
        temporary = self.state_path.with_name(self.state_path.name + ".tmp")
        temporary.write_text(json.dumps(state), encoding="utf-8")
        os.replace(temporary, self.state_path)

    def commit(self) -> None:
        for path, handle in self.handles.items():
            handle.flush()
            os.fsync(handle.fileno())
            handle.close()
            os.replace(self._part(path), path)
        self.handles.clear()
        self.state_path.unlink(missing_ok=True)

    def close(self) -> None:
        for handle in self.handles.values():
            handle.close()
        self.handles.clear()

    def discard(self) -> None:
        """Remove what a run that wrote nothing left: no checkpoint to resume from an input that cannot be read."""
        paths = list(self.handles)
        self.close()
        for path in paths:
            self._part(path).unlink(missing_ok=True)
        self.state_path.unlink(missing_ok=True)


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
    recycle_after: int | None = None      # chunks per worker process; default about RECYCLE_EVENTS events


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


def run(options: BatchOptions, progress: Progress | None = None) -> BatchSummary:
    """Evaluate every record of options.input under options.ordinances into options.output.

    Raises BatchInputError when the input or the options cannot be used at all. KeyboardInterrupt
    (or any failure of the run itself) leaves OUTPUT.part and its checkpoint for --resume.
    """
    fmt = input_format(options.input, options.input_format)
    out_format = output_format(options.output)
    errors = options.errors if options.errors and os.path.abspath(options.errors) != os.path.abspath(options.output) else None
    errors_format = output_format(errors) if errors else None
    if options.chunk_size < 1:
        raise BatchInputError("--chunk-size must be at least 1")
    written = [p for p in (options.output, errors) if p]
    _refuse_overwriting_input(options.input, [*written, *(p + ".part" for p in written), options.output + ".part.state.json"])
    source = Source(options.input, fmt)
    fingerprint = {"input": "-" if options.input == "-" else os.path.abspath(options.input), "input_format": fmt,
                   "ordinances": list(options.ordinances), "output_format": out_format,
                   "errors": os.path.abspath(errors) if errors else None}
    summary = BatchSummary(output=options.output, errors=errors)
    sink = _Sink(options.output, errors, fingerprint)
    chunk_format = fmt if fmt in ("jsonl", "csv") else "data"

    def chunks() -> Iterator[tuple[Chunk, int]]:
        batch: list[Record] = []
        skip = summary.resumed
        # Shown progress starts with small chunks, so it moves at once; they cost about 8% of a 10,000-event run,
        # so a run nobody watches starts at full size.
        size = min(options.chunk_size, FIRST_CHUNK if progress is not None else options.chunk_size)
        for record in source.records():
            if skip:
                skip -= 1
                continue
            batch.append(record)
            if len(batch) >= size:
                yield Chunk(options.ordinances, chunk_format, source.header, batch, out_format, errors_format), source.position
                batch = []
                size = min(options.chunk_size, 2 * size)
        if batch:
            yield Chunk(options.ordinances, chunk_format, source.header, batch, out_format, errors_format), source.position

    recycle = options.recycle_after or max(1, RECYCLE_EVENTS // options.chunk_size)
    if options.scheduler:
        scheduler: Any = _Dask(options.scheduler)
    elif options.workers > 0:
        scheduler = _Processes(options.workers, recycle)
    else:
        scheduler = _InProcess()
    started = perf_counter()
    finished = False
    try:
        sink.open(options.resume, summary)
        for result, position in scheduler.ordered(chunks()):
            summary.records += result.records
            summary.events += result.events
            summary.failed += result.failed
            summary.rows += result.rows
            for phase, seconds in result.timings.items():
                summary.timings[phase] = summary.timings.get(phase, 0.0) + seconds
            sink.append(result, summary)
            summary.seconds = perf_counter() - started
            if progress is not None:
                progress(summary, position, source.size)
        finished = True
    except BatchInputError:
        if summary.records == summary.resumed and not options.resume:
            sink.discard()
        raise
    finally:
        scheduler.close(cancel=not finished)
        if finished:
            sink.commit()
        else:
            sink.close()
    summary.seconds = perf_counter() - started
    return summary
