"""The shared vocabulary (encodings/vocabulary.yaml): the names of kinds, flags, findings and obligations that every
text's rules and every event file use."""
from __future__ import annotations

from functools import cache

import yaml

from reasoner.law.datacache import cached
from reasoner.law.locator import SAFE_LOADER, encodings_folder


@cache
def vocabulary() -> dict[str, dict]:
    file = encodings_folder() / "vocabulary.yaml"
    return cached("vocabulary", [file], __name__, lambda: yaml.load(file.read_text(encoding="utf-8"), Loader=SAFE_LOADER))


def names(section: str) -> tuple[str, ...]:
    return tuple(vocabulary()[section])
