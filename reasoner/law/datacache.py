"""Package data parsed once and kept between runs: the vocabulary and the clause registries stay YAML (the one
source), but parsing them costs more than a cold `evaluate` spends on clingo's grounding, so what is read from
them is pickled beside the user's other caches and used while the files it came from are unchanged.

A cached value is keyed, like Python's own bytecode, by its source files' sizes and modification times, and by
those of the module that builds it (a changed reader never meets an old value). A cache that cannot be read or
written is ignored. REASONER_CACHE names another folder, or `off`.
"""
from __future__ import annotations

import os
import pickle
import sys
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


def folder() -> Path | None:
    """Where cached values go; None when REASONER_CACHE is `off`."""
    chosen = os.environ.get("REASONER_CACHE")
    if chosen == "off":
        return None
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "reasoner"


def _stamp(path: Path) -> tuple[str, int, int]:
    stat = path.stat()
    return str(path), stat.st_mtime_ns, stat.st_size


def cached(name: str, sources: Sequence[Path], builder_module: str, build: Callable[[], T], version: str = "") -> T:
    """build(), or the value it gave last time if `sources`, the module `builder_module` and `version` (of a
    library whose objects the value holds) are unchanged."""
    where = folder()
    if where is None:
        return build()
    module_file = Path(sys.modules[builder_module].__file__ or "")
    try:
        key = (sys.version_info[:2], tuple(_stamp(Path(p)) for p in sources), _stamp(module_file), version)
    except OSError:
        return build()
    # One file per value and place: checkouts side by side keep their own, and an edit replaces the old value.
    place = zlib.crc32(repr((name, [str(p) for p in sources], str(module_file))).encode())
    file = where / f"{name}-{place:08x}.pickle"
    try:
        with file.open("rb") as handle:
            stored_key, value = pickle.load(handle)
        if stored_key == key:
            return value
    except Exception:  # absent, unreadable, truncated, or pickled by other code: built afresh
        pass
    value = build()
    _store(file, (key, value))
    return value


def _store(file: Path, content: Any) -> None:
    """Write atomically (processes of a batch may race); a folder that cannot be written is left alone."""
    import tempfile

    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=file.parent, prefix=file.stem, suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                pickle.dump(content, out, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, file)
        except BaseException:
            os.unlink(temporary)
            raise
    except (OSError, pickle.PicklingError):
        pass
