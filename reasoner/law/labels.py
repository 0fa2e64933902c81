"""The one table of labels and the one phrasing of each conclusion, for every output that shows them.

The terminal (reasoner/views/render.py), the report (views/report.py), the charts (views/charts.py), the
comparison (modes/compare.py), the batch's CSV rows (batch/files.py) and the web page (served to
web/static/app.js at GET /labels) all take their words from here, so a conclusion reads the same everywhere.
It lives in law/ because the batch, below the views, uses it too.
"""
from __future__ import annotations

from typing import Any

from reasoner.law.schema import KIND_ORDER

# What an evaluation's status is, in words (lower case; a heading capitalises it with `heading`).
STATUS_LABELS: dict[str, str] = {
    "permit_required": "permit or license required",
    "possibly_required": "possibly required",
    "exempt": "exempt",
    "possibly_exempt": "possibly exempt",
    "not_regulated": "not regulated",
    "inconsistent": "no completion of the facts",
}

# The heading of each kind of conclusion (every kind of reasoner/law/schema.py's KIND_ORDER).
KIND_LABELS: dict[str, str] = {
    "reason": "Why",
    "regulated": "Why it is regulated",
    "exemption": "Exemptions",
    "permit_required": "Permit",
    "permits": "Permits",
    "obligation": "Obligations",
    "deadline": "Deadlines",
    "late": "Filed late",
    "on_time": "Filed on time",
    "restriction": "Operating restrictions",
    "application_requirement": "The application must contain",
    "application_missing": "Missing from the application",
    "signers": "Sworn and signed by",
    "procedure": "Procedure",
    "denial_ground": "Grounds for denial met",   # the vocabulary derives a ground only when the facts meet it
    "revocation_ground": "Grounds for revocation",
    "penalty": "Penalties",
    "shortfall": "Shortfalls",
    "interpretation": "Interpretations",
}
assert set(KIND_LABELS) == set(KIND_ORDER), "every kind of conclusion has one label"


# What a what-if search aimed at, and what evaluating the changed event found, in words.
WHATIF_LABELS: dict[str, str] = {
    "certainly_holds": "hold in every completion of the unknown facts",
    "certainly_absent": "hold in no completion of the unknown facts",
    "checked_lost": "checked: the changed event no longer has it",
    "checked_gained": "checked: the changed event has it",
    "checked_every_completion": "checked over every completion of the changed event",
    "unconfirmed": "NOT confirmed by evaluating the changed event",
}


# Whether two ordinances' answers on a row differ because of a reading (`compare --readings`), in words.
VERDICT_LABELS: dict[str, str] = {
    "differ_because_of_a_reading": "differ because of a reading",
    "differ_whatever_the_reading": "differ whatever the reading",
    "agree_on_the_default_readings_only": "agree on the default readings only",
}

# The page's words for an answer that turns on a reading of the text, and for choosing another reading.
READING_LABELS: dict[str, str] = {
    "mark": "turns on a reading",
    "go": "choose the reading",
    "section": "Readings of the text this answer turns on",
    "choose": "Read the text as",
    "default": "the default reading",
    "chosen": "chosen instead of the default",
    "gives": "gives",
    "changes": "other answer(s) change",
    "absent": "none",
    "present": "holds",
    "reset": "Back to the default readings",
    "applied": "Readings applied instead of the defaults:",
}


def reading_value(value: Any) -> str:
    """An answer's value on one reading (modes/readings.py `answers`), in words."""
    if value is None:
        return "does not hold"
    if isinstance(value, list):  # over unknown facts: each value the answer takes, certain or possible
        return ", ".join(f"{reading_value(v['value'])} ({v['certainty']})" for v in value)
    if value is True:
        return "holds"
    return str(value).replace("_", " ") if isinstance(value, str) else f"{value:,}" if isinstance(value, int) else str(value)


def certainty_words(value: Any) -> str:
    """Over unknown facts, " (possible)" after an answer that holds in some completions only."""
    if isinstance(value, list) and value and all(v["certainty"] == "possible" for v in value):
        return " (possible)"
    return ""


def moved_by_reading(depends: list[dict[str, Any]]) -> list[tuple[tuple[str, str], int, list[tuple[str, str]]]]:
    """`depends_on_readings` grouped by the reading that moves them: per (interpretation, reading), how many answers
    move, and the status first, then what newly holds, no longer holds, and changes, each as (words, what)."""
    by_reading: dict[tuple[str, str], list[tuple[dict[str, Any], Any]]] = {}
    for item in depends:
        for under in item["readings"]:
            by_reading.setdefault((under["interpretation"], under["reading"]), []).append((item, under["value"]))
    grouped = []
    for key, moved in by_reading.items():
        lines: list[tuple[str, str]] = []
        gained, lost, changed = [], [], []
        for item, value in moved:
            what = item["name"].replace("_", " ")
            if item["kind"] == "status":
                lines.append(("status", f"{reading_value(item['default'])} → {reading_value(value)}"))
            elif item["default"] is None:
                gained.append(what + certainty_words(value))
            elif value is None:
                lost.append(what + certainty_words(item["default"]))
            else:
                changed.append(f"{what} {reading_value(item['default'])} → {reading_value(value)}")
        lines += [(words, ", ".join(names)) for words, names in
                  (("now holds", gained), ("no longer holds", lost), ("changes", changed)) if names]
        grouped.append((key, len(moved), lines))
    return grouped


def status_label(status: str) -> str:
    return STATUS_LABELS.get(status, status.replace("_", " "))


def heading(text: str) -> str:
    """A label as a heading: its first letter capitalised."""
    return text[:1].upper() + text[1:]


def as_json() -> dict[str, Any]:
    """The table as the web page receives it (GET /labels)."""
    return {"status": STATUS_LABELS, "kinds": KIND_LABELS, "whatif": WHATIF_LABELS, "verdicts": VERDICT_LABELS,
            "readings": READING_LABELS}


def _money(value: int) -> str:
    return f"${value:,}"


def amount_text(value: Any, unit: str | None) -> str:
    if isinstance(value, bool) or value is None:
        return "required"
    if isinstance(value, (int, float)):  # a float is an exact decimal amount (vocabulary `parts`)
        if unit == "usd":
            return _money(value)
        if unit in (None, "count"):
            return f"{value:,}"
        return f"{value:,} {unit.replace('_', ' ')}"
    return str(value)


def spread_text(item: dict[str, Any], field: str, unit: str | None) -> str:
    """An amount, or its range over the completions of unknown facts."""
    spread = item.get("range" if field == "value" else f"{field}_range")
    if spread:
        low = amount_text(spread[0], unit if unit in (None, "count", "usd") else "count")
        return f"{low}–{amount_text(spread[1], unit)}"
    return amount_text(item[field], unit)


def phrase(item: dict[str, Any]) -> str:
    """The one phrasing of a conclusion's content, without its name or clauses ("3 day(s) late", "may deny",
    "$100–$500"); "yes" for a conclusion that is only present. A reason is phrased by modes/reasons.py."""
    kind = item["kind"]
    if kind == "obligation":
        text = spread_text(item, "value", item["unit"])
        if item.get("alternative"):
            alt = item["alternative"]
            text += f" (or {amount_text(alt['value'], alt['unit'])} {alt['name'].replace('_', ' ')})"
        return f"may: {text}" if item["modality"] == "may" else text
    if kind == "permits":
        return f"{item['value']:,}"
    if kind == "deadline":
        return str(item["value"])
    if kind == "late":
        return f"{item['value']} day(s) late"
    if kind == "on_time":
        return f"{item['value']} day(s) to spare"
    if kind == "denial_ground":
        return "shall not issue" if item["modality"] == "shall" else "may deny"
    if kind == "penalty":
        low, high, unit = item.get("min"), item.get("max"), item["unit"]
        if high and low and low != high:
            return f"{amount_text(low, unit)}–{amount_text(high, unit)}"
        if high:
            return f"up to {amount_text(high, unit)}" if not low else amount_text(high, unit)
        return "yes"
    if kind == "shortfall":
        over = item["provided"] is not None and item["required"] is not None and item["provided"] > item["required"]
        verb = "over by" if over else "short by"
        unit = item["unit"]
        return (f"{verb} {spread_text(item, 'value', unit)} "
                f"(provides {spread_text(item, 'provided', unit)} of {spread_text(item, 'required', unit)})")
    return "yes"


def possibly(text: str, item: dict[str, Any]) -> str:
    """A conclusion that holds in some completions of the unknown facts, not in all, says so."""
    return f"{text} (possibly)" if item.get("certainty") == "possible" else text


def listed(item: dict[str, Any]) -> str:
    """A conclusion as one item of a list: its name, its phrase where that says more than that it holds, and its
    clauses ("toilets: 14 [6.01(2)(a)]", "application_filing: 3 day(s) late [6.01(4)(a)]", "no_tents [7]")."""
    text = phrase(item)
    text = item["name"] if text == "yes" else f"{item['name']}: {text}"
    return f"{possibly(text, item)} [{', '.join(item['clauses'])}]"
