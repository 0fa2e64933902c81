"""What `reasoner readings` costs against a plain evaluation (issue 29), in one run, side by side.

For each bundled example event and each ordinance whose registry records a choice between readings: a plain
evaluation, the one solve over every combination of readings, and the whole `readings` report (the one solve plus
one evaluation per alternative reading). Medians of --repeat runs, in milliseconds, warm (the program text and the
registries already read).

Usage: python benchmarks/bench_readings.py [--repeat 7]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import ROOT, conditions, median_ms, table  # noqa: E402

from reasoner.evaluate import evaluate  # noqa: E402
from reasoner.events.loading import load_events  # noqa: E402
from reasoner.modes.readings import _over_every_combination, depends  # noqa: E402
from reasoner.law.ordinances import ordinance_readings  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    repeat = parser.parse_args().repeat
    events = [e for path in ["harvest-music-festival.yaml", "compare-barn-wedding.yaml", "fulton-summer-fest.yaml"]
              for e in load_events(str(ROOT / "facts" / "events" / path))]
    rows = []
    for ordinance, choices in ordinance_readings().items():
        if not choices:
            continue
        for event in events:
            plain = median_ms(lambda: evaluate([event], [ordinance]), repeat)
            combined = median_ms(lambda: _over_every_combination(event, ordinance), repeat)
            report = median_ms(lambda: depends(event, [ordinance]), repeat)
            rows.append((ordinance, event.id, len(choices), f"{plain:.1f}", f"{combined:.1f}", f"{report:.1f}",
                         f"{report / plain:.1f}x"))
    print(f"python benchmarks/bench_readings.py --repeat {repeat} ({conditions()})\n")
    print(table(("ordinance", "event", "choices", "evaluate ms", "one solve over all readings ms",
                 "readings report ms", "report / evaluate"), rows, "llrrrrr"))


if __name__ == "__main__":
    main()
