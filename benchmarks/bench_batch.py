"""Batch throughput, side by side with the naive baseline (a fresh clingo Control per event), on realistic
synthetic events evaluated under every encoded ordinance.

Usage:
  python benchmarks/bench_batch.py [--events 10000] [--repeat 3] [--naive 300] [--scale 10000,100000]
                                   [--workdir DIR] [--skip-startup]

Prints medians of --repeat runs (this machine is shared and noisy: compare rows of one run, not runs).
  * naive: conclusions.evaluate on one event at a time (a Control each), in this process; and the same
    through the batch machinery with --chunk-size 1 and 2 workers, so both sides use both cores;
  * clingo alone: each chunk's facts built beforehand, then only parsed, grounded and solved in 2
    processes, nothing read: the ceiling of any batch design with these encodings on this machine;
  * batch: `reasoner batch` machinery with 1 and 2 workers, and the split of the workers' time between
    validating records, building facts, grounding (clingo parsing the facts included), solving,
    reading answer sets and writing rows;
  * scale: 2 workers at each size of --scale, with peak memory: the sum of the proportional set sizes
    (PSS, shared pages divided among the processes sharing them) of the command and all its worker
    processes, sampled every 0.2 s, and /usr/bin/time's largest single-process RSS;
  * start-up: a cold `reasoner evaluate --format json` of one event, and an explanation of one
    conclusion once the encodings are loaded.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

from reasoner import batch
from reasoner.conclusions import evaluate
from reasoner.loading import parse_events
from reasoner.vocabulary import encoded_ordinances, vocabulary

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "facts" / "events" / "harvest-music-festival.yaml"
COMMON_KINDS = ["festival", "concert", "fair", "race", "parade", "wedding", "rally", "auction", "picnic", "athletic_event"]


def synthetic_events(count: int, seed: int = 0) -> Iterator[dict]:
    """Events like a county's applications: mostly small, a long tail of large ones; every field varied."""
    v = vocabulary()
    rng = random.Random(seed)
    names = {key: list(v[key]) for key in v}
    base = datetime(2027, 1, 1)
    for i in range(count):
        people = max(5, min(60_000, int(rng.lognormvariate(6.2, 1.4))))
        start = base + timedelta(days=rng.randrange(365), hours=rng.randrange(7, 21), minutes=rng.choice((0, 30)))
        end = start + timedelta(minutes=rng.choice((60, 180, 300, 480, 720, 900, 1440, 2220, 3000, 4200)))
        kinds = sorted({rng.choice(COMMON_KINDS) if rng.random() < .8 else rng.choice(names["event_kinds"])
                        for _ in range(rng.randint(1, 2))})
        event: dict = {"id": f"ev-{i:07d}", "kinds": kinds, "attendance": {"expected_max": people},
                       "schedule": {"start": start.isoformat(timespec="minutes"), "end": end.isoformat(timespec="minutes")}}
        if rng.random() < .3:
            female = rng.randint(0, people)
            event["attendance"].update(female=female, male=rng.randint(0, people - female))
        if rng.random() < .2:
            event["attendance"]["max_tickets"] = people
        site: dict = {"kind": rng.choice(names["site_kinds"])}
        if site["kind"] == "permanent_venue":
            site["seating_capacity"] = int(people * rng.uniform(.5, 1.5))
        if "auction" in kinds or "sale" in kinds:
            site["capacity"] = int(people * rng.uniform(.6, 1.4))
        if rng.random() < .1:
            site["locations"] = rng.randint(2, 4)
        site["flags"] = [f for f in names["site_flags"] if rng.random() < .15]
        event["site"] = site
        event["organizer"] = {"kind": rng.choice(names["organizer_kinds"]),
                              "sponsor": rng.choice(names["sponsor_kinds"]) if rng.random() < .25 else "private"}
        if rng.random() < .5:
            event["organizer"]["applicant_age"] = rng.randint(16, 80)
        if rng.random() < .3:
            event["organizer"]["site_interest"] = rng.choice(names["site_interests"])
        event["flags"] = [f for f in names["event_flags"] if rng.random() < .2]
        event["special_services"] = [s for s in names["special_services"] if rng.random() < .08]
        if rng.random() < .7:
            application: dict = {"filed": (start.date() - timedelta(days=rng.randrange(150))).isoformat(),
                                  "contents": [c for c in names["application_items"] if rng.random() < .5],
                                  "approvals": [a for a in names["approvals"] if rng.random() < .3]}
            if rng.random() < .5:
                application["insurance"] = {"general_liability_aggregate_usd": rng.choice((500_000, 1_000_000, 2_000_000)),
                                            "workers_compensation": rng.random() < .5}
            if rng.random() < .3:
                application["fee_paid_usd"] = rng.choice((50, 100, 300))
            event["application"] = application
        event["provisions"] = {o: rng.randint(0, max(1, people // 200))
                               for o in rng.sample(names["obligations"], rng.randint(0, 6))}
        if rng.random() < .05:
            event["findings"] = rng.sample(names["findings"], rng.randint(1, 2))
        if rng.random() < .03:
            event["imposed_conditions"] = rng.sample(names["obligations"], 1)
        yield event


def write_events(path: Path, count: int) -> Path:
    if not path.exists() or sum(1 for _ in path.open("rb")) != count:
        with path.open("w", encoding="utf-8") as handle:
            for event in synthetic_events(count):
                handle.write(json.dumps(event) + "\n")
    return path


def median(values: list[float]) -> float:
    return statistics.median(values)


def naive_in_process(path: Path, count: int, ordinances: tuple[str, ...]) -> float:
    """events/s: each event validated, then conclusions.evaluate on it alone (a fresh Control per event)."""
    lines = path.open(encoding="utf-8").readlines()[:count]
    start = time.perf_counter()
    for line in lines:
        evaluate(parse_events(json.loads(line), "x"), ordinances)
    return count / (time.perf_counter() - start)


def _ground_and_solve(facts_file: str) -> int:
    """One chunk's facts grounded and solved with every encoding; the shown atoms counted, not read."""
    import clingo

    from reasoner.program import CLINGO_OPTIONS, program_text

    control = clingo.Control(CLINGO_OPTIONS)
    control.add("base", [], program_text(encoded_ordinances()))
    control.add("base", [], Path(facts_file).read_text(encoding="utf-8"))
    control.ground([("base", [])])
    with control.solve(yield_=True) as handle:
        return sum(len(model.symbols(shown=True)) for model in handle)


def solver_ceiling(path: Path, work: Path, chunk_size: int, workers: int = 2) -> float:
    """events/s of clingo alone: facts built beforehand, then only parsing, grounding and solving, in
    `workers` processes. No Python work per event at all, so no batch design can beat this figure."""
    import multiprocessing

    from reasoner.atoms import facts_program

    lines = path.read_text(encoding="utf-8").splitlines()
    files = []
    for index in range(0, len(lines), chunk_size):
        events = [event for line in lines[index:index + chunk_size] for event in parse_events(json.loads(line), "x")]
        target = work / f"facts-{index // chunk_size}.lp"
        target.write_text(facts_program(sorted(events, key=batch._likeness)), encoding="utf-8")
        files.append(str(target))
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        pool.map(_ground_and_solve, files[:workers])  # start-up and imports out of the timing
        start = time.perf_counter()
        pool.map(_ground_and_solve, files, chunksize=1)
        seconds = time.perf_counter() - start
    for name in files:
        os.unlink(name)
    return len(lines) / seconds


def batch_run(path: Path, out: Path, ordinances: tuple[str, ...], workers: int, chunk_size: int) -> batch.BatchSummary:
    start = time.perf_counter()
    # restart: a benchmark killed before leaves its .part behind
    summary = batch.run(batch.BatchOptions(str(path), str(out), ordinances, workers=workers, chunk_size=chunk_size,
                                           restart=True))
    summary.seconds = time.perf_counter() - start  # the whole run: pool start-up included
    out.unlink()
    return summary


def tree_pss(root: int) -> int:
    """Sum of the proportional set sizes (bytes) of a process and all its descendants."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                parent = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry))
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        todo.extend(children.get(pid, []))
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            pass
    return total


def measured_command(command: list[str]) -> tuple[float, int, int, str]:
    """Seconds, peak summed PSS, /usr/bin/time's max RSS (bytes), stderr of a command."""
    timed = ["/usr/bin/time", "-v", *command] if Path("/usr/bin/time").exists() else command
    start = time.perf_counter()
    process = subprocess.Popen(timed, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    peak = [0]

    def sample() -> None:
        while process.poll() is None:
            peak[0] = max(peak[0], tree_pss(process.pid))
            time.sleep(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, err = process.communicate()
    seconds = time.perf_counter() - start
    sampler.join()
    found = re.search(r"Maximum resident set size \(kbytes\): (\d+)", err)
    return seconds, peak[0], int(found.group(1)) * 1024 if found else 0, err


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--naive", type=int, default=300, help="events for the naive baseline")
    parser.add_argument("--chunk-size", type=int, default=batch.DEFAULT_CHUNK_SIZE)
    parser.add_argument("--scale", default="", help="comma-separated sizes for the scaling runs, e.g. 10000,100000,1000000")
    parser.add_argument("--workdir", default=None, help="where the event files and outputs go (default: a temporary folder)")
    parser.add_argument("--skip-startup", action="store_true")
    args = parser.parse_args()
    ordinances = encoded_ordinances()
    work = Path(args.workdir or tempfile.mkdtemp(prefix="bench-batch-"))
    work.mkdir(parents=True, exist_ok=True)
    events = write_events(work / f"events-{args.events}.jsonl", args.events)
    naive_file = write_events(work / f"events-{args.naive}.jsonl", args.naive)
    print(f"{os.cpu_count()} CPUs; {len(ordinances)} ordinances ({', '.join(ordinances)}); medians of {args.repeat} runs")

    rows: dict[str, list[float]] = {}
    splits: dict[int, dict[str, float]] = {}
    for _ in range(args.repeat):
        rows.setdefault("naive, 1 process", []).append(naive_in_process(naive_file, args.naive, ordinances))
        summary = batch_run(naive_file, work / "naive.jsonl", ordinances, workers=2, chunk_size=1)
        rows.setdefault("naive, 2 workers (--chunk-size 1)", []).append(summary.events / summary.seconds)
        rows.setdefault("clingo alone (no Python per event), 2 processes", []).append(
            solver_ceiling(events, work, args.chunk_size))
        for workers in (1, 2):
            summary = batch_run(events, work / "out.jsonl", ordinances, workers=workers, chunk_size=args.chunk_size)
            rows.setdefault(f"batch, {workers} worker(s), {args.events:,} events", []).append(summary.events / summary.seconds)
            split = splits.setdefault(workers, {})
            for phase, seconds in summary.timings.items():
                split.setdefault(phase, []).append(seconds / summary.events * 1e6)
    print("\nthroughput (events/s, every ordinance, whole runs including start-up)")
    for label, values in rows.items():
        print(f"  {label:<45} {median(values):>9,.0f}   (runs: {', '.join(f'{v:,.0f}' for v in values)})")
    best = median(rows[f"batch, 2 worker(s), {args.events:,} events"])
    print(f"  batch 2 workers / naive 1 process: {best / median(rows['naive, 1 process']):.0f}x;"
          f" / naive 2 workers: {best / median(rows['naive, 2 workers (--chunk-size 1)']):.0f}x")
    print("\nwhere a worker's time goes (microseconds per event, median; summed over workers)")
    for workers, split in splits.items():
        cells = {phase: median(values) for phase, values in split.items()}
        total = sum(cells.values())
        print(f"  {workers} worker(s): " + ", ".join(f"{phase} {value:,.0f}" for phase, value in cells.items())
              + f"; total {total:,.0f} = {1e6 / total:,.0f} events/s per worker")

    if args.scale:
        print("\nscaling, 2 workers (events/s; peak memory: summed PSS of all processes / largest single RSS)")
        for size in (int(s) for s in args.scale.split(",")):
            source = write_events(work / f"events-{size}.jsonl", size)
            out = work / f"scale-{size}.jsonl"
            command = [sys.executable, "-m", "reasoner.cli", "batch", str(source), "--out", str(out),
                       "--workers", "2", "--chunk-size", str(args.chunk_size), "--no-progress"]
            seconds, pss, rss, err = measured_command(command)
            rate = re.search(r"([\d,]+) events/s", err)
            out.unlink(missing_ok=True)
            print(f"  {size:>9,} events: {size / seconds:>7,.0f} events/s whole process"
                  f" ({rate.group(1) if rate else '?'} as it reports), {seconds:,.0f} s;"
                  f" peak {pss / 2**20:,.0f} MiB PSS, {rss / 2**20:,.0f} MiB largest RSS")

    if not args.skip_startup:
        command = [sys.executable, "-m", "reasoner.cli", "evaluate", str(EXAMPLE), "--format", "json"]
        cold = []
        for _ in range(max(5, args.repeat)):
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            cold.append(time.perf_counter() - start)
        from reasoner.loading import load_events
        from reasoner.explain import explain

        [event] = load_events(EXAMPLE)
        explain(event, "trempealeau", "toilets")
        warm = []
        for _ in range(max(5, args.repeat)):
            start = time.perf_counter()
            explain(event, "trempealeau", "toilets")
            warm.append(time.perf_counter() - start)
        print("\nstart-up")
        print(f"  cold `reasoner evaluate --format json`, 1 event, all ordinances: {median(cold) * 1000:,.0f} ms")
        print(f"  explain one conclusion (toilets, trempealeau), encodings loaded: {median(warm) * 1000:,.1f} ms")
    print(f"\nfiles in {work}")


if __name__ == "__main__":
    main()
