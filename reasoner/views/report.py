"""One page per event to hand on: the status, every obligation with its arithmetic, deadlines as dates,
the interpretations and the words of every clause cited, as self-contained HTML (no external resource)
or Markdown. The sentences are the explanations' own (reasoner.modes.explain); nothing here computes law."""
from __future__ import annotations

import html
import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from reasoner.events.model import Event
from reasoner.events.rules import RangeBase
from reasoner.law.labels import KIND_LABELS, READING_LABELS, STATUS_LABELS, heading, moved_by_reading, phrase
from reasoner.law.registry import registry
from reasoner.law.vocabulary import vocabulary

STATUS = {status: heading(label) for status, label in STATUS_LABELS.items()}
# the kinds a page tables, in this order (their headings: reasoner/law/labels.py)
SECTIONS = tuple((kind, KIND_LABELS[kind]) for kind in (
    "obligation", "shortfall", "deadline", "late", "on_time", "exemption", "restriction", "application_missing",
    "denial_ground", "revocation_ground", "penalty"))
CSS = """body{font:15px/1.45 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
h1{font-size:1.5rem}h2{font-size:1.25rem;border-bottom:2px solid #33568c;padding-bottom:.2rem;margin-top:2.5rem}
h3{font-size:1.05rem;margin-top:1.4rem}.status{display:inline-block;padding:.25rem .7rem;border-radius:.3rem;
font-weight:600;background:#e8eef8;color:#1d3b6b}.status.permit_required{background:#fde8e4;color:#8a2415}
.status.exempt,.status.not_regulated{background:#e4f4e7;color:#1e5c2c}table{border-collapse:collapse;width:100%}
th,td{text-align:left;vertical-align:top;border-bottom:1px solid #ddd;padding:.35rem .5rem}th{background:#f4f6f9}
.why{color:#3c5a2c;font-size:.92rem}.clause{font-family:ui-monospace,monospace;white-space:nowrap}
blockquote{margin:.3rem 0 1rem 0;padding:.3rem .8rem;border-left:3px solid #b8c4d6;background:#fafbfc}
.ids{color:#555;margin-top:-.6rem}dt{font-weight:600;float:left;clear:left;width:7rem}dd{margin:0 0 .3rem 7.5rem}
.reading{background:#f6f0fa;border-left:3px solid #8a5fb0;padding:.4rem .8rem;margin:.5rem 0}
@media print{body{margin:0}h2{break-before:page}}
@media (max-width:40rem){table,tbody,tr,td{display:block}thead{display:none}tr{border-bottom:1px solid #ddd;
padding:.3rem 0}td{border:0;padding:.05rem .5rem}td:first-child{font-weight:600}td:empty{display:none}}"""


def _amount(item: dict[str, Any]) -> str:
    value, unit = item.get("value"), item.get("unit")
    if item.get("kind") in ("late", "on_time"):
        return phrase(item)
    if item.get("range"):
        low, high = item["range"]
        return f"{low:,} to {high:,} {unit or ''}".strip()
    low, high = item.get("min"), item.get("max")
    if item.get("kind") == "penalty" and high is not None and low != high:   # the range the text gives
        return f"{_value(low, unit)}–{_value(high, unit)}" if low else f"up to {_value(high, unit)}"
    return _value(value, unit)


def _value(value: Any, unit: str | None) -> str:
    if value is None or value is True:
        return ""
    if unit == "usd":
        return f"${value:,}"
    if isinstance(value, int):
        return f"{value:,} {'' if unit in (None, 'count') else unit.replace('_', ' ')}".strip()
    return str(value)


def _arithmetic(event: Event, ordinance: str) -> dict[tuple[str, str], str]:
    """(kind, name) -> the sentence that derives it, from the explanation of every conclusion."""
    from reasoner.modes.explain import explain

    found: dict[tuple[str, str], str] = {}
    for tree in explain(event, ordinance)["trees"]:
        atom, because = tree["atom"], tree.get("because")
        if not because:
            continue
        predicate = atom.split("(")[0]
        name = predicate if predicate in ("regulated", "permit_required", "permits") else atom.split(",")[2]
        kind = {"quantity": "obligation", "exempt": "exemption", "note": "interpretation"}.get(atom.split("(")[0],
                                                                                                atom.split("(")[0])
        key = (kind, name.strip('"'))
        if atom.startswith("quantity(") or key not in found:
            found[key] = because
    return found


def _count(value: Any) -> str:
    return f"between {value.min:,} and {value.max:,}" if isinstance(value, RangeBase) else f"{value:,}"


def _moment(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M")


def _session(session: Any) -> str:
    end = session.end if not session.open_end else None
    return f"{_moment(session.start)} to " + (_moment(end) if end else
                                              f"between {_moment(session.end.min)} and {_moment(session.end.max)}")


def facts(event: Event) -> list[tuple[str, str]]:
    """The event's facts a reader checks first, as (label, sentence): when, how many, where, who."""
    described = vocabulary()
    runs = event.schedule.runs
    when = _session(runs[0]) if len(runs) == 1 else f"{len(runs)} sessions: " + "; ".join(map(_session, runs))
    attendance = [f"{_count(event.attendance.expected_max)} at most at any one time"]
    if event.attendance.total is not None:
        attendance.append(f"{_count(event.attendance.total)} persons over the whole event")
    if event.attendance.max_tickets is not None:
        attendance.append(f"at most {event.attendance.max_tickets:,} tickets")
    site = [described["site_kinds"].get(event.site.kind, event.site.kind)]
    if event.site.locations > 1:
        site.append(f"{event.site.locations} locations")
    if event.site.seating_capacity is not None:
        site.append(f"seating capacity {_count(event.site.seating_capacity)}")
    site += [described["site_flags"].get(flag, flag) for flag in event.site.flags]
    organizer = [described["organizer_kinds"].get(event.organizer.kind, event.organizer.kind),
                 described["sponsor_kinds"].get(event.organizer.sponsor, event.organizer.sponsor)]
    return [("When", when), ("Attendance", "; ".join(attendance)), ("Site", "; ".join(site)),
            ("Organizer", "; ".join(organizer))]


def _events(pages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One page per event (the first of its ordinances), in the order they came."""
    return list({page["event"]: page for page in reversed(pages)}.values())[::-1]


def _heading_of(pages: list[dict[str, Any]], text: Any = str) -> tuple[str, str]:
    """The title (the events' names, the id where an event has none) and the ids beneath it."""
    return (", ".join(text(" ".join((p.get("name") or p["event"]).split())) for p in pages),
            "Event " + ", ".join(text(p["event"]) for p in pages))


def build(events: Sequence[Event], ordinances: Sequence[str], depends_on_readings: bool = False) -> list[dict[str, Any]]:
    """Per event and ordinance: the record `evaluate` gives, each conclusion with the sentence that derives it,
    and the cited clauses with their words; with `depends_on_readings`, the answers an alternative reading moves
    (evaluate --readings)."""
    from reasoner.evaluate import evaluate_any

    records = evaluate_any(events, ordinances)
    if depends_on_readings:
        from reasoner.modes.readings import with_dependencies

        records = with_dependencies(list(events), records)
    pages = []
    for record in records:
        event = next(e for e in events if e.id == record["event"])
        sentences = {} if event.has_unknowns else _arithmetic(event, record["ordinance"])
        reg = registry(record["ordinance"])
        cited: dict[str, Any] = {}
        for item in record["conclusions"]:
            item["why"] = sentences.get((item["kind"], item["name"]))
            for clause in item["clauses"]:
                found = reg.clause(clause)
                if found:
                    cited[clause] = {"id": clause, "heading": found.heading, "words": found.text}
        record["cited"] = [cited[c] for c in sorted(cited)]
        record["name"], record["facts"] = event.name, facts(event)
        pages.append(record)
    return pages


def _rows(items: list[dict[str, Any]]) -> list[list[str]]:
    return [[item["name"].replace("_", " "), _amount(item), item.get("modality") or "", ", ".join(item["clauses"]),
             item.get("why") or ""] for item in items]


def to_html(pages: list[dict[str, Any]]) -> str:
    e = html.escape
    events = _events(pages)
    title, ids = _heading_of(events)
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{e(title)}: what the ordinances require</title>",
           f"<style>{CSS}</style></head><body>",
           f"<h1>{e(title)}: what the ordinances require</h1>", f'<p class="ids">{e(ids)}</p>']
    for page in events:
        out.append(f'<section class="facts"><h2>The event{": " + e(page["event"]) if len(events) > 1 else ""}</h2><dl>'
                   + "".join(f"<dt>{e(label)}</dt><dd>{e(text)}</dd>" for label, text in page["facts"]) + "</dl></section>")
    for page in pages:
        out.append(f'<section><h2>{e(page["jurisdiction"])}: {e(page["title"])}</h2>')
        out.append(f'<p>Event <b>{e(page["event"])}</b>: <span class="status {e(page["status"])}">'
                   f'{e(STATUS.get(page["status"], page["status"]))}</span></p>')
        basis = [c for c in page["conclusions"] if c["kind"] in ("regulated", "permit_required", "permits")]
        for item in basis:
            why = f' — <span class="why">{e(item["why"])}</span>' if item.get("why") else ""
            text = {"regulated": "The ordinance regulates the event", "permit_required": "A permit or license is required",
                    "permits": f"{_amount(item)} permit(s) or license(s)"}[item["kind"]]
            out.append(f'<p>{text} <span class="clause">[{e(", ".join(item["clauses"]))}]</span>{why}</p>')
        for kind, title in SECTIONS:
            items = [c for c in page["conclusions"] if c["kind"] == kind]
            if not items:
                continue
            out.append(f"<h3>{title}</h3><table><thead><tr><th>what</th><th>amount</th><th>duty</th><th>clause</th>"
                       "<th>how it follows</th></tr></thead><tbody>")
            for row in _rows(items):
                out.append("<tr>" + "".join(f'<td{" class=clause" if i == 3 else " class=why" if i == 4 else ""}>'
                                            f"{e(cell)}</td>" for i, cell in enumerate(row)) + "</tr>")
            out.append("</tbody></table>")
        readings = [c for c in page["conclusions"] if c["kind"] == "interpretation"]
        if readings:
            out.append(f"<h3>{KIND_LABELS['interpretation']}</h3>")
            for item in readings:
                out.append(f'<div class="reading"><b>{e(item["name"].replace("_", " "))}</b> '
                           f'<span class="clause">[{e(", ".join(item["clauses"]))}]</span>: {e(item.get("text") or "")}</div>')
        if page.get("depends_on_readings"):
            out.append(f"<h3>{e(heading(READING_LABELS['section']))}</h3>")
            for (interpretation, reading), count, lines in moved_by_reading(page["depends_on_readings"]):
                out.append(f'<div class="reading"><b>{e(interpretation)}={e(reading)}</b>: {count:,} answer(s) change'
                           "<ul>" + "".join(f"<li>{e(words)}: {e(what)}</li>" for words, what in lines) + "</ul></div>")
        if page["cited"]:
            out.append("<h3>The clauses cited</h3>")
            for clause in page["cited"]:
                out.append(f'<p><span class="clause">{e(clause["id"])}</span> <b>{e(clause["heading"])}</b></p>'
                           f"<blockquote>{e(clause['words'])}</blockquote>")
        out.append("</section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


_MARKDOWN = re.compile(r"([\\`*_\[\]<>&|])")


def markdown_text(text: str) -> str:
    """An event's own text (its id) as Markdown shows it literally: markup characters escaped, `<` `>` `&` as HTML
    entities (a renderer passes raw HTML through), one line."""
    entities = {"<": "&lt;", ">": "&gt;", "&": "&amp;"}
    return _MARKDOWN.sub(lambda m: entities.get(m.group(1), "\\" + m.group(1)), " ".join(text.splitlines()))


def to_markdown(pages: list[dict[str, Any]]) -> str:
    def cell(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")

    events = _events(pages)
    title, ids = _heading_of(events, markdown_text)
    out = [f"# {title}: what the ordinances require", "", ids, ""]
    for page in events:
        out += [f"## The event{': ' + markdown_text(page['event']) if len(events) > 1 else ''}", ""]
        out += [f"- **{label}**: {markdown_text(text)}" for label, text in page["facts"]] + [""]
    for page in pages:
        out += [f"## {page['jurisdiction']}: {page['title']}", "",
                f"Event **{markdown_text(page['event'])}**: **{STATUS.get(page['status'], page['status'])}**", ""]
        for kind, title in SECTIONS:
            items = [c for c in page["conclusions"] if c["kind"] == kind]
            if items:
                out += [f"### {title}", "", "| what | amount | duty | clause | how it follows |", "|---|---|---|---|---|"]
                out += ["| " + " | ".join(cell(c) for c in row) + " |" for row in _rows(items)] + [""]
        readings = [c for c in page["conclusions"] if c["kind"] == "interpretation"]
        if readings:
            out += [f"### {KIND_LABELS['interpretation']}", ""] + [f"- **{c['name']}** [{', '.join(c['clauses'])}]: {c.get('text') or ''}"
                                                  for c in readings] + [""]
        if page.get("depends_on_readings"):
            out += [f"### {heading(READING_LABELS['section'])}", ""]
            for (interpretation, reading), count, lines in moved_by_reading(page["depends_on_readings"]):
                out += [f"- **{interpretation}={reading}**: {count:,} answer(s) change"]
                out += [f"  - {words}: {markdown_text(what)}" for words, what in lines]
            out += [""]
        if page["cited"]:
            out += ["### The clauses cited", ""]
            for clause in page["cited"]:
                out += [f"**{clause['id']}** {clause['heading']}", "", f"> {clause['words']}", ""]
    return "\n".join(out)
