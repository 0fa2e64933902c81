"""Clause registries: for each ordinance, every clause's id, heading and words (reasoner/clauses/*.yaml)."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

import yaml

from .vocabulary import SAFE_LOADER, encoded_ordinances, package_path


@dataclass(frozen=True)
class Clause:
    id: str
    heading: str
    text: str
    numbering: str = "printed"  # printed | reconstructed
    operative: bool = True
    reason: str | None = None   # why a clause is non-operative or not encoded

    @property
    def reconstructed(self) -> bool:
        return self.numbering == "reconstructed"


@dataclass(frozen=True)
class Interpretation:
    id: str
    clause: str
    text: str


@dataclass(frozen=True)
class Registry:
    ordinance: str
    jurisdiction: str
    title: str
    source: str
    authority: str
    permit_term: str
    clauses: dict[str, Clause]
    interpretations: dict[str, Interpretation]
    numbering_notes: tuple[str, ...] = field(default_factory=tuple)
    history: str = ""
    time_zone: str = ""  # the ordinance's own clock (reasoner/clocks.py)

    def clause(self, clause_id: str) -> Clause | None:
        return self.clauses.get(clause_id)


@cache
def registry(ordinance: str) -> Registry:
    with package_path("clauses", f"{ordinance}.yaml").open(encoding="utf-8") as handle:
        data = yaml.load(handle, Loader=SAFE_LOADER)
    clauses = {}
    for item in data["clauses"]:
        clause = Clause(**{key: (str(value) if key in ("id", "heading", "text") else value) for key, value in item.items()})
        if clause.id in clauses:
            raise ValueError(f"{ordinance}: clause {clause.id} registered twice")
        clauses[clause.id] = clause
    interpretations = {item["id"]: Interpretation(item["id"], str(item["clause"]), item["text"].strip())
                       for item in data.get("interpretations", [])}
    return Registry(
        ordinance=data["ordinance"], jurisdiction=data["jurisdiction"], title=data["title"],
        source=data["source"], authority=data.get("authority", ""), permit_term=data.get("permit_term", "permit"),
        clauses=clauses, interpretations=interpretations,
        numbering_notes=tuple(data.get("numbering_notes", [])), history=data.get("history", ""),
        time_zone=data.get("time_zone", ""),
    )


def all_registries() -> dict[str, Registry]:
    return {name: registry(name) for name in encoded_ordinances()}
