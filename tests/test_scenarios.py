"""Table-driven scenarios: tests/scenarios/<ordinance>.yaml, one case per sentence of the law.

Each case (its `event` merged over the file's `base`, read by reasoner.quality.coverage.scenario_cases, the one
reader of the format) is evaluated under that file's ordinance; the test checks `permit_required`/`status`,
that every conclusion in `expect` appears (matching on the keys it gives) and that none in `absent` does.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from reasoner.evaluate import evaluate
from reasoner.quality.coverage import scenario_cases
from reasoner.events.loading import parse_events
from reasoner.program import chosen_readings

SCENARIOS = Path(__file__).parent / "scenarios"


def matches(conclusion: dict, pattern: dict) -> bool:
    """A conclusion matches a pattern when it has every key the pattern gives, with the same value."""
    return all(conclusion.get(key) == value for key, value in pattern.items())


@pytest.mark.parametrize("case", scenario_cases(SCENARIOS), ids=lambda c: f"{Path(c.file).stem}: {c.name}")
def test_scenario(case):
    record = {"id": "scenario", **case.record}
    with chosen_readings(case.chosen()):  # a case may apply another reading of a contested passage (`readings:`)
        [result] = evaluate(parse_events(record, "scenario"), [case.ordinance])
    expect = case.expect
    if "permit_required" in expect:
        assert result["permit_required"] is expect["permit_required"], result["conclusions"]
    if "status" in expect:
        assert result["status"] == expect["status"]
    for pattern in expect.get("conclusions", []):
        found = [c for c in result["conclusions"] if matches(c, pattern)]
        near = [c for c in result["conclusions"] if c["name"] == pattern.get("name")]
        assert found, f"expected {pattern}; conclusions with that name: {near}"
    for pattern in case.absent:
        found = [c for c in result["conclusions"] if matches(c, pattern)]
        assert not found, f"did not expect {found}"
