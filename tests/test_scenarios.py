"""Table-driven scenarios: tests/scenarios/<ordinance>.yaml, one case per sentence of the law.

Each case deep-merges its `event` over the file's `base` event, evaluates it under that file's
ordinance, and checks `permit_required`/`status`, that every conclusion in `expect` appears
(matching on the keys it gives) and that none in `absent` does.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from reasoner.conclusions import evaluate
from reasoner.coverage import deep_merge, matches
from reasoner.loading import parse_events

SCENARIOS = Path(__file__).parent / "scenarios"


def load_cases():
    for path in sorted(SCENARIOS.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for case in data["cases"]:
            yield pytest.param(data["ordinance"], data.get("base", {}), case, id=f"{path.stem}: {case['name']}")


@pytest.mark.parametrize("ordinance, base, case", list(load_cases()))
def test_scenario(ordinance, base, case):
    record = deep_merge(base, case.get("event", {}))
    record.setdefault("id", "scenario")
    [result] = evaluate(parse_events(record, "scenario"), [ordinance])
    expect = case.get("expect", {})
    if "permit_required" in expect:
        assert result["permit_required"] is expect["permit_required"], result["conclusions"]
    if "status" in expect:
        assert result["status"] == expect["status"]
    for pattern in expect.get("conclusions", []):
        found = [c for c in result["conclusions"] if matches(c, pattern)]
        near = [c for c in result["conclusions"] if c["name"] == pattern.get("name")]
        assert found, f"expected {pattern}; conclusions with that name: {near}"
    for pattern in case.get("absent", []):
        found = [c for c in result["conclusions"] if matches(c, pattern)]
        assert not found, f"did not expect {found}"
