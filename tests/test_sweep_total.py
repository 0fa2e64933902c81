"""`sweep --vary attendance=...` on an event that states its total over the event (`attendance.total`): the total
is scaled with the varied peak (it may never fall below it), or dropped when it is a range or unknown, and the
sweep says which."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from reasoner.cli import main
from reasoner.events.loading import parse_events
from reasoner.modes.sweep import parse_vary, vary_event

FAIR = Path(__file__).resolve().parents[1] / "facts" / "events" / "three-day-county-fair.yaml"   # 6,000 peak, 15,000 total


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_a_stated_total_is_scaled_with_the_peak_and_the_sweep_says_so() -> None:
    result = run("sweep", str(FAIR), "--vary", "attendance=1000..9100", "-o", "trempealeau", "--kinds", "status",
                 "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert "the total over the event (15,000) is scaled with the attendance (rounded down)" in data["adjustments"]
    assert [c["at"] for c in data["change_points"] if c["name"] == "permit_required"] == [2000]


def test_the_scaled_total_is_never_below_the_peak() -> None:
    [event] = parse_events({"id": "e", "attendance": {"expected_max": 6000, "total": 15000},
                            "schedule": {"start": "2027-07-17T10:00", "end": "2027-07-17T23:00"}}, "e")
    vary = parse_vary("attendance=1..20000")
    for x in (1, 7, 6000, 9100, 20000):
        people = vary_event(event, vary, x).attendance
        assert people.expected_max == x and people.total == x * 15000 // 6000 and people.total >= x


def test_a_total_that_is_a_range_is_dropped_and_the_sweep_says_so(tmp_path: Path) -> None:
    event = tmp_path / "event.yaml"
    event.write_text(FAIR.read_text(encoding="utf-8").replace("total: 15000", "total: {min: 12000, max: 18000}"),
                     encoding="utf-8")
    result = run("sweep", str(event), "--vary", "attendance=1000..9100", "-o", "trempealeau", "--kinds", "status",
                 "--format", "text")
    assert result.exit_code == 0, result.output
    words = " ".join(result.output.replace("│", " ").split())
    assert "note: the total over the event is dropped, since it is not a number to scale with the attendance" in words
