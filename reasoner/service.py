"""Everything the web app asks of the library, in one module: each command does what its CLI command does for
`--format json` (the same library calls, in the same order, with the same messages for bad input), taking a
request as a plain dict and returning the same JSON-ready data. Bad input raises InputProblem.

The CLI's own checks that live in reasoner/cli.py (a file holding several events, explain's refusal of
unknown facts, a clause that is not registered) are restated here with the CLI's words; tests/test_web_api.py
compares both on the same inputs.
"""
from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from reasoner.modes.compare import CompareError, compare as compare_events, parse_kinds
from reasoner.events.model import Event
from reasoner.events.rules import one_event, with_filing_date, with_law_date
from reasoner.modes.explain import explain as explain_event, kind_problem, unknown_conclusion
from reasoner.events.loading import (DuplicateKey, EventFileError, MAX_DEPTH, parse_text, check_bounds, parse_events,  # noqa: F401 - the
                       unique_object)  # app's JSON reading
from reasoner.law.registry import clauses_record, ordinance_record, registry
from reasoner.program import SolveTimeout, UnknownOrdinance, check_ordinances
from reasoner.evaluate import evaluate_any
from reasoner.unknowns import questions as event_questions
from reasoner.modes.whatif import WhatIfError, whatif as whatif_event

DEFAULT_NAME = "event"   # how messages name an event given without a file name


class InputProblem(Exception):
    """Bad input, phrased as the CLI phrases it: `message` is what the CLI prints after "error: ", and `problems`
    the (field, message) pairs of an event file."""

    def __init__(self, message: str, problems: list[tuple[str, str]] | None = None):
        super().__init__(message, problems)
        self.message = message
        self.problems = problems if problems is not None else [("", message)]

    def __str__(self) -> str:
        return self.message


STAGES = {"evaluate": "evaluating", "explain": "explaining", "questions": "weighing the questions",
          "whatif": "searching for a change", "compare": "comparing"}


def timeout_message(seconds: float, command: str) -> str:
    """The CLI's words when --time-limit passes."""
    return str(SolveTimeout(seconds, STAGES[command])) + "; no conclusion is given"


# ---------------------------------------------------------------- reading the request

def _name(request: dict[str, Any]) -> str:
    return request.get("filename") or DEFAULT_NAME


def check_body(body: Any) -> None:
    """Refuse, before anything else reads or copies it, a request body nested past what an event needs: an event
    given as JSON gets the CLI's field-level message; any other field one message for the body."""
    if isinstance(body, dict) and body.get("source") is None and body.get("event") is not None:
        name = body.get("filename") if isinstance(body.get("filename"), str) else None
        try:
            check_bounds(body["event"], name or DEFAULT_NAME)
        except EventFileError as error:
            raise InputProblem(str(error), list(error.problems)) from None
    stack = [(body, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH + 1:
            raise InputProblem(f"request body: nested more than {MAX_DEPTH + 1} levels deep")
        if isinstance(value, dict):
            stack.extend((item, depth + 1) for item in value.values())
        elif isinstance(value, list):
            stack.extend((item, depth + 1) for item in value)


def load(request: dict[str, Any]) -> list[Event]:
    """The events of a request: `source` (an event file's text, YAML or JSON by `filename`'s extension, as
    `load_events` reads a file) or `event` (already-parsed JSON: one event, a list, or {events: [...]}), under the
    law in force on `as_of` when the request gives it (`--as-of`)."""
    name = _name(request)
    try:
        if request.get("source") is not None:
            data = parse_text(request["source"].removeprefix("\ufeff"), Path(name))
        else:
            data = request.get("event")
        if data is None:
            raise EventFileError(name, [("", "the file is empty")])
        events = parse_events(data, name)
    except EventFileError as error:
        raise InputProblem(str(error), [(field, message) for field, message in error.problems]) from None
    try:
        return with_law_date(events, request.get("as_of"))
    except ValueError as error:
        raise InputProblem(f"as_of: {error}") from None


def _ordinances(names: Any) -> tuple[str, ...]:
    try:
        return check_ordinances(tuple(names or ()))
    except UnknownOrdinance as error:
        raise InputProblem(str(error)) from None


def _one_event(request: dict[str, Any]) -> Event:
    try:
        return one_event(load(request), request.get("event_id"), _name(request), "event_id")
    except ValueError as error:
        raise InputProblem(str(error)) from None


def _with_filing_date(events: list[Event], filed: date | None) -> list[Event]:
    try:
        return with_filing_date(events, filed)
    except ValueError as error:
        raise InputProblem(f"filed: {error}") from None


def _conclusion(conclusion: str | None, chosen: tuple[str, ...]) -> None:
    if conclusion is not None and (problem := unknown_conclusion(conclusion, chosen)):
        raise InputProblem(problem)


# ---------------------------------------------------------------- the commands

def evaluate(request: dict[str, Any]) -> list[dict[str, Any]]:
    """`reasoner evaluate EVENT_FILE [-o NAME]... [--filed DATE] --format json`."""
    chosen = _ordinances(request.get("ordinances"))
    events = _with_filing_date(load(request), request.get("filed"))
    return evaluate_any(events, chosen)


def explain(request: dict[str, Any]) -> list[dict[str, Any]]:
    """`reasoner explain EVENT_FILE [CONCLUSION] [-o NAME]... [--event ID] --format json`."""
    chosen = _ordinances(request.get("ordinances"))
    event = _one_event(request)
    conclusion = request.get("conclusion")
    _conclusion(conclusion, chosen)
    reports = [explain_event(event, ordinance, conclusion) for ordinance in chosen]
    if conclusion is not None and (problem := kind_problem(conclusion, reports)):
        raise InputProblem(problem)
    return reports


def questions(request: dict[str, Any]) -> dict[str, Any]:
    """`reasoner questions EVENT_FILE [-o NAME]... [--event ID] --format json`."""
    event = _one_event(request)
    return event_questions(event, _ordinances(request.get("ordinances")))


def whatif(request: dict[str, Any]) -> dict[str, Any]:
    """`reasoner whatif EVENT_FILE -o NAME --flip CONCLUSION [--keep GROUP]... [--allow GROUP]... --format json`."""
    [chosen] = _ordinances((request["ordinance"],))
    event = _one_event(request)
    _conclusion(request["flip"], (chosen,))
    try:
        return whatif_event(event, chosen, request["flip"], tuple(request.get("keep") or ()),
                            tuple(request.get("allow") or ()))
    except WhatIfError as error:
        raise InputProblem(str(error)) from None


def compare(request: dict[str, Any]) -> list[dict[str, Any]]:
    """`reasoner compare EVENT_FILE [-o NAME]... [--event ID] [--kinds K,K] --format json`."""
    chosen = _ordinances(request.get("ordinances"))
    events = [_one_event(request)] if request.get("event_id") is not None else load(request)
    kinds = request.get("kinds")
    try:
        parsed = parse_kinds(",".join(kinds) if kinds is not None else None)
    except ValueError as error:
        raise InputProblem(f"kinds: {error}") from None
    try:
        return compare_events(events, chosen, parsed)
    except CompareError as error:
        raise InputProblem(f"{_name(request)}: {error}") from None


def clauses(ordinance: str | None = None, clause_id: str | None = None) -> list[dict[str, Any]]:
    """`reasoner clauses [NAME [CLAUSE_ID]] --format json`."""
    chosen = _ordinances((ordinance,) if ordinance else ())
    if clause_id and clause_id not in registry(chosen[0]).clauses:
        raise InputProblem(f"{chosen[0]} has no clause {clause_id!r}; list them with: reasoner clauses {chosen[0]}")
    return clauses_record(chosen, clause_id)


def ordinances() -> list[dict[str, Any]]:
    """`reasoner ordinances --format json`: the encoded ordinances with their jurisdiction, title and metadata."""
    return [ordinance_record(name) for name in check_ordinances(())]  # not those not encoded yet


def schema() -> dict[str, Any]:
    """`reasoner schema`: the JSON Schema of event files."""
    return Event.model_json_schema()


COMMANDS = {"evaluate": evaluate, "explain": explain, "questions": questions, "whatif": whatif, "compare": compare}


def run(command: str, request: dict[str, Any]) -> Any:
    """One solving command, by name (what a worker process runs)."""
    return COMMANDS[command](request)
