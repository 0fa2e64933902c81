"""Rendering for people (rich). This module owns the Console; JSON output is printed by the CLI as is."""
from __future__ import annotations

from datetime import date
from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from reasoner.law.labels import KIND_LABELS, WHATIF_LABELS, certainty_words, moved_by_reading, phrase, reading_value
from reasoner.law.registry import metadata_line, registry
from reasoner.law.vocabulary import vocabulary

console = Console(highlight=False)
_CONTROL = {c: f"\\x{c:02x}" for c in [*range(32), *range(127, 160)] if c != 10}


def printable(text: str) -> str:
    """Text with control characters (escape sequences above all) shown as \\xNN, line breaks kept: what a file
    holds is quoted in messages, and must not drive the terminal."""
    return text.translate(_CONTROL)

errors = Console(stderr=True, highlight=False)


def _pipe_closed() -> None:
    """rich would exit 1 on a closed pipe; the CLI's exit policy says 4 (reasoner.cli.run)."""
    raise BrokenPipeError(32, "Broken pipe")


console.on_broken_pipe = errors.on_broken_pipe = _pipe_closed  # type: ignore[method-assign]

STATUS_STYLE = {"permit_required": "bold red", "possibly_required": "bold yellow", "exempt": "bold green",
                "possibly_exempt": "bold green", "not_regulated": "bold green", "inconsistent": "bold magenta"}


def words(name: str) -> str:
    return str(name).replace("_", " ")


def amount(value: Any, unit: str | None) -> str:
    if value is None:
        return "required"
    if isinstance(value, (int, float)) and not isinstance(value, bool):  # a float is an exact decimal amount
        if unit == "usd":
            return f"${value:,}"
        return f"{value:,}" + (f" {words(unit)}" if unit and unit not in ("count",) else "")
    return str(value)


def _cite(item: dict[str, Any]) -> str:
    return ", ".join(item["clauses"])


def _status_line(result: dict[str, Any]) -> Text:
    reg = registry(result["ordinance"])
    term = reg.permit_term
    items = result["conclusions"]
    status = result["status"]
    if status == "permit_required":
        clause = next(c for c in items if c["kind"] == "permit_required")
        permits = next((c for c in items if c["kind"] == "permits"), None)
        count = f" ({permits['value']} {term}{'s' if permits['value'] != 1 else ''}, {_cite(permits)})" if permits else ""
        return Text.assemble((f"{term.upper()} REQUIRED", STATUS_STYLE[status]), f" — {_cite(clause)}{count}")
    if status == "possibly_required":
        clause = next(c for c in items if c["kind"] == "permit_required")
        unknown = ", ".join(result.get("unknown", []))
        return Text.assemble((f"{term.upper()} POSSIBLY REQUIRED", STATUS_STYLE[status]),
                             f" — {_cite(clause)}; it depends on what is not yet known ({unknown}); see `reasoner questions`")
    if status == "inconsistent":
        return Text.assemble(("NO COMPLETION", STATUS_STYLE[status]), " — the stated and unknown facts cannot all hold together")
    if status == "possibly_exempt":
        found = [c for c in items if c["kind"] == "exemption"]
        reasons = "; ".join(f"{words(c['name'])} ({_cite(c)})" for c in found)
        return Text.assemble(("POSSIBLY EXEMPT", STATUS_STYLE[status]),
                             f" — exempt where {reasons} applies; otherwise not reached; no {term} is required either way")
    if status == "exempt":
        found = [c for c in items if c["kind"] == "exemption"]
        reasons = "; ".join(f"{words(c['name'])} ({_cite(c)})" for c in found)
        return Text.assemble(("EXEMPT", STATUS_STYLE[status]), f" — {reasons}")
    return Text.assemble((f"NO {term.upper()} REQUIRED", STATUS_STYLE[status]), " — the event is below what the ordinance regulates")


def _low(item: dict[str, Any], field: str) -> Any:
    """A shortfall's amount, or the low end of its range over unknown facts."""
    return item[field] if item.get(field) is not None else item[f"{field}_range"][0]


def _span(item: dict[str, Any], field: str, range_field: str) -> str:
    """An amount, or its range over the completions of unknown facts."""
    if item.get(range_field):
        low, high = item[range_field]
        return f"{amount(low, item['unit'])} to {amount(high, item['unit'])}"
    return amount(item[field], item["unit"])


def _obligations(items: list[dict[str, Any]]) -> Table | None:
    rows = [c for c in items if c["kind"] == "obligation"]
    if not rows:
        return None
    shortfalls = {c["name"]: c for c in items if c["kind"] == "shortfall"}
    table = Table(title="Obligations", title_justify="left", expand=False)
    for column in ("obligation", "required", "", "clause", "provided"):
        table.add_column(column, overflow="fold")
    for row in rows:
        short = shortfalls.get(row["name"])
        alternative = f" (or {amount(row['alternative']['value'], None)} {words(row['alternative']['name'])})" if row.get("alternative") else ""
        provided = Text("")
        if short:
            verdict = "OVER the limit by" if _low(short, "provided") > _low(short, "required") else "SHORT by"
            maybe = " (possibly)" if short.get("certainty") == "possible" else ""
            provided = Text(f"{verdict} {_span(short, 'value', 'range')}{maybe} (provides {_span(short, 'provided', 'provided_range')})",
                            style="bold red")
        modality = Text("may be required", style="yellow") if row["modality"] == "may" else Text("shall")
        if row.get("certainty") == "possible":
            modality.append(" (possibly)", style="yellow")
        required = amount(row["value"], row["unit"])
        if row.get("range"):
            required = f"{amount(row['range'][0], row['unit'])} to {amount(row['range'][1], row['unit'])}"
        table.add_row(words(row["name"]), required + alternative, modality, _cite(row), provided)
    return table


# the headings of the kinds listed under the obligations, in this order (their words: reasoner/law/labels.py)
SECTIONS = tuple((kind, KIND_LABELS[kind]) for kind in (
    "deadline", "late", "on_time", "restriction", "application_missing", "application_requirement", "signers",
    "procedure", "denial_ground", "revocation_ground", "penalty", "interpretation"))


def _line(item: dict[str, Any]) -> str:
    kind = item["kind"]
    if kind in ("deadline", "late", "on_time", "denial_ground") or (kind == "penalty" and item.get("max") is not None):
        return f"{words(item['name'])}: {phrase(item)}"
    if kind == "interpretation":
        return f"{words(item['name'])}: {item.get('text') or ''}"
    return words(item["name"])


def _reasons(result: dict[str, Any]) -> Text | None:
    """Why the status is what it is: each condition of the ordinance's reach, the failed ones first."""
    found = sorted((c for c in result["conclusions"] if c["kind"] == "reason"), key=lambda c: c["holds"])
    if not found:
        return None
    lines = Text("Why:\n", style="bold")
    for item in found:
        maybe = " (possibly)" if item.get("certainty") == "possible" else ""
        lines.append(f"  {'✓' if item['holds'] else '✗'} {item['text']}{maybe}  [{_cite(item)}]\n",
                     style=None if item["holds"] else "yellow")
    return lines


def _authority_deadlines(items: list[dict[str, Any]], opening: date | None) -> Text | None:
    """What the authority must do by when, apart from the organizer's deadlines; one that falls on or after the
    event's opening is flagged, since the organizer cannot count on an answer before the event."""
    owed = vocabulary().get("authority_deadlines", {})
    found = [c for c in items if c["kind"] == "deadline" and c["name"] in owed]
    if not found:
        return None
    lines = Text("The authority's deadlines (its duty, not the organizer's):\n", style="bold")
    for item in found:
        maybe = " (possibly)" if item.get("certainty") == "possible" else ""
        lines.append(f"  • {_line(item)}{maybe}  [{_cite(item)}]")
        day = date.fromisoformat(item["value"]) if opening and isinstance(item.get("value"), str) else None
        if day and day >= opening:
            where = "ON the opening day" if day == opening else f"AFTER the opening ({opening.isoformat()})"
            lines.append(f"  FALLS {where}", style="bold yellow")
        lines.append("\n")
    return lines


def result_panel(result: dict[str, Any], opening: date | None = None) -> Panel:
    items = result["conclusions"]
    owed = vocabulary().get("authority_deadlines", {})
    parts: list[Any] = [Text(metadata_line(result["ordinance"]), style="dim"), _status_line(result)]
    reasons = _reasons(result)
    if reasons:
        parts.append(reasons)
    table = _obligations(items)
    if table:
        parts.append(table)
    # what the application lacks is said once, under its own heading, not again among what it must contain
    missing = {c["name"] for c in items if c["kind"] == "application_missing" and c.get("certainty") != "possible"}
    for kind, heading in SECTIONS:
        found = [c for c in items if c["kind"] == kind and not (kind == "deadline" and c["name"] in owed)]
        if kind == "application_requirement" and missing:
            found = [c for c in found if c["name"] not in missing]
            heading = "The application must also contain"  # besides what it lacks, said above
        if found:
            lines = Text(f"{heading}:\n", style="bold")
            for item in found:
                maybe = " (possibly)" if item.get("certainty") == "possible" else ""
                lines.append(f"  • {_line(item)}{maybe}  [{_cite(item)}]\n", style="red" if kind in ("late", "application_missing") else None)
            parts.append(lines)
        if kind == "deadline" and (authority := _authority_deadlines(items, opening)):
            parts.append(authority)
    if "depends_on_readings" in result:  # evaluate --readings
        parts.append(_depending_lines(result["depends_on_readings"]))
    title = Text(f"{result['event']} — {result['jurisdiction']}: {result['title']}")  # an id is text, not markup
    return Panel(Group(*parts), title=title, title_align="left")


def _depending_lines(depending: list[dict[str, Any]]) -> Text:
    if not depending:
        return Text("No answer depends on a reading of the law: each holds whatever the reading.", style="green")
    lines = Text("Depends on a reading of the law:\n", style="bold")
    for item in depending:
        what = "status" if item["kind"] == "status" else item["name"].replace("_", " ")
        others = "; ".join(f"{u['interpretation']}={u['reading']}: {reading_value(u['value'])}" for u in item["readings"])
        lines.append(f"  • {what}: {reading_value(item['default'])} (reading applied); {others}\n", style="yellow")
    return lines


def print_results(results: list[dict[str, Any]], openings: dict[str, date] | None = None) -> None:
    """Each result's panel; `openings` (event id: its first day) flags the authority's deadlines that fall late."""
    for result in results:
        console.print(result_panel(result, (openings or {}).get(result["event"])))


# ---------------------------------------------------------------- explanations

def _node_label(node: dict[str, Any]) -> Text:
    """One step in words: what holds (or does not), its clause, the sentence with the arithmetic, the
    clause's words. The atoms stay in the JSON (`atom`) for programs."""
    text = Text()
    if node.get("kind") == "comparison":
        return Text(f"fails: {node['text']}", style="bold red")
    if node.get("kind") == "missing_fact":
        return Text(f"not stated in the event file: {node['text']}", style="red")
    if node.get("kind") == "not_derived":
        return Text(f"does not hold: {node['text']}", style="bold red")
    text.append(node["text"], style="bold" if node.get("kind") == "derived" else "dim")
    if node.get("clause"):
        text.append(f"  [{node['clause']}{' (numbering reconstructed)' if node.get('reconstructed') else ''}]", style="cyan")
    if node.get("unknown"):
        text.append(f"  (if {node['unknown']} is {_value_words(node['assumed'])}: unknown)", style="yellow")
    elif node.get("sun"):
        text.append(f"  (from the sun: {node['sun']})", style="dim")
    elif node.get("kind") == "fact":
        text.append("  (from the event file)", style="dim")
    if node.get("certainty") == "possible":
        text.append("  possible: not in every completion", style="yellow")
    if node.get("because"):
        text.append(f"\n{node['because']}", style="green")
    if node.get("conditions_text") and not node.get("because"):
        text.append("\nwith " + "; ".join(node["conditions_text"]), style="dim")
    for reading in node.get("interpretations", []):
        text.append(f"\nRead as ({reading['id']}, {reading['clause']}): {reading['text']}", style="magenta")
    if node.get("heading"):
        version = f" (version {node['version']})" if node.get("version") else ""
        text.append(f"\n{node['heading']}{version}: “{node['words']}”", style="italic")
    return text


def _grow(tree: Tree, node: dict[str, Any], quoted: set[str], shown: set[str] | None = None) -> None:
    """Add a node; each clause is quoted once and each derived atom expanded once per tree."""
    shown = set() if shown is None else shown
    if node.get("clause") in quoted and node.get("heading"):
        node = {**node, "heading": None}
    elif node.get("clause"):
        quoted.add(node["clause"])
    if node.get("interpretations"):  # each reading said once, at the first step that rests on it
        readings = [r for r in node["interpretations"] if f"reading {r['id']}" not in quoted]
        quoted.update(f"reading {r['id']}" for r in readings)
        node = {**node, "interpretations": readings}
    if node.get("kind") == "derived" and node["atom"] in shown:
        tree.add(Text(f"{node['text']}  (derived above)", style="dim"))
        return
    if node.get("kind") == "derived":
        shown.add(node["atom"])
    branch = tree.add(_node_label(node))
    folded = node.get("folded") or {"children": ()}
    for index, child in enumerate(node.get("children", [])):
        if index not in folded["children"]:
            _grow(branch, child, quoted, shown)
        elif index == folded["children"][0]:  # the schedule's steps, said in one sentence where the first stood
            branch.add(Text(f"{folded['text']} ({folded['steps']} steps, --full shows them)", style="dim"))
    for absent in node.get("unless", []):
        _grow(branch, absent, quoted, shown)
    for attempt in node.get("attempts", []):
        label = Text(f"a rule of {attempt['clause']}" if attempt.get("clause") else SHARED_RULE, style="dim")
        if attempt.get("would_mean"):
            label.append(f"\nwould need: {attempt['would_mean']}", style="yellow")
        label.append(f"\nfailed: {attempt['failed']}", style="red")
        for also in attempt.get("also_failed", ()):   # every condition that fails, not only the first
            label.append(f"\nand failed: {also['failed']}", style="red")
        sub = branch.add(label)
        explanation = attempt.get("explanation")
        if explanation and explanation.get("kind") in ("derived", "not_derived", "fact", "given", "parameter"):
            _grow(sub, explanation, quoted, shown)


# A rule every ordinance shares (encodings/vocabulary.lp): it cites no clause of its own.
SHARED_RULE = "by the definition every ordinance shares"


def _value_words(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return f"{value:,}" if isinstance(value, int) else str(value)


OUTCOME_WORDS = {"holds": "holds", "fails": "does not hold", "open": "still depends on other unknown facts"}


def _depends_line(entry: dict[str, Any]) -> Text:
    """Which answers to one unknown fact make a conclusion hold, in words."""
    parts = []
    for answer in entry["answers"]:
        if "from" in answer:
            span = _piece(answer["from"], answer["to"])
        else:
            span = answer["value"]
        parts.append(f"{span}: {OUTCOME_WORDS[answer['outcome']]}")
    sampled = " (at the values reasoned)" if entry.get("sampled") else ""
    return Text(f"decided by {entry['fact']}{sampled}: " + "; ".join(parts), style="yellow")


def print_explanation(report: dict[str, Any]) -> None:
    wanted = report["conclusion"] or "every conclusion"
    title = f"{report['event']} under {report['ordinance']}: {wanted}"
    if "certainty" in report:  # over unknown facts
        title += {"certain": " (certain: in every completion of the unknown facts)",
                  "possible": " (possible: in some completions of the unknown facts)",
                  "impossible": " (in no completion of the unknown facts)"}[report["certainty"]]
    root = Tree(Text(title, style="bold"))
    quoted: set[str] = set()
    shown: set[str] = set()
    for node in report["trees"] + report["why_not"]:
        if "depends_on" in node:
            branch = root.add(Text(f"possible: {node['text']}", style="bold yellow"))
            for entry in node["depends_on"]:
                branch.add(_depends_line(entry))
            if not node["depends_on"]:
                branch.add(Text("no single unknown fact decides it: it turns on several together", style="yellow"))
            _grow(branch, node, quoted, shown)
        else:
            _grow(root, node, quoted, shown)
    if report["conclusion"] and not report["trees"] and not report["why_not"]:
        root.add(Text(f"no rule of this ordinance concludes {report['conclusion']!r}", style="yellow"))
    for item in report.get("rests_on_readings", ()):
        what = "status" if item["kind"] == "status" else item["name"].replace("_", " ")
        for under in item["readings"]:
            root.add(Text(f"rests on a reading: {what}: {reading_value(item['default'])} on the reading applied, "
                          f"{reading_value(under['value'])} on {under['interpretation']}={under['reading']}",
                          style="yellow"))
    console.print(root)


def print_clauses(ordinance: str, clause_id: str | None = None) -> None:
    reg = registry(ordinance)
    if clause_id:
        clause = reg.clauses[clause_id]
        flags = [clause.numbering] + ([] if clause.operative else ["non-operative"])
        body = Text.assemble((f"{clause.id} {clause.heading}", "bold"), f"  ({', '.join(flags)})\n\n", clause.text)
        if clause.reason:
            body.append(f"\n\nNote: {clause.reason}", style="dim")
        for reading in reg.interpretations.values():
            if reading.clause == clause_id:
                body.append(f"\n\nInterpretation {reading.id}: ", style="bold magenta")
                body.append(reading.text)
        body.append(f"\n\n{metadata_line(ordinance)}", style="dim")
        console.print(Panel(body, title=f"{reg.jurisdiction}: {reg.title}", title_align="left"))
        return
    table = Table(title=f"{reg.jurisdiction}: {reg.title}", title_justify="left",
                  caption=Text(metadata_line(ordinance)), caption_justify="left")
    for column in ("clause", "heading", "numbering", "operative"):
        table.add_column(column, overflow="fold")
    for clause in reg.clauses.values():
        table.add_row(clause.id, clause.heading, clause.numbering, "yes" if clause.operative else "no")
    console.print(table)


def print_ordinances(data: list[dict[str, Any]]) -> None:
    for entry in data:
        lines = Text.assemble((entry["name"], "bold"), f"  {entry['jurisdiction']} ({entry['level'] or 'level not stated'})\n")
        lines.append(f"  {entry['title']}\n  adopted by: {entry['adopting_body'] or 'not stated'}\n")
        if entry["authority"]:
            lines.append(f"  authority: {entry['authority']}\n")
        if entry["history"]:
            lines.append(f"  history: {entry['history']}\n")
        for version in entry["versions"]:
            when = version["effective"] if version["effective"] == "undated" else f"effective {version['effective']}"
            lines.append(f"  version {version['id']}: {version['label']}, {when}\n")
        lines.append(f"  source: encodings/{entry['name']}.txt\n  published as: {entry['source']}\n")
        console.print(lines)


def print_catalog(data: list[dict[str, Any]]) -> None:
    for entry in data:
        reg = registry(entry["ordinance"])
        table = Table(title=f"{entry['ordinance']}: {reg.jurisdiction}: {reg.title}", title_justify="left")
        table.add_column("conclusion", no_wrap=True)
        for column in ("kind", "unit", "clauses"):
            table.add_column(column, overflow="fold")
        for item in entry["conclusions"]:
            table.add_row(item["name"], item["kind"], item["unit"] or "", ", ".join(item["clauses"]))
        console.print(table)


# ---------------------------------------------------------------- unknown facts

PERMIT_WORDS = {"required": "required", "possibly_required": "possibly required", "not_required": "not required"}


def _answer(answer: dict[str, Any]) -> str:
    permits = "; ".join(f"{o}: {PERMIT_WORDS[p]}" for o, p in answer["permit"].items())
    if "from" in answer:
        span = _piece(answer["from"], answer["to"])
        return f"{span} → {permits}"
    return f"{answer['value']} → {permits} (settles {answer['settles']})"


# The kinds a settled answer names in text, in this order (compare's default kinds); JSON lists every one.
SETTLED_KINDS = ("permit_required", "permits", "exemption", "obligation", "deadline", "late", "on_time", "denial_ground",
                 "penalty", "shortfall")

SETTLED_LABELS = {"exemption": "exemptions", "obligation": "obligations", "deadline": "deadlines", "late": "late",
                  "on_time": "on time", "denial_ground": "denial grounds", "penalty": "penalties", "shortfall": "shortfalls"}


def _settled_words(conclusions: list[dict[str, Any]], several: bool) -> str:
    """The conclusions an answer settles, by kind: the permit, obligations, deadlines, grounds, penalties, shortfalls."""
    groups: dict[str, list[str]] = {}
    for c in conclusions:
        if c["kind"] in SETTLED_KINDS:
            name = (f"{c['ordinance']}: " if several else "") + c["name"].replace("_", " ")
            groups.setdefault(c["kind"], [])
            if name not in groups[c["kind"]]:
                groups[c["kind"]].append(name)
    parts = [("; " if i else "") + (f"{SETTLED_LABELS[kind]}: " if kind in SETTLED_LABELS else "")
             + ", ".join(groups[kind]) for i, kind in enumerate(k for k in SETTLED_KINDS if k in groups)]
    rest = len({(c["ordinance"], c["kind"], c["name"]) for c in conclusions if c["kind"] not in SETTLED_KINDS})
    return "".join(parts) + (f"; and {rest} more (--format json names them)" if rest else "")


def print_questions(report: dict[str, Any]) -> None:
    permits = ", ".join(f"{o}: {PERMIT_WORDS[p]}" for o, p in report.get("permit", {}).items())
    root = Tree(Text(f"{report['event']}: {permits}; {report.get('open_conclusions', 0)} conclusion(s) still open", style="bold"))
    if not report["questions"]:
        root.add(Text("no unknown fact changes any conclusion", style="green"))
    for number, question in enumerate(report["questions"], start=1):
        label = Text(f"{number}. {question['fact']}", style="bold")
        if question["settles_permit_for"]:
            label.append(f"  settles the permit duty for {', '.join(question['settles_permit_for'])}", style="green")
        label.append(f"  ({question['settled_by_any_answer']} conclusion(s) settled by any answer)", style="dim")
        if question["clauses"]:
            label.append(f"  [{', '.join(question['clauses'])}]", style="cyan")
        branch = root.add(label)
        several = len(report.get("permit", {})) > 1
        for answer in question["answers"]:
            leaf = branch.add(_answer(answer))
            for holds, words in ((True, "then holds"), (False, "then does not hold")):
                leaf_text = _settled_words([c for c in answer.get("conclusions", []) if c["holds"] is holds], several)
                if leaf_text:
                    leaf.add(Text(f"{words}: {leaf_text}", style="green" if holds else "dim"))
    console.print(root)


def print_readings(results: list[dict[str, Any]]) -> None:
    """`reasoner readings`: per ordinance, the choices between readings and the answers that turn on one."""
    for result in results:
        root = Tree(Text(f"{result['event']} under {result['ordinance']}: {result['status'].replace('_', ' ')} "
                         "on the default readings", style="bold"))
        if not result["choices"]:
            root.add(Text("its registry records no choice between readings", style="dim"))
            console.print(root)
            continue
        readings = root.add(Text("choices between readings", style="bold"))
        for choice in result["choices"]:
            others = ", ".join(a["reading"] for a in choice["alternatives"])
            readings.add(Text.assemble((f"{choice['interpretation']}", "bold"), f": {choice['default']} (default); ",
                                       f"other: {others}  ", (f"[{choice['clause']}]", "cyan")))
        if not result["depends_on_readings"]:
            root.add(Text("no answer for this event depends on a reading: each holds whatever the reading", style="green"))
        else:
            for (interpretation, reading), count, lines in moved_by_reading(result["depends_on_readings"]):
                branch = root.add(Text(f"on the reading {interpretation}={reading}, {count} answer(s) change",
                                       style="yellow"))
                for words, what in lines:
                    branch.add(Text(f"{words}: {what}", style="bold") if words == "status" else f"{words}: {what}")
        combined = result.get("every_combination")
        if combined:
            root.add(Text(f"over all {combined['combinations']} combinations of readings: {combined['hold_under_every']} "
                          f"conclusion(s) hold under every one, {len(combined['hold_under_some_only'])} under some only",
                          style="dim"))
        root.add(Text(f"{result['settled']} answer(s) hold whatever the reading", style="dim"))
        console.print(root)


NOW_WORDS = {"certain": "holds in every completion", "possible": "holds in some completions only",
             "impossible": "holds in none"}


def _whatif_search(tree: Tree, search: dict[str, Any], conclusion: str) -> None:
    """One search over unknown facts: the changes found and checked, or that none of the cheapest did it."""
    branch = tree.add(Text(f"to make {conclusion} {WHATIF_LABELS[search['wanted']]}:", style="bold"))
    if not search["found"]:
        branch.add(Text(f"no change of the known facts allowed to change does it (the {search['tried']} cheapest "
                        "tried)" if search.get("gave_up") else "no change of the known facts allowed to change does it",
                        style="yellow"))
        return
    for change in search["changes"]:
        branch.add(f"{change['fact']}: {change['from']} → {change['to']}")
    if search.get("clauses"):
        branch.add(Text(f"because of {', '.join(search['clauses'])}", style="cyan"))
    branch.add(Text(WHATIF_LABELS["checked_every_completion"], style="green"))
    _next_smallest(branch, search.get("alternatives"), WHATIF_LABELS["checked_every_completion"])


def _next_smallest(tree: Tree, alternatives: list[dict[str, Any]] | None, checked: str | None) -> None:
    """The next smallest proposals, ranked, each on one line with its clauses and whether it was checked (`checked`:
    the words for a proposal confirmed, where it depends on the search; None: each proposal's own)."""
    if not alternatives:
        return
    others = tree.add(Text("or instead, the next smallest:", style="bold"))
    for rank, proposal in enumerate(alternatives, start=2):
        branch = others.add(Text(f"{rank}. " + "; ".join(f"{c['fact']}: {c['from']} → {c['to']}" for c in proposal["changes"])))
        if proposal.get("clauses"):
            branch.add(Text(f"because of {', '.join(proposal['clauses'])}", style="cyan"))
        branch.add(Text(checked, style="green") if checked else _checked(proposal, not proposal["holds_after"]))


def print_whatif(report: dict[str, Any]) -> None:
    if "certainty_now" in report:  # over unknown facts
        root = Tree(Text(f"{report['event']} under {report['ordinance']}: {report['conclusion']} "
                         f"{NOW_WORDS[report['certainty_now']]} of the unknown facts", style="bold"))
        for entry in report["decided_by"]:
            root.add(_depends_line(entry))
        for search in (report, report.get("otherwise")):
            if search:
                _whatif_search(root, search, report["conclusion"])
        console.print(root)
        return
    goal = "stop holding" if report["holds_now"] else "hold"
    title = Text(f"{report['event']} under {report['ordinance']}: smallest change to make {report['conclusion']} {goal}", style="bold")
    root = Tree(title)
    if not report["found"]:
        root.add(Text("no change of the facts allowed to change does it", style="yellow"))
    for change in report["changes"]:
        root.add(Text(f"{change['fact']}: {change['from']} → {change['to']}"))
    if report.get("clauses"):
        root.add(Text(f"because of {', '.join(report['clauses'])}", style="cyan"))
    if report["found"]:
        root.add(_checked(report, report["holds_now"]))
    _next_smallest(root, report.get("alternatives"), None)
    console.print(root)


def _checked(proposal: dict[str, Any], held: bool) -> Text:
    """Whether evaluating the changed event confirmed the proposal."""
    if proposal.get("verified"):
        return Text(WHATIF_LABELS["checked_lost" if held else "checked_gained"], style="green")
    return Text(WHATIF_LABELS["unconfirmed"], style="red")


# ---------------------------------------------------------------- comparisons, sweeps, thresholds

def print_comparison(tables: list[dict[str, Any]]) -> None:
    from reasoner.modes.compare import row_label, verdict_lines

    for tab in tables:
        ordinances = [o["column"] for o in tab["ordinances"]]
        # the event id is the file's text: a Text, never markup (an id such as [link=...] would write a hyperlink)
        table = Table(title=Text(f"{tab['event']}: {', '.join(ordinances)}", style="table.title"), title_justify="left",
                      show_lines=False)
        table.add_column("", overflow="fold")
        for ordinance in ordinances:
            table.add_column(ordinance, overflow="fold")
        for row in tab["rows"]:
            texts = []
            for ordinance in ordinances:
                cell = row["cells"][ordinance]
                style = "bold red" if cell["strictest"] else "dim" if cell["state"] != "holds" else None
                texts.append(Text(("★ " if cell["strictest"] else "") + cell["text"], style=style))
            table.add_row(words(row_label(row)) if row["kind"] != "status" else Text("permit required", style="bold"), *texts)
        console.print(table)
        for line in verdict_lines(tab):  # compare --readings
            console.print(Text(line, style="yellow"))
    console.print(Text("★ strictest where the ordinances differ; 'not regulated': the ordinance does not reach the event; "
                       "'no such requirement': it does, but has no such conclusion.", style="dim"))


def print_changes(reports: list[dict[str, Any]]) -> None:
    from reasoner.modes.compare import changes_lines, impact_line, versions_head

    for report in reports:
        console.print(Text(f"{report['event']}: {report['ordinance']}, {versions_head(report)}", style="table.title"))
        lines = changes_lines(report)
        for line in lines:
            console.print(Text(f"  {line}"))
        if not lines:
            console.print(Text("  no conclusion changes", style="dim"))
    console.print(Text(impact_line(reports), style="bold"))


_CHANGE_MARK = {"appears": "+", "disappears": "−", "changes": "~"}


def print_sweep(result: Any) -> None:
    vary = result.vary
    head = (f"{result.event}: {vary.field} from {vary.show(vary.low)} to {vary.show(vary.high)} (step {result.step}), "
            f"{len(result.change_points)} change point(s), {result.evaluations} evaluations")
    root = Tree(Text(head, style="bold"))
    for note in result.adjustments:
        root.add(Text(f"note: {note}", style="dim"))
    by_point: dict[Any, list[dict[str, Any]]] = {}
    for change in result.changes:
        by_point.setdefault(change["at"], []).append(change)
    for at, changes in by_point.items():
        point = root.add(Text(f"{vary.field} = {at:,}" if isinstance(at, int) else f"{vary.field} = {at}", style="bold cyan"))
        for ordinance in dict.fromkeys(c["ordinance"] for c in changes):
            branch = point.add(Text(ordinance, style="bold"))
            for change in (c for c in changes if c["ordinance"] == ordinance):
                label = words(change["name"]) if change["kind"] in ("obligation", "status", change["name"]) \
                    else f"{words(change['kind'])}: {words(change['name'])}"
                if change["kind"] == "status":
                    text = f"{words(change['before'])} → {words(change['after'])}"
                elif change["change"] == "changes":
                    text = f"{change['before']} → {change['after']}"
                else:
                    text = change["after"] or change["before"] or ""
                branch.add(Text(f"{_CHANGE_MARK[change['change']]} {label}: {text}  [{', '.join(change['clauses'])}]",
                                style="red" if change["kind"] == "status" else None))
    if result.proportional:
        moving = root.add(Text("proportional (steps not listed; see --samples):", style="bold"))
        for item in result.proportional:
            moving.add(f"{item['ordinance']}: {words(item['kind'])} {words(item['name'])}, {amount(item['first_value'], None)} at "
                       f"{item['from']} to {amount(item['last_value'], None)} at {item['to']}")
    console.print(root)


def print_thresholds(rows: list[dict[str, Any]]) -> None:
    table = Table(title="Numbers the ordinances state (param facts of the encodings)", title_justify="left")
    for column in ("ordinance", "parameter", "value", "clause", "the words"):
        table.add_column(column, justify="right" if column == "value" else "left", overflow="fold")
    for row in rows:
        clause = row["clause"] + (" (reconstructed)" if row["numbering"] == "reconstructed" else "")
        table.add_row(row["ordinance"], words(row["name"]), f"{row['value']:,}", clause,
                      Text(row["words"] or "", style="italic"))
    console.print(table)


def _piece(low: Any, high: Any) -> str:
    """A piece of ordered answers: numbers with thousands separators, times and dates as they are."""
    def shown(value: Any) -> str:
        return f"{value:,}" if isinstance(value, int) else str(value)
    return shown(low) if low == high else f"{shown(low)}–{shown(high)}"
