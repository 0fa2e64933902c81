"""Reading event files: YAML or JSON, one event or many; every problem names the file and the field."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError


class EventFileError(Exception):
    """A problem with an event file, phrased for the person who wrote it."""

    def __init__(self, path: str, problems: list[tuple[str, str]]):
        self.path = path
        self.problems = problems
        lines = [f"{path}: {field}: {message}" if field else f"{path}: {message}" for field, message in problems]
        super().__init__("\n".join(lines))


def _field_path(location: tuple) -> str:
    text = ""
    for part in location:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _problems(error: ValidationError, prefix: str) -> list[tuple[str, str]]:
    found = []
    for item in error.errors():
        where = _field_path(tuple(item["loc"]))
        if prefix:
            where = f"{prefix}.{where}" if where else prefix
        given = item.get("input")
        detail = item["msg"].removeprefix("Value error, ")
        if item["type"] not in ("missing",) and not isinstance(given, (dict, list)):
            detail += f" (given: {given!r})"
        found.append((where, detail))
    return found


def parse_events(data: Any, path: str) -> list["Event"]:
    """Validate already-loaded data: one event, a list of events, or {events: [...]}."""
    from .event import Event

    if isinstance(data, dict) and set(data) == {"events"}:
        data = data["events"]
    records = data if isinstance(data, list) else [data]
    if not records:
        raise EventFileError(path, [("", "the file holds no event")])
    events, problems = [], []
    for index, record in enumerate(records):
        prefix = f"[{index}]" if isinstance(data, list) else ""
        if not isinstance(record, dict):
            problems.append((prefix, f"an event must be a mapping of fields, got {type(record).__name__}"))
            continue
        try:
            events.append(Event.model_validate(record))
        except ValidationError as error:
            problems.extend(_problems(error, prefix))
    if problems:
        raise EventFileError(path, problems)
    seen: set[str] = set()
    for index, event in enumerate(events):
        if event.id in seen:
            raise EventFileError(path, [(f"[{index}].id", f"duplicate event id {event.id!r}")])
        seen.add(event.id)
    return events


def load_events(path: str | Path) -> list["Event"]:
    """Read a YAML or JSON event file; every problem becomes an EventFileError naming file and field."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise EventFileError(str(path), [("", f"cannot read file: {error.strerror or error}")]) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise EventFileError(str(path), [("", f"not UTF-8 text (byte {error.start})")]) from None
    try:
        data = json.loads(text) if path.suffix.lower() == ".json" else yaml.safe_load(text)
    except json.JSONDecodeError as error:
        raise EventFileError(str(path), [("", f"malformed JSON at line {error.lineno}, column {error.colno}: {error.msg}")]) from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        reason = getattr(error, "problem", None) or str(error)
        raise EventFileError(str(path), [("", f"malformed YAML{where}: {reason}")]) from None
    if data is None:
        raise EventFileError(str(path), [("", "the file is empty")])
    return parse_events(data, str(path))
