"""The service: every command of the reasoner as one function from a request to its answer. The command line
(reasoner/cli.py) and the web app (reasoner/web/app.py) call these and only parse, print and serve; they are also
the project's Python API (docs/python-api.md).

A command's events come as `Events`: an event file by path, an event file's text, or parsed JSON. Bad input raises
InputProblem, whose message is what the CLI prints after "error: " (exit 2) and the web answers with a 422; no answer
within a time limit raises TimedOut (exit 3, a 503). Each check is stated here once, in the words both faces show;
`Spelling` names a request's fields as the face that took it does (the CLI's `--as-of`, the web's `as_of`).

The modes are imported on first use: importing this module loads neither clingo nor pydantic, so that a cold
`reasoner evaluate` of known facts pays only for what it uses (tests/test_cli.py).
"""
from __future__ import annotations

import json
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sequence

from reasoner.events.loading import (DuplicateKey, EventFileError, MAX_DEPTH, check_bounds, parse_events, parse_text,
                                     unique_object)

if TYPE_CHECKING:
    from reasoner.events.model import Event

DEFAULT_NAME = "event"   # how messages name an event given without a file name


class ServiceError(Exception):
    """What a command refuses or fails with; `message` is what the CLI prints after "error: ". Every argument stays
    in `args`, so the error crosses from a web worker's process intact."""

    def __init__(self, message: str, *details: Any):
        super().__init__(message, *details)
        self.message = message

    def __str__(self) -> str:
        return self.message


class InputProblem(ServiceError):
    """Bad input: `message` is what the CLI prints after "error: ", and `problems` the (field, message) pairs of an
    event file."""

    def __init__(self, message: str, problems: list[tuple[str, str]] | None = None):
        super().__init__(message, problems)
        self.problems = problems if problems is not None else [("", message)]


class TimedOut(ServiceError):
    """No answer within the time limit; `message` is what the CLI prints after "error: "."""


class Fault(ServiceError):
    """The environment failed a batch (a worker died, the disk is full); `message` says how."""


class OutOfMemory(Fault):
    """The answer needed more memory than the limit (`bounded`); `message` says which limit and what to try."""


@dataclass(frozen=True)
class Spelling:
    """How a face names a request's fields in its messages: the web by its JSON fields (the default), the CLI by
    its options."""

    event_id: str = "event_id"
    as_of: str = "as_of"
    filed: str = "filed"
    kinds: str = "kinds"
    versions: str = "versions"
    changes: str = "changes"
    readings: str = "depends_on_readings"


CLI = Spelling(event_id="--event ID", as_of="--as-of", filed="--filed", kinds="--kinds", versions="--versions",
               changes="--changes", readings="--readings")


@dataclass(frozen=True)
class Events:
    """A command's events: the event file at `path` ('-' for standard input), or `source` (an event file's text,
    YAML or JSON by `filename`'s extension), or `event` (already-parsed JSON: one event, a list, or
    {events: [...]}). `as_of` applies the law in force on that day (default: each event's as_of, else its first
    day); `event_id` picks one event of a file that holds several."""

    path: str | None = None
    source: str | None = None
    event: Any = None
    filename: str | None = None
    as_of: date | None = None
    event_id: str | None = None
    spelling: Spelling = Spelling()

    @property
    def name(self) -> str:
        """How messages name the input."""
        return self.path or self.filename or DEFAULT_NAME


STAGES = {"evaluate": "evaluating", "explain": "explaining", "questions": "weighing the questions",
          "whatif": "searching for a change", "compare": "comparing"}


def timeout_message(seconds: float, command: str) -> str:
    """What a command says when its time limit passes."""
    from reasoner.program import SolveTimeout

    return str(SolveTimeout(seconds, STAGES[command])) + "; no conclusion is given"


# ---------------------------------------------------------------- reading the request

def read_body(body: bytes) -> Any:
    """A request body's JSON, read as the event loader reads a JSON file: a key written twice is refused, and so is
    nesting past an event's depth (check_body). Malformed JSON raises ValueError."""
    import json

    try:
        data = json.loads(body, object_pairs_hook=unique_object)
    except DuplicateKey as error:
        raise InputProblem(f"request body: {error}") from None
    except RecursionError:
        raise InputProblem(f"request body: nested more than {MAX_DEPTH + 1} levels deep") from None
    except UnicodeDecodeError as error:  # FastAPI would answer these two with a bare 400, not the refusal's shape
        raise InputProblem(f"request body: not UTF-8 (byte {error.start})") from None
    except ValueError as error:
        if isinstance(error, json.JSONDecodeError):
            raise
        raise InputProblem("request body: a number has more digits than any field accepts") from None
    check_body(data)
    return data


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


def load(events: Events, light: bool = False) -> list[Event]:
    """The events of a request, under the law in force on its `as_of`. With `light`, valid events of a file may
    come as light objects that only evaluation reads (reasoner/events/plan.py: no pydantic on a cold start)."""
    name = events.name
    try:
        if events.path is not None:
            from reasoner.events.loading import load_events

            found = load_events(events.path, light)
        else:
            data = (parse_text(events.source.removeprefix("\ufeff"), Path(name)) if events.source is not None
                    else events.event)
            if data is None:
                raise EventFileError(name, [("", "the file is empty")])
            found = parse_events(data, name)
    except EventFileError as error:
        raise InputProblem(str(error), [(field, message) for field, message in error.problems]) from None
    return law_date(found, events.as_of, events.spelling)


def law_date(found: list[Event], as_of: date | None, spelling: Spelling = Spelling()) -> list[Event]:
    """The events under the law in force on `as_of` (None: as they are); a date out of range is refused."""
    from reasoner.events.rules import with_law_date

    try:
        return with_law_date(found, as_of)
    except ValueError as error:
        raise InputProblem(f"{spelling.as_of}: {error}") from None


def one(events: Events) -> Event:
    """The event `events.event_id` names, or the input's only one: a file holding several needs an id."""
    from reasoner.events.rules import one_event

    try:
        return one_event(load(events), events.event_id, events.name, events.spelling.event_id)
    except ValueError as error:
        raise InputProblem(str(error)) from None


def chosen(names: Sequence[str] | None = (), unfinished: bool = False) -> tuple[str, ...]:
    """The ordinances named, or every encoded one; one not encoded yet only for `check` and `coverage`
    (`unfinished`)."""
    from reasoner.program import UnknownOrdinance, check_ordinances

    try:
        return check_ordinances(tuple(names or ()), unfinished)
    except UnknownOrdinance as error:
        raise InputProblem(str(error)) from None


def left_out(names: Sequence[str] | None = ()) -> tuple[str, ...]:
    """The ordinances not encoded yet, which "every ordinance" (no names) leaves out."""
    from reasoner.law.ordinances import unfinished_ordinances

    return () if names else tuple(unfinished_ordinances())


def _with_filing_date(found: list[Event], filed: date | None, spelling: Spelling) -> list[Event]:
    from reasoner.events.rules import with_filing_date

    try:
        return with_filing_date(found, filed)
    except ValueError as error:
        raise InputProblem(f"{spelling.filed}: {error}") from None


def within(seconds: float | None, work: Any) -> Any:
    """`work`, given up after `seconds`: every solver call in it shares one limit (reasoner.program.time_limit)."""
    if seconds is None:
        return work()
    from reasoner.program import SolveTimeout, time_limit

    try:
        with time_limit(seconds):
            return work()
    except SolveTimeout as error:
        raise TimedOut(f"{error}; no conclusion is given") from None


def default_memory_limit() -> int:
    """Megabytes a command may take by default: half of the machine's memory, so that one answer too large to
    find (a what-if over hundreds of sessions) ends with a message rather than taking the machine down."""
    import os

    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2 // (1 << 20)


def limit_memory(megabytes: int) -> tuple[int, int]:
    """At most `megabytes` of address space from now on (RLIMIT_AS, never above a limit already set): past it
    clingo's and Python's allocations fail with MemoryError. Returns the limits before, to put back."""
    import resource

    before = resource.getrlimit(resource.RLIMIT_AS)
    limit = min([megabytes << 20, *(v for v in before if v != resource.RLIM_INFINITY)])
    resource.setrlimit(resource.RLIMIT_AS, (limit, before[1]))
    return before


@contextmanager
def memory_limit(megabytes: int | None) -> Iterator[None]:
    """`limit_memory` within the block, put back after."""
    import resource

    if megabytes is None:
        yield
        return
    before = limit_memory(megabytes)
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, before)


def out_of_memory(megabytes: int) -> OutOfMemory:
    return OutOfMemory(f"the answer needs more than the memory limit of {megabytes:,} MB; no conclusion is given "
                       "(a what-if searches less with some facts kept)")


def bounded(megabytes: int | None, work: Any) -> Any:
    """`work` within `megabytes` of memory (`memory_limit`); past it, OutOfMemory."""
    try:
        with memory_limit(megabytes):
            return work()
    except MemoryError:
        raise out_of_memory(megabytes or 0) from None


def _readings(given: Any) -> list[tuple[tuple[str, str], str]]:
    """`readings: {"ordinance.interpretation": "reading"}`, each checked as `--reading` checks it."""
    from reasoner.program import UnknownReading, parse_reading

    if not given:
        return []
    if not isinstance(given, dict) or not all(isinstance(v, str) for v in given.values()):
        raise InputProblem('readings: give them as {"ordinance.interpretation": "reading"}')
    try:
        return [parse_reading(f"{name}={reading}") for name, reading in given.items()]
    except UnknownReading as error:
        raise InputProblem(f"readings: {error}") from None


# ---------------------------------------------------------------- the commands

def evaluate(events: Events, ordinances: Sequence[str] = (), filed: date | None = None,
             time_limit: float | None = None, depends_on_readings: bool = False) -> list[dict[str, Any]]:
    """`reasoner evaluate`: every conclusion, one record per event and ordinance; `filed` checks that filing date
    instead of the events' application.filed; `depends_on_readings` says of each answer whether an alternative
    reading of the law moves it."""
    answer = evaluation(events, ordinances, filed, time_limit, depends_on_readings)
    return [record for chunk in answer.chunks() for record in chunk]


@dataclass(frozen=True)
class Evaluation:
    """`reasoner evaluate`'s answer as it comes: `records` (event, ordinance) records in all, `openings` (event id:
    its first day, what the authority's deadlines are flagged against), and `chunks()`, the records a few events at
    a time, so that a file of 10,000 events is answered in the memory of a few (issue 33)."""

    events: list[Event]
    ordinances: tuple[str, ...]
    time_limit: float | None
    depends_on_readings: bool

    @property
    def records(self) -> int:
        return len(self.events) * len(self.ordinances)

    @property
    def openings(self) -> dict[str, date]:
        return {event.id: event.schedule.opening.date() for event in self.events}

    def chunks(self) -> Iterator[list[dict[str, Any]]]:
        """The records, in order, a chunk of events at a time; the time limit covers them all."""
        from reasoner.evaluate import EVALUATE_CHUNK, evaluate_any
        from reasoner.program import SolveTimeout, time_limit

        try:
            with time_limit(self.time_limit):
                for start in range(0, len(self.events), EVALUATE_CHUNK):
                    chunk = self.events[start:start + EVALUATE_CHUNK]
                    results = evaluate_any(chunk, self.ordinances)
                    if self.depends_on_readings:
                        from reasoner.modes.readings import with_dependencies

                        results = with_dependencies(chunk, results)
                    yield results
        except SolveTimeout as error:
            raise TimedOut(f"{error}; no conclusion is given") from None


def evaluation(events: Events, ordinances: Sequence[str] = (), filed: date | None = None,
               time_limit: float | None = None, depends_on_readings: bool = False) -> Evaluation:
    """`reasoner evaluate`, answered as it comes (`Evaluation.chunks`); the input is read and checked here."""
    names = chosen(ordinances)
    found = _with_filing_date(load(events, light=True), filed, events.spelling)
    return Evaluation(found, names, time_limit, depends_on_readings)


def _known_conclusion(conclusion: str | None, names: tuple[str, ...]) -> None:
    from reasoner.modes.explain import unknown_conclusion

    if conclusion is not None and (problem := unknown_conclusion(conclusion, names)):
        raise InputProblem(problem)


def explain(events: Events, conclusion: str | None = None, ordinances: Sequence[str] = (),
            full: bool = False) -> list[dict[str, Any]]:
    """`reasoner explain`: why each conclusion (or `conclusion`) holds or not, one report per ordinance. Unless
    `full`, the steps about the schedule are marked `folded`, to be shown as one sentence; every node stays."""
    from reasoner.modes.explain import explain as explain_event, kind_problem

    names = chosen(ordinances)
    event = one(events)
    _known_conclusion(conclusion, names)
    reports = [explain_event(event, ordinance, conclusion, readings=True, full=full) for ordinance in names]
    if conclusion is not None and (problem := kind_problem(conclusion, reports)):
        raise InputProblem(problem)
    return reports


def questions(events: Events, ordinances: Sequence[str] = ()) -> dict[str, Any]:
    """`reasoner questions`: the unknown facts that matter, most decisive first."""
    from reasoner.unknowns import questions as event_questions

    event = one(events)
    return event_questions(event, chosen(ordinances))


# How many proposals `reasoner whatif` gives unless asked: the smallest change, then the next smallest that are
# not it with more changes.
PROPOSALS = 3


def whatif(events: Events, ordinance: str, flip: str, keep: Sequence[str] = (), allow: Sequence[str] = (),
           proposals: int = PROPOSALS) -> dict[str, Any]:
    """`reasoner whatif`: the smallest changes to the facts that flip `flip` under one ordinance, ranked (at most
    `proposals`)."""
    from reasoner.modes.whatif import WhatIfError, whatif as whatif_event

    [name] = chosen((ordinance,))
    event = one(events)
    _known_conclusion(flip, (name,))
    try:
        return whatif_event(event, name, flip, tuple(keep or ()), tuple(allow or ()), proposals)
    except WhatIfError as error:
        raise InputProblem(str(error)) from None


def _kinds(kinds: str | None, spelling: Spelling) -> tuple[str, ...]:
    from reasoner.modes.compare import parse_kinds

    try:
        return parse_kinds(kinds)
    except ValueError as error:
        raise InputProblem(f"{spelling.kinds}: {error}") from None


def compare(events: Events, ordinances: Sequence[str] = (), kinds: str | None = None,
            versions: Sequence[date] | None = None, depends_on_readings: bool = False,
            changes: bool = False) -> list[dict[str, Any]]:
    """`reasoner compare`: one table per event (or the `event_id` one), a column per ordinance; `kinds` as
    "obligation,penalty" or "all". With `versions` (dates), one ordinance beside itself: a column per date, under
    the version then in force; with `changes` too, per event only the conclusions that differ between the versions,
    with the clauses reworded (over a file of many events, an amendment's impact report). With
    `depends_on_readings`, each row says whether the ordinances differ because of a reading or whatever the
    reading; one ordinance gets a column per reading that moves an answer."""
    from reasoner.modes.compare import (CompareError, compare as compare_events, compare_readings, compare_versions,
                                        version_changes)

    spelling = events.spelling
    if versions is not None:
        versions_checked(versions, spelling)
    names = chosen(ordinances)
    found = [one(events)] if events.event_id is not None else load(events)
    if versions is not None and len(names) != 1:
        raise InputProblem(f"{spelling.versions} compares one ordinance with itself: name it with -o NAME")
    if versions is not None and depends_on_readings:
        raise InputProblem(f"{spelling.versions} and {spelling.readings} each give the columns: use one of them")
    changes_checked(versions, changes, spelling)
    parsed = _kinds(kinds, events.spelling)
    try:
        if changes:
            return version_changes(found, names[0], versions, parsed)
        if versions is not None:
            return compare_versions(found, names[0], versions, parsed)
        if depends_on_readings:
            return compare_readings(found, names, parsed)
        return compare_events(found, names, parsed)
    except CompareError as error:
        raise InputProblem(f"{events.name}: {error}") from None


def changes_checked(versions: Sequence[date] | None, changes: bool, spelling: Spelling = Spelling()) -> None:
    """`changes` (what changes between versions, on compare and batch) needs the versions' dates."""
    if changes and versions is None:
        raise InputProblem(f"{spelling.changes} lists what changes between versions: give their dates with "
                           f"{spelling.versions}")


def versions_checked(versions: Sequence[date], spelling: Spelling = Spelling()) -> None:
    """Refuse fewer than two dates, or one the reasoner cannot compute deadlines around."""
    from reasoner.events.rules import within_dates

    for day in versions:
        try:
            within_dates(day)
        except ValueError as error:
            raise InputProblem(f"{spelling.versions}: {day.isoformat()!r}: {error}; write dates as 2010-05-26") from None
    if len(versions) < 2:
        raise InputProblem(f"{spelling.versions} needs at least two dates to compare, e.g. 2009-06-01,2011-06-01")


def readings(events: Events, ordinances: Sequence[str] = ()) -> list[dict[str, Any]]:
    """`reasoner readings`: the answers a contested reading of the law moves, on each reading."""
    from reasoner.modes.readings import depends

    names = chosen(ordinances)
    return depends(one(events), names)


def _registered(ordinance: str | None, clause_id: str | None) -> tuple[str, ...]:
    """The ordinance named (or every one), refusing a clause its registry does not hold."""
    from reasoner.law.registry import registry

    names = chosen((ordinance,) if ordinance else ())
    if clause_id and clause_id not in registry(names[0]).clauses:
        raise InputProblem(f"{names[0]} has no clause {clause_id!r}; list them with: reasoner clauses {names[0]}")
    return names


def sweep(events: Events, vary: str, ordinances: Sequence[str] = (), step: int | None = None,
          kinds: str | None = None, max_steps: int | None = None) -> Any:
    """`reasoner sweep`: one fact varied over a range (`vary` as "attendance=100..20000"), and the exact points where
    a conclusion changes (a reasoner.modes.sweep.Sweep: to_json, and the module's samples_csv and changes_csv)."""
    from reasoner.modes import sweep as sweeping

    names = chosen(ordinances)
    event = one(events)
    options = {"max_steps": max_steps} if max_steps is not None else {}
    try:
        return sweeping.sweep(event, sweeping.parse_vary(vary), names, step, _kinds(kinds, events.spelling), **options)
    except sweeping.SweepError as error:
        raise InputProblem(f"{events.name}: {error}") from None


def report(events: Events, ordinances: Sequence[str] = (), depends_on_readings: bool = False) -> list[dict[str, Any]]:
    """`reasoner report`: the page's sections, per event and ordinance (reasoner.views.report's to_html and
    to_markdown write them); `depends_on_readings` adds the answers an alternative reading moves."""
    from reasoner.views.report import build

    names = chosen(ordinances)
    return build(load(events), names, depends_on_readings)


def check(ordinances: Sequence[str] = ()) -> list[Any]:
    """`reasoner check`: the linter's report per ordinance (an ordinance not encoded yet too)."""
    from reasoner.quality.check import check as lint

    return lint(chosen(ordinances, unfinished=True))


def coverage(scenarios: str | Path, ordinances: Sequence[str] = ()) -> list[Any]:
    """`reasoner coverage`: per ordinance, which operative clauses the scenario files in the folder `scenarios`
    exercise."""
    import yaml

    from reasoner.quality.coverage import ScenarioError, coverage as measure

    names = chosen(ordinances, unfinished=True)
    if not Path(scenarios).is_dir():
        raise InputProblem(f"{scenarios}: no such folder of scenario files")
    try:
        return measure(Path(scenarios), names)
    except ScenarioError as error:
        raise InputProblem(f"cannot read the scenarios: {error}") from None
    except EventFileError as error:
        raise InputProblem(str(error)) from None
    except (OSError, yaml.YAMLError, KeyError, TypeError, AttributeError) as error:
        raise InputProblem(f"{scenarios}: cannot read the scenario files: {error}") from None


def batch(options: Any, update: Any = None) -> Any:
    """`reasoner batch`: every event of `options.input` (a reasoner.batch.run.BatchOptions) evaluated into
    `options.output`; `update(summary, position, size)` is told of progress. Returns the run's summary."""
    from reasoner.batch import run as batching
    from reasoner.batch.files import BatchFault, BatchInputError

    if options.versions:
        versions_checked(options.versions, CLI)
    try:
        return batching.run(options, update)
    except BatchInputError as error:
        raise InputProblem(str(error)) from None
    except BatchFault as error:
        raise Fault(str(error)) from None


def new(name: str, text_file: str | Path, root: str | Path = ".") -> dict[str, Path]:
    """`reasoner new`: a new ordinance's files scaffolded from its text under the checkout `root`; the paths
    written (text, registry, encoding, scenarios)."""
    from reasoner.law.registry import all_registries
    from reasoner.law.locator import encoded_ordinances
    from reasoner.quality.scaffold import ScaffoldError, scaffold

    taken = encoded_ordinances()
    listed = max((reg.metadata.listed for reg in all_registries().values()), default=0) + 1
    try:
        return scaffold(name, Path(text_file), Path(root), taken, listed)
    except ScaffoldError as error:
        raise InputProblem(str(error)) from None
    except (OSError, UnicodeDecodeError) as error:
        raise InputProblem(f"{text_file}: cannot be read or the files cannot be written: {error}") from None


def clauses(ordinance: str | None = None, clause_id: str | None = None) -> list[dict[str, Any]]:
    """`reasoner clauses [NAME [CLAUSE_ID]]`: the clause registry of an ordinance (or of every one), or one
    clause's words."""
    from reasoner.law.registry import clauses_record

    return clauses_record(_registered(ordinance, clause_id), clause_id)


def clause_history(ordinance: str | None, clause_id: str | None) -> dict[str, Any]:
    """`reasoner clauses NAME CLAUSE_ID --history`: the clause's words in each version of the law its registry
    knows, oldest first."""
    from reasoner.law.registry import registry

    names = _registered(ordinance, clause_id)
    if not clause_id:
        raise InputProblem("--history shows one clause: reasoner clauses NAME CLAUSE --history")
    reg = registry(names[0])
    clause = reg.clauses[clause_id]
    earlier = {w.version: w for w in clause.versions}
    rows = []
    for position, version in enumerate(reg.versions or ()):
        latest = position == len(reg.versions) - 1
        wording = earlier.get(version.id)
        rows.append({"version": version.id, "label": version.label, "effective": version.dated,
                     "text": clause.text if latest or wording is None else wording.text,
                     "source": "the printed text" if latest or wording is None else wording.source,
                     "same_as_text": latest or wording is None})
    if not rows:
        rows.append({"version": None, "label": "the only text known", "effective": "undated", "text": clause.text,
                     "source": "the printed text", "same_as_text": True})
    return {"ordinance": names[0], "clause": clause_id, "versions": rows}


def ordinances() -> list[dict[str, Any]]:
    """`reasoner ordinances`: the encoded ordinances with their jurisdiction, title and metadata."""
    from reasoner.law.registry import ordinance_record

    return [ordinance_record(name) for name in chosen(())]  # not those not encoded yet


def conclusions(ordinance: str | None = None) -> list[dict[str, Any]]:
    """`reasoner conclusions [NAME]`: every conclusion an ordinance (or each one) can produce, with its kind, unit
    and clauses."""
    from reasoner.modes.catalog import catalog

    return [{"ordinance": name, "conclusions": list(catalog(name))} for name in chosen((ordinance,) if ordinance else ())]


def thresholds(ordinances: Sequence[str] = ()) -> list[dict[str, Any]]:
    """`reasoner thresholds`: every number the ordinances state, with its clause and the clause's words."""
    from reasoner.modes.thresholds import thresholds as numbers

    return numbers(chosen(ordinances))


def schema() -> dict[str, Any]:
    """`reasoner schema`: the JSON Schema of event files."""
    from reasoner.events.model import Event

    return Event.model_json_schema()


# ---------------------------------------------------------------- the web's requests

COMMANDS = {"evaluate": evaluate, "explain": explain, "questions": questions, "whatif": whatif, "compare": compare,
            "report": report}


def reading_choices() -> list[dict[str, Any]]:
    """Every choice between readings the registries record, per ordinance: the interpretation, its clause, the
    reading applied by default and the alternatives `readings` in a request (or `--reading`) may choose."""
    from reasoner.modes.readings import choices
    from reasoner.program import check_ordinances

    return [{"ordinance": name, **choice} for name in check_ordinances(()) for choice in choices(name)]


def _prepared(command: str, request: dict[str, Any]) -> tuple[list[tuple[tuple[str, str], str]], Events, dict[str, Any]]:
    """A web body as a dict: the readings it chooses, its events, and the command's other arguments."""
    fields = dict(request)
    chosen_ones = _readings(fields.pop("readings", None))
    events = Events(**{key: fields.pop(key, None) for key in ("source", "event", "filename", "as_of", "event_id")})
    if command == "compare" and fields.get("kinds") is not None:
        fields["kinds"] = ",".join(fields["kinds"])
    return chosen_ones, events, fields


def run(command: str, request: dict[str, Any]) -> Any:
    """One solving command by name, its request a web body as a dict, on the readings the request chooses."""
    from reasoner.program import chosen_readings

    chosen_ones, events, fields = _prepared(command, request)
    with chosen_readings(chosen_ones):
        return COMMANDS[command](events, **fields)


def json_text(data: Any) -> str:
    """What `--format json` prints, and the web answers, for `data`."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def write_records(chunks: Iterable[list[dict[str, Any]]], write: Callable[[str], Any]) -> None:
    """`json_text` of the list the chunks of records make, byte for byte, handed to `write` as they come."""
    opened = False
    for chunk in chunks:
        for record in chunk:
            write(",\n" if opened else "[\n")
            opened = True
            # the layout's line breaks are the only raw ones in JSON: a string's are escaped
            write("  " + json.dumps(record, indent=2, ensure_ascii=False).replace("\n", "\n  "))
    write("\n]\n" if opened else "[]\n")


def run_to(command: str, request: dict[str, Any], write: Callable[[str], Any]) -> None:
    """`json_text(run(command, request))`, handed to `write` in pieces: an evaluate a chunk of events at a time, so
    that a web worker answers a body of many events in the memory of a few (what a web worker runs)."""
    from reasoner.program import chosen_readings

    chosen_ones, events, fields = _prepared(command, request)
    with chosen_readings(chosen_ones):
        if command == "evaluate":
            write_records(evaluation(events, **fields).chunks(), write)
        else:
            write(json_text(COMMANDS[command](events, **fields)))
