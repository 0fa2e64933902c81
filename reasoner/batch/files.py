"""Batch inputs and outputs: event records streamed from JSONL, CSV, a YAML or JSON file or a folder of
event files; result rows written as JSONL or CSV.

Reading only splits the input into records and notes where each one starts (source and line). Parsing
and validating a record happens in a worker (reasoner/batch/run.py), so a bad record becomes an error row
there and never stops the batch. JSONL and CSV are streamed; a YAML or JSON file is read whole.

CSV input: one event per row; a column is a field's dotted path (`attendance.expected_max`,
`schedule.start`, `site.kind`, `provisions.toilets`, `application.insurance.workers_compensation`,
`attendance.expected_max.min` for a range); a list field holds its items separated by `;`
(`kinds` = `festival;concert`); an empty cell is a fact the row does not state.
"""
from __future__ import annotations

import contextlib
import csv
import errno
import hashlib
import io
import json
import os
import re
import stat
import sys
import typing
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any, BinaryIO

from reasoner.events.loading import MAX_FILE_BYTES, MAX_VALUES  # an event file's limits hold for each record
from reasoner.events.loading import RefusedFile, file_kind, read_bounded, shown, unstattable
from reasoner.law.labels import listed

INPUT_FORMATS = ("jsonl", "csv", "yaml", "json", "folder")
OUTPUT_FORMATS = ("jsonl", "csv")
SUFFIXES = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv", ".yaml": "yaml", ".yml": "yaml", ".json": "json"}
EVENT_FILE_SUFFIXES = (".yaml", ".yml", ".json")
LIST_SEPARATOR = ";"
MAX_WHOLE_FILE_BYTES = 256 * 2**20  # a JSON file is parsed whole; past this, JSONL, CSV or YAML, which stream

CSV_COLUMNS = ("event", "name", "ordinance", "jurisdiction", "status", "permit_required", "exemptions", "permits",
               "obligations", "deadlines", "filing", "restrictions", "application_missing", "denial_grounds",
               "revocation_grounds", "penalties", "shortfalls", "conclusions", "source", "line", "error")
# CSV cells that list conclusions of these kinds, each in the one phrasing (reasoner/law/labels.py's `listed`).
CSV_CELLS = {"exemptions": ("exemption",), "permits": ("permits",), "obligations": ("obligation",),
             "deadlines": ("deadline",), "filing": ("late", "on_time"), "restrictions": ("restriction",),
             "application_missing": ("application_missing",), "denial_grounds": ("denial_ground",),
             "revocation_grounds": ("revocation_ground",), "penalties": ("penalty",), "shortfalls": ("shortfall",)}


class BatchInputError(Exception):
    """The input as a whole cannot be read (no such file, unknown format): nothing to evaluate."""


class BatchFault(Exception):
    """The run stopped on a fault of the machine (a worker died, the disk is full, a file cannot be put in
    place): the rows done so far are kept for --resume."""


@dataclass(slots=True)
class Record:
    """One event as read: bytes (a JSONL line), a list of cells (a CSV row) or parsed data (YAML/JSON).
    `problem` is set when the record could not even be split out (a malformed YAML file)."""

    source: str
    line: int
    payload: Any
    problem: str | None = None


def input_format(path: str, given: str | None = None) -> str:
    if given:
        return given
    if path == "-":
        return "jsonl"
    if Path(path).is_dir():
        return "folder"
    found = SUFFIXES.get(Path(path).suffix.lower())
    if found is None:
        raise BatchInputError(f"{path}: cannot tell the input format from the name; give --input-format "
                              f"({', '.join(INPUT_FORMATS)})")
    return found


def output_format(path: str) -> str:
    found = SUFFIXES.get(Path(path).suffix.lower())
    if found not in OUTPUT_FORMATS:
        raise BatchInputError(f"{path}: the output is JSONL (.jsonl) or CSV (.csv), chosen by its extension")
    return found


class _Hashing(io.RawIOBase):
    """A binary stream that hashes and counts the bytes read through it: the input's fingerprint."""

    def __init__(self, inner: BinaryIO, digest: Any):
        super().__init__()
        self.inner, self.digest, self.count = inner, digest, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self.inner.read(len(buffer))
        size = len(data)
        buffer[:size] = data
        self.digest.update(data)
        self.count += size
        return size


class Source:
    """The records of an input in order, how many of its bytes are read (for progress), and a fingerprint
    of what was read so far (`mark()`), which --resume compares with the interrupted run's."""

    def __init__(self, path: str, fmt: str):
        self.path = path
        self.format = fmt
        self.name = "<stdin>" if path == "-" else path
        self.header: tuple[str, ...] | None = None
        self.position = 0
        self.size: int | None = None
        self.digest = hashlib.blake2b(digest_size=16)
        self._counted: _Hashing | None = None
        self.stat: os.stat_result | None = None
        if path == "-":
            if fmt == "folder":
                raise BatchInputError("standard input cannot be a folder")
            if sys.stdin is None:
                raise BatchInputError("standard input is closed: give a file, or pipe the records in")
            return
        try:
            self.stat = os.stat(path)
        except OSError as error:
            raise BatchInputError(f"{path}: {'no such file' if error.errno == errno.ENOENT else unstattable(error)}") from None
        kind = file_kind(self.stat.st_mode)
        if fmt == "folder":
            if kind != "a folder":
                raise BatchInputError(f"{path}: not a folder")
            self.files = sorted(p for p in Path(path).iterdir() if p.suffix.lower() in EVENT_FILE_SUFFIXES)
            self.size = 0
            for file in self.files:
                with contextlib.suppress(OSError):
                    info = file.stat()
                    self.size += info.st_size if stat.S_ISREG(info.st_mode) else 0
        elif kind is not None:
            hint = "; to read it, give it as standard input: reasoner batch - < " + path if kind.startswith("a FIFO") else ""
            raise BatchInputError(f"{path}: {kind}, not a file{hint}")
        elif not os.access(path, os.R_OK):
            raise BatchInputError(f"{path}: cannot read the file (permission denied)")
        else:
            self.size = self.stat.st_size

    def mark(self) -> dict[str, Any]:
        """What has been read so far: its size in bytes and a hash of those bytes."""
        consumed = self._counted.count if self._counted is not None else self.position
        return {"bytes": consumed, "digest": self.digest.hexdigest()}

    def _binary(self) -> BinaryIO:
        if self.path == "-":
            stream = sys.stdin.buffer
        else:
            try:
                stream = open(self.path, "rb")  # noqa: SIM115 - closed by records()
            except OSError as error:
                raise BatchInputError(f"{self.path}: cannot read the file ({error.strerror})") from None
        if self.format == "jsonl":
            return stream  # hashed line by line: exactly the bytes of the records read
        self._counted = _Hashing(stream, self.digest)
        return io.BufferedReader(self._counted, 1 << 16)

    def records(self) -> Iterator[Record]:
        if self.format == "folder":
            for file in self.files:
                yield from self._file(file)
            return
        stream = self._binary()
        try:
            if self.format == "jsonl":
                yield from self._jsonl(stream)
            elif self.format == "csv":
                yield from self._csv(stream)
            elif self.format == "yaml":
                yield from self._yaml(stream, self.name)
            else:
                raw = stream.read(MAX_WHOLE_FILE_BYTES + 1)
                if len(raw) > MAX_WHOLE_FILE_BYTES:
                    raise BatchInputError(f"{self.name}: larger than {MAX_WHOLE_FILE_BYTES // 2**20} MiB; "
                                          "a JSON file is read whole: give JSONL or CSV, which stream")
                self.position += len(raw)
                yield from self._json(raw, self.name)
        finally:
            if self.path != "-":
                stream.close()

    def _file(self, file: Path) -> Iterator[Record]:
        """The records of one file of an input folder; one error row for an entry that is not a readable file."""
        name = str(file)
        self.digest.update(name.encode("utf-8", "surrogateescape") + b"\0")
        try:
            raw = read_bounded(file)
        except RefusedFile as error:
            yield Record(name, 1, None, str(error))
            return
        self.digest.update(raw)
        self.position += len(raw)
        if file.suffix.lower() == ".json":
            yield from self._json(raw, name)
        else:
            yield from self._yaml(io.BytesIO(raw), name)

    def _jsonl(self, stream: BinaryIO) -> Iterator[Record]:
        """One record per line, each read with a bound: a line past MAX_FILE_BYTES is an error row, skipped unread."""
        line = 0
        readline, update = stream.readline, self.digest.update
        while True:
            raw = readline(MAX_FILE_BYTES + 1)
            if not raw:
                return
            line += 1
            self.position += len(raw)
            update(raw)
            if len(raw) > MAX_FILE_BYTES and not raw.endswith(b"\n"):
                while raw and not raw.endswith(b"\n"):
                    raw = readline(1 << 20)
                    self.position += len(raw)
                    update(raw)
                yield Record(self.name, line, None, _too_large())
            elif raw.strip():
                yield Record(self.name, line, raw)

    def _csv(self, stream: BinaryIO) -> Iterator[Record]:
        text = io.TextIOWrapper(stream, encoding="utf-8-sig", errors="surrogateescape", newline="")
        lines = _Lines(text)
        reader = csv.reader(lines, strict=True)
        try:
            self.header = tuple(cell.strip() for cell in next(reader))
        except StopIteration:
            return
        except (csv.Error, _RecordTooLarge) as error:
            raise BatchInputError(f"{self.name}: line 1: malformed CSV header: {error}") from None
        separator = next((name for mark, name in ((";", "semicolons"), ("\t", "tabs"), ("|", "bars"))
                          if len(self.header) == 1 and mark in self.header[0]), None)
        if separator:   # no field name holds one: the file is separated by another mark
            raise BatchInputError(f"{self.name}: line 1: the header is one column, {shown(self.header[0])}: columns "
                                  f"are separated by commas, not {separator}")
        twice = sorted({name for name in self.header if name and self.header.count(name) > 1})
        if twice:
            raise BatchInputError(f"{self.name}: line 1: the header names {', '.join(twice)} more than once")
        while True:
            lines.begin()
            try:
                row = next(reader)
            except StopIteration:
                return
            except (csv.Error, _RecordTooLarge) as error:
                start = lines.first()
                if isinstance(error, _RecordTooLarge) or "unexpected end of data" in str(error):
                    # An unterminated quote would swallow every row after it: only its own row fails,
                    # and the lines after it are read again as rows.
                    lines.again()
                    problem = (_too_large() if isinstance(error, _RecordTooLarge) and not lines.quoted
                               else "malformed CSV: a quote opened in this row is never closed")
                else:
                    problem = f"malformed CSV: {error}"
                yield Record(self.name, start, None, problem)
                continue
            self.position = self._counted.count if self._counted else self.position
            if any(cell.strip() for cell in row):
                yield Record(self.name, lines.first(), row)

    def _yaml(self, stream: BinaryIO, name: str) -> Iterator[Record]:
        found = False
        for line, data in _yaml_items(stream):
            found = True
            if isinstance(data, _Broken):
                yield Record(name, line, None, data.message)
            else:
                yield Record(name, line, data)
            if self._counted is not None:
                self.position = self._counted.count
        if not found:
            yield Record(name, 1, None, "the file holds no event")

    def _json(self, raw: bytes, name: str) -> Iterator[Record]:
        """The events of one JSON file (one event, a list, or {events: [...]}), each with its line."""
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            yield Record(name, 1, None, f"not UTF-8 text (byte {error.start})")
            return
        try:
            items = list(_json_items(text))
        except ValueError as error:  # JSONDecodeError and oversized numbers
            yield Record(name, getattr(error, "line", 1), None, str(error))
            return
        except RecursionError:
            yield Record(name, 1, None, "nested too deeply")
            return
        if not items:
            yield Record(name, 1, None, "the file holds no event")
        for line, data in items:
            if isinstance(data, _Broken):
                yield Record(name, line, None, data.message)
            else:
                yield Record(name, line, data)


def _too_large() -> str:
    return f"the record is larger than {MAX_FILE_BYTES // 2**20} MiB, the limit of an event"


class _RecordTooLarge(Exception):
    pass


class _Lines:
    """The physical lines of a CSV text for csv.reader, each read with a bound, remembering those of the row
    being read so that, should the row be broken, the lines after its first can be read again."""

    def __init__(self, text: io.TextIOWrapper):
        self.text = text
        self.number = 0
        self.again_lines: list[tuple[int, str]] = []  # to be read again, last first
        self.current: list[tuple[int, str]] = []
        self.size = 0
        self.quoted = False

    def __iter__(self) -> "_Lines":
        return self

    def __next__(self) -> str:
        if self.again_lines:
            number, line = self.again_lines.pop()
        else:
            line = self.text.readline(MAX_FILE_BYTES + 1)
            if not line:
                raise StopIteration
            self.number += 1
            number = self.number
        self.current.append((number, line))
        self.size += len(line)
        if self.size > MAX_FILE_BYTES:
            self.quoted = len(self.current) > 1
            raise _RecordTooLarge(_too_large())
        return line

    def begin(self) -> None:
        self.current, self.size, self.quoted = [], 0, False

    def first(self) -> int:
        return self.current[0][0] if self.current else self.number

    def again(self) -> None:
        """Read the lines of the broken row again, from its second line on."""
        self.again_lines.extend(reversed(self.current[1:]))
        self.current = self.current[:1]


class _Malformed(ValueError):
    def __init__(self, message: str, line: int):
        super().__init__(message)
        self.line = line


@dataclass(slots=True)
class _Broken:
    """An item of a YAML list that parsed but could not be built (say, an impossible date)."""

    message: str


def _yaml_items(stream: BinaryIO) -> Iterator[tuple[int, Any]]:
    """The events of a YAML stream (one event, a list, or {events: [...]}) one at a time, each with its line:
    libyaml parses, and only one item's nodes are held at a time. Aliases are expanded against one budget
    for the file (MAX_VALUES values, each alias counted every time it is used): one anchor used by every
    record costs the budget once per use, not a walk of the whole expansion per record."""
    import yaml

    from reasoner.events.loading import unreadable_value, yaml_problem

    loader = _streaming_loader(stream)
    budget = [MAX_VALUES]
    sizes: dict[int, int] = {}   # expanded size of each anchored node (kept alive by loader.anchors)
    try:
        try:
            loader.get_event()  # stream start
            if loader.check_event(yaml.StreamEndEvent):
                return
            loader.get_event()  # document start
            node = _top_mapping(loader) if loader.check_event(yaml.MappingStartEvent) else None
            if node is None and loader.check_event(yaml.SequenceStartEvent):
                loader.get_event()
                while not loader.check_event(yaml.SequenceEndEvent):
                    line = loader.peek_event().start_mark.line + 1  # an alias's own line, not its anchor's
                    yield _yaml_item(loader, loader.compose_node(None, None), line, sizes, budget)
                    if budget[0] < 0:
                        return
                loader.get_event()
                if loader.check_event(yaml.MappingEndEvent):  # the end of {events: [...]}
                    loader.get_event()
            else:
                line = node.start_mark.line + 1 if node else loader.peek_event().start_mark.line + 1
                yield _yaml_item(loader, node or loader.compose_node(None, None), line, sizes, budget)
                if budget[0] < 0:
                    return
            if not loader.check_event(yaml.DocumentEndEvent):
                event = loader.get_event()
                raise _Malformed(f"malformed YAML at line {event.start_mark.line + 1}: a file of events "
                                 "`events:` holds nothing else", event.start_mark.line + 1)
            loader.get_event()
            if not loader.check_event(yaml.StreamEndEvent):
                event = loader.get_event()
                raise _Malformed(f"malformed YAML at line {event.start_mark.line + 1}: expected a single document "
                                 "in the stream, but found another document", event.start_mark.line + 1)
        except yaml.YAMLError as error:
            raise _Malformed(*yaml_problem(error)) from None
    except (_Malformed, RecursionError) as error:
        line = error.line if isinstance(error, _Malformed) else 1
        yield line, _Broken(str(error) if isinstance(error, _Malformed) else "nested too deeply")
    except ValueError as error:
        yield 1, _Broken(unreadable_value(error))
    finally:
        loader.dispose()


def _top_mapping(loader: Any) -> Any:
    """At a top-level mapping: None, with the parser at the list, when it is {events: [...]}; else the
    mapping composed whole as one event (PyYAML's compose_mapping_node, the first key read to look)."""
    import yaml

    start = loader.get_event()
    tag = start.tag if start.tag not in (None, "!") else loader.resolve(yaml.MappingNode, None, start.implicit)
    node = yaml.MappingNode(tag, [], start.start_mark, None, flow_style=start.flow_style)
    if start.anchor is not None:
        loader.anchors[start.anchor] = node
    first = True
    while not loader.check_event(yaml.MappingEndEvent):
        key = loader.compose_node(node, None)
        if (first and isinstance(key, yaml.ScalarNode) and key.value == "events" and start.anchor is None
                and loader.check_event(yaml.SequenceStartEvent)):
            return None
        first = False
        node.value.append((key, loader.compose_node(node, key)))
    node.end_mark = loader.get_event().end_mark
    return node


def _yaml_item(loader: Any, node: Any, line: int, sizes: dict[int, int], budget: list[int]) -> tuple[int, Any]:
    import yaml

    from reasoner.events.loading import unreadable_value, yaml_problem

    if node.end_mark.index - node.start_mark.index > MAX_FILE_BYTES:
        return line, _Broken(_too_large())
    seen: set[int] = set()

    def size(value: Any) -> int:
        key = id(value)
        if key in sizes:  # an alias: its expansion counts against the file's budget
            budget[0] -= sizes[key]
            if budget[0] < 0:
                raise _OverBudget
            return sizes[key]
        if key in seen:
            raise _Malformed("an alias refers to the collection it is in", line)
        seen.add(key)
        if isinstance(value, yaml.MappingNode):
            found = 1 + sum(size(k) + size(v) for k, v in value.value)
        elif isinstance(value, yaml.SequenceNode):
            found = 1 + sum(size(item) for item in value.value)
        else:
            found = 1
        sizes[key] = found
        return found

    try:
        size(node)
    except _Malformed as error:
        return line, _Broken(str(error))
    except _OverBudget:
        return line, _Broken(f"the file expands to more than {MAX_VALUES:,} values (YAML aliases count each "
                             "time they are used)")
    finally:
        anchored = {id(n) for n in loader.anchors.values()}
        for key in seen - anchored:  # ids of nodes about to be freed must not be found again
            sizes.pop(key, None)
    try:
        return line, loader.construct_document(node)
    except (yaml.YAMLError, ValueError, OverflowError) as error:
        message = yaml_problem(error)[0] if isinstance(error, yaml.YAMLError) else (
            unreadable_value(error) if isinstance(error, ValueError) else f"a value cannot be read: {error}")
        return line, _Broken(message)


class _OverBudget(Exception):
    pass


def _streaming_loader(stream: BinaryIO) -> Any:
    return _streaming_class()(stream)


@cache
def _streaming_class() -> type:
    import yaml

    from reasoner.events.loading import UniqueKeyLoader  # the loader refuses a key written twice

    class Streaming(yaml.composer.Composer, UniqueKeyLoader):  # type: ignore[misc, valid-type]
        """libyaml's parser under PyYAML's composer, which composes one node at a time where libyaml's
        own composes the whole document."""

        def __init__(self, stream: BinaryIO):
            UniqueKeyLoader.__init__(self, stream)
            yaml.composer.Composer.__init__(self)

    return Streaming


def _json_items(text: str) -> Iterator[tuple[int, Any]]:
    """Walk a JSON document with the standard decoder, noting the line where each event starts."""
    from reasoner.events.loading import DuplicateKey, unique_object

    decoder = json.JSONDecoder()
    strict = json.JSONDecoder(object_pairs_hook=unique_object)
    counted = [0, 1]  # lines are counted forward from the last index asked about

    def line_at(index: int) -> int:
        if index < counted[0]:
            counted[:] = [0, 1]
        counted[1] += text.count("\n", counted[0], index)
        counted[0] = index
        return counted[1]

    def fail(message: str, index: int) -> _Malformed:
        line = line_at(index)
        return _Malformed(f"malformed JSON at line {line}, column {index - text.rfind(chr(10), 0, index)}: {message}", line)

    def decode(index: int) -> tuple[Any, int]:
        try:
            value, end = decoder.raw_decode(text, index)
        except json.JSONDecodeError as error:
            raise fail(error.msg, error.pos) from None
        try:  # again, refusing a key written twice: the record fails, the rest of the document goes on
            strict.raw_decode(text, index)
        except DuplicateKey as error:
            return _Broken(str(error)), end
        return value, end

    def walk(start: int) -> tuple[list[tuple[int, Any]], int]:
        index, found = _skip(text, start + 1), []
        if text.startswith("]", index):
            return found, index + 1
        while True:
            value, end = decode(index)
            found.append((line_at(index), value))
            index = _skip(text, end)
            if text.startswith(",", index):
                index = _skip(text, index + 1)
            elif text.startswith("]", index):
                return found, index + 1
            else:
                raise fail("Expecting ',' delimiter", index)

    position = _skip(text, 0)
    if position == len(text):
        return
    if text.startswith("[", position):
        items, end = walk(position)
    else:
        data, end = decode(position)
        items = [(line_at(position), data)]
        if isinstance(data, dict) and list(data) == ["events"] and isinstance(data["events"], list):
            key = _skip(text, position + 1)
            value = _skip(text, _skip(text, key + len('"events"')) + 1)
            if text.startswith('"events"', key) and text.startswith("[", value):
                items = walk(value)[0]
            else:  # the key spelled with escapes: every event at the document's line
                items = [(line_at(position), item) for item in data["events"]]
    if _skip(text, end) != len(text):
        raise fail("Extra data", _skip(text, end))
    yield from items


def _skip(text: str, index: int) -> int:
    while index < len(text) and text[index] in " \t\n\r":
        index += 1
    return index


# ---- CSV rows -> nested event data ---------------------------------------------------------------

@cache
def _shape() -> dict[str, str]:
    """Each field path of the event model: 'list' (items split on ;), 'spans' (a list of periods, each item
    START/END), 'map' (keys are columns), 'int' or 'bool' (a cell is converted: a CSV cell is text, and the model
    does not read numbers from text)."""
    from pydantic import BaseModel

    from reasoner.events.model import Event

    found: dict[str, str] = {}

    def scalar(path: str, option: object) -> None:
        if option is bool:
            found.setdefault(path, "bool")
        elif option is int:
            found.setdefault(path, "int")

    def walk(model: type[BaseModel], prefix: str) -> None:
        for name, field in model.model_fields.items():
            path = f"{prefix}{name}"
            for option in (field.annotation, *typing.get_args(field.annotation)):
                origin = typing.get_origin(option)
                if origin is list:
                    found[path] = "spans" if _is_span(typing.get_args(option)[0]) else "list"
                elif origin is dict:
                    found[path] = "map"
                    scalar(f"{path}.*", typing.get_args(option)[-1])
                elif isinstance(option, type) and issubclass(option, BaseModel):
                    walk(option, f"{path}.")
                else:
                    scalar(path, option)

    walk(Event, "")
    return found


def _is_span(item: Any) -> bool:
    """A model that needs just a start and an end (a session): one CSV item, START/END."""
    from pydantic import BaseModel

    return (isinstance(item, type) and issubclass(item, BaseModel)
            and {name for name, field in item.model_fields.items() if field.is_required()} == {"start", "end"})


_INTEGER = re.compile(r"[+-]?[0-9]+")
SPAN_SEPARATOR = "/"   # ISO 8601 writes a period as START/END


def _cell(shape: dict[str, str], name: str, value: str) -> Any:
    """A cell's value as the model reads it; ValueError for a cell that cannot be one."""
    kind = shape.get(name) or shape.get(name.rpartition(".")[0] + ".*")
    if kind in ("list", "spans"):
        items = [item.strip() for item in value.split(LIST_SEPARATOR) if item.strip()]
        return [_span(item) for item in items] if kind == "spans" else items
    if kind == "int" and _INTEGER.fullmatch(value) and len(value) <= 20:
        return int(value)
    if kind == "bool" and value.lower() in ("true", "false"):
        return value.lower() == "true"
    return value


def _span(item: str) -> dict[str, str]:
    start, separator, end = item.partition(SPAN_SEPARATOR)
    if not separator or not start.strip() or not end.strip() or SPAN_SEPARATOR in end:
        raise ValueError(f"each item is START{SPAN_SEPARATOR}END, e.g. 2027-07-16T18:00{SPAN_SEPARATOR}2027-07-16T23:00, "
                         f"items separated by '{LIST_SEPARATOR}' (given: {item!r})")
    return {"start": start.strip(), "end": end.strip()}


def csv_data(header: tuple[str, ...], row: list[str]) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """The nested event a CSV row describes, and the problems that stop it; with problems, the data holds the cells
    that could be read (a row refused for one cell keeps its id and name for its error row)."""
    problems = []
    if len(row) > len(header):
        problems.append(("", f"the row has {len(row)} cells but the header names {len(header)} columns"))
    shape = _shape()
    data: dict[str, Any] = {}
    for name, cell in zip(header, row):
        value: Any = cell.strip()
        if not value:
            continue
        if any("\udc80" <= ch <= "\udcff" for ch in value):
            problems.append((name, "not UTF-8 text"))
            continue
        if not name:
            problems.append(("", f"a value in a column without a name (given: {value!r})"))
            continue
        try:
            value = _cell(shape, name, value)
        except ValueError as error:
            problems.append((name, str(error)))
            continue
        parts = name.split(".")
        target = data
        for depth, part in enumerate(parts[:-1]):
            inner = target.setdefault(part, {})
            if not isinstance(inner, dict):
                problems.append((name, f"column {name} and column {'.'.join(parts[:depth + 1])} both give a value"))
                break
            target = inner
        else:
            if parts[-1] in target:
                problems.append((name, f"column {name} and the columns under it both give a value"))
            else:
                target[parts[-1]] = value
    return data, problems


def event_columns() -> list[str]:
    """Column names a CSV input may use, for documentation (`provisions.*`: provisions.NAME)."""
    return list(_shape())


# ---- result rows --------------------------------------------------------------------------------

def csv_cells(record: dict[str, Any], name: str = "") -> list[str]:
    """The CSV columns of one result record, from `event` to `conclusions` (source, line, error follow); `name`,
    the event's."""
    conclusions = record["conclusions"]
    cells = [record["event"], name, record["ordinance"], record["jurisdiction"], record["status"],
             {True: "true", False: "false", None: ""}[record["permit_required"]]]
    for kinds in CSV_CELLS.values():
        cells.append("; ".join(listed(c) for c in conclusions if c["kind"] in kinds))
    cells.append(json.dumps(conclusions, ensure_ascii=False, separators=(",", ":")))
    return cells


# Cells a spreadsheet would run as a formula start with one of these; such a text cell gets a leading
# apostrophe (OWASP's advice), which spreadsheets show as text and do not store.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _safe(cell: Any) -> Any:
    return "'" + cell if isinstance(cell, str) and cell.startswith(_FORMULA_STARTS) else cell


def csv_text(rows: list[list[Any]]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows([[_safe(cell) for cell in row] for row in rows])
    return buffer.getvalue()


# ---- the wide layout: one row per event -----------------------------------------------------------

LAYOUTS = ("wide", "long")
ERROR_COLUMNS = ("event", "name", "source", "line", "error")
# Per ordinance, after its status; each with its clauses beside it (".clauses") or inside a compact cell. Each
# deadline's columns follow the permits, each obligation's the denial grounds.
WIDE_PARTS = ("status", "permits", "permits.clauses", "shortfalls", "denial_grounds")
DEADLINE_PARTS = ("deadline.{}", "deadline.{}.days_late", "deadline.{}.clauses")


def csv_layout(output_format: str, given: str | None) -> str | None:
    """The CSV layout of an output: wide unless given; None for JSONL."""
    if output_format != "csv":
        if given:
            raise BatchInputError("--layout is for a CSV output (.csv); a JSONL output holds every record whole")
        return None
    return given or "wide"


@cache
def ordinance_obligations(ordinance: str) -> tuple[str, ...]:
    """The obligations an ordinance can conclude, in the vocabulary's order (encodings/vocabulary.yaml): the
    obligation columns of the wide CSV, from the one catalog of what an ordinance concludes (modes/catalog.py),
    so a duty the authority may impose by any name (Fulton 177-4, Missouri 316.170) has its column, and a name
    the text only asks about (an item of the application, a provision) has none."""
    from reasoner.law.vocabulary import names
    from reasoner.modes.catalog import catalog

    concluded = {entry["name"] for entry in catalog(ordinance) if entry["kind"] == "obligation"}
    return tuple(name for name in names("obligations") if name in concluded)


@cache
def ordinance_deadlines(ordinance: str) -> tuple[tuple[str, bool], ...]:
    """(name, whether a filing can be late or on time for it) of each deadline the ordinance can conclude, as the
    catalog lists them (modes/catalog.py): a date column each, and a signed lateness beside the filing's."""
    from reasoner.modes.catalog import catalog

    entries = catalog(ordinance)
    timely = {entry["name"] for entry in entries if entry["kind"] in ("late", "on_time")}
    return tuple((entry["name"], entry["name"] in timely) for entry in entries if entry["kind"] == "deadline")


@cache
def wide_columns(ordinances: tuple[str, ...]) -> list[str]:
    columns = ["event", "name"]
    for ordinance in ordinances:
        columns += [f"{ordinance}.{part}" for part in WIDE_PARTS[:3]]
        for name, timely in ordinance_deadlines(ordinance):
            columns += [f"{ordinance}.{part.format(name)}" for part in DEADLINE_PARTS if timely or "days_late" not in part]
        columns += [f"{ordinance}.{part}" for part in WIDE_PARTS[3:]]
        for name in ordinance_obligations(ordinance):
            columns += [f"{ordinance}.{name}", f"{ordinance}.{name}.clauses"]
    return columns + ["source", "line", "error"]


def _notes(item: dict[str, Any]) -> str:
    """An item's clauses, with what its value alone does not say: may, an alternative, a certainty."""
    text = ", ".join(item["clauses"])
    if item.get("modality") == "may":
        text += " (may)"
    if "alternative" in item:
        text += f" (or {item['alternative']['name']} {item['alternative']['value']})"
    if "certainty" in item:
        text += f" ({item['certainty']})"
    return text


def _joined(values: list[Any]) -> Any:
    return values[0] if len(values) == 1 else "; ".join(str(v) for v in values)


def wide_cells(record: dict[str, Any]) -> list[Any]:
    """The cells of one ordinance's block of a wide row (WIDE_PARTS, then each obligation and its clauses)."""
    conclusions = record["conclusions"]

    def of(*kinds: str) -> list[dict[str, Any]]:
        return [c for c in conclusions if c["kind"] in kinds]

    permits = of("permits")
    cells: list[Any] = [
        record["status"],
        _joined([c["value"] for c in permits]) if permits else "",
        "; ".join(_notes(c) for c in permits),
    ]
    dates: dict[str, list[dict[str, Any]]] = {}
    lateness: dict[str, list[Any]] = {}
    for item in conclusions:
        if item["kind"] == "deadline":
            dates.setdefault(item["name"], []).append(item)
        elif item["kind"] in ("late", "on_time"):  # signed: days late, or days to spare below zero
            lateness.setdefault(item["name"], []).append(item["value"] if item["kind"] == "late" else -item["value"])
    for name, timely in ordinance_deadlines(record["ordinance"]):
        items = dates.get(name, [])
        cells.append(_joined([c["value"] for c in items]) if items else "")
        if timely:
            cells.append(_joined(lateness[name]) if name in lateness else "")
        cells.append("; ".join(_notes(c) for c in items))
    cells += [
        "; ".join(listed(c) for c in of("shortfall")),
        "; ".join(listed(c) for c in of("denial_ground")),
    ]
    found: dict[str, list[dict[str, Any]]] = {}
    for item in of("obligation"):
        found.setdefault(item["name"], []).append(item)
    for name in ordinance_obligations(record["ordinance"]):
        items = found.get(name, [])
        values = ["yes" if c["value"] is None or c["value"] is True else c["value"] for c in items]  # 1 == True
        cells += [_joined(values) if items else "", "; ".join(_notes(c) for c in items)]
    return cells


def readings_columns(layout: str | None, ordinances: tuple[str, ...]) -> list[str]:
    """`batch --readings`: the columns, before source, line and error, that list the readings an answer depends on
    (one per ordinance in a wide row, one in a long row)."""
    return [f"{o}.depends_on_readings" for o in ordinances] if layout == "wide" else ["depends_on_readings"]


def readings_cell(record: dict[str, Any]) -> str:
    """The alternative readings that move some answer of `record` (with depends_on_readings), as "interpretation=reading"."""
    moving = {f"{u['interpretation']}={u['reading']}": None for d in record["depends_on_readings"] for u in d["readings"]}
    return "; ".join(moving)


def csv_columns(layout: str | None, ordinances: tuple[str, ...], readings: bool = False) -> list[str]:
    """The columns of a CSV output in `layout` (wide, long, or errors for an --errors file); `readings`: with
    the depends_on_readings columns."""
    columns = {"wide": lambda: wide_columns(ordinances), "long": lambda: list(CSV_COLUMNS),
               "errors": lambda: list(ERROR_COLUMNS)}[layout or "long"]()
    if readings and layout != "errors":
        columns = [*columns[:-3], *readings_columns(layout, ordinances), *columns[-3:]]
    return columns


def csv_header(layout: str | None, ordinances: tuple[str, ...], readings: bool = False) -> str:
    """The header row of a CSV output in `layout` (see csv_columns)."""
    return csv_text([csv_columns(layout, ordinances, readings)])


# Kept whatever --columns selects: which application a row is about, and why a record failed.
KEPT_COLUMNS = ("event", "name", "source", "line", "error")


def selected_columns(columns: list[str], patterns: tuple[str, ...]) -> tuple[int, ...]:
    """`--columns`: the places of the columns that one of `patterns` names (shell-style: `*.status`,
    `gem.deadline.*`, `trempealeau.toilets`), with those of KEPT_COLUMNS, in the output's order. A pattern that
    names no column is refused, with the names nearest to it."""
    import difflib
    from fnmatch import fnmatchcase

    for pattern in patterns:
        if not any(fnmatchcase(column, pattern) for column in columns):
            near = difflib.get_close_matches(pattern, columns, n=3)
            hint = f"; did you mean {', '.join(near)}?" if near else \
                " (the header of a run without --columns lists them; a pattern may use * and ?)"
            raise BatchInputError(f"--columns {pattern!r}: names no column of this output{hint}")
    return tuple(index for index, column in enumerate(columns)
                 if column in KEPT_COLUMNS or any(fnmatchcase(column, pattern) for pattern in patterns))


def _text(value: str) -> str:
    """Text that can be written as UTF-8: a lone surrogate (a bad byte, an escape such as \\ud800) is spelled out."""
    return value.encode("utf-8", "backslashreplace").decode("utf-8")


def error_record(source: str, line: int, event_id: Any, problems: list[tuple[str, str]],
                 name: Any = None) -> dict[str, Any]:
    """A record that failed: where, what, and the application's id and name as given (so a clerk can find it);
    `name` only when the record gives one as text."""
    problems = [(_text(field), _text(text)) for field, text in problems]
    message = "; ".join(f"{field}: {text}" if field else text for field, text in problems)
    return {"error": message, "source": _text(source), "line": line,
            "event": _text(event_id) if isinstance(event_id, str) else None,
            **({"name": _text(name)} if isinstance(name, str) else {}),
            "problems": [{"field": field, "message": text} for field, text in problems]}


def error_json(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False) + "\n"


def error_csv_row(record: dict[str, Any], layout: str | None = "long", ordinances: tuple[str, ...] = (),
                  readings: bool = False, dates: tuple[date, ...] = ()) -> list[Any]:
    """An error row in a CSV of `layout` (`readings`: with the depends_on_readings columns; `changes`: the impact
    report's on `dates`): the event's id and name, as given, and source, line and error in the last columns."""
    if layout == "errors":
        return [record["event"] or "", record.get("name", ""), record["source"], record["line"], record["error"]]
    if layout == "changes":
        width = len(changes_columns(dates))
    else:
        width = len(wide_columns(ordinances)) if layout == "wide" else len(CSV_COLUMNS)
    width += len(readings_columns(layout, ordinances)) if readings else 0
    row: list[Any] = [""] * width
    row[0], row[1] = record["event"] or "", record.get("name", "")
    row[-3], row[-2], row[-1] = record["source"], record["line"], record["error"]
    return row


# ---- the impact report of a change of law: a row per event and ordinance ---------------------------

def changes_columns(dates: tuple[date, ...]) -> list[str]:
    """`batch --versions D,D --changes`, CSV: whether the answer changes between the versions in force on `dates`,
    its status on each, the versions, the conclusions that change (by name, then with their values), the clauses
    they cite and which of those the amendment reworded."""
    return ["event", "name", "ordinance", "flips", *(f"status as of {day.isoformat()}" for day in dates), "versions",
            "changed", "changes", "clauses", "amended", "source", "line", "error"]


def changes_cells(report: dict[str, Any], statuses: list[str]) -> list[Any]:
    """The cells of one event's report under one ordinance (modes/compare.py event_changes), from `ordinance` to
    `amended`; `statuses`: its status on each date."""
    from reasoner.modes.compare import changes_lines, versions_head

    cited = {c["clause"]: c["amended"] for row in report["changed"] for c in row["clauses"]}
    return [report["ordinance"], "true" if report["flips"] else "false", *statuses, versions_head(report),
            "; ".join(r["label"] for r in report["changed"]), " | ".join(changes_lines(report)),
            " ".join(sorted(cited)), " ".join(c for c in sorted(cited) if cited[c])]
