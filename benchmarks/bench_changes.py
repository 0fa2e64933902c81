"""The amendment impact report of the batch (`--versions D,D --changes`) against a plain batch of the same events.

Usage:
  python benchmarks/bench_changes.py [--events 2000] [--repeat 3] [--mixes synthetic,regulated]
                                     [--versions 2009-06-01,2011-06-01] [--workdir DIR]

For each mix of benchmarks/bench_batch.py, in turns within each repeat, each as a command of its own
(`reasoner batch FILE --out OUT.jsonl --workers 2`, start-up included): the plain batch, and the same with
`--versions ... --changes`. Prints the medians of the wall times and their ratio (this machine is shared and
noisy: compare rows of one run, not runs).
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_batch import write_events  # noqa: E402


def timed(arguments: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "reasoner.cli", "batch", *arguments], check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--mixes", default="synthetic,regulated")
    parser.add_argument("--versions", default="2009-06-01,2011-06-01")
    parser.add_argument("--workdir", default=None)
    args = parser.parse_args()
    work = Path(args.workdir or tempfile.mkdtemp(prefix="bench-changes-"))
    work.mkdir(parents=True, exist_ok=True)
    print(f"{args.events:,} events, 2 workers, every ordinance, --versions {args.versions}; medians of {args.repeat}")
    print(f"{'mix':<10} {'plain s':>8} {'changes s':>10} {'ratio':>6} {'plain ev/s':>11} {'changes ev/s':>13}")
    for mix in args.mixes.split(","):
        source = write_events(work / f"{mix}-{args.events}.jsonl", args.events, mix)
        plain, changes = [], []
        for _ in range(args.repeat):
            plain.append(timed([str(source), "--out", str(work / f"{mix}-plain.jsonl"), "--workers", "2"]))
            changes.append(timed([str(source), "--out", str(work / f"{mix}-changes.jsonl"), "--workers", "2",
                                  "--versions", args.versions, "--changes"]))
        p, c = statistics.median(plain), statistics.median(changes)
        print(f"{mix:<10} {p:>8.2f} {c:>10.2f} {c / p:>6.2f} {args.events / p:>11,.0f} {args.events / c:>13,.0f}")


if __name__ == "__main__":
    main()
