"""Where the law's files are: each law's files stand side by side in the encodings folder, `NAME.lp` (its rules),
`NAME.yaml` (its clause registry) and `NAME.txt` (its text), with the shared vocabulary; and which laws are there."""
from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

import yaml

# libyaml's safe loader where PyYAML was built with it (about 3x faster on the registries), else pure Python.
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def package_path(*parts: str) -> Path:
    """A file shipped inside the installed package (modes.lp, the page's static files)."""
    return Path(str(resources.files("reasoner").joinpath(*parts)))


@cache
def encodings_folder() -> Path:
    """The encodings: `reasoner/encodings` in an installed package (setuptools maps the repository's
    top-level `encodings/` there), the top-level folder itself in a checkout or an editable install."""
    installed = Path(str(resources.files("reasoner").joinpath("encodings")))
    if installed.is_dir():
        return installed
    return Path(__file__).resolve().parents[2] / "encodings"


def encoding_path(name: str) -> Path:
    """An ordinance's encoding, `encodings/NAME.lp`."""
    return encodings_folder() / f"{name}.lp"


def registry_path(name: str) -> Path:
    """An ordinance's clause registry, `encodings/NAME.yaml`."""
    return encodings_folder() / f"{name}.yaml"


def text_path(name: str) -> Path:
    """An ordinance's text, `encodings/NAME.txt`."""
    return encodings_folder() / f"{name}.txt"


@cache
def encoded_ordinances() -> tuple[str, ...]:
    """Ordinances whose encoding and clause registry both ship with the package, discovered from the files
    present, in the order their registries give (`listed:`)."""
    found = []
    for path in encodings_folder().glob("*.lp"):
        registry_file = registry_path(path.stem)
        if path.stem != "vocabulary" and registry_file.is_file():
            found.append((_listed(registry_file), path.stem))
    return tuple(name for _, name in sorted(found))


def _listed(registry_file: Path) -> int:
    """A registry's `listed:` position (the whole registry is parsed on demand)."""
    listed = head_value(registry_file, "listed")
    return 1 << 30 if listed is None else int(listed)


def head_value(registry_file: Path, key: str) -> str | None:
    """The value of a one-line key in a registry's head (before `clauses:`), read from its first lines without
    parsing the registry: what every evaluation asks of every registry must cost next to nothing."""
    with registry_file.open(encoding="utf-8") as handle:
        for line in handle:
            if line.startswith(f"{key}:"):
                return line.split(":", 1)[1].split("#", 1)[0].strip()
            if line.startswith("clauses:"):
                break
    return None
