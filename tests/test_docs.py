"""The documentation site (mkdocs.yml, README.md as its front page, docs/*.md) builds with every warning an error,
so a link to a page, an anchor or a file that is not there, or a page left out of the navigation, fails here; and its
words about how many laws are encoded stay true as laws are added."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytest.importorskip("mkdocs", reason="mkdocs is not installed: pip install -e '.[test]'")


def build(root: Path, site: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
                           str(root / "mkdocs.yml"), "--site-dir", str(site)],
                          cwd=root, capture_output=True, text=True, timeout=300)


def test_the_site_builds_with_warnings_as_errors(tmp_path):
    done = build(ROOT, tmp_path / "site")
    assert done.returncode == 0, done.stderr
    front = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "Set-up: two commands" in front, "the front page is not the README"
    for page in sorted((ROOT / "docs").glob("*.md")):
        assert (tmp_path / "site" / page.stem / "index.html").is_file(), f"{page.name} is not on the site"
    pages = [p.read_text(encoding="utf-8") for p in (tmp_path / "site").rglob("*.html")]
    assert not [p for p in pages if re.search(r"<(script|link)[^>]+(src|href)=\"https?://", p)], \
        "the site loads something from elsewhere"


def _copy(tmp_path: Path) -> Path:
    copy = tmp_path / "checkout"
    copy.mkdir()
    shutil.copy(ROOT / "mkdocs.yml", copy)
    shutil.copy(ROOT / "README.md", copy)
    shutil.copytree(ROOT / "docs", copy / "docs")
    return copy


@pytest.mark.parametrize("page, added, named", [
    ("docs/limits.md", "[a page](no-such-page.md)", "no-such-page.md"),
    ("docs/limits.md", "[an anchor](commands.md#no-such-heading)", "no-such-heading"),
    ("docs/limits.md", "[the vocabulary](../encodings/vocabulary.yaml)", "vocabulary.yaml"),
    ("README.md", "[a page](docs/no-such-page.md)", "no-such-page.md"),
    ("README.md", "[a file outside docs/](encodings/vocabulary.yaml)", "vocabulary.yaml"),
    ("README.md", "[an anchor](#no-such-heading)", "no-such-heading"),
    ("docs/not-in-the-nav.md", "# A page no one can reach", "not-in-the-nav.md"),
], ids=["page", "anchor", "outside-docs", "readme-page", "readme-outside-docs", "readme-anchor", "not-in-nav"])
def test_a_broken_link_fails_the_build(tmp_path, page, added, named):
    copy = _copy(tmp_path)
    path = copy / page
    path.write_text((path.read_text(encoding="utf-8") if path.exists() else "") + f"\n\n{added}\n", encoding="utf-8")
    done = build(copy, tmp_path / "site")
    assert done.returncode != 0, f"a strict build passed with {added!r} in {page}"
    assert named in done.stderr, done.stderr


def _prose() -> list[tuple[str, str]]:
    """Every page of prose: the README, the docs pages and the notebooks' text cells."""
    found = [(p.relative_to(ROOT).as_posix(), p.read_text(encoding="utf-8"))
             for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]]
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        found += [(f"{notebook.name} cell {i}", "".join(cell["source"]))
                  for i, cell in enumerate(cells) if cell["cell_type"] == "markdown"]
    return found


COUNT = re.compile(r"\b(two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(?:[\w-]+\s+){0,3}?"
                   r"(ordinances|statutes|laws|texts|encodings)\b", re.I)


@pytest.mark.parametrize("where, text", _prose(), ids=[where for where, _ in _prose()])
def test_no_page_counts_the_encoded_laws_in_words(where, text):
    # "five local ordinances and two state statutes" went stale when a third statute came; say "every encoded
    # ordinance" or "the ordinances listed", or let code count them
    stale = [m.group(0) for m in COUNT.finditer(text)]
    assert not stale, f"{where} counts the laws in words: {stale}"


def test_the_readme_lists_every_encoded_ordinance():
    from reasoner.law.locator import encoded_ordinances

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## The ordinances"):]
    listed = re.findall(r"^\| `(\w+)` \|", section, re.M)
    assert sorted(listed) == sorted(encoded_ordinances()), "the README's table of ordinances is not the encoded ones"


def test_the_commands_page_names_every_command():
    from reasoner.cli import main

    text = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    missing = [name for name in main.commands if f"`reasoner {name}" not in text]
    assert not missing, f"docs/commands.md does not name: {missing}"
