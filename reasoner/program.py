"""The program layer: every clingo program of the reasoner is built, grounded and solved here.

A Program is the shared vocabulary and the chosen encodings, plus what a mode adds:

- evaluation: the events' facts; one answer set (the encodings are stratified);
- explanation and coverage: support and why-not records, built from the encodings' AST (explain.py); over
  unknown facts, with the `choices` and `records` parts (the records are then consequences too);
- unknown facts: the `choices` and `unknowns` parts of reasoner/modes.lp (Python supplies the open facts
  as `_open`/`_alternative` facts); brave and cautious consequences;
- what-if: the `choices` and `whatif` parts (the allowed changes as facts, goal rules built from the
  schema); optimization;
- lint: the encodings as files, with clingo's warnings;
- the law: the `param` facts and daily windows the encodings state, without any event.

Python supplies facts only: fixed logic is in .lp files or built as AST from the schema.
One time limit covers every call inside `with time_limit(seconds):`.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from time import perf_counter
from typing import TYPE_CHECKING, Any

import clingo
from clingo import ast

from reasoner.events.atoms import facts_program
from reasoner.law.schema import INPUTS, OUTPUTS, PARAM, PARAM_FACT
from reasoner.law.locator import encoded_ordinances, encoding_path, package_path
from reasoner.law.ordinances import ordinance_readings, ordinance_time_zones, ordinance_versions, unfinished_ordinances

if TYPE_CHECKING:  # the models are built only when a file needs them (reasoner/events/plan.py)
    from reasoner.events.model import Event

# Keeps fact symbols out of the solver's internal tables: a large win on programs with many events.
CLINGO_OPTIONS = ["--preserve-facts=symtab", "--warn=none"]


class UnknownOrdinance(ValueError):
    pass


class NotEncodedYet(UnknownOrdinance):
    """An ordinance named whose registry is unfinished (vocabulary.unfinished_metadata): it is not evaluated."""


class SolveTimeout(RuntimeError):
    """A solver call did not finish within its time limit."""

    def __init__(self, limit: float, stage: str):
        self.limit = limit
        self.stage = stage
        super().__init__(f"no answer within the time limit of {limit:g} s (stopped while {stage})")


def check_ordinances(ordinances: Iterable[str] | None, unfinished: bool = False) -> tuple[str, ...]:
    """The ordinances named (default: every encoded one), refusing a name not encoded; an ordinance whose
    registry is unfinished is left out of the default and refused by name, unless `unfinished` (check, coverage)."""
    waiting = unfinished_ordinances()
    available = tuple(name for name in encoded_ordinances() if unfinished or name not in waiting)
    if not ordinances:
        return available
    import difflib

    chosen = []
    for name in ordinances:
        key = name.strip().lower()  # `-o Fulton` is fulton
        if key in waiting and not unfinished:
            raise NotEncodedYet(f"{key} is not encoded yet ({'; '.join(waiting[key])}), so it is not evaluated; "
                                f"reasoner check -o {key} lists what is left")
        if key not in available:
            close = difflib.get_close_matches(key, available, n=1, cutoff=0.5)
            hint = f"; did you mean {close[0]}?" if close else ""
            raise UnknownOrdinance(f"unknown ordinance {name!r}{hint} (encoded: {', '.join(available)})")
        chosen.append(key)
    return tuple(dict.fromkeys(chosen))


@cache
def encoding_text(name: str) -> str:
    return encoding_path(name).read_text(encoding="utf-8")


def program_text(ordinances: Sequence[str]) -> str:
    return "\n".join(encoding_text(name) for name in ("vocabulary", *ordinances))


def zone_facts(ordinances: Sequence[str]) -> str:
    """time_zone(Ordinance,Zone) for each chosen ordinance: its own clock, from its registry (metadata, not law)."""
    zones = ordinance_time_zones()
    return "".join(f"{clingo.Function('time_zone', [clingo.Function(name), clingo.String(zones[name])])}.\n"
                   for name in ordinances if name in zones) + version_facts(ordinances)


def version_facts(ordinances: Sequence[str]) -> str:
    """law_version(Ordinance,Version,Earliest,Latest) for each dated version its registry knows: the earliest and
    the latest day it can have taken effect (data, not law: the encodings decide what each version says)."""
    versions = ordinance_versions()
    return "".join(f"{clingo.Function('law_version', [clingo.Function(name), clingo.Function(v), clingo.Number(a), clingo.Number(b)])}.\n"
                   for name in ordinances for v, a, b in versions.get(name, ()))


# ---------------------------------------------------------------- readings of the law

# The readings chosen for this call: {(ordinance, interpretation): reading}; the registry's default elsewhere.
_readings: ContextVar[tuple[tuple[tuple[str, str], str], ...]] = ContextVar("reasoner_readings", default=())


class UnknownReading(ValueError):
    pass


def parse_reading(text: str) -> tuple[tuple[str, str], str]:
    """`ORDINANCE.INTERPRETATION=READING` checked against the registries; UnknownReading (with a suggestion)
    for a name no registry gives."""
    import difflib

    known = ordinance_readings()
    spec, equals, chosen = text.partition("=")
    ordinance, dot, interpretation = spec.strip().partition(".")
    ordinance, interpretation, chosen = ordinance.lower(), interpretation.strip(), chosen.strip()
    if not equals or not dot or not interpretation or not chosen:
        raise UnknownReading(f"{text!r}: give a reading as ORDINANCE.INTERPRETATION=READING "
                             "(e.g. fulton.weddings_exempt_anywhere=listed_venues_only)")

    def refuse(what: str, name: str, choices: Sequence[str]) -> UnknownReading:
        close = difflib.get_close_matches(name, choices, n=1, cutoff=0.5)
        hint = f"; did you mean {close[0]}?" if close else ""
        return UnknownReading(f"{text!r}: {what} {name!r}{hint} (known: {', '.join(choices) or 'none'})")

    if ordinance not in known:
        raise refuse("no encoded ordinance", ordinance, list(known))
    if interpretation not in known[ordinance]:
        raise refuse(f"{ordinance} has no interpretation with alternative readings named", interpretation,
                     sorted(known[ordinance]))
    if chosen not in known[ordinance][interpretation]:
        raise refuse(f"{ordinance}.{interpretation} has no reading", chosen, known[ordinance][interpretation])
    return (ordinance, interpretation), chosen


@contextmanager
def chosen_readings(readings: Iterable[tuple[tuple[str, str], str]]) -> Iterator[None]:
    """Every program built inside applies these readings (later ones win) instead of the registries' defaults."""
    token = _readings.set(tuple(dict([*_readings.get(), *readings]).items()))
    try:
        yield
    finally:
        _readings.reset(token)


def readings_in_force() -> dict[tuple[str, str], str]:
    """The readings chosen for this call (none: every default)."""
    return dict(_readings.get())


def reading_facts(ordinances: Sequence[str], chosen: bool = True) -> str:
    """reading_default and reading_alternative for each choice between readings the chosen ordinances' registries
    record, and chosen_reading for each reading chosen (`chosen`: from chosen_readings)."""
    known = ordinance_readings()
    fact = lambda name, o, i, r: f"{clingo.Function(name, [clingo.Function(o), clingo.Function(i), clingo.Function(r)])}.\n"
    lines = [fact("reading_default", o, i, readings[0]) + "".join(fact("reading_alternative", o, i, r) for r in readings)
             for o in ordinances for i, readings in known.get(o, {}).items()]
    if chosen:
        lines += [fact("chosen_reading", o, i, r) for (o, i), r in _readings.get() if o in ordinances]
    return "".join(lines)


@cache
def _modes_text() -> str:
    return package_path("modes.lp").read_text(encoding="utf-8")


# ---------------------------------------------------------------- one time limit

_limit: ContextVar[tuple[float, float] | None] = ContextVar("reasoner_time_limit", default=None)


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Every program grounded or solved inside shares one limit of `seconds` (None: no limit); past it,
    SolveTimeout. A limit already running and ending sooner stays in force."""
    if seconds is None:
        yield
        return
    deadline = perf_counter() + seconds
    current = _limit.get()
    token = _limit.set(current if current and current[0] <= deadline else (deadline, seconds))
    try:
        yield
    finally:
        _limit.reset(token)


def _remaining(stage: str) -> float | None:
    current = _limit.get()
    if current is None:
        return None
    left = current[0] - perf_counter()
    if left <= 0:
        raise SolveTimeout(current[1], stage)
    return left


# ---------------------------------------------------------------- rules built from the schema

_NOWHERE = ast.Position("<schema>", 1, 1)
_LOCATION = ast.Location(_NOWHERE, _NOWHERE)


def _function(name: str, arguments: Sequence[ast.AST]) -> ast.AST:
    return ast.Function(_LOCATION, name, list(arguments), 0)


def _variable(name: str) -> ast.AST:
    return ast.Variable(_LOCATION, name)


def _constant(value: clingo.Symbol) -> ast.AST:
    return ast.SymbolicTerm(_LOCATION, value)


def _atom(term: ast.AST, sign: ast.Sign = ast.Sign.NoSign) -> ast.AST:
    return ast.Literal(_LOCATION, sign, ast.SymbolicAtom(term))


def rule(head: ast.AST, body: Sequence[ast.AST]) -> ast.AST:
    return ast.Rule(_LOCATION, head, list(body))


@cache
def _choice_bridge() -> tuple[ast.AST, ...]:
    """`p(X1,...,Xn) :- _chosen(p(X1,...,Xn)).` for every input predicate: a chosen fact holds."""
    statements = []
    for item in INPUTS:
        term = _function(item.predicate, [_variable(f"X{i}") for i in range(item.arity)])
        statements.append(rule(_atom(term), [_atom(_function("_chosen", [term]))]))
    return tuple(statements)


@cache
def _goal_rules() -> tuple[ast.AST, ...]:
    """`_goal :- _flip(O,Name), p(O,1,Name,_,...).` for every output: the conclusion `_flip` names holds,
    by its name (obligation toilets), its kind (late) or its predicate (permit_required)."""
    statements = []
    goal = _atom(_function("_goal", []))
    ordinance, event = _variable("O"), _constant(clingo.Number(1))
    for output in OUTPUTS:
        if output.folds_into:
            continue
        if output.named:
            # a reason "holds" when its condition holds (yes); any other conclusion when it is there at all
            arguments = [ordinance, event, _variable("Name")] + [
                _constant(clingo.Function("yes")) if role == "holds" else _variable("_") for role in output.roles[1:]]
            flip = _function("_flip", [ordinance, _variable("Name")])
            statements.append(rule(goal, [_atom(flip), _atom(_function(output.predicate, arguments))]))
        anything = [ordinance, event] + [_variable("_")] * (output.arity - 2)
        for name in dict.fromkeys((output.predicate, output.kind)):
            flip = _function("_flip", [ordinance, _constant(clingo.Function(name))])
            statements.append(rule(goal, [_atom(flip), _atom(_function(output.predicate, anything))]))
    return tuple(statements)


# ---------------------------------------------------------------- programs

class Program:
    """One clingo Control: the vocabulary and the chosen encodings, and what a mode adds."""

    def __init__(self, ordinances: Sequence[str], *, options: Sequence[str] = (), parts: Sequence[str] = (),
                 files: Sequence[Path] | None = None, logger: Callable[[clingo.MessageCode, str], None] | None = None):
        """`parts` names parts of modes.lp to ground besides `base`; `files` stands in for the packaged
        encodings (the lint reads them from a folder); `logger` receives clingo's messages."""
        self.ordinances = tuple(ordinances)
        if logger is None:
            self.control = clingo.Control([*CLINGO_OPTIONS, *options])
        else:
            self.control = clingo.Control([*options], logger=logger, message_limit=1000)
        self.parts = [("base", []), *((part, []) for part in parts)]
        self.steps: list[str] = []
        if files is None:
            self.control.add("base", [], program_text(self.ordinances))
        else:
            for path in files:
                self.control.load(str(path))
        self.control.add("base", [], zone_facts(self.ordinances))
        self.control.add("base", [], reading_facts(self.ordinances, chosen="readings" not in parts))
        if parts:
            self.control.add("base", [], _modes_text())
            if "choices" in parts:
                self.add_statements(_choice_bridge(), part="choices")
            if "whatif" in parts:
                self.add_statements(_goal_rules(), part="whatif")

    def add(self, text: str) -> Program:
        """Facts as text whose every argument clingo rendered (atoms.py), or a fixed program."""
        self.control.add("base", [], text)
        return self

    def add_events(self, events: Sequence[Event]) -> Program:
        return self.add(facts_program(list(events)))

    def add_atoms(self, atoms: Iterable[clingo.Symbol]) -> Program:
        """Facts given as symbols: clingo renders them."""
        return self.add("".join(f"{atom}.\n" for atom in atoms))

    def add_step(self, part: str, arguments: Sequence[clingo.Symbol], atoms: Iterable[clingo.Symbol]) -> Program:
        """A later step: facts given as symbols in a part of their own, grounded with part `part` of modes.lp
        on `arguments` (the program's earlier steps stay as they were grounded)."""
        own = f"{part}_{len(self.steps)}"
        self.control.add(own, [], "".join(f"{atom}.\n" for atom in atoms))
        self.steps.append(own)
        return self.ground([(own, []), (part, list(arguments))])

    def add_statements(self, statements: Iterable[ast.AST], part: str = "base") -> Program:
        with ast.ProgramBuilder(self.control) as builder:
            builder.add(ast.Program(_LOCATION, part, []))
            for statement in statements:
                builder.add(statement)
        return self

    def ground(self, parts: Sequence[tuple[str, Sequence[clingo.Symbol]]] | None = None) -> Program:
        """Ground (`parts`: these parts of a later step instead of the program's own); under a time limit, in a
        daemon thread (clingo cannot interrupt grounding, but we can stop waiting)."""
        parts = self.parts if parts is None else list(parts)
        remaining = _remaining("grounding")
        if remaining is None:
            self.control.ground(parts)
            return self
        done = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            try:
                self.control.ground(parts)
            except BaseException as error:  # noqa: BLE001 - re-raised in the caller's thread
                failure.append(error)
            finally:
                done.set()

        thread = threading.Thread(target=run, name="clingo-ground", daemon=True)
        thread.start()
        if not done.wait(remaining):
            _abandoned.append(thread)
            _limit_passed("grounding")
        if failure:
            raise failure[0]
        return self

    @contextmanager
    def _solving(self, assumptions: Sequence[tuple[clingo.Symbol, bool]]) -> Iterator[tuple[clingo.SolveHandle, Iterator[clingo.Model]]]:
        """clingo's solve handle, and its models as clingo finds them (each valid until the next one), each waited
        for within the time limit."""
        remaining = _remaining("solving")
        deadline = None if remaining is None else perf_counter() + remaining

        def found(handle: clingo.SolveHandle) -> Iterator[clingo.Model]:
            while True:
                handle.resume()
                if deadline is not None and not handle.wait(max(0.0, deadline - perf_counter())):
                    handle.cancel()
                    _limit_passed("solving")
                model = handle.model()
                if model is None:
                    return
                yield model

        with self.control.solve(yield_=True, async_=deadline is not None, assumptions=list(assumptions)) as handle:
            yield handle, found(handle)

    def models(self, assumptions: Sequence[tuple[clingo.Symbol, bool]] = ()) -> Iterator[clingo.Model]:
        """Each model as clingo finds it (valid until the next one), under the time limit."""
        with self._solving(assumptions) as (_, found):
            yield from found

    def first(self, read: Callable[[clingo.Model], Any]) -> Any:
        """`read` applied to the first model; None when there is none."""
        for model in self.models():
            return read(model)
        return None

    def first_model(self, *, shown: bool = True) -> list[clingo.Symbol] | None:
        """The symbols of the first model: the shown atoms, or every atom."""
        return self.first(lambda model: model.symbols(shown=True) if shown else model.symbols(atoms=True))

    def last_model(self, *, shown: bool = True) -> list[clingo.Symbol] | None:
        """The symbols of the last model: under optimization, an optimal one."""
        last = None
        for model in self.models():
            last = model.symbols(shown=True) if shown else model.symbols(atoms=True)
        return last

    def witness(self, assumptions: Sequence[tuple[clingo.Symbol, bool]] = ()) -> list[clingo.Symbol] | None:
        """Every atom of one answer set satisfying the assumptions (after consequences: enumeration as usual);
        None when there is none."""
        self.control.configuration.solve.enum_mode = "auto"
        for model in self.models(assumptions):
            return model.symbols(atoms=True)
        return None

    def consequences(self, mode: str, assumptions: Sequence[tuple[clingo.Symbol, bool]] = ()) -> set[clingo.Symbol] | None:
        """Brave or cautious consequences (shown atoms); None when no answer set satisfies the assumptions.
        Only the last model is read: clingo reports every intermediate one, and reading each cost most of the time."""
        self.control.configuration.solve.enum_mode = mode
        with self._solving(assumptions) as (handle, found):
            for _ in found:
                pass
            last = handle.last()
            return None if last is None else set(last.symbols(shown=True))


# Groundings given up on at the time limit: their threads run on inside clingo, which crashes (SIGSEGV) if the
# interpreter is finalized under them, so a process that leaves one running ends with os._exit (reasoner.cli.run).
_abandoned: list[threading.Thread] = []


def grounding_abandoned() -> bool:
    """Whether a grounding this process gave up on at its time limit is still running."""
    return any(thread.is_alive() for thread in _abandoned)


def _limit_passed(stage: str) -> None:
    current = _limit.get()
    raise SolveTimeout(current[1] if current else 0.0, stage)


def solve(events: Sequence[Event], ordinances: Sequence[str], *, time_limit: float | None = None,
          timings: dict[str, float] | None = None, parts: Sequence[str] = ()) -> list[clingo.Symbol]:
    """Evaluation: ground and solve; the shown atoms of the single answer set.

    `time_limit` (seconds) bounds this call, inside any limit already running. `timings`, when given,
    accumulates the seconds spent on facts, grounding and solving. `parts`: parts of modes.lp to ground too
    (`versions`: the versions in force are shown as well).
    """
    with _limited(time_limit):
        start = perf_counter()
        facts = facts_program(list(events))
        built = perf_counter()
        program = Program(ordinances, parts=parts).add(facts).ground()
        grounded = perf_counter()
        symbols = program.first_model() or []
    if timings is not None:
        timings["facts"] = timings.get("facts", 0.0) + built - start
        timings["ground"] = timings.get("ground", 0.0) + grounded - built
        timings["solve"] = timings.get("solve", 0.0) + perf_counter() - grounded
    return symbols


_limited = time_limit


@dataclass(frozen=True)
class Law:
    """What the encodings state without any event."""

    params: tuple[tuple[str, str, int, str], ...]   # (ordinance, name, value, clause) of every param fact
    windows: tuple[tuple[int, int], ...]            # daily_window(From,To): clock windows, minutes of the day
    upper_limits: frozenset[str]                    # obligations whose quantity is a maximum


@cache
def law(ordinances: tuple[str, ...]) -> Law:
    program = Program(ordinances).ground()
    params = tuple(tuple(PARAM_FACT.value(s, role) for role in PARAM_FACT.roles) for s in program.first_model() or []
                   if s.name == PARAM and len(s.arguments) == PARAM_FACT.arity
                   and PARAM_FACT.argument(s, "value").type == clingo.SymbolType.Number)
    atoms = program.control.symbolic_atoms
    windows = tuple(sorted({(a.symbol.arguments[0].number, a.symbol.arguments[1].number)
                            for a in atoms.by_signature("daily_window", 2)}))
    upper = frozenset(a.symbol.arguments[0].name for a in atoms.by_signature("upper_limit", 1))
    return Law(params, windows, upper)
