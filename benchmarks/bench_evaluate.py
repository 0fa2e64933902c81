"""How long one evaluation takes, with and without explanation records, side by side in one run.

Usage: python benchmarks/bench_evaluate.py [--repeat 7] [--events 200] [--publish]
Prints medians (this machine is shared and noisy: compare the rows, not the absolute figures); --publish writes
them into docs/performance.md's block `evaluate`.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from timing import median_ms, publish, table

from reasoner.evaluate import evaluate
from reasoner.events.loading import load_events, parse_events
from reasoner.modes.explain import explain
from reasoner.law.locator import encoded_ordinances

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "facts" / "events" / "harvest-music-festival.yaml"


def synthetic(count: int):
    records = [{"id": f"e{i}", "attendance": {"expected_max": 100 + 37 * i},
                "schedule": {"start": "2027-07-16T12:00", "end": f"2027-07-{16 + i % 3}T23:00"}} for i in range(count)]
    return parse_events(records, "synthetic")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--events", type=int, default=200)
    parser.add_argument("--publish", action="store_true", help="Write the figures into docs/performance.md.")
    args = parser.parse_args()
    event = load_events(EXAMPLE)
    ordinances = encoded_ordinances()
    print(f"ordinances: {', '.join(ordinances)}; median of {args.repeat} runs (encodings loaded once)")
    explain(event[0], "trempealeau", "nurses")
    rows = [
        ("evaluate 1 event, trempealeau", lambda: evaluate(event, ["trempealeau"])),
        (f"evaluate 1 event, all {len(ordinances)}", lambda: evaluate(event, ordinances)),
        ("explain every conclusion, trempealeau", lambda: explain(event[0], "trempealeau")),
        ("explain one that holds (toilets)", lambda: explain(event[0], "trempealeau", "toilets")),
        ("explain one that does not (nurses: why not)", lambda: explain(event[0], "trempealeau", "nurses")),
    ]
    measured = []
    for label, action in rows:
        ms = median_ms(action, args.repeat)
        measured.append((label, f"{ms:,.1f} ms"))
        print(f"  {label:<45} {ms:8.1f} ms")
    many = synthetic(args.events)
    elapsed = median_ms(lambda: evaluate(many, ordinances), max(3, args.repeat // 2))
    label = f"evaluate {args.events} events in one call, all"
    measured.append((label, f"{elapsed:,.0f} ms ({args.events / elapsed * 1000:,.0f} events/s)"))
    print(f"  {label:<45} {elapsed:8.1f} ms  ({args.events / elapsed * 1000:,.0f} events/s)")
    command = [sys.executable, "-m", "reasoner.cli", "evaluate", str(EXAMPLE), "--format", "json"]
    process = median_ms(lambda: subprocess.run(command, check=True, capture_output=True), args.repeat)
    label = "whole process: reasoner evaluate --format json"
    measured.append((label, f"{process:,.0f} ms"))
    print(f"  {label:<45} {process:8.1f} ms")
    if args.publish:
        publish("evaluate", table(("run (the harvest festival, encodings loaded once)", f"median of {args.repeat}"), measured),
                f"python benchmarks/bench_evaluate.py --repeat {args.repeat} --events {args.events}")


if __name__ == "__main__":
    main()
