"""What the text output says once: an item missing from the application is listed under "Missing from the
application" and not again among what the application must contain; and a penalty the text gives as a range
($1,000 to $20,000) is shown as that range in the report, as `evaluate` shows it."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from reasoner.cli import main

HARVEST = Path(__file__).resolve().parents[1] / "facts" / "events" / "harvest-music-festival.yaml"


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False, env={"COLUMNS": "200"})


def _lines(output: str) -> list[str]:
    return [" ".join(line.strip("│ ").split()) for line in output.splitlines()]


def test_a_missing_item_is_listed_once() -> None:
    lines = _lines(run("evaluate", str(HARVEST), "-o", "trempealeau").output)
    assert "Missing from the application:" in lines and "The application must also contain:" in lines
    assert sum(line.startswith("• food concessions plan") for line in lines) == 1
    assert "The application must contain:" not in lines


def test_an_application_with_nothing_in_it_lists_its_items_once(tmp_path: Path) -> None:
    empty = tmp_path / "empty.yaml"
    text = HARVEST.read_text(encoding="utf-8")
    start = text.index("  contents: [")
    end = text.index("]", start) + 1
    empty.write_text(text[:start] + "  contents: []" + text[end:], encoding="utf-8")
    lines = _lines(run("evaluate", str(empty), "-o", "trempealeau").output)
    items = [line for line in lines if line.startswith("• ") and "[6.01(4)" in line]
    assert "Missing from the application:" in lines and items and len(items) == len(set(items))
    assert "The application must contain:" not in lines


def test_the_report_shows_a_penalty_s_range(tmp_path: Path) -> None:
    out = tmp_path / "report.md"
    assert run("report", str(HARVEST), "-o", "trempealeau", "-o", "gem", "--out", str(out),
               "--format", "markdown").exit_code == 0
    text = out.read_text(encoding="utf-8")
    assert "| fine per day | $1,000–$20,000 | may | 6.01(8)(c) |" in text
    assert "| fine per day | up to $1,000 | may | 10.violation |" in text
