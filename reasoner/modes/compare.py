"""Side-by-side comparison: the conclusions of several ordinances about one event, joined on the shared vocabulary.

A table has one row per conclusion (kind and name, e.g. obligation `toilets`) and one cell per ordinance.
Each cell holds the ordinance's own conclusions, exactly as `evaluate` returns them, or says why there are
none: the ordinance does not regulate the event (`not_regulated`), exempts it (`exempt`), or regulates it but
states no such conclusion (`none`).

Strictness (the `strictest` mark): where the ordinances differ on a row, the cells that burden the organizer
most are marked.
- permit required > exempt or not regulated;
- obligations: "shall" > "may" > absent; among cells of the top modality, the largest quantity, except for
  time limits (`upper_limit` in encodings/vocabulary.lp: ambulance response, shuttle interval, clean-up,
  removal, fee payment), where the smallest is strictest; where a cell of the top modality states no amount
  (a fee "set by the board"), the row is not ranked;
- deadlines: the earliest date (the authority's own processing deadlines are not ranked);
- days late: the most; days to spare: the fewest; permits: the most; shortfalls: the largest;
- denial grounds: "shall not issue" > "may deny" > absent; penalties: the highest maximum (same unit only);
- restrictions, application requirements and items missing from the application, revocation grounds:
  present > absent;
- exemptions, procedures, signers and interpretations are not ranked.
Ties at the top are all marked; a row on which every cell ranks the same is not marked.
"""
from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from datetime import date
from functools import lru_cache
from typing import Any

from reasoner.conclusions import KIND_ORDER
from reasoner.events.model import Event
from reasoner.law.registry import registry
from reasoner.program import check_ordinances, law
from reasoner.law.reasons import reason_text
from reasoner.law.vocabulary import vocabulary
from reasoner.law.labels import READING_LABELS, STATUS_LABELS, VERDICT_LABELS, phrase

# Kinds shown unless asked otherwise: what researchers compare (permits, duties, dates, grounds, money).
DEFAULT_KINDS = ("status", "permits", "exemption", "obligation", "deadline", "late", "on_time", "denial_ground",
                 "penalty", "shortfall")
ALL_KINDS = ("status", *KIND_ORDER)

NOT_RANKED_DEADLINES = frozenset({"processing"})
PRESENCE_KINDS = frozenset({"regulated", "permit_required", "restriction", "application_requirement",
                            "application_missing", "revocation_ground"})
MODALITY_RANK = {"shall": 2, "may": 1}
STATUS_RANK = {"permit_required": 2, "possibly_required": 1, "exempt": 0, "possibly_exempt": 0, "not_regulated": 0}

NONE_TEXT = {"obligation": "no such requirement", "deadline": "no such requirement", "restriction": "no such requirement",
             "application_requirement": "no such requirement", "permits": "no such requirement",
             "penalty": "no such penalty", "exemption": "does not apply", "denial_ground": "no such ground",
             "revocation_ground": "no such ground"}
STATE_TEXT = {state: STATUS_LABELS[state] for state in ("not_regulated", "exempt", "possibly_exempt")}


def upper_limits() -> frozenset[str]:
    """Obligations whose quantity is a maximum (a time limit), as the shared vocabulary declares them."""
    return law(()).upper_limits


def parse_kinds(text: str | None) -> tuple[str, ...]:
    """`None` -> the default kinds; "all" -> every kind; otherwise a comma-separated list of kinds."""
    if text is None:
        return DEFAULT_KINDS
    if not text.strip(",; \t"):
        raise ValueError("names no kind; leave it out for the default kinds")
    if text.strip() == "all":
        return ALL_KINDS
    kinds = tuple(dict.fromkeys(k.strip() for k in text.split(",") if k.strip()))
    unknown = [k for k in kinds if k not in ALL_KINDS]
    if unknown:
        raise ValueError(f"unknown kind(s) {', '.join(unknown)}; choose from: {', '.join(ALL_KINDS)} (or all)")
    return kinds


# ---------------------------------------------------------------- cell text

def item_text(item: dict[str, Any]) -> str:
    """One conclusion in a few words (its clauses are added by the caller); over unknown facts, a possible one
    says so."""
    text = _item_text(item)
    return f"{text} (possible)" if item.get("certainty") == "possible" else text


def _item_text(item: dict[str, Any]) -> str:
    return reason_text(item) if item["kind"] == "reason" else phrase(item)


def cell_text(cell: dict[str, Any], kind: str) -> str:
    state = cell["state"]
    if state == "holds":
        if kind == "status":
            return cell["value"]
        return "; ".join(f"{item_text(i)} [{', '.join(i['clauses'])}]" for i in cell["items"])
    if state == "none":
        return NONE_TEXT.get(kind, "none")
    return STATE_TEXT[state]


# ---------------------------------------------------------------- ranking

def _date_key(value: Any) -> int | None:
    try:
        return date.fromisoformat(str(value)).toordinal()
    except ValueError:
        return None


def rule_for(kind: str, name: str) -> str | None:
    """The strictness rule of a row, in words (None: not ranked)."""
    if kind == "status":
        return "permit required over none"
    if kind == "obligation":
        return "shall over may; then the smallest (a time limit)" if name in upper_limits() else "shall over may; then the largest"
    if kind == "deadline":
        return None if name in NOT_RANKED_DEADLINES else "the earliest"
    return {"late": "the most days late", "on_time": "the fewest days to spare", "permits": "the most",
            "shortfall": "the largest", "denial_ground": "shall not issue over may deny",
            "penalty": "the highest maximum"}.get(kind, "present over absent" if kind in PRESENCE_KINDS else None)


def _item_rank(kind: str, name: str, item: dict[str, Any]) -> tuple[int, Any]:
    """(tier, amount) of one conclusion; amount None where it has none to compare."""
    if kind == "obligation":
        value = item["value"] if isinstance(item["value"], int) and not isinstance(item["value"], bool) else None
        if value is not None and name in upper_limits():
            value = -value
        return MODALITY_RANK.get(item["modality"], 0), value
    if kind == "deadline":
        day = _date_key(item["value"])
        return 1, None if day is None else -day
    if kind in ("late", "permits", "shortfall"):
        return 1, item["value"]
    if kind == "on_time":
        return 1, -item["value"]
    if kind == "denial_ground":
        return MODALITY_RANK.get(item["modality"], 0), 0
    if kind == "penalty":
        return 1, (item["unit"], item.get("max") or 0)
    return 1, 0


def _mark_strictest(row: dict[str, Any]) -> None:
    kind, name = row["kind"], row["name"]
    cells = row["cells"]
    for cell in cells.values():
        cell["strictest"] = False
    if row["rule"] is None or len(cells) < 2:
        return
    ranks: dict[str, tuple] = {}
    for ordinance, cell in cells.items():
        if kind == "status":
            ranks[ordinance] = (STATUS_RANK.get(cell["value"], 0), 0)
        elif cell["state"] != "holds":
            ranks[ordinance] = (0, None)
        else:
            ranks[ordinance] = max((_item_rank(kind, name, i) for i in cell["items"]),
                                   key=lambda r: (r[0], r[1] is not None, r[1] if r[1] is not None else 0))
    if len(set(ranks.values())) == 1:
        return
    top = max(tier for tier, _ in ranks.values())
    leaders = {o: amount for o, (tier, amount) in ranks.items() if tier == top}
    amounts = list(leaders.values())
    if any(a is None for a in amounts):
        if not all(a is None for a in amounts):
            row["ranked"] = False
            return
        best = set(leaders)
    else:
        if kind == "penalty" and len({unit for unit, _ in amounts}) > 1:
            row["ranked"] = False
            return
        most = max(amounts)
        best = {o for o, a in leaders.items() if a == most}
    for ordinance in best:
        cells[ordinance]["strictest"] = True


# ---------------------------------------------------------------- tables

def _order(kind: str, name: str) -> tuple:
    rank = {k: i for i, k in enumerate(ALL_KINDS)}
    if kind == "obligation":
        names = list(vocabulary()["obligations"])
        return rank[kind], names.index(name) if name in names else len(names), name
    return rank.get(kind, len(rank)), 0, name


def _status_cell(result: dict[str, Any]) -> dict[str, Any]:
    status = result["status"]
    wanted = {"permit_required": "permit_required", "possibly_required": "permit_required", "exempt": "exemption",
              "possibly_exempt": "exemption"}.get(status)
    items = [c for c in result["conclusions"] if c["kind"] == wanted]
    clauses = sorted({clause for item in items for clause in item["clauses"]})
    term = registry(result["ordinance"]).permit_term
    if status in ("permit_required", "possibly_required"):
        text = f"{term} {status.replace('_', ' ').replace('permit ', '')}"
    elif status in ("exempt", "possibly_exempt"):
        text = status.replace("_", " ") + ": " + ", ".join(sorted({i["name"].replace("_", " ") for i in items}))
    elif status == "exempt":
        text = "exempt: " + ", ".join(sorted({i["name"].replace("_", " ") for i in items}))
    else:
        text = status.replace("_", " ")
    return {"state": "holds", "value": status, "text": text + (f" [{', '.join(clauses)}]" if clauses else ""),
            "clauses": clauses, "items": []}


def table(event_results: Sequence[dict[str, Any]], kinds: Sequence[str] = DEFAULT_KINDS,
          more: Sequence[tuple[str, str]] = ()) -> dict[str, Any]:
    """The comparison table of one event from its evaluate records (one per ordinance, in column order); `more`
    adds rows (kind, name) no record concludes (what holds only on another reading)."""
    ordinances = [column(r) for r in event_results]
    by_ordinance = {column(r): r for r in event_results}
    keys: set[tuple[str, str]] = {key for key in more if key[0] in kinds and key[0] != "status"}
    for result in event_results:
        keys |= {(c["kind"], c["name"]) for c in result["conclusions"] if c["kind"] in kinds}
    rows = []
    if "status" in kinds:
        rows.append({"kind": "status", "name": "permit_required", "unit": None, "rule": rule_for("status", ""),
                     "cells": {o: _status_cell(by_ordinance[o]) for o in ordinances}})
    for kind, name in sorted(keys, key=lambda k: _order(*k)):
        cells = {}
        unit = None
        for ordinance in ordinances:
            result = by_ordinance[ordinance]
            items = [c for c in result["conclusions"] if c["kind"] == kind and c["name"] == name]
            if items:
                unit = unit or next((i["unit"] for i in items if i.get("unit")), None)
                cells[ordinance] = {"state": "holds", "items": items}
            else:
                state = "none" if result["status"] in ("permit_required", "possibly_required") else result["status"]
                cells[ordinance] = {"state": state, "items": []}
        rows.append({"kind": kind, "name": name, "unit": unit, "rule": rule_for(kind, name), "cells": cells})
    for row in rows:
        for cell in row["cells"].values():  # over unknown facts: certain when some item holds in every completion
            if any("certainty" in i for i in cell["items"]):
                cell["certainty"] = "certain" if any(i["certainty"] == "certain" for i in cell["items"]) else "possible"
        row.setdefault("ranked", row["rule"] is not None)
        _mark_strictest(row)
        for cell in row["cells"].values():
            cell.setdefault("text", cell_text(cell, row["kind"]))
    first = event_results[0] if event_results else {"event": None}
    return {
        "event": first["event"],
        "ordinances": [{"ordinance": r["ordinance"], "column": column(r), "jurisdiction": r["jurisdiction"], "title": r["title"],
                        "status": r["status"]} for r in event_results],
        "kinds": list(kinds),
        "rows": rows,
    }


class CompareError(ValueError):
    pass


def compare(events: Sequence[Event], ordinances: Sequence[str] | None = None,
            kinds: Sequence[str] = DEFAULT_KINDS) -> list[dict[str, Any]]:
    """One comparison table per event; every cell is taken from one `evaluate` call over all ordinances (over the
    completions of its unknown facts for an event that has some: each item then says certain or possible)."""
    from reasoner.evaluate import evaluate_any

    chosen = check_ordinances(ordinances)
    results = evaluate_any(events, chosen)
    tables = []
    for event in events:
        mine = [r for r in results if r["event"] == event.id]
        tables.append(table(mine, kinds))
    return tables


# ---------------------------------------------------------------- readings (issue 29)

def _row_key(row: dict[str, Any]) -> tuple[str, str]:
    return ("status", "status") if row["kind"] == "status" else (row["kind"], row["name"])


def _verdict(row: dict[str, Any], defaults: dict[str, dict], moved: dict[str, dict]) -> dict[str, Any] | None:
    """Whether the ordinances' answers on one row differ because of a reading: each ordinance's answer on its
    default readings and on each alternative alone (the others at their defaults) that moves it. They differ
    whatever the reading when no choice of one answer per ordinance agrees; because of a reading when they differ
    on the defaults but some choice agrees, or agree on the defaults but some alternative makes them differ."""
    key = _row_key(row)
    options = {o: [(None, defaults[o].get(key))] + [(u, u["value"]) for u in moved[o].get(key, ())] for o in defaults}
    by_reading = [{"ordinance": o, "interpretation": u["interpretation"], "reading": u["reading"], "value": value}
                  for o, found in options.items() for u, value in found if u is not None]
    shown = {o: {repr(value) for _, value in found} for o, found in options.items()}
    differ = len({repr(defaults[o].get(key)) for o in defaults}) > 1
    if not differ and not by_reading:
        return None
    if differ:
        verdict = "differ_because_of_a_reading" if set.intersection(*shown.values()) else "differ_whatever_the_reading"
    else:
        verdict = "agree_on_the_default_readings_only"
    return {"verdict": verdict, "moved_by": by_reading}


def compare_readings(events: Sequence[Event], ordinances: Sequence[str] | None = None,
                     kinds: Sequence[str] = DEFAULT_KINDS) -> list[dict[str, Any]]:
    """`compare --readings`. Several ordinances: the table of `compare`, each row whose answers differ, or that an
    alternative reading moves, saying whether they differ because of a reading or whatever the reading
    (`readings` on the row). One ordinance: a column for its default readings and one for each alternative reading
    that moves an answer of the event, so the table is the answer under each reading side by side."""
    from reasoner.evaluate import evaluate_any
    from reasoner.modes.readings import answers, depending_on_readings
    from reasoner.program import chosen_readings, readings_in_force

    chosen = check_ordinances(ordinances)
    results = evaluate_any(events, chosen)
    tables = []
    for event in events:
        mine = [r for r in results if r["event"] == event.id]
        depending = {r["ordinance"]: depending_on_readings(event, r) for r in mine}
        more = {(d["kind"], d["name"]) for found in depending.values() for d in found}
        if len(mine) == 1:
            [record] = mine
            alternatives = dict.fromkeys((u["interpretation"], u["reading"]) for d in depending[record["ordinance"]]
                                         for u in d["readings"])
            # under readings chosen instead of the defaults, the first column is on those, and a default is an alternative
            applied = ", ".join(f"{i}={r}" for (o, i), r in readings_in_force().items() if o == record["ordinance"])
            columns = [{**record, "column": f"{record['ordinance']} on {applied or 'the default readings'}"}]
            for interpretation, reading in alternatives:
                with chosen_readings([((record["ordinance"], interpretation), reading)]):
                    [other] = evaluate_any([event], [record["ordinance"]])
                columns.append({**other, "column": f"{record['ordinance']} on {interpretation}={reading}"})
            tables.append(table(columns, kinds, sorted(more)))
            continue
        tab = table(mine, kinds, sorted(more))
        defaults = {r["ordinance"]: answers(r) for r in mine}
        moved = {o: {(d["kind"], d["name"]): d["readings"] for d in found} for o, found in depending.items()}
        for row in tab["rows"]:
            if (verdict := _verdict(row, defaults, moved)) is not None:
                row["readings"] = verdict
        tables.append(tab)
    return tables


def verdict_lines(tab: dict[str, Any]) -> list[str]:
    """What `compare --readings` says under a table of several ordinances: per row that turns on a reading, the
    verdict and the readings that move it."""
    lines = []
    for row in tab["rows"]:
        found = row.get("readings")
        if found is None or (found["verdict"] == "differ_whatever_the_reading" and not found["moved_by"]):
            continue
        moves = "; ".join(f"{m['ordinance']} {m['interpretation']}={m['reading']} gives {_value_words(m['value'])}"
                          for m in found["moved_by"])
        lines.append(f"{row_label(row)}: {VERDICT_LABELS[found['verdict']]}" + (f" ({moves})" if moves else ""))
    apart = [row_label(row) for row in tab["rows"] if row.get("readings", {}).get("verdict") == "differ_whatever_the_reading"
             and not row["readings"]["moved_by"]]
    if apart:
        lines.append(f"{len(apart)} row(s) differ whatever the reading, no reading moving them: {', '.join(apart)}")
    return lines


def _value_words(value: Any) -> str:
    if value is None:
        return READING_LABELS["absent"]
    if value is True:
        return READING_LABELS["present"]
    if isinstance(value, list):  # over unknown facts: each value with its certainty
        return ", ".join(f"{_value_words(v['value'])} ({v['certainty']})" for v in value)
    return str(value).replace("_", " ")


def column(record: dict[str, Any]) -> str:
    """A table's column for one evaluate record: its ordinance, or the ordinance as in force on a date."""
    return record.get("column", record["ordinance"])


def _records_by_date(events: Sequence[Event], ordinance: str, dates: Sequence[date],
                     versions: bool = False) -> list[dict[str, dict[str, Any]]]:
    """Per date, the events' records (by event id) under the version in force then, evaluated together, each with
    its column; `versions`: with the version the solver has in force (evaluate's `in_force`)."""
    from reasoner.events.rules import with_law_date
    from reasoner.evaluate import evaluate_any

    by_date = []
    for day in dates:
        records = evaluate_any(with_law_date(list(events), day), [ordinance], versions=versions)
        by_date.append({r["event"]: {**r, "column": f"{ordinance} as of {day.isoformat()}"} for r in records})
    return by_date


def compare_versions(events: Sequence[Event], ordinance: str, dates: Sequence[date],
                     kinds: Sequence[str] = DEFAULT_KINDS) -> list[dict[str, Any]]:
    """One ordinance compared with itself: per event a table with a column per date, the event evaluated under the
    version in force then ("what changed in 2010 for this event?"); the events are evaluated together, once per
    date."""
    [chosen] = check_ordinances([ordinance])
    by_date = _records_by_date(events, chosen, dates)
    return [table([records[event.id] for records in by_date], kinds) for event in events]


def version_in_force(record: dict[str, Any], day: date) -> dict[str, Any]:
    """The version a record was evaluated under (evaluate's `in_force`, from the solver), with its label: None and
    the words for it before every version the registry knows; `may_be` the later ones that may already have taken
    effect on `day`."""
    found = record["in_force"]
    labels = {v.id: v.label for v in registry(record["ordinance"]).versions}
    return {"as_of": day.isoformat(), "version": found["version"],
            "label": labels[found["version"]] if found["version"] else "before every version the registry knows",
            "may_be": list(found["may_be"])}


def _words(ordinance: str, clause_id: str, version: str | None) -> str | None:
    """A clause's words in a version (its printed text where the registry gives no earlier words)."""
    clause = registry(ordinance).clauses.get(clause_id)
    if clause is None:
        return None
    return next((w.text for w in clause.versions if w.version == version), clause.text)


def amended_clauses(ordinance: str, versions: Sequence[str | None]) -> list[str]:
    """The clauses whose words differ between the versions, in registry order. Before every version the registry
    knows (None), the words read are the earliest version's: the only ones there can have been."""
    reg = registry(ordinance)
    earliest = reg.versions[0].id if reg.versions else None
    applied = {earliest if v is None else v for v in versions}
    return [c for c in reg.clauses if len({_words(ordinance, c, v) for v in applied}) > 1]


def event_changes(records: Sequence[dict[str, Any]], dates: Sequence[date],
                  kinds: Sequence[str] = DEFAULT_KINDS) -> dict[str, Any]:
    """What a change of the law changes for one event, from its records under the versions in force on `dates` (one
    per date, evaluated with `versions`): only the conclusions whose value differs between them (the rows of compare
    --versions that differ), each with the clauses it cites and which of them the amendment reworded."""
    tab = table(records, kinds)
    first = records[0]
    in_force = [version_in_force(record, day) for record, day in zip(records, dates)]
    amended = _amended(first["ordinance"], tuple(v["version"] for v in in_force))
    columns = [o["column"] for o in tab["ordinances"]]
    changed = []
    for row in tab["rows"]:
        cells = [row["cells"][c] for c in columns]
        if len({(cell["state"], cell["text"]) for cell in cells}) == 1:
            continue
        cited = sorted({c for cell in cells for item in cell["items"] for c in item.get("clauses", ())})
        changed.append({"kind": row["kind"], "name": row["name"], "label": row_label(row), "unit": row["unit"],
                        "values": [{"as_of": day.isoformat(), "state": cell["state"], "text": cell["text"]}
                                   for day, cell in zip(dates, cells)],
                        "clauses": [{"clause": c, "amended": c in amended} for c in cited]})
    return {"event": first["event"], "ordinance": first["ordinance"], "versions": in_force, "amended": list(amended),
            "changed": changed, "unchanged": len(tab["rows"]) - len(changed)}


@lru_cache(maxsize=256)
def _amended(ordinance: str, versions: tuple[str | None, ...]) -> tuple[str, ...]:
    return tuple(amended_clauses(ordinance, versions))


def version_changes(events: Sequence[Event], ordinance: str, dates: Sequence[date],
                    kinds: Sequence[str] = DEFAULT_KINDS) -> list[dict[str, Any]]:
    """What a change of the law changes, per event (event_changes), the events evaluated together, once per date.
    Over many events it is an amendment's impact report: an event with no `changed` row keeps its answer."""
    [chosen] = check_ordinances([ordinance])
    by_date = _records_by_date(events, chosen, dates, versions=True)
    return [event_changes([records[event.id] for records in by_date], dates, kinds) for event in events]


def changes_to_csv(reports: Sequence[dict[str, Any]]) -> str:
    """One line per event and changed conclusion (an event whose answer holds gets one line saying so): the value
    under each version, the clauses cited and those of them reworded."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    days = [v["as_of"] for v in reports[0]["versions"]] if reports else []
    writer.writerow(["event", "ordinance", "kind", "name", *(f"as of {d}" for d in days), "clauses", "amended"])
    for report in reports:
        if not report["changed"]:
            writer.writerow([report["event"], report["ordinance"], "", "", *(["unchanged"] * len(days)), "", ""])
        for row in report["changed"]:
            writer.writerow([report["event"], report["ordinance"], row["kind"], row["name"],
                             *(v["text"] for v in row["values"]), " ".join(c["clause"] for c in row["clauses"]),
                             " ".join(c["clause"] for c in row["clauses"] if c["amended"])])
    return out.getvalue()


def changes_lines(report: dict[str, Any]) -> list[str]:
    """An event's changes in words, one line per changed conclusion: its value under each version, and the clause
    the amendment reworded (or that none of those it cites was)."""
    lines = []
    for row in report["changed"]:
        values = " → ".join(f"{v['text']} (as of {v['as_of']})" for v in row["values"])
        reworded = [c["clause"] for c in row["clauses"] if c["amended"]]
        said = (f"; reworded: {', '.join(reworded)}" if reworded
                else "; none of the clauses it cites was reworded" if row["clauses"] else "")
        lines.append(f"{row['label']}: {values}{said}")
    return lines


def versions_head(report: dict[str, Any]) -> str:
    """Which versions an event's changes lie between."""
    return " → ".join(f"{v['as_of']}: {v['version'] or v['label']}"
                      + (f" ({', '.join(v['may_be'])} may already have taken effect)" if v["may_be"] else "")
                      for v in report["versions"])


def impact_line(reports: Sequence[dict[str, Any]]) -> str:
    """How many of the events' answers the change of law moves."""
    moved = sum(1 for r in reports if r["changed"])
    return f"{moved} of {len(reports)} event(s) change their answer"


def changes_to_markdown(reports: Sequence[dict[str, Any]]) -> str:
    """A section per event: the versions, then a line per changed conclusion; the count of events moved last."""
    parts = []
    for report in reports:
        lines = [f"### {report['event']}: {report['ordinance']}", "", _md(versions_head(report)), ""]
        lines += [f"- {_md(line)}" for line in changes_lines(report)] or ["No conclusion changes."]
        parts.append("\n".join(lines))
    return "\n\n".join([*parts, impact_line(reports) + "."]) + "\n"


# ---------------------------------------------------------------- output formats

def row_label(row: dict[str, Any]) -> str:
    if row["kind"] == "status":
        return "permit required"
    label = row["name"].replace("_", " ")
    if row["kind"] == row["name"]:
        return label
    if row["kind"] not in ("obligation", "status"):
        label = f"{row['kind'].replace('_', ' ')}: {label}"
    return label


def to_csv(tables: Sequence[dict[str, Any]]) -> str:
    """One line per event and row: the cell texts per ordinance, then the strictest ordinances."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    ordinances = [o["column"] for o in tables[0]["ordinances"]] if tables else []
    verdicts = any("readings" in row for tab in tables for row in tab["rows"])  # compare --readings
    writer.writerow(["event", "kind", "name", "unit", "rule", *ordinances, "strictest", *(["readings"] if verdicts else [])])
    for tab in tables:
        for row in tab["rows"]:
            cells = row["cells"]
            strictest = " ".join(o for o in ordinances if cells[o]["strictest"])
            found = row.get("readings")
            said = [VERDICT_LABELS[found["verdict"]] + "".join(f"; {m['ordinance']} {m['interpretation']}={m['reading']}"
                                                             for m in found["moved_by"])] if found else [""]
            writer.writerow([tab["event"], row["kind"], row["name"], row["unit"] or "", row["rule"] or "",
                             *(cells[o]["text"] for o in ordinances), strictest, *(said if verdicts else [])])
    return out.getvalue()


def _md(text: str) -> str:
    return text.replace("|", "\\|")


def to_markdown(tables: Sequence[dict[str, Any]]) -> str:
    """A markdown table per event; the strictest cells in bold."""
    parts = []
    for tab in tables:
        ordinances = [o["column"] for o in tab["ordinances"]]
        lines = [f"### {tab['event']}", "",
                 "| | " + " | ".join(ordinances) + " |",
                 "|---|" + "---|" * len(ordinances)]
        for row in tab["rows"]:
            texts = []
            for ordinance in ordinances:
                cell = row["cells"][ordinance]
                text = _md(cell["text"])
                texts.append(f"**{text}**" if cell["strictest"] else text)
            lines.append(f"| {_md(row_label(row))} | " + " | ".join(texts) + " |")
        said = verdict_lines(tab)
        if said:
            lines += ["", *(f"- {_md(line)}" for line in said)]
        parts.append("\n".join(lines))
    legend = ("\n\nBold: the strictest where the ordinances differ (compare.py states the rule per row). "
              "*not regulated*: the ordinance does not reach the event; *no such requirement*: it does, "
              "but states nothing of the kind.\n")
    return "\n\n".join(parts) + legend
