"""The command line: a thin click layer over the library. Exit codes: 0 answered, 2 bad input."""
from __future__ import annotations

import json
import sys
from datetime import date
from typing import Any

import click

from . import render
from .event import Event, EventFileError, load_events

FORMAT = click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text",
                      show_default=True, help="text for people, json for programs.")
ORDINANCE = click.option("--ordinance", "-o", "ordinances", multiple=True, metavar="NAME",
                         help="trempealeau, village, vermont, gem or fulton; repeat for several (default: every encoded one).")


class InputError(click.ClickException):
    exit_code = 2

    def show(self, file: Any = None) -> None:
        render.errors.print(f"[bold red]error:[/] {self.format_message()}", markup=True, soft_wrap=True)


def _load(path: str) -> list[Event]:
    try:
        return load_events(path)
    except EventFileError as error:
        raise InputError(str(error)) from None


def _ordinances(names: tuple[str, ...]) -> tuple[str, ...]:
    from .solver import UnknownOrdinance, check_ordinances

    try:
        return check_ordinances(names)
    except UnknownOrdinance as error:
        raise InputError(str(error)) from None


def _with_filing_date(events: list[Event], filed: date | None) -> list[Event]:
    if filed is None:
        return events
    changed = []
    for event in events:
        application = event.application.model_copy(update={"filed": filed}) if event.application else None
        if application is None:
            from .event import Application
            application = Application(filed=filed)
        changed.append(event.model_copy(update={"application": application}))
    return changed


def _dump(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="reasoner")
def main() -> None:
    """Reason about local large-gathering ordinances: who needs a permit, what is owed, and why, clause by clause.

    Example: reasoner evaluate facts/events/harvest-music-festival.yaml --ordinance trempealeau
    """


@main.command()
@click.argument("event_file", type=click.Path(dir_okay=False))
@ORDINANCE
@click.option("--filed", type=click.DateTime(formats=["%Y-%m-%d"]), default=None,
              help="Check this filing date (YYYY-MM-DD) instead of the file's application.filed.")
@FORMAT
def evaluate(event_file: str, ordinances: tuple[str, ...], filed: Any, output_format: str) -> None:
    """Evaluate the events in EVENT_FILE under each ordinance: permit, exemptions, obligations with
    quantities, deadlines, restrictions, denial and revocation grounds, penalties and shortfalls.

    Example: reasoner evaluate facts/events/harvest-music-festival.yaml -o trempealeau --format json
    """
    from .unknowns import evaluate_any as run

    chosen = _ordinances(ordinances)
    events = _with_filing_date(_load(event_file), filed.date() if filed else None)
    results = run(events, chosen)
    if output_format == "json":
        _dump(results)
    else:
        render.print_results(results)


@main.command()
@click.argument("event_file", type=click.Path(dir_okay=False))
@click.argument("conclusion", required=False)
@ORDINANCE
@click.option("--event", "event_id", default=None, help="Which event of a file that holds several (by id).")
@FORMAT
def explain(event_file: str, conclusion: str | None, ordinances: tuple[str, ...], event_id: str | None,
            output_format: str) -> None:
    """Explain why CONCLUSION (e.g. toilets, permit_required, nurses, bond_usd) holds or does not hold,
    as a derivation tree down to the facts, each step with its clause and the clause's words.
    Without CONCLUSION, every conclusion is explained.

    Example: reasoner explain facts/events/harvest-music-festival.yaml toilets -o trempealeau
    """
    from .explain import explain as run

    chosen = _ordinances(ordinances)
    events = _load(event_file)
    if event_id is not None:
        events = [e for e in events if e.id == event_id]
        if not events:
            raise InputError(f"{event_file}: no event with id {event_id!r}")
    elif len(events) > 1:
        raise InputError(f"{event_file} holds {len(events)} events; choose one with --event ID")
    reports = [run(events[0], ordinance, conclusion) for ordinance in chosen]
    if output_format == "json":
        _dump(reports)
    else:
        for report in reports:
            render.print_explanation(report)


@main.command()
@click.argument("ordinance", required=False)
@click.argument("clause_id", required=False)
@FORMAT
def clauses(ordinance: str | None, clause_id: str | None, output_format: str) -> None:
    """List the clause registry of ORDINANCE (or of every ordinance), or show one clause's words.

    Example: reasoner clauses trempealeau "6.01(3)5"
    """
    from dataclasses import asdict

    from .registry import registry

    chosen = _ordinances((ordinance,) if ordinance else ())
    if clause_id and clause_id not in registry(chosen[0]).clauses:
        raise InputError(f"{chosen[0]} has no clause {clause_id!r}; list them with: reasoner clauses {chosen[0]}")
    if output_format == "json":
        data = []
        for name in chosen:
            reg = registry(name)
            items = [asdict(c) for c in reg.clauses.values() if clause_id in (None, c.id)]
            data.append({"ordinance": name, "jurisdiction": reg.jurisdiction, "title": reg.title, "clauses": items,
                         "interpretations": [asdict(i) for i in reg.interpretations.values()]})
        _dump(data)
        return
    for name in chosen:
        render.print_clauses(name, clause_id)


def _one_event(event_file: str, event_id: str | None) -> Event:
    events = _load(event_file)
    if event_id is not None:
        events = [e for e in events if e.id == event_id]
        if not events:
            raise InputError(f"{event_file}: no event with id {event_id!r}")
    elif len(events) > 1:
        raise InputError(f"{event_file} holds {len(events)} events; choose one with --event ID")
    return events[0]


@main.command()
@click.argument("event_file", type=click.Path(dir_okay=False))
@ORDINANCE
@click.option("--event", "event_id", default=None, help="Which event of a file that holds several (by id).")
@FORMAT
def questions(event_file: str, ordinances: tuple[str, ...], event_id: str | None, output_format: str) -> None:
    """List the unknown facts of an event that matter, most decisive first: what each answer would
    settle about the permit duty and the obligations, with the clauses that make it matter.
    Facts whose answers change nothing are not asked.

    Example: reasoner questions facts/events/unknown-festival.yaml -o trempealeau
    """
    from .unknowns import questions as run

    report = run(_one_event(event_file, event_id), _ordinances(ordinances))
    if output_format == "json":
        _dump(report)
    else:
        render.print_questions(report)


@main.command()
@click.argument("event_file", type=click.Path(dir_okay=False))
@click.option("--ordinance", "-o", "ordinance", required=True, metavar="NAME", help="The ordinance to ask about.")
@click.option("--flip", "conclusion", required=True, metavar="CONCLUSION",
              help="permit_required, or a conclusion's name (an obligation, exemption, restriction, ground, ...).")
@click.option("--keep", multiple=True, metavar="GROUP",
              help="Facts that may not change: attendance, schedule, site, flags, special_services (repeatable).")
@click.option("--allow", multiple=True, metavar="GROUP", help="Also let these change: organizer, kinds (kept by default).")
@click.option("--event", "event_id", default=None, help="Which event of a file that holds several (by id).")
@FORMAT
def whatif(event_file: str, ordinance: str, conclusion: str, keep: tuple[str, ...], allow: tuple[str, ...],
           event_id: str | None, output_format: str) -> None:
    """Find the smallest change to the facts that makes CONCLUSION hold, or stop holding, under one
    ordinance (fewest facts changed, then the smallest change), checked by evaluating the changed event.

    Example: reasoner whatif facts/events/harvest-music-festival.yaml -o trempealeau --flip permit_required --keep attendance
    """
    from .whatif import WhatIfError, whatif as run

    [chosen] = _ordinances((ordinance,))
    try:
        report = run(_one_event(event_file, event_id), chosen, conclusion, keep, allow)
    except WhatIfError as error:
        raise InputError(str(error)) from None
    if output_format == "json":
        _dump(report)
    else:
        render.print_whatif(report)


@main.command()
def schema() -> None:
    """Print the JSON Schema of the event file format.

    Example: reasoner schema > event.schema.json
    """
    from .event import Event as Model

    _dump(Model.model_json_schema())


@main.command("check")
@ORDINANCE
@FORMAT
def check_command(ordinances: tuple[str, ...], output_format: str) -> None:
    """Lint the encodings and clause registries. Any clingo warning fails (undefined atoms, unsafe
    variables, undefined operations), and so does a conclusion citing an unregistered clause, a clause
    neither encoded nor given a reason, a number not stated once as param/4 with its clause, or an
    interpretation that does not name its clause. Exit code 1 when anything is wrong.

    Example: reasoner check -o trempealeau
    """
    from .check import check as run

    reports = run(_ordinances(ordinances))
    if output_format == "json":
        _dump([report.as_dict() for report in reports])
    else:
        for report in reports:
            counts = report.counts
            click.echo(f"{report.ordinance}: {'ok' if report.ok else f'{len(report.problems)} problem(s)'} — "
                       f"{counts.get('clauses', 0)} clauses ({counts.get('encoded', 0)} encoded, "
                       f"{counts.get('non_operative', 0)} non-operative, {counts.get('operative_not_encoded', 0)} "
                       f"operative but not encoded, each with its reason), {counts.get('rules', 0)} rules, "
                       f"{counts.get('parameters', 0)} parameters, {counts.get('interpretations', 0)} interpretations")
            for problem in report.problems:
                click.echo(f"  error: {problem}")
    if not all(report.ok for report in reports):
        raise SystemExit(1)


@main.command("coverage")
@click.argument("scenarios", type=click.Path(file_okay=False), default="tests/scenarios")
@ORDINANCE
@click.option("--fail-under", type=click.FloatRange(0, 100), default=100.0, show_default=True,
              help="Exit 1 when an ordinance's coverage of operative clauses is below this percentage.")
@FORMAT
def coverage_command(scenarios: str, ordinances: tuple[str, ...], fail_under: float, output_format: str) -> None:
    """Report which operative clauses the scenario tests in SCENARIOS (default tests/scenarios) exercise,
    per ordinance: a clause counts when a conclusion a case asserts rests on it. Lists the clauses no
    case exercises, and exits 1 when coverage is below --fail-under.

    Example: reasoner coverage tests/scenarios -o gem
    """
    from pathlib import Path

    import yaml

    from .coverage import coverage as run

    chosen = _ordinances(ordinances)
    if not Path(scenarios).is_dir():
        raise InputError(f"{scenarios}: no such folder of scenario files")
    try:
        reports = run(Path(scenarios), chosen)
    except (OSError, yaml.YAMLError, KeyError, TypeError, AttributeError) as error:
        raise InputError(f"{scenarios}: cannot read the scenario files: {error}") from None
    if output_format == "json":
        _dump([report.as_dict() for report in reports])
    else:
        for report in reports:
            data = report.as_dict()
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


if __name__ == "__main__":
    sys.exit(main())
