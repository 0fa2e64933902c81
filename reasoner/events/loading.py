"""Reading event files: YAML or JSON, one event or many; every problem names the file and the field.

Whatever a file holds, reading it ends in events or in an EventFileError, in bounded time and memory:
files past MAX_FILE_BYTES are not read whole, nesting past MAX_DEPTH and documents that expand
(through YAML aliases) past MAX_VALUES are refused before validation walks them, and a file may hold
at most MAX_EVENTS events.
"""
from __future__ import annotations

import errno
import json
import os
import re
import stat
from datetime import date, datetime
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

if TYPE_CHECKING:
    from reasoner.events.model import Event

MAX_FILE_BYTES = 16 * 1024 * 1024
MAX_EVENTS = 10_000        # about a minute of solving for every ordinance; more is refused, not truncated
MAX_DEPTH = 16             # an event nests four levels; a list of events under `events:` six
MAX_VALUES = 1_000_000     # scalars and collections, each alias counted every time it is used
MAX_PROBLEMS = 25          # reported per file; the rest are counted
MAX_ITEMS = 1_000          # per list of an event: every list holds vocabulary names, none has this many; a longer one
                           # is refused before validation, whose errors would take hundreds of bytes per item
MAX_SHOWN = 60             # characters of a given value quoted back in a message

# libyaml when it is there: faster, and its parser refuses runaway nesting itself.
_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class RepeatedYamlKey(yaml.constructor.ConstructorError):
    """A YAML mapping names a key twice: well-formed YAML, but refused."""


def yaml_problem(error: yaml.YAMLError) -> tuple[str, int]:
    """A YAML error as a message for the person who wrote the file, and the line it is on (1 if unknown)."""
    mark = getattr(error, "problem_mark", None)
    at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
    reason = getattr(error, "problem", None) or str(error)
    if "nesting depth" in reason:
        reason = f"nested too deeply ({reason})"
    kind = "YAML" if isinstance(error, RepeatedYamlKey) else "malformed YAML"
    return f"{kind}{at}: {reason}", mark.line + 1 if mark else 1


class UniqueKeyLoader(_BaseLoader):  # type: ignore[misc, valid-type]
    """The safe loader, refusing a key written twice in one mapping: YAML lets the last one win silently, and a
    repeated `attendance:` would change a legal answer without a word."""

    def construct_mapping(self, node: yaml.Node, deep: bool = False) -> dict:
        if isinstance(node, yaml.MappingNode):
            seen = set()
            for key_node, value_node in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    raise RepeatedYamlKey("while reading a mapping", node.start_mark,
                                          "a merge key (<<) is not accepted, like a key written twice: write the "
                                          "fields out", key_node.start_mark)
                key = self.construct_object(key_node, deep=deep)
                if value_node.tag == "tag:yaml.org,2002:timestamp":
                    try:
                        self.construct_object(value_node, deep=deep)
                    except ValueError as error:
                        raise RepeatedYamlKey("while reading a mapping", node.start_mark,
                                              f"{key}: {value_node.value} is no date ({error})",
                                              value_node.start_mark) from None
                # a day is one key however it is written: 2027-07-16 (a date) and "2027-07-16" (text) alike
                marker = key.isoformat() if isinstance(key, (date, datetime)) else key
                if isinstance(marker, (str, int, float, bool)) or marker is None:
                    if marker in seen:
                        raise RepeatedYamlKey("while reading a mapping", node.start_mark,
                                              f"the key {marker!r} is written twice", key_node.start_mark)
                    seen.add(marker)
        return super().construct_mapping(node, deep=deep)


# YAML 1.1 reads 58:20 as the base-60 number 3,500 and 10:00:30 as 36,030: with a colon, a plain value is text
# here (a clock time is then read as a time, and a number written so is refused as no number).
UniqueKeyLoader.yaml_implicit_resolvers = {
    first: [(tag, re.compile(r"(?!.*:)" + pattern.pattern, pattern.flags)
              if tag in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float") else pattern) for tag, pattern in resolvers]
    for first, resolvers in _BaseLoader.yaml_implicit_resolvers.items()}


class DuplicateKey(ValueError):
    """A JSON object names a key twice."""


def unique_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """json.loads's object_pairs_hook: an object, refusing a key written twice (JSON would keep the last)."""
    found = dict(pairs)
    if len(found) < len(pairs):
        seen: set[str] = set()
        twice = next(key for key, _ in pairs if key in seen or seen.add(key))
        raise DuplicateKey(f"the key {twice!r} is written twice in one object")
    return found
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class EventFileError(Exception):
    """A problem with an event file, phrased for the person who wrote it."""

    def __init__(self, path: str, problems: list[tuple[str, str]]):
        self.path = path
        if len(problems) > MAX_PROBLEMS:
            problems = problems[:MAX_PROBLEMS] + [("", f"... and {len(problems) - MAX_PROBLEMS} more problems")]
        self.problems = problems
        lines = [f"{path}: {field}: {message}" if field else f"{path}: {message}" for field, message in problems]
        super().__init__("\n".join(lines))


def shown(value: Any) -> str:
    """A given value as a message quotes it: short, and never too large to print."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 3 * MAX_SHOWN:
        return f"a number of about {int(value.bit_length() * 0.30103):,} digits"
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    text = repr(value)
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN - 1] + "…"


def unreadable_value(error: ValueError) -> str:
    """A value the JSON or YAML reader refused, in the words of the person who wrote it."""
    digits = re.search(r"value has (\d+) digits", str(error))
    if digits:
        return (f"holds a number of {int(digits.group(1)):,} digits, which cannot be read "
                "(every number in an event file is at most 1,000,000,000)")
    return f"a value cannot be read: {error}"


def _field_path(location: tuple) -> str:
    text = ""
    for part in location:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _plain_location(location: tuple) -> tuple:
    """The location without pydantic's labels of a union's branches (schedule.end.datetime,
    schedule.end.function-after[ordered(), EndRange]): parts that name no field where a model has fields,
    nor a key that is not a string (reported by its own words)."""
    kept: list[Any] = []
    for part in location:
        if isinstance(part, str) and part != "[key]":
            fields = _fields_at(tuple(kept))
            if (fields and part not in fields) or "[" in part:
                continue
        kept.append(part)
    return tuple(kept)


def _fields_at(location: tuple) -> list[str]:
    """The field names of the event model's part at a location (attendance -> expected_max, female, ...)."""
    import typing

    from reasoner.events.model import Event

    model: Any = Event
    for part in location:
        if isinstance(part, int):
            continue
        field = getattr(model, "model_fields", {}).get(part)
        if field is None:
            return []
        candidates, model = [field.annotation], None
        while candidates and model is None:  # list[Session] | None: the model inside the list inside the union
            annotation = candidates.pop(0)
            if isinstance(annotation, type) and hasattr(annotation, "model_fields"):
                model = annotation
            candidates += typing.get_args(annotation)
        if model is None:
            return []
    return list(getattr(model, "model_fields", {}))


@cache
def _named_fields() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each field of the event model that takes names of the vocabulary (a name, a list of names, or a mapping by
    name), by its path (flags, site.flags, provisions), with the names it takes."""
    import typing

    from reasoner.events.model import Event

    found: list[tuple[str, tuple[str, ...]]] = []

    def walk(model: Any, prefix: str) -> None:
        for name, field in model.model_fields.items():
            path = f"{prefix}{name}"
            annotations = [field.annotation]
            while annotations:
                annotation = annotations.pop(0)
                if typing.get_origin(annotation) is typing.Literal:
                    found.append((path, tuple(str(a) for a in typing.get_args(annotation))))
                elif isinstance(annotation, type) and hasattr(annotation, "model_fields"):
                    walk(annotation, f"{path}.")
                else:
                    annotations += typing.get_args(annotation)

    walk(Event, "")
    return tuple(dict.fromkeys(found))


_FORMATS = {"datetime": "a date and time as 2027-07-16T12:00 (year-month-day, then the 24-hour clock)",
            "date": "a date as 2027-07-16 (year-month-day)"}


def _problems(error: Any, prefix: str) -> list[tuple[str, str]]:
    """A pydantic ValidationError's problems, each as (field path, message)."""
    import difflib

    items = error.errors()
    suggested: set[tuple] = set()
    found = []
    for item in items:
        location = tuple(item["loc"])
        where = _field_path(_plain_location(location) if item["type"] != "extra_forbidden" else location)
        if prefix:
            where = f"{prefix}.{where}" if where else prefix
        given = item.get("input")
        detail = item["msg"].removeprefix("Value error, ")
        if item["type"] == "invalid_key":   # pydantic puts the key, made text, in the path: `None`
            location = location[:-1]
            where = _field_path(_plain_location(location))
            if prefix:
                where = f"{prefix}.{where}" if where else prefix
            detail = ("a key is null (written ~, null or left empty); name a field" if given is None
                      else "a key is not a name; name a field")
        elif item["type"] in _MAPPING_ERRORS:
            detail = "should be a mapping of fields (key: value)"
        if item["type"] == "extra_forbidden" and location and isinstance(location[-1], str):
            fields = _fields_at(location[:-1])
            close = difflib.get_close_matches(location[-1], fields, n=1, cutoff=0.6)
            detail = f"no such field{f'; did you mean {close[0]}?' if close else ''}"
            if fields and not close:
                detail += f" (fields here: {', '.join(fields)})"
            if close:
                suggested.add(location[:-1] + (close[0],))
            if not isinstance(given, (dict, list)):
                detail += f" (given: {shown(given)})"
            found.append((where, detail))
            continue
        if location and location[-1] == "[key]":   # a dict's key (provisions.toilet): the path names it already
            where = where.removesuffix(".[key]")
        if item["type"] in ("literal_error", "enum") and isinstance(given, str):

            choices = re.findall(r"'([^']*)'", str((item.get("ctx") or {}).get("expected", "")))
            close = difflib.get_close_matches(given, choices, n=1, cutoff=0.6)
            # a name that belongs to another field (toilets among the flags: a provision)
            elsewhere = [(path, near) for path, names_there in _named_fields() if set(names_there) != set(choices)
                         for near in difflib.get_close_matches(given, names_there, n=1, cutoff=0.75)]
            if close:
                detail = f"not a name this field knows; did you mean {close[0]}?"
            elif elsewhere:
                path, near = max(elsewhere, key=lambda found: difflib.SequenceMatcher(None, given, found[1]).ratio())
                detail = (f"not a name this field knows: {near} is a name of {path}" if near == given else
                          f"not a name this field knows; did you mean {near}, a name of {path}?")
            elif len(choices) > 8:
                detail = f"not a name this field knows (it knows {len(choices)}: reasoner schema lists them)"
            else:
                detail = f"not a name this field knows (it knows {', '.join(choices)})"
        kind = "datetime" if item["type"].startswith("datetime") else "date" if item["type"].startswith("date") else None
        if kind and isinstance(given, str):
            detail = f"not {_FORMATS[kind].split(' as ')[0]} this reader knows: write {_FORMATS[kind]}"
        if item["type"] != "missing" and not isinstance(given, (dict, list)) and not (
                item["type"] == "invalid_key" and given is None):
            detail += f" (given: {shown(given)})"
        found.append((where, detail))
    # A field reported missing because it was misspelt is said once, at the misspelling; of a union's branches
    # (a time or a range of times) only those that fit what was given: no mapping asked of a value written as text
    # or a number, no time asked of a mapping whose own fields are refused.
    wheres = [where for where, _ in found]
    return [(where, detail) for (where, detail), item in zip(found, items)
            if not (item["type"] == "missing" and tuple(item["loc"]) in suggested)
            and not (item["type"] in _MAPPING_ERRORS and not isinstance(item.get("input"), (dict, list))
                     and wheres.count(where) > 1)
            and not (item["type"] not in _MAPPING_ERRORS and isinstance(item.get("input"), dict)
                     and any(other.startswith((f"{where}.", f"{where}[")) for other in wheres))]


_MAPPING_ERRORS = ("model_type", "model_attributes_type", "dict_type")


def check_bounds(data: Any, path: str) -> None:
    """Refuse data nested too deeply, too large once aliases are expanded, or holding text that is not text.
    Iterative, so that no depth of nesting can exhaust Python's stack here."""
    count = 0
    # Each value with its depth and where it sits, as (parent's place, key): made text only for an error.
    stack: list[tuple[Any, int, Any]] = [(data, 0, None)]
    while stack:
        value, depth, place = stack.pop()
        count += 1
        if count > MAX_VALUES:
            raise EventFileError(path, [("", f"the file expands to more than {MAX_VALUES:,} values "
                                              "(YAML aliases count each time they are used)")])
        if depth > MAX_DEPTH:
            raise EventFileError(path, [(_place_text(place), f"nested more than {MAX_DEPTH} levels deep")])
        if isinstance(value, str):
            if not value.isascii() and _LONE_SURROGATE.search(value):
                raise EventFileError(path, [(_place_text(place), "holds a lone UTF-16 surrogate (an escape such as "
                                                                "\\ud800), which is not text")])
        elif isinstance(value, dict):
            for key, item in value.items():
                if isinstance(key, str) and not key.isascii() and _LONE_SURROGATE.search(key):
                    raise EventFileError(path, [(_place_text(place), "a field name holds a lone UTF-16 surrogate, "
                                                                    "which is not text")])
                stack.append((item, depth + 1, (place, str(key))))
        elif isinstance(value, list):
            if len(value) > MAX_ITEMS and place is not None and place != (None, "events"):  # not a list of events
                raise EventFileError(path, [(_place_text(place), f"a list of {len(value):,} items; at most "
                                                                f"{MAX_ITEMS:,} are read")])
            stack.extend((item, depth + 1, (place, index)) for index, item in enumerate(value))


def _place_text(place: Any) -> str:
    """(parent's place, key) chains as a field path: a.b[0].c."""
    parts = []
    while place is not None:
        place, key = place
        parts.append(key)
    text = ""
    for key in reversed(parts):
        text += f"[{key}]" if isinstance(key, int) else (f".{key}" if text else key)
    return text


def parse_events(data: Any, path: str, light: bool = False) -> list["Event"]:
    """Validate already-loaded data: one event, a list of events, or {events: [...]}. With `light`, events the
    pydantic-free reader is sure of come as its light objects (reasoner/events/plan.py); the others as the models."""
    if isinstance(data, dict) and set(data) == {"events"}:
        data = data["events"]
    records = data if isinstance(data, list) else [data]
    if not records:
        raise EventFileError(path, [("", "the file holds no event")])
    if len(records) > MAX_EVENTS:
        raise EventFileError(path, [("", f"the file holds {len(records):,} events; at most {MAX_EVENTS:,} are "
                                         "evaluated from one file (split it)")])
    check_bounds(data, path)
    events = _light_events(records) if light else None
    if events is None:
        events = _model_events(records, isinstance(data, list), path)
    seen: set[str] = set()
    for index, event in enumerate(events):
        if event.id in seen:
            raise EventFileError(path, [(f"[{index}].id", f"duplicate event id {shown(event.id)}")])
        seen.add(event.id)
    return events


def _light_events(records: list[Any]) -> list[Any] | None:
    from reasoner.events.plan import read_events

    return read_events(records)


def _model_events(records: list[Any], listed: bool, path: str) -> list["Event"]:
    """The records as pydantic models; every problem becomes an EventFileError."""
    from pydantic import ValidationError

    from reasoner.events.model import Event

    events, problems = [], []
    for index, record in enumerate(records):
        prefix = f"[{index}]" if listed else ""
        if not isinstance(record, dict):
            problems.append((prefix, f"an event must be a mapping of fields, got {type(record).__name__}"))
            continue
        try:
            events.append(Event.model_validate(record))
        except ValidationError as error:
            problems.extend(_problems(error, prefix))
        except RecursionError:
            problems.append((prefix, "nested too deeply"))
    if problems:
        raise EventFileError(path, problems)
    return events


def file_kind(mode: int) -> str | None:
    """What a path is, in words, when it is not a regular file that can be read whole."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return None if stat.S_ISREG(mode) else "not a regular file"


def unstattable(error: OSError) -> str:
    if error.errno == errno.ELOOP:
        return "a symbolic link that loops"
    if error.errno == errno.ENOENT:
        return "a symbolic link to nothing" if os.path.islink(error.filename or "") else "cannot read file: no such file"
    return f"cannot read file: {error.strerror or error}"


class RefusedFile(Exception):
    """A path that is not a readable regular file within the size limit; the message says why, without the path."""


def read_bounded(path: str | Path, what: str = "an event file", limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most `limit` bytes, or RefusedFile. The one reader of a named file for
    every command: a FIFO (which blocks with no writer), a device (/dev/zero never ends), a socket or a folder is
    refused before it is opened, and a file past the limit before it is read whole."""
    try:
        info = os.stat(path)
    except OSError as error:
        raise RefusedFile(unstattable(error)) from None
    kind = file_kind(info.st_mode)
    if kind is None and info.st_size > limit:
        raise RefusedFile(f"the file is larger than {limit // 2**20} MiB, the limit of {what}; split it")
    if kind is not None:
        raise RefusedFile(f"{kind}, not {what}")
    try:
        # non-blocking, and checked again once open: the path may have been swapped for a FIFO since the stat
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
        with open(descriptor, "rb") as handle:
            kind = file_kind(os.fstat(descriptor).st_mode)
            if kind is not None:
                raise RefusedFile(f"{kind}, not {what}")
            raw = handle.read(limit + 1)
    except OSError as error:
        raise RefusedFile(f"cannot read file: {error.strerror or error}") from None
    if len(raw) > limit:
        raise RefusedFile(f"the file is larger than {limit // 2**20} MiB, the limit of {what}; split it")
    return raw


def read_text_bounded(path: str | Path, what: str) -> str:
    """read_bounded as UTF-8 text with universal newlines, as Path.read_text reads it."""
    return read_bounded(path, what).decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


_stdin: tuple[Any, bytes] | None = None   # (the stream, what it held)


def _read(path: Path) -> bytes:
    if str(path) != "-":
        try:
            return read_bounded(path)
        except RefusedFile as error:
            raise EventFileError(str(path), [("", str(error))]) from None
    import sys  # standard input: read once, however often a command asks for it

    global _stdin
    if sys.stdin is None or getattr(sys.stdin, "closed", False):
        raise EventFileError("-", [("", "cannot read standard input: it is closed")])
    try:
        if _stdin is None or _stdin[0] is not sys.stdin:
            _stdin = (sys.stdin, sys.stdin.buffer.read(MAX_FILE_BYTES + 1))
    except OSError as error:
        raise EventFileError("-", [("", f"cannot read standard input: {error.strerror or error}")]) from None
    raw = _stdin[1]
    if len(raw) > MAX_FILE_BYTES:
        raise EventFileError("-", [("", f"the input is larger than {MAX_FILE_BYTES // 2**20} MiB, the limit of an event file; split it")])
    return raw


def scan_yaml(text: str, where: str) -> None:
    """Walk the YAML event stream (no objects built) and refuse, early, what would be too large to build:
    too many events, runaway alias expansion, recursive aliases, deep nesting."""
    frames: list[list[Any]] = []   # [is_mapping, anchor, expanded size, next node is a key, last key]
    sizes: dict[str, int] = {}
    total = records = 0

    def begin(event: Any) -> None:
        nonlocal records
        if not frames:
            return
        parent = frames[-1]
        if parent[0]:
            if parent[3] and isinstance(event, yaml.ScalarEvent):
                parent[4] = event.value
            parent[3] = not parent[3]
        elif len(frames) == 1 or (len(frames) == 2 and frames[0][0] and frames[0][4] == "events"):
            records += 1
            if records > MAX_EVENTS:
                raise EventFileError(where, [("", f"the file holds more than {MAX_EVENTS:,} events; at most "
                                                  f"{MAX_EVENTS:,} are evaluated from one file (split it)")])

    def add(size: int) -> None:
        nonlocal total
        total += size
        if frames:
            frames[-1][2] += size
        if total > MAX_VALUES:
            raise EventFileError(where, [("", f"the file expands to more than {MAX_VALUES:,} values "
                                              "(YAML aliases count each time they are used)")])

    for event in yaml.parse(text, Loader=UniqueKeyLoader):
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            begin(event)
            if len(frames) >= MAX_DEPTH:
                line = event.start_mark.line + 1 if event.start_mark else "?"
                raise EventFileError(where, [("", f"nested more than {MAX_DEPTH} levels deep (line {line})")])
            frames.append([isinstance(event, yaml.MappingStartEvent), event.anchor, 0, True, None])
            add(1)
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            _, anchor, size, _, _ = frames.pop()
            if anchor:
                sizes[anchor] = size + 1
            if frames:
                frames[-1][2] += size
        elif isinstance(event, yaml.ScalarEvent):
            begin(event)
            if event.anchor:
                sizes[event.anchor] = 1
            add(1)
        elif isinstance(event, yaml.AliasEvent):
            begin(event)
            if event.anchor not in sizes and any(frame[1] == event.anchor for frame in frames):
                raise EventFileError(where, [("", f"the alias *{event.anchor} refers to itself")])
            add(sizes.get(event.anchor, 1))


def _tab(text: str, error: yaml.YAMLError) -> str | None:
    """A tab where YAML wants spaces, said as such (the reader says a token cannot start there)."""
    mark = getattr(error, "problem_mark", None)
    lines = text.splitlines()
    if mark is None or mark.line >= len(lines) or "\t" not in lines[mark.line][:mark.column + 1]:
        return None
    return (f"malformed YAML: a tab at line {mark.line + 1}, column {lines[mark.line].index(chr(9)) + 1}: YAML is indented with spaces, "
            "never tabs")


_THOUSANDS = re.compile(r"(?<![\w.\"'-])\d{1,3}(?:,\d{3})+(?![\w.])")


def _thousands(text: str) -> list[tuple[str, str]]:
    """Numbers written with thousands separators, which YAML reads as several values: each, with its line."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        content = line.split("#", 1)[0]
        for match in _THOUSANDS.finditer(content):
            found.append(("", f"line {number}: {match.group(0)} is read as separate values, not one number; write "
                              f"numbers without thousands separators ({match.group(0).replace(',', '')})"))
    return found


def _json_lines(text: str, where: str) -> list[Any]:
    """A JSONL file: one event per line, each line's problems at its own line and column."""
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line, object_pairs_hook=unique_object))
        except json.JSONDecodeError as error:
            raise EventFileError(where, [("", f"malformed JSON at line {number}, column {error.colno}: {error.msg}")]) from None
    return records


def parse_text(text: str, path: Path) -> Any:
    where = str(path)
    try:
        if path.suffix.lower() == ".jsonl":
            return _json_lines(text, where)
        if path.suffix.lower() == ".json" or (str(path) == "-" and text.lstrip().startswith(("{", "["))):
            return json.loads(text, object_pairs_hook=unique_object)
        scan_yaml(text, where)
        return yaml.load(text, Loader=UniqueKeyLoader)  # noqa: S506 - a safe loader
    except json.JSONDecodeError as error:
        raise EventFileError(where, [("", f"malformed JSON at line {error.lineno}, column {error.colno}: {error.msg}")]) from None
    except yaml.YAMLError as error:
        raise EventFileError(where, [("", _tab(text, error) or yaml_problem(error)[0])]) from None
    except RecursionError:
        raise EventFileError(where, [("", f"nested too deeply (at most {MAX_DEPTH} levels)")]) from None
    except DuplicateKey as error:
        raise EventFileError(where, [("", str(error))]) from None
    except ValueError as error:  # e.g. an integer literal of thousands of digits
        raise EventFileError(where, [("", unreadable_value(error))]) from None


def load_events(path: str | Path, light: bool = False) -> list["Event"]:
    """Read a YAML or JSON event file; every problem becomes an EventFileError naming file and field. With
    `light`, valid events may come as light objects (parse_events)."""
    path = Path(path)
    raw = _read(path)
    # YAML may be UTF-16 with its byte order mark, as the batch (PyYAML reading bytes) takes it; JSON is UTF-8
    encoding = "utf-16" if raw.startswith((b"\xff\xfe", b"\xfe\xff")) and path.suffix.lower() not in (
        ".json", ".jsonl") else "utf-8-sig"
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as error:
        name = "UTF-16" if encoding == "utf-16" else "UTF-8"
        raise EventFileError(str(path), [("", f"not {name} text (byte {error.start})")]) from None
    data = parse_text(text, path)
    if data is None:
        raise EventFileError(str(path), [("", "the file is empty")])
    try:
        return parse_events(data, str(path), light)
    except EventFileError as error:
        hints = _thousands(text) if path.suffix.lower() not in (".json", ".jsonl") else []
        if hints:
            raise EventFileError(str(path), hints + error.problems) from None
        raise
