"""What each ordinance's registry says that evaluating needs (its versions, time zone, extent, readings, the words a
record carries, whether it is finished), read from the registries' heads or kept between runs, so that evaluating
an event builds no registry objects (reasoner/law/registry.py builds those on demand)."""
from __future__ import annotations

from functools import cache
from typing import Any

import yaml

from reasoner.law.datacache import cached
from reasoner.law.locator import SAFE_LOADER, encoded_ordinances, head_value, package_path, registry_path


@cache
def ordinance_versions() -> dict[str, tuple[tuple[str, int, int], ...]]:
    """{ordinance: ((version, earliest day, latest day), ...)} for each version its registry dates (day numbers as
    date.toordinal gives them): the earliest and the latest day it can have taken effect. Read from the registry's
    head (before `clauses:`) alone, so that evaluating needs no full registry."""
    files = [registry_path(name) for name in encoded_ordinances()]
    return cached("versions", files, __name__, _versions)


def _head(name: str) -> dict[str, Any]:
    """A registry's metadata: its keys before `clauses:`, parsed without the clauses."""
    head = []
    with registry_path(name).open(encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("clauses:"):
                break
            head.append(line)
    return yaml.load("".join(head), Loader=SAFE_LOADER) or {}


def _versions() -> dict[str, tuple[tuple[str, int, int], ...]]:
    found = {}
    for name in encoded_ordinances():
        versions = _head(name).get("versions") or []
        dated = []
        for version in versions:
            if version.get("effective") is not None:
                window = (version["effective"], version["effective"])
            elif version.get("effective_between") is not None:
                window = tuple(version["effective_between"])
            else:
                continue
            dated.append((str(version["id"]), *(day.toordinal() for day in window)))
        found[name] = tuple(dated)
    return found


def unfinished_metadata(metadata: dict[str, Any]) -> list[str]:
    """What a registry's metadata still leaves undone: each key `reasoner new` wrote TODO that is TODO still,
    and an extent that bounds no land (the scaffold's [0, 0, 0, 0]). An ordinance with any is not encoded yet:
    `check` fails on it, and no command evaluates it (it is never answered as not regulated)."""
    found = []
    for key, value in metadata.items():
        if key in ("clauses", "interpretations", "versions"):
            continue
        values = value if isinstance(value, (list, tuple)) else [value]
        if any(isinstance(item, str) and item.strip().upper().startswith("TODO") for item in values):
            found.append(f"{key} is TODO")
    extent = metadata.get("extent")
    if not (isinstance(extent, (list, tuple)) and len(extent) == 4 and all(isinstance(x, (int, float)) for x in extent)
            and extent[0] < extent[1] and extent[2] < extent[3]):
        shown = (f"[{', '.join(f'{x:g}' if isinstance(x, (int, float)) else repr(x) for x in extent)}]"
                 if isinstance(extent, (list, tuple)) else "not stated")
        found.append(f"extent {shown} bounds no land (south, north, west, east in degrees, west negative)")
    return found


@cache
def unfinished_ordinances() -> dict[str, tuple[str, ...]]:
    """{ordinance: what is undone} for each encoded ordinance whose registry's metadata is unfinished
    (unfinished_metadata); the others are the ones commands evaluate."""
    files = [registry_path(name) for name in encoded_ordinances()]
    return cached("unfinished", files, __name__, _unfinished)


def _unfinished() -> dict[str, tuple[str, ...]]:
    found = {}
    for name in encoded_ordinances():
        undone = unfinished_metadata(_head(name))
        if undone:
            found[name] = tuple(undone)
    return found


@cache
def ordinance_time_zones() -> dict[str, str]:
    """{ordinance: its registry's `time_zone`}, read from the registries' first lines (once: every event's
    validation asks)."""
    zones = {}
    for name in encoded_ordinances():
        zone = head_value(registry_path(name), "time_zone")
        if zone is None:
            raise ValueError(f"encodings/{name}.yaml states no time_zone")
        zones[name] = zone
    return zones


@cache
def ordinance_extents() -> dict[str, tuple[float, ...]]:
    """{ordinance: its registry's `extent`}, from the registries' heads (cached between runs: the sun is read at its
    corners on every evaluation, which needs no full registry)."""
    files = [registry_path(name) for name in encoded_ordinances()]
    return cached("extents", files, __name__,
                  lambda: {name: tuple(_head(name).get("extent") or ()) for name in encoded_ordinances()})


@cache
def ordinance_readings() -> dict[str, dict[str, tuple[str, ...]]]:
    """{ordinance: {interpretation: (default reading, alternative, ...)}} for every interpretation its registry
    records as a choice between readings."""
    def from_registries() -> dict[str, dict[str, tuple[str, ...]]]:
        from reasoner.law.registry import registry

        return {name: {i.id: i.readings for i in registry(name).interpretations.values() if i.readings}
                for name in encoded_ordinances()}

    sources = [*(registry_path(name) for name in encoded_ordinances()), package_path("law", "registry.py")]
    return cached("readings", sources, __name__, from_registries)


@cache
def record_heading(ordinance: str) -> dict[str, Any]:
    """What a record says of its ordinance, from its clause registry: jurisdiction, title, and the words of each
    interpretation by id. Kept apart from the registry's objects, so that evaluating needs none of them."""
    def from_registry() -> dict[str, Any]:
        from reasoner.law.registry import registry

        found = registry(ordinance)
        # an alternative reading, when chosen, is stated by a note of its own name (encodings/vocabulary.lp)
        return {"jurisdiction": found.jurisdiction, "title": found.title,
                "interpretations": {**{i.id: i.text for i in found.interpretations.values()},
                                    **{a.id: a.text for i in found.interpretations.values() for a in i.alternatives}}}

    sources = [registry_path(ordinance), package_path("law", "registry.py")]
    return cached(f"heading-{ordinance}", sources, __name__, from_registry)
