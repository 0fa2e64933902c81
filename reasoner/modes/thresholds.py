"""Every number the ordinances state: the `param(Ordinance, Name, Value, Clause)` facts of the encodings.

Values and their order come from the encodings' one reader (reasoner/law/rules.py: the encodings state each
number once, as a param fact), the heading and the words around the number from the clause registry. Nothing
here restates a number.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import permutations
from typing import Any

from reasoner.law import rules
from reasoner.law.registry import registry
from reasoner.program import check_ordinances

# Small numbers are often spelled out in the text ("one gallon", "four gates").
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty")
SNIPPET = 70


def param_values(ordinances: Sequence[str] | None = None) -> dict[tuple[str, str], int]:
    """{(ordinance, name): value} for every param fact of the chosen ordinances (default: every encoded one)."""
    chosen = check_ordinances(ordinances)
    return {(o, n): v for o, n, v, _ in rules.params(chosen)}


def _first_written(ordinance: str) -> dict[str, int]:
    """Where each of the ordinance's params is first written in its encoding (its fact, or a rule that reads it
    before), so that the table follows the ordinance's order."""
    return {name: index for index, name in enumerate(rules.param_order(ordinance))}


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


def _matches(text: str, value: int) -> list[re.Match]:
    """Where the number is written in the text, in the first form it is written in."""
    for form in _forms(value):
        pattern = rf"(?<![\w,.]){re.escape(form)}(?![\w]|,\d)" if form[0].isdigit() else rf"(?i)\b{form}\b(?!-)"
        matches = list(re.finditer(pattern, text))
        if matches:
            return matches
    return []


def _fit(text: str, match: re.Match, name: str) -> tuple[int, int]:
    """How well a place the number is written fits the param's name: how many of the name's words its own part
    of the sentence (between semicolons or full stops) holds, then nearness to the nearest of them."""
    stems = _stems(name)
    left = max(text.rfind(";", 0, match.start()), text.rfind(". ", 0, match.start())) + 1
    right = min((i for i in (text.find(";", match.end()), text.find(". ", match.end())) if i >= 0), default=len(text))
    part = text[left:right].lower()
    anchors = [m.start() for stem in stems for m in re.finditer(re.escape(stem), text, re.IGNORECASE)]
    return sum(stem in part for stem in stems), -min((abs(match.start() - a) for a in anchors), default=0)


def _snippet(text: str, match: re.Match) -> str:
    start, end = max(0, match.start() - SNIPPET), min(len(text), match.end() + SNIPPET)
    snippet = " ".join(text[start:end].split())
    return ("…" if start > 0 else "") + snippet + ("…" if end < len(text) else "")


def words_around(text: str, value: int, name: str = "", taken: frozenset[int] = frozenset()) -> str | None:
    """The clause's words around the place the number is written (where it is written more than once, the place
    that best fits the param's name, leaving out places `taken` by other params), or None where the text writes
    it another way (minutes of the day, tenths of a pound and other units the encoding converts to)."""
    matches = _matches(text, value)
    free = [m for m in matches if m.start() not in taken] or matches
    return _snippet(text, max(free, key=lambda m: _fit(text, m, name))) if free else None


def _places(text: str, value: int, names: Sequence[str], position: dict[str, int]) -> dict[str, frozenset[int]]:
    """For params of one clause that state the same value, the places each leaves to the others, chosen together:
    the most of each name's words in the part of the sentence around its place, then places in the order the
    encoding states the params (which follows the text), then nearness. So fire_legal_liability_usd takes "fire
    legal liability policy in the amount of $2,000,000" and liability_insurance_usd the general liability
    policy's; nurse_threshold "5,000 or more" and persons_per_nurse "for each 5,000 persons"."""
    matches = _matches(text, value)[:8]  # placings grow factorially; no clause writes one number more often
    ordered = sorted(names, key=position.__getitem__)
    if len(matches) < len(ordered):
        return dict.fromkeys(names, frozenset())

    def score(places: tuple[re.Match, ...]) -> tuple[int, bool, int]:
        fits = [_fit(text, place, name) for place, name in zip(places, ordered)]
        in_order = all(a.start() < b.start() for a, b in zip(places, places[1:]))
        return sum(f[0] for f in fits), in_order, sum(f[1] for f in fits)

    best = max(permutations(matches, len(ordered)), key=score)
    return {name: frozenset(m.start() for m in matches if m is not place) for name, place in zip(ordered, best)}


def thresholds(ordinances: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """One record per number an ordinance states: ordinance, name, value, clause, heading, numbering, and the
    clause's words around the number (None where the text writes it another way)."""
    chosen = check_ordinances(ordinances)
    rank = {name: index for index, name in enumerate(chosen)}
    rows = []
    params = rules.params(chosen)
    written = {ordinance: _first_written(ordinance) for ordinance in chosen}
    position = {(ordinance, name): written[ordinance][name] for ordinance, name, _, _ in params}
    sharing: dict[tuple[str, str, int], list[str]] = {}
    for ordinance, name, value, clause_id in params:
        sharing.setdefault((ordinance, clause_id, value), []).append(name)
    for ordinance, name, value, clause_id in params:
        clause = registry(ordinance).clause(clause_id)
        names = sharing[(ordinance, clause_id, value)]
        taken = _places(clause.text, value, names, {n: position[(ordinance, n)] for n in names})[name] \
            if clause and len(names) > 1 else frozenset()
        rows.append({
            "ordinance": ordinance, "name": name, "value": value, "clause": clause_id,
            "heading": clause.heading if clause else None,
            "numbering": clause.numbering if clause else None,
            "words": words_around(clause.text, value, name, taken) if clause else None,
        })
    rows.sort(key=lambda r: (rank[r["ordinance"]], position[(r["ordinance"], r["name"])]))
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
