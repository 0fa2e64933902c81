"""Issue 32: the authority's deadlines (what it must do by when) are listed apart from the organizer's in
evaluate's human output, and one that falls on or after the event's opening day is flagged."""
from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from reasoner.cli import main
from reasoner.events.loading import load_events

HARVEST = str(Path(__file__).resolve().parents[1] / "facts" / "events" / "harvest-music-festival.yaml")
OPENING = load_events(HARVEST)[0].schedule.opening.date()


def run(*args: str) -> str:
    result = CliRunner().invoke(main, ["evaluate", HARVEST, "-o", "trempealeau", *args], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    return result.output


def processing_days() -> int:
    """The days 6.01(6) gives the county, as the reasoner computes them (the law's number is not restated here)."""
    filed = date(2027, 3, 1)
    record = json.loads(run("--filed", filed.isoformat(), "--format", "json"))[0]
    [deadline] = [c for c in record["conclusions"] if c["kind"] == "deadline" and c["name"] == "processing"]
    return (date.fromisoformat(deadline["value"]) - filed).days


def sections(text: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    heading = None
    for line in text.splitlines():
        inner = line.strip("│ ").rstrip()
        if inner.endswith(":"):
            heading = inner
            found[heading] = []
        elif heading and inner.startswith("•"):
            found[heading].append(inner)
    return found


def test_processing_is_the_authoritys_deadline_not_the_organizers():
    found = sections(run("--filed", "2027-03-01"))
    authority = next(lines for heading, lines in found.items() if heading.startswith("The authority's deadlines"))
    assert any(line.startswith("• processing:") for line in authority)
    assert not any("processing" in line for line in found["Deadlines:"])
    assert any(line.startswith("• application filing:") for line in found["Deadlines:"])
    assert not any("FALLS" in line for line in authority)


@pytest.mark.parametrize("days_before, flag", [(1, f"FALLS AFTER the opening ({OPENING.isoformat()})"), (0, "FALLS ON the opening day"),
                                               (-1, None)])
def test_an_authority_deadline_on_or_after_the_opening_is_flagged(days_before, flag):
    filed = OPENING - timedelta(days=processing_days() - days_before)  # the county's answer is due days_before past opening
    [line] = [line for line in run("--filed", filed.isoformat()).splitlines() if "• processing:" in line]
    if flag:
        assert flag in line
    else:
        assert "FALLS" not in line
