"""How long one evaluation takes, with and without explanation records, side by side in one run.

Usage: python benchmarks/bench_evaluate.py [--repeat 7] [--events 200] [--publish]
       python benchmarks/bench_evaluate.py --many 2000 [--repeat 3]
--many compares, side by side, how many events `evaluate` solves in one program (reasoner.evaluate.EVALUATE_CHUNK):
wall time and peak memory of a process answering N small events in chunks of each size.
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


CHUNKED = """
import resource, sys, time
from reasoner.evaluate import evaluate_any
from reasoner.law.locator import encoded_ordinances
sys.path.insert(0, {here!r})
from bench_evaluate import synthetic
events, size = synthetic({count}), {size}
ordinances = encoded_ordinances()
start = time.perf_counter()
for first in range(0, len(events), size):
    evaluate_any(events[first:first + size], ordinances)
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def chunk_sizes(count: int, repeat: int, publishing: bool = False) -> None:
    """Each chunk size in its own process, interleaved, `repeat` times: median seconds and peak memory."""
    sizes = [25, 100, 400, count]
    runs: dict[int, list[tuple[float, int]]] = {size: [] for size in sizes}
    for _ in range(repeat):
        for size in sizes:
            code = CHUNKED.format(here=str(Path(__file__).parent), count=count, size=size)
            out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
            seconds, kilobytes = out.split()
            runs[size].append((float(seconds), int(kilobytes)))
    print(f"{count:,} events, all ordinances, median of {repeat} interleaved runs")
    measured = []
    for size in sizes:
        seconds = sorted(r[0] for r in runs[size])[len(runs[size]) // 2]
        peak = max(r[1] for r in runs[size]) / 1024
        print(f"  chunks of {size:>6,}: {seconds:7.2f} s  {count / seconds:7.0f} events/s  peak {peak:7.0f} MB")
        measured.append((f"{size:,}" + (" (all at once)" if size == count else ""), f"{seconds:,.1f} s",
                         f"{count / seconds:,.0f}", f"{peak:,.0f} MB"))
    if publishing:
        publish("many", table(("events solved in one program", f"{count:,} events, median of {repeat}",
                               "events/s", "peak memory"), measured),
                f"python benchmarks/bench_evaluate.py --many {count} --repeat {repeat}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--events", type=int, default=200)
    parser.add_argument("--publish", action="store_true", help="Write the figures into docs/performance.md.")
    parser.add_argument("--many", type=int, default=0, help="Compare chunk sizes on this many events, and stop.")
    args = parser.parse_args()
    if args.many:
        chunk_sizes(args.many, args.repeat, args.publish)
        return
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
