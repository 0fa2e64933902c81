"""Clause registries: for each ordinance, its metadata and every clause's id, heading and words
(encodings/*.yaml), read and validated by one model.

`validate` is the one reader: `registry()` takes its result, and `reasoner check` reports its problems
(each with the clause or interpretation it concerns) beside the checks of the encoding.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, StrictBool, ValidationError, field_validator
from pydantic.version import VERSION as PYDANTIC_VERSION  # the cache holds pydantic objects

from reasoner.law.datacache import cached
from reasoner.law.locator import SAFE_LOADER, encoded_ordinances, registry_path


class _Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    @field_validator("*", mode="before")
    @classmethod
    def _words(cls, value: Any, info: Any) -> Any:
        # YAML reads an id such as 8 or a heading such as 2015 as a number: the registry means the words.
        if info.field_name in ("id", "heading", "text", "clause") and isinstance(value, (int, float)) \
                and not isinstance(value, bool):
            return str(value)
        return value


class Wording(_Entry):
    """A clause's words in an earlier version of the law, where they differ from the text's."""

    version: str
    text: str                   # the words, or what the text's history notes say of them
    source: str = ""            # where the words come from (the text's history note, when not printed)


class Clause(_Entry):
    id: str
    heading: str
    text: str
    numbering: Literal["printed", "reconstructed"] = "printed"
    operative: StrictBool = True
    reason: str | None = None   # why a clause is non-operative or not encoded
    versions: tuple[Wording, ...] = ()   # earlier words, by version (the text is the latest version's)

    @property
    def reconstructed(self) -> bool:
        return self.numbering == "reconstructed"


class Alternative(_Entry):
    """Another reading of the words an interpretation reads: its id (what `--reading` names) and the reading."""

    id: str
    text: str


class Interpretation(_Entry):
    id: str
    clause: str
    text: str
    # A choice between readings: `reading` names the one applied (its words are `text`), `alternatives` the others
    # a careful analyst would defend, `default_because` why the default was chosen. The encoding reads the reading
    # in force as reading(Ordinance,Interpretation,Reading) (encodings/vocabulary.lp).
    reading: str | None = None
    alternatives: tuple[Alternative, ...] = ()
    default_because: str = ""
    # A reviewed note that chooses between no readings says why (the text is plain, or the note records a fact
    # of the text rather than a choice); an interpretation with neither this nor `reading:` is not yet reviewed.
    chooses_nothing: str = ""
    # The conclusions (output predicates) the reading is about, where the other steps of its clause do not rest on it
    # (6.04(a)'s conditional items, not its filing deadline): explain attaches it to those only, at its clause or one
    # under it. Explain's alone: not part of the registry's record (`clauses --format json`).
    concerns: tuple[str, ...] = Field(default=(), exclude=True)

    @field_validator("text", "default_because", "chooses_nothing")
    @classmethod
    def _stripped(cls, value: str) -> str:
        return value.strip()

    @property
    def readings(self) -> tuple[str, ...]:
        """Every reading of a choice, the default first; () for a note that chooses nothing."""
        return (self.reading, *(a.id for a in self.alternatives)) if self.reading else ()


class Version(BaseModel):
    """One version of the law the registry knows: when it took effect. `effective` when the text fixes the day;
    otherwise `effective_between` the earliest and the latest day it can have taken effect (`note` says why);
    neither when the text dates it not at all. A version ends when the next one takes effect."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    id: str
    label: str
    effective: date | None = None
    effective_between: tuple[date, date] | None = None
    note: str = ""

    @property
    def window(self) -> tuple[date, date] | None:
        """The earliest and the latest day it can have taken effect (None: undated)."""
        if self.effective is not None:
            return self.effective, self.effective
        return self.effective_between

    @property
    def dated(self) -> str:
        if self.effective is not None:
            return self.effective.isoformat()
        if self.effective_between is not None:
            return f"between {self.effective_between[0].isoformat()} and {self.effective_between[1].isoformat()}"
        return "undated"


class Metadata(BaseModel):
    """What a registry says of its ordinance, shown wherever the ordinance is named."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    ordinance: str
    listed: int                              # where the ordinance stands in every listing
    jurisdiction: str
    title: str
    source: str                              # the text's file as published; the checkout holds it as encodings/NAME.txt
    history: str = ""
    authority: str = ""
    permit_term: str = "permit"
    numbering_notes: tuple[str, ...] = ()
    time_zone: str = ""                      # the ordinance's own clock (reasoner/events/clocks.py)
    # The jurisdiction's bounding box in degrees, south, north, west, east (west of Greenwich negative), a little
    # wider than the land: the hours taken as dark or light all year (reasoner/events/atoms.py) are checked against the
    # sun at its corners (tests/test_darkness_hours.py). Geography, not law.
    extent: tuple[float, float, float, float] = ()
    level: str = ""                          # county, town, village, state
    adopting_body: str = ""
    versions: tuple[Version, ...] = ()       # the versions of the law it knows, oldest first; the text is the last


@dataclass(frozen=True)
class Registry:
    metadata: Metadata
    clauses: dict[str, Clause]
    interpretations: dict[str, Interpretation]

    @property
    def ordinance(self) -> str:
        return self.metadata.ordinance

    @property
    def jurisdiction(self) -> str:
        return self.metadata.jurisdiction

    @property
    def title(self) -> str:
        return self.metadata.title

    @property
    def source(self) -> str:
        return self.metadata.source

    @property
    def authority(self) -> str:
        return self.metadata.authority

    @property
    def permit_term(self) -> str:
        return self.metadata.permit_term

    @property
    def history(self) -> str:
        return self.metadata.history

    @property
    def numbering_notes(self) -> tuple[str, ...]:
        return self.metadata.numbering_notes

    @property
    def time_zone(self) -> str:
        return self.metadata.time_zone

    @property
    def versions(self) -> tuple[Version, ...]:
        return self.metadata.versions

    def clause(self, clause_id: str) -> Clause | None:
        return self.clauses.get(clause_id)


def _problem(where: str, error: dict[str, Any], item: dict[str, Any]) -> tuple[str, str]:
    """A pydantic error about one field, phrased for a person editing the registry."""
    field = str(error["loc"][0]) if error["loc"] else ""
    kind = error["type"]
    if kind == "extra_forbidden":
        return where, f"unknown key {field!r}"
    if kind == "missing" or (field in ("heading", "text", "clause") and not str(item.get(field) or "").strip()):
        return where, f"has no {field}" if field != "clause" else "names no clause"
    if field == "numbering":
        return where, f"numbering {item.get(field)!r} is neither printed nor reconstructed"
    if field == "operative":
        return where, f"operative must be true or false, not {item.get(field)!r}"
    return where, f"{field}: {error['msg']}"


def validate(data: Any, ordinance: str, where: str) -> tuple[Registry | None, list[tuple[str, str]]]:
    """The registry read from a file's parsed YAML, and every problem found in it as (where, what). Entries
    with problems are left out of the registry; it is None when the file is no registry at all."""
    problems: list[tuple[str, str]] = []
    if not isinstance(data, dict) or not isinstance(data.get("clauses"), list):
        return None, [(where, "has no `clauses:` list")]
    head = {key: value for key, value in data.items() if key not in ("clauses", "interpretations")}
    for key in ("ordinance", "listed", "jurisdiction", "title", "source", "time_zone"):
        if head.get(key) in (None, ""):
            problems.append((where, f"`{key}` is missing"))
    if head.get("ordinance") not in (None, ordinance):
        problems.append((where, f"`ordinance: {head['ordinance']}` should be {ordinance}"))
    try:
        metadata = Metadata.model_validate({"listed": 1 << 30, "jurisdiction": "", "title": "", "source": "",
                                            **head, "ordinance": ordinance})
    except ValidationError as error:
        problems += [(where, f"{e['loc'][0] if e['loc'] else ''}: {e['msg']}") for e in error.errors()
                     if e["type"] != "missing"]
        metadata = Metadata(ordinance=ordinance, listed=1 << 30, jurisdiction="", title="", source="")
    clauses: dict[str, Clause] = {}
    for position, item in enumerate(data["clauses"]):
        if not isinstance(item, dict) or "id" not in item:
            problems.append((where, f"clauses[{position}] has no id"))
            continue
        here = f"{where}: clause {item['id']}"
        try:
            clause = Clause.model_validate(item)
        except ValidationError as error:
            problems += sorted({_problem(here, e, item) for e in error.errors()})
            continue
        if clause.id in clauses:
            problems.append((here, "registered twice"))
        if not clause.heading.strip():
            problems.append((here, "has no heading"))
        if not clause.text.strip():
            problems.append((here, "has no text"))
        if not clause.operative and not (clause.reason or "").strip():
            problems.append((here, "is marked non-operative without a reason"))
        known = {v.id for v in metadata.versions}
        for wording in clause.versions:
            if wording.version not in known:
                problems.append((here, f"gives words for version {wording.version!r}, which `versions` does not list"))
        clauses[clause.id] = clause
    interpretations: dict[str, Interpretation] = {}
    for position, item in enumerate(data.get("interpretations") or []):
        if not isinstance(item, dict) or "id" not in item:
            problems.append((where, f"interpretations[{position}] has no id"))
            continue
        here = f"{where}: interpretation {item['id']}"
        try:
            reading = Interpretation.model_validate(item)
        except ValidationError as error:
            problems += sorted({_problem(here, e, item) for e in error.errors()})
            continue
        if reading.id in interpretations:
            problems.append((here, "registered twice"))
        if not reading.clause.strip():
            problems.append((here, "names no clause"))
        elif reading.clause not in clauses:
            problems.append((here, f"names clause {item['clause']!r}, which is not registered"))
        if not reading.text:
            problems.append((here, "has no text"))
        if reading.alternatives and not reading.reading:
            problems.append((here, "names alternatives but not the reading applied by default (`reading:`)"))
        if reading.reading and not reading.alternatives:
            problems.append((here, f"names the reading {reading.reading!r} but no alternative to it"))
        if reading.reading and reading.chooses_nothing:
            problems.append((here, "both names a reading and says it chooses nothing (`chooses_nothing:`)"))
        if reading.reading and not reading.default_because:
            problems.append((here, "does not say why the default reading was chosen (`default_because:`)"))
        for name in reading.readings:
            if not name.isidentifier() or not name.islower():
                problems.append((here, f"reading {name!r} is not a lower-case identifier"))
        if len(set(reading.readings)) < len(reading.readings):
            problems.append((here, "names a reading twice"))
        interpretations[reading.id] = reading
    names = [name for i in interpretations.values() for name in (i.id, *(a.id for a in i.alternatives))]
    for name in sorted({n for n in names if names.count(n) > 1}):
        problems.append((f"{where}: interpretation {name}", "is both an interpretation and an alternative reading, or "
                         "an alternative of two interpretations: each name is one reading's"))
    return Registry(metadata, clauses, interpretations), problems


def read(file: Path, ordinance: str, where: str) -> tuple[Registry | None, list[tuple[str, str]]]:
    """`validate` of a registry file; a file that cannot be read or parsed is one problem."""
    try:
        data = yaml.load(file.read_text(encoding="utf-8"), Loader=SAFE_LOADER)
    except (OSError, yaml.YAMLError) as error:
        return None, [(where, f"cannot be read: {error}")]
    return validate(data, ordinance, where)


@cache
def registry(ordinance: str) -> Registry:
    file = registry_path(ordinance)
    return cached(f"registry-{ordinance}", [file], __name__, lambda: _checked(file, ordinance), version=PYDANTIC_VERSION)


def _checked(file: Path, ordinance: str) -> Registry:
    found, problems = read(file, ordinance, f"encodings/{ordinance}.yaml")
    if found is None or problems:
        raise ValueError("; ".join(f"{place}: {what}" for place, what in problems))
    return found


def all_registries() -> dict[str, Registry]:
    return {name: registry(name) for name in encoded_ordinances()}


def clauses_record(ordinances: Sequence[str], clause_id: str | None = None) -> list[dict[str, Any]]:
    """What `reasoner clauses --format json` and the web API give: per ordinance, its clauses (one, with
    `clause_id`) and the interpretations of them (versions only where a clause has some)."""
    data = []
    for name in ordinances:
        reg = registry(name)
        items = [c.model_dump(exclude=None if c.versions else {"versions"}) for c in reg.clauses.values()
                 if clause_id in (None, c.id)]
        data.append({"ordinance": name, "jurisdiction": reg.jurisdiction, "title": reg.title, "clauses": items,
                     "interpretations": [i.model_dump() for i in reg.interpretations.values()
                                         if clause_id in (None, i.clause)]})
    return data


def ordinance_record(name: str) -> dict[str, Any]:
    """What is known of an ordinance beside its clauses: `reasoner ordinances --format json` and GET /ordinances."""
    meta = registry(name).metadata
    return {"name": name, "jurisdiction": meta.jurisdiction, "title": meta.title, "level": meta.level,
            "adopting_body": meta.adopting_body, "authority": meta.authority, "history": meta.history,
            "source": meta.source, "versions": [{"id": v.id, "label": v.label, "effective": v.dated, "note": v.note}
                                                for v in meta.versions]}


def metadata_line(name: str) -> str:
    """The metadata in one line, for text output that names the ordinance."""
    meta = registry(name).metadata
    versions = ", ".join(f"{v.id} ({v.dated})" for v in meta.versions) or "one, undated"
    return (f"{name}: {meta.level or 'level not stated'}; adopted by {meta.adopting_body or 'a body the registry does not name'}; "
            f"versions: {versions}; source: {meta.source}")
