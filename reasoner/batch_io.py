"""Batch inputs and outputs: event records streamed from JSONL, CSV, a YAML or JSON file or a folder of
event files; result rows written as JSONL or CSV.

Reading only splits the input into records and notes where each one starts (source and line). Parsing
and validating a record happens in a worker (reasoner/batch.py), so a bad record becomes an error row
there and never stops the batch. JSONL and CSV are streamed; a YAML or JSON file is read whole.

CSV input: one event per row; a column is a field's dotted path (`attendance.expected_max`,
`schedule.start`, `site.kind`, `provisions.toilets`, `application.insurance.workers_compensation`,
`attendance.expected_max.min` for a range); a list field holds its items separated by `;`
(`kinds` = `festival;concert`); an empty cell is a fact the row does not state.
"""
from __future__ import annotations

import csv
import io
import json
import os
import re
import sys
import typing
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, BinaryIO

INPUT_FORMATS = ("jsonl", "csv", "yaml", "json", "folder")
OUTPUT_FORMATS = ("jsonl", "csv")
SUFFIXES = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv", ".yaml": "yaml", ".yml": "yaml", ".json": "json"}
EVENT_FILE_SUFFIXES = (".yaml", ".yml", ".json")
LIST_SEPARATOR = ";"
MAX_WHOLE_FILE_BYTES = 256 * 2**20  # YAML and JSON are parsed whole; past this, JSONL or CSV streams

CSV_COLUMNS = ("event", "ordinance", "jurisdiction", "status", "permit_required", "exemptions", "permits",
               "obligations", "deadlines", "filing", "restrictions", "application_missing", "denial_grounds",
               "revocation_grounds", "penalties", "shortfalls", "conclusions", "source", "line", "error")
# CSV cells that list conclusions of these kinds, each "name=value unit (may) [clauses]".
CSV_CELLS = {"exemptions": ("exemption",), "permits": ("permits",), "obligations": ("obligation",),
             "deadlines": ("deadline",), "filing": ("late", "on_time"), "restrictions": ("restriction",),
             "application_missing": ("application_missing",), "denial_grounds": ("denial_ground",),
             "revocation_grounds": ("revocation_ground",), "penalties": ("penalty",), "shortfalls": ("shortfall",)}


class BatchInputError(Exception):
    """The input as a whole cannot be read (no such file, unknown format): nothing to evaluate."""


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


class Source:
    """The records of an input in order, and how many of its bytes are read (for progress)."""

    def __init__(self, path: str, fmt: str):
        self.path = path
        self.format = fmt
        self.name = "<stdin>" if path == "-" else path
        self.header: tuple[str, ...] | None = None
        self.position = 0
        self.size: int | None = None
        if path != "-":
            target = Path(path)
            if fmt == "folder":
                if not target.is_dir():
                    raise BatchInputError(f"{path}: not a folder")
                self.files = sorted(p for p in target.iterdir() if p.suffix.lower() in EVENT_FILE_SUFFIXES and p.is_file())
                self.size = sum(p.stat().st_size for p in self.files)
            elif not target.is_file():
                raise BatchInputError(f"{path}: no such file")
            elif not os.access(target, os.R_OK):
                raise BatchInputError(f"{path}: cannot read the file (permission denied)")
            else:
                self.size = target.stat().st_size
        elif fmt == "folder":
            raise BatchInputError("standard input cannot be a folder")

    def _binary(self) -> BinaryIO:
        return sys.stdin.buffer if self.path == "-" else open(self.path, "rb")  # noqa: SIM115 - closed by records()

    def records(self) -> Iterator[Record]:
        if self.format == "folder":
            for file in self.files:
                try:
                    raw = file.read_bytes()
                except OSError as error:
                    yield Record(str(file), 1, None, f"cannot read file: {error.strerror or error}")
                    continue
                yield from self._document(raw, str(file), file.suffix.lower() == ".json")
            return
        stream = self._binary()
        try:
            if self.format == "jsonl":
                yield from self._jsonl(stream)
            elif self.format == "csv":
                yield from self._csv(stream)
            else:
                raw = stream.read(MAX_WHOLE_FILE_BYTES + 1)
                if len(raw) > MAX_WHOLE_FILE_BYTES:
                    raise BatchInputError(f"{self.name}: larger than {MAX_WHOLE_FILE_BYTES // 2**20} MiB; "
                                          "a YAML or JSON file is read whole: give JSONL or CSV, which stream")
                yield from self._document(raw, self.name, self.format == "json")
        finally:
            if stream is not sys.stdin.buffer:
                stream.close()

    def _jsonl(self, stream: BinaryIO) -> Iterator[Record]:
        for line, raw in enumerate(stream, start=1):
            self.position += len(raw)
            if raw.strip():
                yield Record(self.name, line, raw)

    def _csv(self, stream: BinaryIO) -> Iterator[Record]:
        text = io.TextIOWrapper(stream, encoding="utf-8-sig", errors="surrogateescape", newline="")
        reader = csv.reader(text)
        try:
            self.header = tuple(cell.strip() for cell in next(reader))
        except StopIteration:
            return
        except csv.Error as error:
            raise BatchInputError(f"{self.name}: line 1: malformed CSV header: {error}") from None
        twice = sorted({name for name in self.header if name and self.header.count(name) > 1})
        if twice:
            raise BatchInputError(f"{self.name}: line 1: the header names {', '.join(twice)} more than once")
        while True:
            start = reader.line_num + 1
            try:
                row = next(reader)
            except StopIteration:
                return
            except csv.Error as error:
                yield Record(self.name, start, None, f"malformed CSV: {error}")
                continue
            self.position = stream.tell() if stream.seekable() else self.position
            if any(cell.strip() for cell in row):
                yield Record(self.name, start, row)

    def _document(self, raw: bytes, name: str, is_json: bool) -> Iterator[Record]:
        """The events of one YAML or JSON file (one event, a list, or {events: [...]}), each with its line."""
        self.position += len(raw)
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            yield Record(name, 1, None, f"not UTF-8 text (byte {error.start})")
            return
        try:
            items = list(_json_items(text) if is_json else _yaml_items(text))
        except ValueError as error:  # JSONDecodeError, YAMLError (below) and oversized numbers
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


class _Malformed(ValueError):
    def __init__(self, message: str, line: int):
        super().__init__(message)
        self.line = line


@dataclass(slots=True)
class _Broken:
    """An item of a YAML list that parsed but could not be built (say, an impossible date)."""

    message: str


def _yaml_items(text: str) -> Iterator[tuple[int, Any]]:
    import yaml

    from .loading import _Loader, unreadable_value, yaml_problem  # the loader refuses a key written twice

    loader = _Loader(text)
    try:
        try:
            node = loader.get_single_node()
        except yaml.YAMLError as error:
            raise _Malformed(*yaml_problem(error)) from None
        if node is None:
            return
        items = [node]
        if isinstance(node, yaml.SequenceNode):
            items = node.value
        elif (isinstance(node, yaml.MappingNode) and len(node.value) == 1 and node.value[0][0].value == "events"
              and isinstance(node.value[0][1], yaml.SequenceNode)):
            items = node.value[0][1].value
        for item in items:
            try:
                yield item.start_mark.line + 1, loader.construct_document(item)
            except (yaml.YAMLError, ValueError, OverflowError) as error:
                message = yaml_problem(error)[0] if isinstance(error, yaml.YAMLError) else (
                    unreadable_value(error) if isinstance(error, ValueError) else f"a value cannot be read: {error}")
                yield item.start_mark.line + 1, _Broken(message)
    finally:
        loader.dispose()


def _json_items(text: str) -> Iterator[tuple[int, Any]]:
    """Walk a JSON document with the standard decoder, noting the line where each event starts."""
    from .loading import DuplicateKey, unique_object

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
    """Each field path of the event model: 'list' (items split on ;), 'map' (keys are columns), 'model',
    'int' or 'bool' (a cell is converted: a CSV cell is text, and the model does not read numbers from text)."""
    from pydantic import BaseModel

    from .event import Event

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
                    found[path] = "list"
                elif origin is dict:
                    found[path] = "map"
                    scalar(f"{path}.*", typing.get_args(option)[-1])
                elif isinstance(option, type) and issubclass(option, BaseModel):
                    walk(option, f"{path}.")
                else:
                    scalar(path, option)

    walk(Event, "")
    return found


_INTEGER = re.compile(r"[+-]?[0-9]+")


def _cell(shape: dict[str, str], name: str, value: str) -> Any:
    kind = shape.get(name) or shape.get(name.rpartition(".")[0] + ".*")
    if kind == "list":
        return [item.strip() for item in value.split(LIST_SEPARATOR) if item.strip()]
    if kind == "int" and _INTEGER.fullmatch(value) and len(value) <= 20:
        return int(value)
    if kind == "bool" and value.lower() in ("true", "false"):
        return value.lower() == "true"
    return value


def csv_data(header: tuple[str, ...], row: list[str]) -> tuple[dict[str, Any] | None, list[tuple[str, str]]]:
    """The nested event a CSV row describes, or the problems that stop it."""
    if len(row) > len(header):
        return None, [("", f"the row has {len(row)} cells but the header names {len(header)} columns")]
    shape = _shape()
    data: dict[str, Any] = {}
    problems = []
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
        value = _cell(shape, name, value)
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
    return (None if problems else data), problems


def event_columns() -> list[str]:
    """Column names a CSV input may use, for documentation (`provisions.*`: provisions.NAME)."""
    return list(_shape())


# ---- result rows --------------------------------------------------------------------------------

def _cell_item(item: dict[str, Any]) -> str:
    kind, value, unit = item["kind"], item.get("value"), item.get("unit")
    text = item["name"]
    if kind == "shortfall":
        text += f"={item['provided']} of {item['required']}"
    elif kind == "penalty":
        low, high = item.get("min"), item.get("max")
        if low or high:
            text += f"={low or 0}-{high}" if high else f"={low}+"
    elif value is not None and value is not True:
        text += f"={value}"
    if unit not in (None, "count", "date") and (value not in (None, True) or kind in ("penalty", "shortfall")):
        text += f" {unit}"
    if item.get("modality") == "may":
        text += " (may)"
    if "alternative" in item:
        alternative = item["alternative"]
        text += f" or {alternative['name']}={alternative['value']}"
    if "certainty" in item:
        text += f" ({item['certainty']})"
    return f"{text} [{', '.join(item['clauses'])}]"


def csv_cells(record: dict[str, Any]) -> list[str]:
    """The CSV columns of one result record, from `event` to `conclusions` (source, line, error follow)."""
    conclusions = record["conclusions"]
    cells = [record["event"], record["ordinance"], record["jurisdiction"], record["status"],
             {True: "true", False: "false", None: ""}[record["permit_required"]]]
    for kinds in CSV_CELLS.values():
        cells.append("; ".join(_cell_item(c) for c in conclusions if c["kind"] in kinds))
    cells.append(json.dumps(conclusions, ensure_ascii=False, separators=(",", ":")))
    return cells


def csv_text(rows: list[list[Any]]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue()


def csv_header() -> str:
    return csv_text([list(CSV_COLUMNS)])


def _text(value: str) -> str:
    """Text that can be written as UTF-8: a lone surrogate (a bad byte, an escape such as \\ud800) is spelled out."""
    return value.encode("utf-8", "backslashreplace").decode("utf-8")


def error_record(source: str, line: int, event_id: Any, problems: list[tuple[str, str]]) -> dict[str, Any]:
    problems = [(_text(field), _text(text)) for field, text in problems]
    message = "; ".join(f"{field}: {text}" if field else text for field, text in problems)
    return {"error": message, "source": _text(source), "line": line,
            "event": _text(event_id) if isinstance(event_id, str) else None,
            "problems": [{"field": field, "message": text} for field, text in problems]}


def error_json(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False) + "\n"


def error_csv_row(record: dict[str, Any]) -> list[Any]:
    row: list[Any] = [""] * len(CSV_COLUMNS)
    row[0] = record["event"] or ""
    row[-3], row[-2], row[-1] = record["source"], record["line"], record["error"]
    return row
