"""Solving off the server's process: a few long-lived worker processes, each answering one request at a time.

clingo cannot interrupt grounding, so a request that outlives the time limit is ended by killing its worker,
which is then replaced; the server itself never blocks on a solve. Workers start with `forkserver` (as batch
workers do), so they never inherit the server's threads.

An answer comes back as the JSON text the server sends: as bytes when small, else in a file of the pool's own
folder, written a chunk of events at a time, so that neither the worker nor the server holds a large answer whole
(issue 33: two /evaluate bodies of many small events took both workers past 500 MB).
"""
from __future__ import annotations

import multiprocessing
import os
import queue
import shutil
import tempfile
import threading
import uuid
from multiprocessing.connection import Connection
from multiprocessing.reduction import ForkingPickler
from pathlib import Path
from typing import Any

from reasoner.batch.processes import start_forkserver
from reasoner.service import OutOfMemory


class TimeLimit(Exception):
    """No answer within the time limit (the worker was killed)."""


class Busy(Exception):
    """No worker became free within the time limit."""


IN_MEMORY = 4 << 20   # characters of an answer held in memory; past them it goes on in the answer's file


class _Answer:
    """An answer's JSON text as it is written: in memory up to IN_MEMORY, then in the file at `path`."""

    def __init__(self, path: str):
        self.path, self.pieces, self.size, self.file = path, [], 0, None

    def write(self, text: str) -> None:
        if self.file is not None:
            self.file.write(text)
            return
        self.pieces.append(text)
        self.size += len(text)
        if self.size > IN_MEMORY:
            self.file = open(self.path, "w", encoding="utf-8")  # noqa: SIM115 - closed by result() or discard()
            self.file.writelines(self.pieces)
            self.pieces = []

    def result(self) -> bytes | Path:
        if self.file is None:
            return "".join(self.pieces).encode("utf-8")
        self.file.close()
        return Path(self.path)

    def discard(self) -> None:
        if self.file is not None:
            self.file.close()
            os.unlink(self.path)


def _serve(connection: Connection, memory_limit: int | None = None) -> None:
    """A worker's loop: answer each (command, request, path) within `memory_limit` megabytes and send back (True,
    the answer's JSON text: bytes, or the path of the file holding it) or (False, exception)."""
    from reasoner import service as library

    if memory_limit is not None:
        library.limit_memory(memory_limit)

    while True:
        try:
            command, request, path = connection.recv()
        except EOFError:
            return
        written = _Answer(path)
        try:
            library.run_to(command, request, written.write)
            answer = (True, written.result())
        except library.InputProblem as problem:
            written.discard()
            answer = (False, problem)
        except MemoryError:  # past the server's --memory-limit, which each worker inherits
            written.discard()
            answer = (False, library.out_of_memory(memory_limit or 0))
        except Exception as error:  # noqa: BLE001 - sent to the server, which answers 500
            written.discard()
            answer = (False, RuntimeError(f"{type(error).__name__}: {error}"))
        try:
            message = ForkingPickler.dumps(answer)
        except Exception as error:  # noqa: BLE001 - an answer that cannot be sent is still an answer: a 500
            message = ForkingPickler.dumps((False, RuntimeError(f"the answer could not be sent: {type(error).__name__}")))
        connection.send_bytes(message)


class _Worker:
    def __init__(self, context: Any, memory_limit: int | None = None):
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, memory_limit), name="reasoner-web-worker",
                                       daemon=True)
        self.process.start()
        child.close()

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.connection.close()


class Pool:
    """`size` workers; `call` waits for a free one (at most `time_limit`), then for its answer (at most `time_limit`,
    and `memory_limit` megabytes of the worker's)."""

    def __init__(self, size: int, time_limit: float, memory_limit: int | None = None):
        self.time_limit = time_limit
        self.memory_limit = memory_limit
        self._context = multiprocessing.get_context("forkserver")
        start_forkserver(self._context, ["reasoner.service"])
        self._idle: queue.SimpleQueue[_Worker] = queue.SimpleQueue()
        self._all: set[_Worker] = set()
        self._lock = threading.Lock()
        self._closed = False
        self.folder = tempfile.mkdtemp(prefix="reasoner-web-")  # the large answers' files, gone at close()
        for _ in range(size):
            self._release(self._start())

    def _start(self) -> _Worker:
        worker = _Worker(self._context, self.memory_limit)
        with self._lock:
            self._all.add(worker)
        return worker

    def _release(self, worker: _Worker) -> None:
        self._idle.put(worker)

    def _replace(self, worker: _Worker, path: str | None = None) -> None:
        with self._lock:
            self._all.discard(worker)
        worker.stop()
        if path is not None:  # what a killed worker had written of its answer
            Path(path).unlink(missing_ok=True)
        if not self._closed:
            self._release(self._start())

    def call(self, command: str, request: dict[str, Any]) -> bytes | Path:
        """The answer to one request, as JSON text: bytes, or a file of the pool's folder that the caller removes
        once sent. Whatever goes wrong, the worker goes back to the idle queue: as it was, when the request could
        not even be pickled, or as a fresh process once anything was sent to it."""
        path = os.path.join(self.folder, f"{uuid.uuid4().hex}.json")
        try:
            message = ForkingPickler.dumps((command, request, path))
        except Exception as error:  # noqa: BLE001 - e.g. RecursionError; no worker is involved yet
            raise RuntimeError(f"the request could not be passed to a worker: {type(error).__name__}") from None
        try:
            worker = self._idle.get(timeout=self.time_limit)
        except queue.Empty:
            raise Busy() from None
        try:
            worker.connection.send_bytes(message)
            if not worker.connection.poll(self.time_limit):
                raise TimeLimit()
            done, value = worker.connection.recv()
        except TimeLimit:
            self._replace(worker, path)
            raise
        except (EOFError, OSError):
            self._replace(worker, path)
            raise RuntimeError("the worker process ended without an answer") from None
        except BaseException:
            self._replace(worker, path)
            raise
        if not done and isinstance(value, OutOfMemory):
            self._replace(worker)  # a fresh process, not one whose heap ran out
        else:
            self._release(worker)
        if not done:
            raise value
        return value

    def close(self) -> None:
        self._closed = True
        with self._lock:
            workers, self._all = list(self._all), set()
        for worker in workers:
            worker.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
