"""The site's front page is README.md: read when the site is built, its links into docs/ made relative to the site.

A link of the README to anything outside docs/ is left as it is, so a strict build reports it as broken.
"""
from __future__ import annotations

import re
from pathlib import Path

from mkdocs.structure.files import File

README = Path(__file__).resolve().parents[2] / "README.md"


def on_files(files, config):
    text = re.sub(r"\]\(docs/", "](", README.read_text(encoding="utf-8"))
    files.append(File.generated(config, "index.md", content=text))
    return files
