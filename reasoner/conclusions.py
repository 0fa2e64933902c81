"""Turn answer-set atoms into the stable result shape (documented in README, "JSON output").

Per event and ordinance: status, permit_required, and a sorted list of conclusions, each with
kind, name, value, unit, modality and clauses (plus min/max for penalties, required/provided for
shortfalls, alternative for obligations that another provision can meet, text for interpretations).
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import date
from typing import Any

import clingo

from .event import Event
from .registry import registry
from .solver import solve
from .vocabulary import vocabulary

KIND_ORDER = ("regulated", "exemption", "permit_required", "permits", "obligation", "deadline", "late", "on_time",
              "restriction", "application_requirement", "application_missing", "signers", "procedure",
              "denial_ground", "revocation_ground", "penalty", "shortfall", "interpretation")


def _value(symbol: clingo.Symbol) -> Any:
    if symbol.type == clingo.SymbolType.Number:
        return symbol.number
    if symbol.type == clingo.SymbolType.String:
        return symbol.string
    return str(symbol)


def _unit(name: str, solver_unit: str | None = None) -> str | None:
    declared = vocabulary()["obligations"].get(name, {}).get("unit")
    unit = declared or solver_unit
    return None if unit in (None, "none") else unit


def _date(day: int) -> str:
    return date.fromordinal(day).isoformat()


def _conclusion(kind: str, name: str, clause: str, value: Any = None, unit: str | None = None,
                modality: str | None = None, **extra: Any) -> dict[str, Any]:
    return {"kind": kind, "name": name, "value": value, "unit": unit, "modality": modality, "clauses": [clause], **extra}


def _read(symbol: clingo.Symbol) -> tuple[str, int, dict[str, Any]] | None:
    """(ordinance, event number, conclusion) for one shown atom; None for atoms that are not conclusions."""
    args = [_value(a) for a in symbol.arguments]
    name = symbol.name
    if name == "param":
        return None
    ordinance, event = args[0], args[1]
    rest = args[2:]
    if name == "regulated":
        item = _conclusion("regulated", "regulated", rest[0], True)
    elif name == "exempt":
        item = _conclusion("exemption", rest[0], rest[1], True)
    elif name == "permit_required":
        item = _conclusion("permit_required", "permit_required", rest[0], True)
    elif name == "permits":
        item = _conclusion("permits", "permits", rest[1], rest[0], "count")
    elif name == "obligation":
        item = _conclusion("obligation", rest[0], rest[2], None, _unit(rest[0]), rest[1])
    elif name == "quantity":
        item = _conclusion("quantity", rest[0], rest[3], rest[1], _unit(rest[0], rest[2]))
    elif name == "alternative":
        item = _conclusion("alternative", rest[0], rest[3], rest[2], _unit(rest[1]), other=rest[1])
    elif name == "deadline":
        item = _conclusion("deadline", rest[0], rest[2], _date(rest[1]), "date")
    elif name in ("late", "on_time"):
        item = _conclusion(name, rest[0], rest[2], rest[1], "days")
    elif name in ("restriction", "application_requirement", "application_missing", "signers", "procedure", "revocation_ground"):
        item = _conclusion(name, rest[0], rest[1])
    elif name == "denial_ground":
        item = _conclusion("denial_ground", rest[0], rest[2], None, None, rest[1])
    elif name == "penalty":
        unit = None if rest[3] == "none" else rest[3]
        item = _conclusion("penalty", rest[0], rest[4], rest[2] or None, unit, "may", min=rest[1] or None, max=rest[2] or None)
    elif name == "shortfall":
        item = _conclusion("shortfall", rest[0], rest[3], abs(rest[1] - rest[2]), _unit(rest[0]), required=rest[1], provided=rest[2])
    elif name == "note":
        interpretation = registry(ordinance).interpretations.get(rest[0])
        item = _conclusion("interpretation", rest[0], rest[1], text=interpretation.text if interpretation else None)
    else:
        return None
    return ordinance, event, item


def _merge(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Fold quantities and alternatives into their obligations; join identical conclusions' clauses."""
    obligations = {(i["name"], i["clauses"][0]): i for i in items if i["kind"] == "obligation"}
    merged: dict[tuple, dict[str, Any]] = {}
    for item in items:
        if item["kind"] in ("quantity", "alternative"):
            owner = obligations.get((item["name"], item["clauses"][0]))
            if owner is None:
                continue
            if item["kind"] == "quantity":
                owner["value"], owner["unit"] = item["value"], item["unit"]
            else:
                owner["alternative"] = {"name": item["other"], "value": item["value"], "unit": item["unit"]}
            continue
        key = tuple((k, repr(v)) for k, v in item.items() if k != "clauses")
        if key in merged:
            merged[key]["clauses"] = sorted(set(merged[key]["clauses"]) | set(item["clauses"]))
        else:
            merged[key] = item
    rank = {kind: index for index, kind in enumerate(KIND_ORDER)}
    return sorted(merged.values(), key=lambda i: (rank[i["kind"]], i["name"], repr(i["value"]), i["clauses"]))


def _status(conclusions: list[dict[str, Any]]) -> str:
    kinds = {c["kind"] for c in conclusions}
    if "permit_required" in kinds:
        return "permit_required"
    if "exemption" in kinds:
        return "exempt"
    return "not_regulated"


def results_from_symbols(symbols: Sequence[clingo.Symbol], events: Sequence[Event],
                         ordinances: Sequence[str]) -> list[dict[str, Any]]:
    grouped: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    for symbol in symbols:
        read = _read(symbol)
        if read:
            ordinance, number, item = read
            grouped[(ordinance, number)].append(item)
    results = []
    for number, event in enumerate(events, start=1):
        for ordinance in ordinances:
            conclusions = _merge(grouped.get((ordinance, number), []))
            status = _status(conclusions)
            reg = registry(ordinance)
            results.append({
                "event": event.id, "ordinance": ordinance, "jurisdiction": reg.jurisdiction, "title": reg.title,
                "status": status, "permit_required": status == "permit_required", "conclusions": conclusions,
            })
    return results


def evaluate(events: Sequence[Event], ordinances: Sequence[str]) -> list[dict[str, Any]]:
    """Every conclusion of every ordinance for every event: one record per (event, ordinance)."""
    return results_from_symbols(solve(events, ordinances), events, ordinances)
