"""The command line: a thin click layer over the library. Exit codes, for every command: 0 answered, 2 bad input,
1 a check or coverage found a defect (or a batch had bad records), 3 no answer within --time-limit,
4 a fault of the environment (a full disk, a closed pipe or standard stream, a batch worker that died, an answer
needing more memory than --memory-limit) and
130 interrupted (a batch continues either with --resume); each with one line on standard error."""
from __future__ import annotations

import atexit
import contextlib
import gc
import math
import os
import shutil
import signal
import sys
import tempfile
from datetime import date
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import click

from reasoner import service

# pydantic looks for plugins, through every installed distribution's entry points, when it builds its first model;
# the reasoner uses none. Read by pydantic then, so set before (a setting of the user's own is kept).
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")


class _Render:
    """reasoner.views.render on first use: rich takes some 50 ms to import, and JSON output never needs it."""

    def __getattr__(self, name: str) -> Any:
        from reasoner.views import render as module

        return getattr(module, name)


render = _Render()

FORMAT = click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text",
                      show_default=True, help="text for people, json for programs.")


class _OrdinanceOption(click.Option):
    """--ordinance, whose help names the ordinances encoded, found when the help is shown (not at import)."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        from reasoner.law.locator import encoded_ordinances

        *first, last = encoded_ordinances()
        self.help = f"{', '.join(first)} or {last}; repeat for several (default: every encoded one)."
        return super().get_help_record(ctx)


ORDINANCE = click.option("--ordinance", "-o", "ordinances", multiple=True, metavar="NAME", cls=_OrdinanceOption)


AS_OF = click.option("--as-of", "as_of", default=None, metavar="DATE",
                     callback=lambda ctx, param, value: _iso_day(param, value),
                     help="Apply the version of each ordinance in force on this date (YYYY-MM-DD); default: the "
                          "event's as_of, else its first day.")


def _apply_readings(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> None:
    """--reading ORDINANCE.INTERPRETATION=READING: every program the command builds applies these readings."""
    if not values:
        return
    from reasoner.program import UnknownReading, chosen_readings, parse_reading

    try:
        chosen = [parse_reading(value) for value in values]
    except UnknownReading as error:
        raise InputError(f"--reading {error}") from None
    ctx.with_resource(chosen_readings(chosen))


READING = click.option("--reading", "readings", multiple=True, metavar="ORDINANCE.INTERPRETATION=READING",
                       expose_value=False, callback=_apply_readings,
                       help="Apply another reading of a contested passage (`reasoner readings` lists them); repeatable.")


TEXT_RECORDS_HINT = 500     # (event, ordinance) tables: beyond this, evaluate points to faster outputs
MAX_TIME_LIMIT = 86_400.0  # a day: the largest limit a process alarm takes is about 24 days; inf and nan are refused


def _a_number(param: click.Parameter, value: float | None) -> float | None:
    if value is not None and value != value:  # NaN passes every range check
        raise click.BadParameter("nan is not a number of seconds", param=param)
    return value


def _iso_date(param: click.Parameter, value: str | None) -> Any:
    """A date written 2027-06-01, and what is wrong with one that is not (the month 13, the 30th of February)."""
    if value is None:
        return None
    import re
    from datetime import datetime

    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        raise click.BadParameter(f"{value!r} is not a date written year-month-day, as 2027-06-01", param=param)
    try:
        return datetime.strptime(value, "%Y-%m-%d") if date.fromisoformat(value) else None
    except ValueError as error:
        raise click.BadParameter(f"{value!r} is no date: {error}", param=param) from None


def _iso_day(param: click.Parameter, value: str | None) -> date | None:
    given = _iso_date(param, value)
    return given.date() if given else None


def _writable(target: str) -> bool:
    """Whether a file can be written at `target` (its folder exists and takes files; an existing file is writable)."""
    path = Path(target)
    if path.exists():
        return path.is_file() and os.access(path, os.W_OK)
    folder = path.parent if str(path.parent) else Path(".")
    return folder.is_dir() and os.access(folder, os.W_OK | os.X_OK)


class InputError(click.ClickException):
    exit_code = 2

    def show(self, file: Any = None) -> None:
        from rich.markup import escape  # file names and given values may look like markup

        message = render.printable(self.format_message())
        render.errors.print(f"[bold red]error:[/] {escape(message)}", markup=True, soft_wrap=True)


def _events(path: str, event_id: str | None = None, as_of: date | None = None) -> service.Events:
    """The service's request for the events of EVENT_FILE, its messages naming the CLI's options."""
    return service.Events(path=path, event_id=event_id, as_of=as_of, spelling=service.CLI)


def _left_out(names: tuple[str, ...]) -> None:
    """Say which ordinances not encoded yet "every ordinance" leaves out."""
    for name in service.left_out(names):
        click.echo(f"note: {name} is not encoded yet and is left out (reasoner check -o {name} lists what is left)",
                   err=True)


def _ordinances(names: tuple[str, ...], unfinished: bool = False) -> tuple[str, ...]:
    """The ordinances named, or every encoded one; one not encoded yet only for `check` and `coverage`
    (`unfinished`), and said to be left out when it would have been among every one."""
    chosen = service.chosen(names, unfinished)
    if not unfinished:
        _left_out(names)
    return chosen


class TimeLimitExpired(click.ClickException):
    exit_code = 3

    def show(self, file: Any = None) -> None:
        from rich.markup import escape

        render.errors.print(f"[bold red]error:[/] {escape(self.format_message())}", markup=True, soft_wrap=True)


def _time_limit_option(help_text: str) -> Any:
    return click.option("--time-limit", type=click.FloatRange(min=0, min_open=True, max=MAX_TIME_LIMIT), default=None,
                        metavar="SECONDS", callback=lambda ctx, param, value: _a_number(param, value), help=help_text)


def TIMED(command: Any) -> Any:  # noqa: N802 - a decorator, named as the option decorators are
    """--time-limit on a command that solves: every solver call the command makes shares one limit (no answer
    past it, exit 3 and one line), its body untouched."""
    import functools

    @functools.wraps(command)
    def limited(*args: Any, time_limit: float | None = None, **kwargs: Any) -> Any:
        return service.within(time_limit, lambda: command(*args, **kwargs))

    return _time_limit_option("Give up after this many seconds: no answer is printed and the exit code is 3.")(limited)


def _emit(data: Any, output_format: str, print_text: str, module: Any = None) -> None:
    """Print results as JSON, for people (render's `print_text`, so that JSON never imports rich), or (tables)
    with the module's to_csv / to_markdown."""
    if output_format == "json":
        _dump(data)
    elif output_format in ("csv", "markdown"):
        click.echo(getattr(module, f"to_{output_format}")(data), nl=False)
    else:
        getattr(render, print_text)(data)


def _dump(data: Any) -> None:
    click.echo(service.json_text(data), nl=False)


class _Commands(click.Group):
    """The commands, under one mapping of the service's errors: bad input exits 2, no answer in time 3, each with
    the service's words."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except service.InputProblem as problem:
            raise InputError(problem.message) from None
        except service.TimedOut as late:
            raise TimeLimitExpired(late.message) from None
        except MemoryError:  # past --memory-limit (main): clingo's or Python's allocation failed
            raise EnvironmentFault(service.out_of_memory(ctx.meta.get(MEMORY_LIMIT, 0)).message) from None


MEMORY_LIMIT = "reasoner.memory_limit"


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="reasoner")
@click.option("--memory-limit", type=click.IntRange(min=256), default=None, metavar="MB",
              help="Give up past this much memory (megabytes of address space, every command; a batch's and a "
                   "server's workers each): no answer is printed and the exit code is 4. Default: half the "
                   "machine's memory.")
@click.pass_context
def main(ctx: click.Context, memory_limit: int | None) -> None:
    """Reason about local large-gathering ordinances: who needs a permit, what is owed, and why, clause by clause.

    Example: reasoner evaluate facts/events/harvest-music-festival.yaml --ordinance trempealeau
    """
    ctx.meta[MEMORY_LIMIT] = memory_limit = memory_limit or service.default_memory_limit()
    ctx.with_resource(service.memory_limit(memory_limit))
    # A process ends with garbage collections that walk every object its imports made (pydantic's, clingo's):
    # some 25 ms of a cold `evaluate`, for memory the process is giving back anyway. Frozen objects are left
    # out; refcounting still frees what it frees, and every file the commands write is closed by its `with`.
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)


@main.command()
@click.argument("event_file", type=click.Path(dir_okay=False))
@ORDINANCE
@click.option("--filed", default=None, callback=lambda ctx, param, value: _iso_date(param, value), metavar="DATE",
              help="Check this filing date (YYYY-MM-DD) instead of the file's application.filed.")
@AS_OF
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True, max=MAX_TIME_LIMIT), default=None, metavar="SECONDS",
              callback=lambda ctx, param, value: _a_number(param, value),
              help="Give up after this many seconds: no answer is printed and the exit code is 3.")
@FORMAT
@READING
@click.option("--readings", "with_readings", is_flag=True,
              help="Say, for each answer, whether an alternative reading of the law moves it (depends_on_readings).")
def evaluate(event_file: str, ordinances: tuple[str, ...], filed: Any, as_of: Any, time_limit: float | None,
             output_format: str, with_readings: bool) -> None:
    """Evaluate the events in EVENT_FILE under each ordinance: permit, exemptions, obligations with
    quantities, deadlines, restrictions, denial and revocation grounds, penalties and shortfalls.

    Example: reasoner evaluate facts/events/harvest-music-festival.yaml -o trempealeau --format json
    """
    _left_out(ordinances)
    answer = service.evaluation(_events(event_file, as_of=as_of), ordinances, filed.date() if filed else None,
                                time_limit, depends_on_readings=with_readings)
    if output_format == "text" and answer.records > TEXT_RECORDS_HINT:
        render.errors.print(f"{len(answer.events):,} events: the tables take about 10 ms each to draw; "
                            "--format json, or `reasoner batch` for files of many events, answer far faster.")
    # Written as the chunks come, so that memory is that of a chunk. JSON, and any answer under a time limit, is
    # held back (on disk past 8 MB) until the last chunk: a program never reads half a document, and a limit that
    # expires or a Ctrl-C prints nothing. Text for people is printed as it comes.
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(tempfile.SpooledTemporaryFile(8 << 20, "w+", encoding="utf-8")) \
            if time_limit is not None or output_format == "json" else None
        if output_format == "text":  # the authority's deadlines are flagged against each event's opening day
            openings = answer.openings
            for chunk in answer.chunks():
                if out is None:
                    render.print_results(chunk, openings)
                    continue
                with render.console.capture() as captured:  # the terminal's bytes, colours and width
                    render.print_results(chunk, openings)
                out.write(captured.get())
        else:
            service.write_records(answer.chunks(), (out or sys.stdout).write)
        if out is not None:
            out.seek(0)
            shutil.copyfileobj(out, sys.stdout)


@main.command()
@TIMED
@click.argument("event_file", type=click.Path(dir_okay=False))
@click.argument("conclusion", required=False)
@ORDINANCE
@click.option("--event", "event_id", default=None, help="Which event of a file that holds several (by id).")
@AS_OF
@FORMAT
@READING
@click.option("--full", is_flag=True, help="Show every step about the schedule (the clock's arithmetic), not one sentence.")
def explain(event_file: str, conclusion: str | None, ordinances: tuple[str, ...], event_id: str | None,
            as_of: date | None, output_format: str, full: bool) -> None:
    """Explain why CONCLUSION (e.g. toilets, permit_required, nurses, bond_usd) holds or does not hold,
    as a derivation tree down to the facts, each step with its clause and the clause's words.
    Without CONCLUSION, every conclusion is explained. The steps about the schedule are said in one
    sentence unless --full; the JSON keeps every node and marks those steps `folded` (none with --full).

    Example: reasoner explain facts/events/harvest-music-festival.yaml toilets -o trempealeau
    """
    _left_out(ordinances)
    reports = service.explain(_events(event_file, event_id, as_of), conclusion, ordinances, full)
    if output_format == "json":
        _dump(reports)
    else:
        for report in reports:
            render.print_explanation(report)


@main.command()
@TIMED
@click.argument("event_file", type=click.Path(dir_okay=False))
@ORDINANCE
@click.option("--event", "event_id", default=None, help="Which event of a file that holds several (by id).")
@AS_OF
@FORMAT
def readings(event_file: str, ordinances: tuple[str, ...], event_id: str | None, as_of: date | None,
             output_format: str) -> None:
    """Which answers depend on a contested reading of the law: the choices between readings each ordinance's
    registry records, and for each answer that one of them moves, its value on the default reading and on the
    other. Choose a reading with --reading on evaluate, explain, report, compare, sweep, questions, whatif and batch.

    Example: reasoner readings facts/events/compare-barn-wedding.yaml -o fulton
    """
    _left_out(ordinances)
    results = service.readings(_events(event_file, event_id, as_of), ordinances)
    if output_format == "json":
        _dump(results)
    else:
        render.print_readings(results)


@main.command()
@click.argument("ordinance", required=False)
@click.argument("clause_id", required=False)
@click.option("--history", is_flag=True, help="Show the clause's words in each version of the law the registry knows.")
@FORMAT
def clauses(ordinance: str | None, clause_id: str | None, history: bool, output_format: str) -> None:
    """List the clause registry of ORDINANCE (or of every ordinance), or show one clause's words.

    Example: reasoner clauses trempealeau "6.01(3)5"
    """

    _left_out((ordinance,) if ordinance else ())
    if history:
        found = service.clause_history(ordinance, clause_id)
        if output_format == "json":
            _dump(found)
            return
        for row in found["versions"]:
            click.echo(f"{row['label']} — effective {row['effective']}"
                       + ("" if row["same_as_text"] or not row["source"] else f"\n  (from {row['source']})"))
            click.echo(f"  {row['text']}\n")
        return
    records = service.clauses(ordinance, clause_id)
    if output_format == "json":
        _dump(records)
        return
    for record in records:
        render.print_clauses(record["ordinance"], clause_id)


@main.command("new")
@click.argument("name")
@click.option("--text", "text_file", required=True, type=click.Path(exists=True, dir_okay=False),
              help="The ordinance's text as published (copied to encodings/NAME.txt).")
@click.option("--root", default=".", show_default=True, type=click.Path(file_okay=False),
              help="The checkout to write into (encodings/, tests/scenarios/).")
def new_command(name: str, text_file: str, root: str) -> None:
    """Scaffold a new ordinance NAME from its text: a copy of the text, the clause registry (clauses split by the text's numbering,
    marked for review), an encoding skeleton with the conventions, and an empty scenario file; then print the
    next steps (docs/adding-an-ordinance.md).

    Example: reasoner new laramie --text laramie-county-wy.txt
    """
    paths = service.new(name, text_file, root)
    click.echo("\n".join([
        f"wrote {paths['text']}, {paths['registry']}, {paths['encoding']}, {paths['scenarios']}",
        "next (docs/adding-an-ordinance.md walks through each with Wyoming):",
        "  1. review the registry: every clause under a REVIEW comment (id, heading, words), the TODO metadata",
        f"  2. encode the clauses in {paths['encoding']}: params, regulated, reasons, notes; give the rest a reason",
        f"  3. add scenario cases on both sides of every threshold to {paths['scenarios']}",
        f"  4. reasoner check -o {name}   and   reasoner coverage -o {name}: no command evaluates "
        f"{name} until its TODO metadata is done",
        "  5. record the versions the text dates under `versions:` in the registry"]))


@main.command()
@FORMAT
def ordinances(output_format: str) -> None:
    """List the encoded ordinances with what their registries say of them: jurisdiction, title, level, adopting
    body, the licensing authority, the versions of the law known with their dates, and the source text.

    Example: reasoner ordinances --format json
    """
    _left_out(())
    _emit(service.ordinances(), output_format, "print_ordinances")


@main.command()
@click.argument("ordinance", required=False)
@FORMAT
def conclusions(ordinance: str | None, output_format: str) -> None:
    """List every conclusion ORDINANCE (or each ordinance) can produce: its name, as `explain`, `whatif --flip`
    and `compare --kinds` take it, with its kind, unit and clauses, read off the encoding's rules.

    Example: reasoner conclusions village
    """
    _left_out((ordinance,) if ordinance else ())
    data = service.conclusions(ordinance)
    _emit(data, output_format, "print_catalog")


@main.command()
@TIMED
@click.argument("event_file", type=click.Path(dir_okay=False))
@ORDINANCE
@click.option("--out", "output", required=True, type=click.Path(dir_okay=False),
              help="The page to write: .html (self-contained) or .md, by its suffix unless --format says.")
@click.option("--format", "output_format", type=click.Choice(["html", "markdown"]), default=None,
              help="html or markdown (default: by the suffix of --out).")
@READING
@click.option("--readings", "with_readings", is_flag=True,
              help="List the answers an alternative reading of the law moves (as evaluate --readings).")
def report(event_file: str, ordinances: tuple[str, ...], output: str, output_format: str | None,
           with_readings: bool) -> None:
    """Write one page for the events in EVENT_FILE to hand on: per ordinance, the status, every obligation with
    its arithmetic, deadlines as dates, shortfalls, grounds, the interpretations and the words of each clause cited.

    Example: reasoner report facts/events/harvest-music-festival.yaml -o trempealeau --out report.html
    """
    from reasoner.views import report as reporting  # its to_html and to_markdown

    _left_out(ordinances)
    fmt = output_format or ("markdown" if output.lower().endswith((".md", ".markdown")) else "html")
    if not _writable(output):
        raise InputError(f"{output}: cannot write there")
    pages = service.report(_events(event_file), ordinances, depends_on_readings=with_readings)
    _write_whole(output, reporting.to_html(pages) if fmt == "html" else reporting.to_markdown(pages))
    render.errors.print(f"{output}: {len(pages)} page section(s) written", markup=False, highlight=False)


@main.command()
@TIMED
@click.argument("event_file", type=click.Path(dir_okay=False))
@ORDINANCE
@click.option("--event", "event_id", default=None, help="Which event of a file that holds several (by id).")
@AS_OF
@FORMAT
@READING
def questions(event_file: str, ordinances: tuple[str, ...], event_id: str | None, as_of: date | None,
              output_format: str) -> None:
    """List the unknown facts of an event that matter, most decisive first: what each answer would
    settle about the permit duty and the obligations, with the clauses that make it matter.
    Facts whose answers change nothing are not asked.

    Example: reasoner questions facts/events/unknown-festival.yaml -o trempealeau
    """
    _left_out(ordinances)
    report = service.questions(_events(event_file, event_id, as_of), ordinances)
    _emit(report, output_format, "print_questions")


@main.command()
@TIMED
@click.argument("event_file", type=click.Path(dir_okay=False))
@click.option("--ordinance", "-o", "ordinance", required=True, multiple=True, metavar="NAME",
              help="The ordinance to ask about (one).")
@click.option("--flip", "conclusion", required=True, metavar="CONCLUSION",
              help="permit_required, a conclusion's name (an obligation, exemption, restriction, ground, ...) or a kind (late).")
@click.option("--keep", multiple=True, metavar="GROUP",
              help="Facts that may not change: attendance, schedule, site, flags, special_services, filing (repeatable).")
@click.option("--allow", multiple=True, metavar="GROUP", help="Also let these change: organizer, kinds (kept by default).")
@click.option("--proposals", type=click.IntRange(min=1), default=service.PROPOSALS, show_default=True, metavar="N",
              help="How many proposals at most: the smallest, then the next smallest, each not an earlier one with more changes.")
@click.option("--event", "event_id", default=None, help="Which event of a file that holds several (by id).")
@AS_OF
@FORMAT
@READING
def whatif(event_file: str, ordinance: tuple[str, ...], conclusion: str, keep: tuple[str, ...], allow: tuple[str, ...],
           proposals: int, event_id: str | None, as_of: date | None, output_format: str) -> None:
    """Find the smallest changes to the facts that make CONCLUSION hold, or stop holding, under one
    ordinance (fewest facts changed, then the smallest change), ranked, each checked by evaluating the changed event.

    Example: reasoner whatif facts/events/harvest-music-festival.yaml -o trempealeau --flip permit_required --keep attendance
    """
    if len(set(ordinance)) > 1:
        raise InputError(f"whatif asks about one ordinance at a time; got {', '.join(ordinance)}")
    report = service.whatif(_events(event_file, event_id, as_of), ordinance[0], conclusion, keep, allow, proposals)
    _emit(report, output_format, "print_whatif")


@main.command()
def schema() -> None:
    """Print the JSON Schema of the event file format.

    Example: reasoner schema > event.schema.json
    """
    _dump(service.schema())


@main.command("check")
@TIMED
@ORDINANCE
@FORMAT
def check_command(ordinances: tuple[str, ...], output_format: str) -> None:
    """Lint the encodings and clause registries. Any clingo warning fails (undefined atoms, unsafe
    variables, undefined operations), and so does a conclusion citing an unregistered clause, a clause
    neither encoded nor given a reason, a number not stated once as param/4 with its clause, or an
    interpretation that does not name its clause. Exit code 1 when anything is wrong.

    Example: reasoner check -o trempealeau
    """
    reports = service.check(ordinances)
    if output_format == "json":
        _dump([report.as_dict() for report in reports])
    else:
        for report in reports:
            counts = report.counts
            click.echo(f"{report.ordinance}: {'ok' if report.ok else f'{len(report.problems)} problem(s)'} — "
                       f"{counts.get('clauses', 0)} clauses ({counts.get('encoded', 0)} encoded, "
                       f"{counts.get('non_operative', 0)} non-operative, {counts.get('operative_not_encoded', 0)} "
                       f"operative but not encoded, each with its reason), {counts.get('rules', 0)} rules, "
                       f"{counts.get('parameters', 0)} parameters, {counts.get('interpretations', 0)} interpretations "
                       f"({counts.get('choices_between_readings', 0)} choices between readings, "
                       f"{counts.get('interpretations_not_reviewed', 0)} not yet reviewed)")
            for problem in report.problems:
                click.echo(f"  error: {problem}")
    if not all(report.ok for report in reports):
        raise SystemExit(1)


def _finite(ctx: click.Context, param: click.Parameter, value: float) -> float:
    """click's FloatRange lets nan through (every comparison with it is false): refuse it."""
    if not math.isfinite(value):
        raise click.BadParameter(f"{value} is not a number from 0 to 100")
    return value


@main.command("coverage")
@TIMED
@click.argument("scenarios", type=click.Path(file_okay=False), default="tests/scenarios")
@ORDINANCE
@click.option("--fail-under", type=click.FloatRange(0, 100), default=100.0, show_default=True, callback=_finite,
              help="Exit 1 when an ordinance's coverage of operative clauses is below this percentage.")
@FORMAT
def coverage_command(scenarios: str, ordinances: tuple[str, ...], fail_under: float, output_format: str) -> None:
    """Report which operative clauses the scenario tests in SCENARIOS (default tests/scenarios) exercise,
    per ordinance: a clause counts when a conclusion a case asserts rests on it. Lists the clauses no
    case exercises, and exits 1 when coverage is below --fail-under.

    Example: reasoner coverage tests/scenarios -o gem
    """
    reports = service.coverage(scenarios, ordinances)
    if output_format == "json":
        _dump([report.as_dict() for report in reports])
    else:
        for report in reports:
            data = report.as_dict()
            if report.unfinished:
                click.echo(f"{report.ordinance}: not encoded yet — {'; '.join(report.unfinished)} (reasoner check "
                           f"-o {report.ordinance})")
                continue
            click.echo(f"{report.ordinance}: {data['percent']:.1f}% — {data['exercised']} of {data['implemented']} "
                       f"operative clauses exercised by {data['cases']} cases")
            for clause in data["missing"]:
                click.echo(f"  not exercised: {clause}")
            for clause, reason in data["operative_not_encoded"].items():
                click.echo(f"  not encoded: {clause} ({reason or 'no reason given: see reasoner check'})")
            for error in data["errors"]:
                click.echo(f"  invalid case: {error}")
    if any(report.percent < fail_under or report.errors for report in reports):
        raise SystemExit(1)


# ---------------------------------------------------------------- comparing ordinances

ORDINANCE_LIST = click.option("--ordinances", "ordinance_list", default=None, metavar="A,B,...",
                              help="Ordinances as one comma-separated list (adds to -o).")
KINDS = click.option("--kinds", default=None, metavar="K,K,...|all",
                     help="Kinds of conclusion to show (default: status, permits, exemption, obligation, deadline, "
                          "late, on_time, denial_ground, penalty, shortfall; 'all' adds restrictions, application "
                          "items, procedures, signers, revocation grounds, interpretations).")


def _listed(ordinances: tuple[str, ...], ordinance_list: str | None) -> tuple[str, ...]:
    """The ordinances -o and --ordinances name together."""
    listed = tuple(name.strip() for name in (ordinance_list or "").split(",") if name.strip())
    if ordinance_list is not None and not listed:
        raise InputError(f"--ordinances {ordinance_list!r} names no ordinance; leave it out for all of them")
    return ordinances + listed


def _chosen(ordinances: tuple[str, ...], ordinance_list: str | None) -> tuple[str, ...]:
    return _ordinances(_listed(ordinances, ordinance_list))


def _dates(text: str) -> list[date]:
    """--versions: dates written 2010-05-26, comma-separated (the service refuses fewer than two)."""
    found = []
    for part in (p.strip() for p in text.split(",")):
        try:
            found.append(date.fromisoformat(part))
        except ValueError as error:
            raise InputError(f"--versions: {part!r}: {error}; write dates as 2010-05-26") from None
    return found


@main.command()
@TIMED
@click.argument("event_file", type=click.Path(dir_okay=False))
@ORDINANCE
@ORDINANCE_LIST
@click.option("--event", "event_id", default=None, help="Compare only this event of a file that holds several (by id).")
@KINDS
@click.option("--as-of", "as_of", multiple=True, metavar="DATE",
              callback=lambda ctx, param, values: tuple(_iso_day(param, value) for value in values),
              help="Apply the version of each ordinance in force on this date (YYYY-MM-DD); default: the event's "
                   "as_of, else its first day. Given twice or more: one ordinance beside itself, as --versions.")
@click.option("--versions", "version_dates", default=None, metavar="DATE,DATE,...",
              help="Compare one ordinance (-o) with itself: a column per date, each under the version then in force.")
@click.option("--format", "output_format", type=click.Choice(["text", "json", "csv", "markdown"]), default="text",
              show_default=True, help="text for people; json, csv or markdown for programs and papers.")
@click.option("--readings", "with_readings", is_flag=True,
              help="Say where the ordinances' answers differ because of a reading of the law and where whatever the "
                   "reading; with one ordinance, a column per alternative reading that moves an answer.")
@click.option("--changes", "only_changes", is_flag=True,
              help="With --versions: per event only the conclusions that change between the versions, with the "
                   "clauses reworded, and how many of the file's events change their answer (an impact report).")
@READING
def compare(event_file: str, ordinances: tuple[str, ...], ordinance_list: str | None, event_id: str | None,
            kinds: str | None, as_of: tuple[date, ...], version_dates: str | None, output_format: str,
            with_readings: bool, only_changes: bool) -> None:
    """Compare the ordinances on the events in EVENT_FILE: one table per event, a row per conclusion (permit,
    exemptions, obligations with their amounts, deadlines, grounds, penalties, shortfalls), a column per
    ordinance, each cell with its value and clause. The strictest cells are marked where the ordinances
    differ; 'not regulated' (the ordinance does not reach the event), 'exempt' and 'no such requirement'
    (it does, but has no such conclusion) are told apart.

    Example: reasoner compare facts/events/compare-county-fair.yaml --ordinances trempealeau,gem,fulton --format markdown
    """
    from reasoner.modes import compare as comparison

    names = _listed(ordinances, ordinance_list)
    _left_out(names)
    versions = _dates(version_dates) if version_dates is not None else None
    if len(as_of) > 1:
        if versions is not None:
            raise InputError("give the dates to compare once: --as-of DATE --as-of DATE, or --versions DATE,DATE")
        for day in as_of:  # refused in --as-of's words
            service.law_date([], day, service.CLI)
        versions, as_of = list(as_of), ()
    law_date = as_of[0] if as_of else None
    tables = service.compare(_events(event_file, event_id, law_date), names, kinds, versions, with_readings,
                             only_changes)
    if only_changes:
        formats = SimpleNamespace(to_csv=comparison.changes_to_csv, to_markdown=comparison.changes_to_markdown)
        _emit(tables, output_format, "print_changes", formats)
    else:
        _emit(tables, output_format, "print_comparison", comparison)


@main.command()
@TIMED
@click.argument("event_file", type=click.Path(dir_okay=False))
@click.option("--vary", "vary_spec", required=True, metavar="FIELD=LOW..HIGH",
              help="The fact to vary and its range: attendance=100..20000, hours=1..72, close=1200..1560 (the daily closing time, minutes after the opening day's midnight), filed=2027-04-01..2027-07-15, "
                   "or any whole-number field by its path (site.seating_capacity=0..5000).")
@click.option("--step", type=click.IntRange(min=1), default=None,
              help="Distance between sample points (days for filed; default: a round step giving about 50 samples).")
@ORDINANCE
@ORDINANCE_LIST
@click.option("--event", "event_id", default=None, help="Which event of a file that holds several (by id).")
@KINDS
@click.option("--max-steps", type=click.IntRange(min=0), default=None,
              help="List a value's changes only where it changes at most this often over the range (default 20); "
                   "others are reported as proportional.")
@click.option("--format", "output_format", type=click.Choice(["csv", "json", "text"]), default="csv", show_default=True,
              help="How to print the change points.")
@click.option("--samples", "samples_file", type=click.Path(dir_okay=False), default=None,
              help="Also write every conclusion at every sample point to this CSV file.")
@click.option("--plot", "plot_file", type=click.Path(dir_okay=False), default=None,
              help="Also draw the status and the required amounts against the varied fact to this PNG file "
                   "(needs matplotlib: pip install 'reasoner[plot]').")
@click.option("--plot-obligations", default=None, metavar="NAME,NAME",
              help="Which obligations the plot shows (default: the amounts that change, most shared first).")
@READING
def sweep(event_file: str, vary_spec: str, step: int | None, ordinances: tuple[str, ...], ordinance_list: str | None,
          event_id: str | None, kinds: str | None, max_steps: int | None, output_format: str, samples_file: str | None,
          plot_file: str | None, plot_obligations: str | None) -> None:
    """Vary one fact of an event over a range and report the exact points where a conclusion changes (a permit
    becomes required, an obligation appears, a nurse is added, a filing becomes late), found by the solver:
    samples, then bisection down to the single value. Prints CSV: one line per point, ordinance and conclusion.

    Example: reasoner sweep facts/events/harvest-music-festival.yaml --vary attendance=100..20000 --plot sweep.png
    """
    from reasoner.law.vocabulary import vocabulary
    from reasoner.modes import sweep as sweeping  # its samples_csv and changes_csv

    listed = _listed(ordinances, ordinance_list)
    _left_out(listed)
    for target in (samples_file, plot_file):  # refused before the work, not after it
        if target and not _writable(target):
            raise InputError(f"{target}: cannot write there")
    names = [n.strip() for n in plot_obligations.split(",") if n.strip()] if plot_obligations else None
    unknown_names = sorted(set(names or ()) - set(vocabulary()["obligations"]))
    if unknown_names:
        raise InputError(f"--plot-obligations: {', '.join(unknown_names)} is no obligation of the vocabulary")
    result = service.sweep(_events(event_file, event_id), vary_spec, listed, step, kinds, max_steps)
    if plot_file:
        from reasoner.views.charts import PlotUnavailable, save_sweep_plot

        try:
            save_sweep_plot(result, plot_file, names)
        except PlotUnavailable as error:
            raise click.ClickException(str(error)) from None
    if samples_file:
        _write_whole(samples_file, sweeping.samples_csv(result))
    if output_format == "json":
        _dump(result.to_json())
    elif output_format == "text":
        render.print_sweep(result)
    else:
        click.echo(sweeping.changes_csv(result), nl=False)


@main.command()
@ORDINANCE
@ORDINANCE_LIST
@click.option("--format", "output_format", type=click.Choice(["text", "json", "csv", "markdown"]), default="text",
              show_default=True, help="text for people; json, csv or markdown for programs and papers.")
def thresholds(ordinances: tuple[str, ...], ordinance_list: str | None, output_format: str) -> None:
    """List every number the ordinances state (thresholds, rates, amounts, periods) with its clause and the
    clause's words around it, read from the encodings' param facts and the clause registries.

    Example: reasoner thresholds --ordinances trempealeau,gem --format markdown
    """
    from reasoner.modes import thresholds as numbers  # its to_csv and to_markdown

    names = _listed(ordinances, ordinance_list)
    _left_out(names)
    rows = service.thresholds(names)
    _emit(rows, output_format, "print_thresholds", numbers)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (loopback by default).")
@click.option("--port", type=click.IntRange(min=0, max=65535), default=8000, show_default=True, help="Port to listen on.")
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True, max=MAX_TIME_LIMIT), default=20.0,
              show_default=True, metavar="SECONDS", callback=lambda ctx, param, value: _a_number(param, value),
              help="Answer 503 when a request has no answer after this many seconds.")
@click.option("--workers", type=click.IntRange(min=1), default=None, help="Solving processes (default: one per CPU).")
def serve(host: str, port: int, time_limit: float, workers: int | None) -> None:
    """Serve the JSON API (docs at /docs) and the analyst's page at / (needs pip install 'reasoner[web]').

    Example: reasoner serve --port 8000
    """
    try:
        from reasoner.web import app
    except ImportError as error:
        raise click.ClickException(f"{error}: reasoner serve needs pip install 'reasoner[web]'") from None
    app.serve(host, port, time_limit, workers, click.get_current_context().meta[MEMORY_LIMIT])


@main.command()
@click.argument("input_path", metavar="INPUT", type=click.Path(allow_dash=True))
@click.option("--out", "output", required=True, type=click.Path(dir_okay=False),
              help="JSONL (.jsonl: one record per event and ordinance) or CSV (.csv, see --layout), by extension.")
@ORDINANCE
@ORDINANCE_LIST
@click.option("--input-format", type=click.Choice(["jsonl", "csv", "yaml", "json", "folder"]), default=None,
              help="How to read INPUT (default: by its extension; a folder of event files; '-' is JSONL).")
@click.option("--layout", type=click.Choice(["wide", "long"]), default=None,
              help="CSV output: wide (default), one row per event with columns per ordinance and obligation; "
                   "long, one row per event and ordinance.")
@click.option("--columns", "columns", metavar="PATTERNS", multiple=True,
              help="CSV output: only the columns these comma-separated names or patterns give (e.g. "
                   "'*.status,*.deadline.*,gem.toilets'), with event, name, source, line and error.")
@click.option("--workers", type=click.IntRange(min=0), default=None,
              help="Worker processes (default: one per CPU; 0 evaluates in this process).")
@click.option("--chunk-size", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Events per solver call.")
@click.option("--errors", "errors_path", type=click.Path(dir_okay=False), default=None,
              help="Write the rows of bad records to this JSONL or CSV file instead of into the output.")
@click.option("--scheduler", metavar="ADDRESS", default=None,
              help="Send the chunks to this Dask scheduler (tcp://host:8786) instead of local workers; "
                   "needs pip install 'reasoner[dask]'.")
@click.option("--resume", is_flag=True, help="Continue an interrupted run into the same OUTPUT without redoing finished records.")
@click.option("--restart", is_flag=True, help="Discard an interrupted run's rows (OUTPUT.part) and start over.")
@click.option("--progress/--no-progress", "show_progress", default=None,
              help="A progress bar on standard error (default: when it is a terminal).")
@AS_OF
@_time_limit_option("Give up on a record after this many seconds: it becomes an error row, and the batch goes on.")
@READING
@click.option("--readings", "with_readings", is_flag=True,
              help="Say in each row which answers an alternative reading moves (JSONL: depends_on_readings; CSV: a "
                   "column per ordinance listing the readings); evaluates each event several times.")
@click.option("--versions", "version_dates", default=None, metavar="DATE,DATE,...",
              help="With --changes: evaluate each event under the version of each ordinance in force on each date.")
@click.option("--changes", "only_changes", is_flag=True,
              help="With --versions: an amendment's impact report, a row per event and ordinance saying whether its "
                   "answer changes between the dates, which conclusions change and the clauses reworded.")
def batch(input_path: str, output: str, ordinances: tuple[str, ...], ordinance_list: str | None,
          input_format: str | None, layout: str | None, workers: int | None, chunk_size: int,
          errors_path: str | None, scheduler: str | None, resume: bool, restart: bool,
          show_progress: bool | None, as_of: date | None, time_limit: float | None,
          with_readings: bool, columns: tuple[str, ...], version_dates: str | None, only_changes: bool) -> None:
    """Evaluate every event of INPUT (JSONL, CSV, a YAML or JSON list, a folder of event files, or '-'
    for JSONL on standard input) under each ordinance, in parallel, into OUTPUT. Each JSONL row is the
    record `evaluate --format json` gives for that event and ordinance. A bad record becomes a row with its
    line and the problem, and the batch goes on; OUTPUT appears only once the whole input is done.
    Exit code 1 when some records failed, 2 when the input or OUTPUT cannot be used (another batch writing
    it, an interrupted run's rows there), 4 when the run stopped on a fault (a worker died, the disk is
    full) and 130 when interrupted: in both, continue with --resume.

    Example: reasoner batch applications.jsonl --out results.jsonl --workers 2

    Example: reasoner batch applications.jsonl --out impact.csv -o connecticut --versions 2010-05-25,2010-05-26 --changes
    """
    versions = _dates(version_dates) if version_dates is not None else None
    if versions is not None and not only_changes:
        raise InputError("--versions in a batch writes the impact report of a change of law: add --changes "
                         "(reasoner compare --versions puts the versions side by side for a file of events)")
    service.changes_checked(versions, only_changes, service.CLI)
    hint = (f"the rows done so far are kept in {output}.part; run the same command with --resume to continue")
    signal.signal(signal.SIGINT, _first_interrupt)
    try:
        _batch(input_path, output, _chosen(ordinances, ordinance_list), input_format, layout, workers, chunk_size,
               errors_path, scheduler, resume, restart, show_progress, as_of, time_limit,
               with_readings, tuple(p.strip() for given in columns for p in given.split(",") if p.strip()),
               tuple(versions or ()))
    except KeyboardInterrupt:
        kept = Path(output + ".part.state.json").is_file()
        _say(f"interrupted: {hint}" if kept else "interrupted before any record was done; nothing was written")
        if workers != 0 and scheduler is None:
            # The rows and the checkpoint are closed; what is left is multiprocessing's exit-time join of a
            # pool whose workers were killed, which can wait forever: leave without it.
            for stream in (sys.stdout, sys.stderr):
                with contextlib.suppress(Exception):
                    stream.flush()
            os._exit(130)
        raise SystemExit(130) from None


def _first_interrupt(signum: int, frame: Any) -> None:
    """Ctrl-C stops the batch; a second one, while it stops, changes nothing (it never hangs the stop)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def _say(line: str) -> None:
    """One line on standard error, which may be closed or full: the exit code still tells."""
    try:
        render.errors.print(line, markup=False, soft_wrap=True, highlight=False)
    except (OSError, ValueError):
        with contextlib.suppress(OSError):  # nor may Python's own flush at exit fail
            os.dup2(os.open(os.devnull, os.O_WRONLY), 2)


def _batch(input_path: str, output: str, chosen: tuple[str, ...], input_format: str | None, layout: str | None,
           workers: int | None, chunk_size: int, errors_path: str | None, scheduler: str | None, resume: bool,
           restart: bool, show_progress: bool | None, as_of: date | None = None,
           time_limit: float | None = None, depends: bool = False, columns: tuple[str, ...] = (),
           versions: tuple[date, ...] = ()) -> None:
    from contextlib import nullcontext

    from reasoner.batch.run import BatchOptions

    options = BatchOptions(input_path, output, chosen, input_format=input_format, errors=errors_path,
                                    chunk_size=chunk_size, scheduler=scheduler, resume=resume, restart=restart,
                                    layout=layout, as_of=as_of, time_limit=time_limit, depends=depends,
                                    columns=columns, versions=versions)
    service.law_date([], as_of, service.CLI)  # a date out of range is refused before any record is read
    if workers is not None:
        options.workers = workers
    if resume and not restart and not Path(output + ".part.state.json").exists():
        _say(f"{output}: no interrupted run to resume; starting from the first record")
    show = render.errors.is_terminal if show_progress is None else show_progress
    if show:
        from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

        bar = Progress(TextColumn("batch"), BarColumn(), TextColumn("{task.fields[events]:,} events"),
                       TextColumn("{task.fields[rate]:,.0f}/s"), TextColumn("{task.fields[failed]:,} errors"),
                       TimeRemainingColumn(), console=render.errors, transient=True)
        task = bar.add_task("batch", total=None, events=0, rate=0.0, failed=0)

        def update(summary: Any, position: int, size: int | None) -> None:
            bar.update(task, completed=position, total=size, events=summary.events,
                       rate=summary.events_per_second, failed=summary.failed)
    try:
        with bar if show else nullcontext():
            summary = service.batch(options, update if show else None)
    except service.Fault as error:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        kept = Path(output + ".part.state.json").is_file()
        _say(f"stopped: {error}; " + (f"the rows done so far are kept in {output}.part; run the same command with "
                                       "--resume to continue" if kept else "nothing was written"))
        raise SystemExit(4) from None
    where = f"in {summary.errors}" if summary.errors else f"rows with \"error\" in {output}"
    failed = f"; {summary.failed:,} failed ({where})" if summary.failed else ""
    resumed = f", {summary.resumed:,} of them done before --resume" if summary.resumed else ""
    _say(f"{summary.records:,} records{resumed}: {summary.events:,} events evaluated under "
         f"{len(chosen)} ordinance(s) into {output}{failed}; {summary.events_per_second:,.0f} events/s")
    if summary.failed:
        raise SystemExit(1)


class EnvironmentFault(click.ClickException):
    """The environment failed the command (a full disk, a closed pipe): exit 4."""

    exit_code = 4

    def show(self, file: Any = None) -> None:
        _say(f"error: {render.printable(self.format_message())}")


def _write_whole(target: str, text: str) -> None:
    """A file written whole or not at all: into a temporary file beside it, then renamed over it."""
    import tempfile

    path = Path(target)
    handle, temporary = tempfile.mkstemp(dir=path.parent if str(path.parent) else ".", prefix=f".{path.name}.")
    _writing.add(temporary)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(temporary, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise EnvironmentFault(f"{target}: cannot write: {error.strerror or error}") from None
    finally:
        _writing.discard(temporary)


_writing: set[str] = set()   # temporary files being written whole: removed on an interrupt


def _interrupted(signum: int, frame: Any) -> None:
    """Ctrl-C: one line and exit 130 at once. Raised as KeyboardInterrupt it could land in a finalizer (freeing a
    clingo Control), where Python ignores it and the command would finish as if never interrupted."""
    for temporary in list(_writing):
        with contextlib.suppress(OSError):
            os.unlink(temporary)
    with contextlib.suppress(OSError):
        os.write(2, b"interrupted\n")
    os._exit(130)


class _ClosedStream:
    """Standard output or input when the process was started with it closed (`>&-`): every use is a fault."""

    def __init__(self, name: str):
        self.name = name

    def _closed(self, *args: Any) -> Any:
        import errno

        raise OSError(errno.EBADF, f"{self.name} is closed")

    write = read = fileno = _closed
    buffer = property(_closed)
    closed = True

    def flush(self) -> None:  # nothing was written: a command that prints nothing does not fail
        pass

    def isatty(self) -> bool:
        return False


def run() -> None:
    """The `reasoner` command: main under one exit policy (the module's docstring), and ended with os._exit when a
    grounding that outlived --time-limit still runs (finalizing the interpreter under clingo's grounding thread
    crashes it: exit 139 instead of 3)."""
    if sys.stdout is None:
        sys.stdout = _ClosedStream("standard output")  # type: ignore[assignment]
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # batch and serve install their own
        signal.signal(signal.SIGINT, _interrupted)
    try:  # click's own main would say "Aborted!" and exit 1 on Ctrl-C, and exit 1 on a closed pipe
        with main.make_context("reasoner", sys.argv[1:]) as context:
            main.invoke(context)
        code = 0
        sys.stdout.flush()
    except click.exceptions.Exit as done:
        code = done.exit_code
    except click.ClickException as error:
        try:
            error.show()
        except (OSError, ValueError):
            _say("")  # standard error is full or closed: the exit code still tells
        code = error.exit_code
    except (click.exceptions.Abort, KeyboardInterrupt):
        _say("interrupted")
        code = 130
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else 0 if done.code is None else 1
    except OSError as error:
        _say(f"error: cannot write the output: {error.strerror or error}")
        code = 4
    try:
        sys.stdout.flush()
    except (OSError, ValueError) as error:
        if code == 0:
            _say(f"error: cannot write the output: {getattr(error, 'strerror', None) or error}")
            code = 4
    with contextlib.suppress(OSError):  # what is left unwritten goes nowhere: Python's own flush at exit may not fail
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.flush()
    program = sys.modules.get("reasoner.program")
    if program is not None and program.grounding_abandoned():
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":
    run()
