"""Every number the ordinances state: the `param(Ordinance, Name, Value, Clause)` facts of the encodings.

Values come from the solver's answer (the encodings state each number once, as a param fact), the
heading and the words around the number from the clause registry. Nothing here restates a number.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Any

from .registry import registry
from .solver import check_ordinances, encoding_text, solve

# Small numbers are often spelled out in the text ("one gallon", "four gates").
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty")
SNIPPET = 70


@cache
def _params(ordinances: tuple[str, ...]) -> tuple[tuple[str, str, int, str], ...]:
    found = []
    for symbol in solve([], ordinances):
        if symbol.name == "param" and len(symbol.arguments) == 4:
            ordinance, name, value, clause = symbol.arguments
            found.append((ordinance.name, name.name, value.number, clause.string))
    return tuple(found)


def param_values(ordinances: Sequence[str] | None = None) -> dict[tuple[str, str], int]:
    """{(ordinance, name): value} for every param fact of the chosen ordinances (default: every encoded one)."""
    chosen = check_ordinances(ordinances)
    return {(o, n): v for o, n, v, _ in _params(chosen)}


def _position(ordinance: str, name: str) -> int:
    """Where the param stands in its encoding, so that the table follows the ordinance's order."""
    match = re.search(rf"param\(\s*{re.escape(ordinance)}\s*,\s*{re.escape(name)}\s*,", encoding_text(ordinance))
    return match.start() if match else 1 << 30


def _forms(value: int) -> list[str]:
    forms = [f"{value:,}", str(value)]
    if 0 <= value < len(NUMBER_WORDS):
        forms.append(NUMBER_WORDS[value])
    if value == 1:
        forms.append("once")
    return list(dict.fromkeys(forms))


GENERIC_TOKENS = {"per", "person", "persons", "usd", "day", "days", "threshold", "minimum", "max", "min", "the", "of"}


def _stems(name: str) -> list[str]:
    return [token[:5].lower() for token in name.split("_") if len(token) >= 4 and token not in GENERIC_TOKENS]


def words_around(text: str, value: int, name: str = "") -> str | None:
    """The clause's words around the place the number is written (nearest to the words of the param's name, where
    it is written more than once), or None where the text writes it another way (minutes of the day, tenths of a
    pound and other units the encoding converts to)."""
    anchors = [m.start() for stem in _stems(name) for m in re.finditer(re.escape(stem), text, re.IGNORECASE)]
    for form in _forms(value):
        pattern = rf"(?<![\w,.]){re.escape(form)}(?![\w]|,\d)" if form[0].isdigit() else rf"(?i)\b{form}\b(?!-)"
        matches = list(re.finditer(pattern, text))
        if not matches:
            continue
        match = min(matches, key=lambda m: min((abs(m.start() - a) for a in anchors), default=0))
        start, end = max(0, match.start() - SNIPPET), min(len(text), match.end() + SNIPPET)
        snippet = " ".join(text[start:end].split())
        return ("…" if start > 0 else "") + snippet + ("…" if end < len(text) else "")
    return None


def thresholds(ordinances: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """One record per number an ordinance states: ordinance, name, value, clause, heading, numbering, and the
    clause's words around the number (None where the text writes it another way)."""
    chosen = check_ordinances(ordinances)
    rank = {name: index for index, name in enumerate(chosen)}
    rows = []
    for ordinance, name, value, clause_id in _params(chosen):
        clause = registry(ordinance).clause(clause_id)
        rows.append({
            "ordinance": ordinance, "name": name, "value": value, "clause": clause_id,
            "heading": clause.heading if clause else None,
            "numbering": clause.numbering if clause else None,
            "words": words_around(clause.text, value, name) if clause else None,
        })
    rows.sort(key=lambda r: (rank[r["ordinance"]], _position(r["ordinance"], r["name"])))
    return rows


COLUMNS = ("ordinance", "name", "value", "clause", "heading", "numbering", "words")


def to_csv(rows: Sequence[dict[str, Any]]) -> str:
    import csv
    import io

    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({key: "" if row[key] is None else row[key] for key in COLUMNS})
    return out.getvalue()


def _md(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def to_markdown(rows: Sequence[dict[str, Any]]) -> str:
    lines = ["| ordinance | parameter | value | clause | heading | the words |", "|---|---|---:|---|---|---|"]
    for row in rows:
        clause = row["clause"] + (" (reconstructed)" if row["numbering"] == "reconstructed" else "")
        lines.append(f"| {row['ordinance']} | {_md(row['name'])} | {row['value']:,} | {_md(clause)} | "
                     f"{_md(row['heading'] or '')} | {_md(row['words'] or '')} |")
    return "\n".join(lines) + "\n"
