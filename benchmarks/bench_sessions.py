"""Events of many sessions: wall time and peak memory of `whatif`, `explain` and `evaluate`, side by side with a
baseline commit, each run its own process under /usr/bin/time -v and a memory limit (a what-if over many
sessions once took 22 GB and the OOM killer).

Usage: python benchmarks/bench_sessions.py [--sessions 12,24,50,100] [--repeat 3] [--baseline main]
       [--limit-mb 8000] [--publish]

The events are the stress case of issue 33: sessions of 2 hours every 3 hours from 2027-07-16 noon, 6,000 people,
Trempealeau. Each row is a median of --repeat interleaved runs; a run past the limit shows as "over N MB".
--publish writes the table into docs/performance.md's block `sessions`.
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from datetime import datetime, timedelta
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_batch import ROOT, baseline_checkout  # noqa: E402
from timing import publish, table  # noqa: E402

COMMANDS = {
    "whatif": ["whatif", "{file}", "-o", "trempealeau", "--flip", "permit_required", "--proposals", "1"],
    "explain": ["explain", "{file}", "-o", "trempealeau", "permit_required"],
    "evaluate": ["evaluate", "{file}", "-o", "trempealeau", "--format", "json"],
}


def sessions_event(count: int, folder: Path) -> Path:
    start = datetime(2027, 7, 16, 12, 0)
    sessions = [{"start": (start + timedelta(hours=3 * i)).strftime("%Y-%m-%dT%H:%M"),
                 "end": (start + timedelta(hours=3 * i + 2)).strftime("%Y-%m-%dT%H:%M")} for i in range(count)]
    event = {"id": f"sessions-{count}", "kinds": ["festival"], "attendance": {"expected_max": 6000},
             "schedule": {"sessions": sessions}, "site": {"kind": "open_land", "locations": 1},
             "organizer": {"kind": "corporation", "sponsor": "private"}, "flags": ["open_to_public"]}
    path = folder / f"sessions-{count}.yaml"
    path.write_text(yaml.safe_dump(event, sort_keys=False), encoding="utf-8")
    return path


def measure(checkout: Path, arguments: list[str], limit_mb: int) -> tuple[float, int, int]:
    """Seconds, peak resident kilobytes and exit code of `reasoner ARGUMENTS` run by `checkout`'s code, under an
    address-space limit of `limit_mb` (ulimit -v, so that a baseline without --memory-limit is bounded too)."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    command = ["/usr/bin/time", "-v", sys.executable, "-m", "reasoner.cli", *arguments]
    shell = f"ulimit -v {limit_mb * 1024}; exec " + " ".join(f"'{part}'" for part in command)
    done = subprocess.run(["bash", "-c", shell], env=env, capture_output=True, text=True, cwd=tempfile.gettempdir())
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", done.stderr)
    hours, minutes, seconds = (float(g or 0) for g in wall.groups())
    peak = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr).group(1))
    code = int(re.search(r"Exit status: (\d+)", done.stderr).group(1))
    return hours * 3600 + minutes * 60 + seconds, peak, code


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", default="12,24,50,100")
    parser.add_argument("--commands", default="whatif,explain,evaluate")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--baseline", default="main", help="a commit to compare with ('' for none)")
    parser.add_argument("--limit-mb", type=int, default=8000)
    parser.add_argument("--publish", action="store_true")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-sessions-"))
    sides = {"this checkout": ROOT}
    if args.baseline:
        sides[f"baseline {args.baseline}"] = baseline_checkout(args.baseline, work)
    counts = [int(n) for n in args.sessions.split(",")]
    files = {n: sessions_event(n, work) for n in counts}
    runs: dict[tuple, list[tuple[float, int, int]]] = {}
    for _ in range(args.repeat):
        for n in counts:
            for command in args.commands.split(","):
                for side, checkout in sides.items():
                    arguments = [a.format(file=files[n]) for a in COMMANDS[command]]
                    found = measure(checkout, arguments, args.limit_mb)
                    runs.setdefault((n, command, side), []).append(found)
                    print(f"{n} sessions, {command}, {side}: {found[0]:.1f} s, {found[1] // 1024:,} MB, exit {found[2]}",
                          file=sys.stderr, flush=True)  # as it comes: a run of many sessions takes minutes
    rows = []
    for (n, command, side), found in runs.items():
        done = [r for r in found if r[2] == 0]
        if len(done) < len(found):
            rows.append((n, command, side, f"over {args.limit_mb:,} MB" if any(r[2] in (1, 4) for r in found)
                         else f"exit {found[0][2]}", ""))
            continue
        rows.append((n, command, side, f"{statistics.median(r[0] for r in done):.1f} s",
                     f"{statistics.median(r[1] for r in done) // 1024:,} MB"))
    markdown = table(("sessions", "command", "code", f"wall, median of {args.repeat}", "peak memory"), rows,
                     "rllrr")
    print(markdown)
    if args.publish:
        publish("sessions", markdown, "python benchmarks/bench_sessions.py " + " ".join(sys.argv[1:]))


if __name__ == "__main__":
    main()
