"""Batch throughput on the two mixes a county sees, side by side with a baseline commit.

Usage:
  python benchmarks/bench_batch.py [--events 10000[,100000]] [--baseline main] [--repeat 3]
                                   [--mixes synthetic,regulated] [--naive 300] [--scale 10000,100000]
                                   [--workdir DIR] [--skip-startup]

Mixes: `synthetic`, a county's population of events (mostly small, a long tail of large ones, most not
regulated, about 100 conclusions an event over seven ordinances); `regulated`, a year of permit
applications (the bundled examples with a full application, varied in numbers, dates, kinds and sites:
regulated by several ordinances, about 500 conclusions an event), which is what a clerk runs.

Prints medians of --repeat runs (this machine is shared and noisy: compare rows of one run, not runs).
For each size of --events and each mix, in turns within each repeat, for the baseline (checked out in a
temporary worktree, run with PYTHONPATH pointing at it) and for this checkout, each in a process of its own:
  * clingo alone: each chunk's facts built beforehand, then only parsed, grounded and solved in 2
    processes, nothing read: the ceiling of any batch design with these encodings on this machine. The
    program is the one a worker solves (reasoner.program.Program), so both do the same work: before
    2026-11-30 the ceiling left out the ordinances' time zones and derived a third fewer atoms;
  * batch: the command, `reasoner batch --workers 2` (start-up included);
  * cpu: a worker's CPU time per event, in one process set up as a worker over the first 6,000 events
    (the first chunk left out): the load of the machine moves wall times by a factor of two, CPU times far
    less. One process that never recycles: its caches grow larger than a worker's;
  * phases (not by default): batch.run called in the measuring process, and the split of its workers' time
    between validating records, building facts, grounding (clingo parsing the facts included), solving,
    reading answer sets and writing rows, in microseconds per event.
Optionally:
  * naive (--naive N): conclusions.evaluate on one event at a time (a Control each), in this process; and
    the same through the batch machinery with --chunk-size 1 and 2 workers;
  * scale: 2 workers at each size of --scale, as a command, with peak memory: the sum of the proportional
    set sizes (PSS, shared pages divided among the processes sharing them) of the command and all its
    worker processes, sampled every 0.2 s, and /usr/bin/time's largest single-process RSS;
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

from timing import publish, table

import reasoner

# Which layout is imported is read from the package's folder, not from an ImportError: an editable install
# of the new layout would answer `import reasoner.law` even for an older --baseline on PYTHONPATH.
if (Path(reasoner.__file__).parent / "law").is_dir():
    import reasoner.batch.run as batch
    from reasoner.evaluate import evaluate
    from reasoner.events.loading import parse_events
    from reasoner.law.locator import encoded_ordinances
    from reasoner.law.vocabulary import vocabulary
else:  # a --baseline from before the package was grouped into folders (issue 31, cdc2a4d)
    from reasoner import batch  # type: ignore[no-redef]
    from reasoner.conclusions import evaluate  # type: ignore[no-redef]
    from reasoner.loading import parse_events  # type: ignore[no-redef]
    from reasoner.vocabulary import encoded_ordinances, vocabulary  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "facts" / "events" / "harvest-music-festival.yaml"
COMMON_KINDS = ["festival", "concert", "fair", "race", "parade", "wedding", "rally", "auction", "picnic", "athletic_event"]


def synthetic_events(count: int, seed: int = 0, v: dict | None = None) -> Iterator[dict]:
    """Events like a county's applications: mostly small, a long tail of large ones; every field varied."""
    v = v or vocabulary()
    rng = random.Random(seed)
    names = {key: list(v[key]) for key in v}
    base = datetime(2027, 1, 1)
    for i in range(count):
        people = max(5, min(60_000, int(rng.lognormvariate(6.2, 1.4))))
        start = base + timedelta(days=rng.randrange(365), hours=rng.randrange(7, 21), minutes=rng.choice((0, 30)))
        end = start + timedelta(minutes=rng.choice((60, 180, 300, 480, 720, 900, 1440, 2220, 3000, 4200)))
        if end.month in (3, 11) and end.hour in (1, 2):  # clear of the nights the clocks change (02:30 never is)
            end = end.replace(hour=3, minute=0)
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


# The bundled examples that carry a full application: between them every encoded ordinance regulates them.
APPLICATION_EXAMPLES = ("harvest-music-festival", "compare-music-festival-camping", "compare-county-fair",
                        "fulton-summer-fest", "gem-emmett-rodeo-weekend", "three-day-county-fair",
                        "vermont-fun-run", "village-summer-festival")
REGULATED_SITES = ("open_land", "fairgrounds", "private_property", "park")


def _shift(value: str, days: int) -> str:
    """A date or local date-time of an event file, `days` later, written as it was."""
    if "T" in value:
        moment = datetime.fromisoformat(value) + timedelta(days=days)
        if moment.month in (3, 11) and moment.hour in (1, 2):  # clear of the nights the clocks change
            moment = moment.replace(hour=3, minute=0)
        return moment.isoformat(timespec="minutes")
    return (datetime.fromisoformat(value) + timedelta(days=days)).date().isoformat()


def regulated_events(count: int, seed: int = 0, v: dict | None = None) -> Iterator[dict]:
    """A year of permit applications: the bundled examples with a full application (one per ordinance and
    more), each copy varied in attendance, dates, kinds, site, application contents, insurance and
    provisions, with its own id. Every one is regulated by several ordinances and derives hundreds of
    conclusions, as a clerk's batch does."""
    import yaml

    v = v or vocabulary()
    rng = random.Random(seed)
    templates = []
    for name in APPLICATION_EXAMPLES:
        data = yaml.safe_load((ROOT / "facts" / "events" / f"{name}.yaml").read_text(encoding="utf-8"))
        templates.append(json.loads(json.dumps(data, default=str)))  # YAML dates as ISO text
    items = list(v["application_items"])
    for i in range(count):
        event = json.loads(json.dumps(rng.choice(templates)))
        event["id"] = f"app-{i:07d}"
        days = rng.randrange(-150, 300)
        scale = rng.uniform(1.0, 3.0)
        people = event["attendance"]
        for key in ("expected_max", "female", "male", "max_tickets", "total", "board_finding"):
            if isinstance(people.get(key), int):
                people[key] = int(people[key] * scale)
        schedule = event["schedule"]
        for key in ("start", "end"):
            if schedule.get(key):
                schedule[key] = _shift(schedule[key], days)
        if "end" in schedule and rng.random() < .3:
            schedule["end"] = _shift((datetime.fromisoformat(schedule["end"]) + timedelta(minutes=rng.choice((60, 120, 240))))
                                     .isoformat(timespec="minutes"), 0)
        daily = schedule.get("daily")
        if daily:
            daily["first_day"], daily["last_day"] = _shift(daily["first_day"], days), _shift(daily["last_day"], days)
            daily["close"] = rng.choice(("21:00", "22:30", "23:30", "00:30"))
        if rng.random() < .3:
            event["kinds"] = sorted(set(event["kinds"]) | {rng.choice(COMMON_KINDS)})
        if rng.random() < .3 and event["site"]["kind"] in REGULATED_SITES:
            event["site"]["kind"] = rng.choice(REGULATED_SITES)
        application = event.setdefault("application", {"filed": _shift(schedule.get("start") or daily["first_day"], -90)[:10],
                                                       "contents": []})
        application["filed"] = _shift(application["filed"], days + rng.randrange(-40, 30))
        application["contents"] = [c for c in items if (c in application["contents"] and rng.random() < .9)
                                   or rng.random() < .25]
        application["insurance"] = {"general_liability_aggregate_usd": rng.choice((500_000, 1_000_000, 2_000_000, 3_000_000)),
                                    "per_occurrence_bodily_injury_usd": rng.choice((300_000, 500_000, 1_000_000)),
                                    "workers_compensation": rng.random() < .7}
        if rng.random() < .5:
            application["fee_paid_usd"] = rng.choice((50, 100, 300, 500))
        provisions = event.get("provisions", {})
        event["provisions"] = {o: max(0, int(q * scale * rng.uniform(.5, 1.5))) for o, q in provisions.items()}
        for o in rng.sample(list(v["obligations"]), rng.randint(0, 3)):
            event["provisions"].setdefault(o, rng.randint(0, max(1, people["expected_max"] // 200)))
        yield event


MIXES = {"synthetic": synthetic_events, "regulated": regulated_events}


def write_events(path: Path, count: int, mix: str = "synthetic", v: dict | None = None) -> Path:
    if not path.exists() or sum(1 for _ in path.open("rb")) != count:
        with path.open("w", encoding="utf-8") as handle:
            for event in MIXES[mix](count, v=v):
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
    """One chunk's facts grounded and solved as a batch worker's solver call does it (reasoner.program.Program:
    the encodings with the facts every evaluation adds, such as the ordinances' time zones), in one call; the
    shown atoms counted, not read."""
    from reasoner.program import Program

    program = Program(encoded_ordinances()).add(Path(facts_file).read_text(encoding="utf-8")).ground()
    with program.control.solve(yield_=True) as handle:
        return sum(len(model.symbols(shown=True)) for model in handle)


def solver_ceiling(path: Path, work: Path, chunk_size: int, workers: int = 2) -> float:
    """events/s of clingo alone: facts built beforehand, then only parsing, grounding and solving, in
    `workers` processes. No Python work per event at all, so no batch design can beat this figure."""
    import multiprocessing

    from reasoner.events.atoms import facts_program

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


def measure(kind: str, path: Path, work: Path, chunk_size: int) -> dict:
    """One measurement of the reasoner this process imports (the checkout on PYTHONPATH): `batch`, the
    `reasoner batch` machinery with 2 workers; `ceiling`, clingo alone on the same events."""
    if kind == "ceiling":
        return {"events_per_s": solver_ceiling(path, work, chunk_size)}
    if kind == "cpu":
        return {"us": worker_cpu(path, chunk_size)}
    if kind == "batch":
        return {"events_per_s": command_rate(path, work, chunk_size)}
    summary = batch_run(path, work / f"out-{os.getpid()}.jsonl", encoded_ordinances(), workers=2, chunk_size=chunk_size)
    return {"events_per_s": summary.events / summary.seconds,
            "us": {phase: seconds / summary.events * 1e6 for phase, seconds in summary.timings.items()}}


def command_rate(path: Path, work: Path, chunk_size: int) -> float:
    """events/s of the command a user runs, `reasoner batch --workers 2` (start-up included), with the reasoner
    this process imports. Not batch.run called from here: the command's processes hold other modules (its
    worker processes import reasoner.cli as their main module), and once ran 8% slower than batch.run did."""
    out = work / f"out-{os.getpid()}.jsonl"
    command = [sys.executable, "-m", "reasoner.cli", "batch", str(path), "--out", str(out), "--workers", "2",
               "--chunk-size", str(chunk_size), "--no-progress", "--restart"]
    events = sum(1 for _ in path.open("rb"))
    start = time.perf_counter()
    # run from the work folder: `python -m` puts the working folder first on the path
    done = subprocess.run(command, cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          env={**os.environ, "PYTHONPATH": str(_reasoner_root())})
    seconds = time.perf_counter() - start
    if done.returncode:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
    out.unlink()
    return events / seconds


def _reasoner_root() -> Path:
    """The checkout whose reasoner this process imports (the baseline's, under measured_in)."""
    import reasoner

    return Path(reasoner.__file__).resolve().parent.parent


def worker_cpu(path: Path, chunk_size: int, count: int = 6000) -> dict[str, float]:
    """CPU microseconds per event of a worker's whole work (validate, facts, ground, solve, read, rows), in
    this one process, set up as a worker is, over the first `count` events, the first chunk left out (imports, cold caches): a
    figure the load of a shared machine barely moves, unlike wall time."""
    from reasoner.batch.files import Record

    lines = path.read_bytes().splitlines()[:count]
    ordinances = encoded_ordinances()
    batch._worker_start()  # as a worker process runs (its collector settings, say)
    spent = done = 0.0
    for index in range(0, len(lines), chunk_size):
        records = [Record(str(path), index + n + 1, line) for n, line in enumerate(lines[index:index + chunk_size])]
        start = time.process_time()
        batch.evaluate_chunk(batch.Chunk(ordinances, "jsonl", None, records, "jsonl", None))
        if index:
            spent += time.process_time() - start
            done += len(records)
    return {"cpu": spent / done * 1e6}


def measured_in(checkout: Path, kind: str, path: Path, work: Path, chunk_size: int) -> dict:
    """measure() run by the code of `checkout`, in a process of its own."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    command = [sys.executable, __file__, "--measure", kind, str(path), "--workdir", str(work),
               "--chunk-size", str(chunk_size)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"{' '.join(command)} (PYTHONPATH={checkout}) failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def baseline_checkout(revision: str, work: Path) -> Path:
    """A detached worktree of `revision` in `work`, removed when this process ends."""
    import atexit

    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", revision], capture_output=True, text=True,
                            check=True).stdout.strip()
    target = work / f"baseline-{commit[:12]}"
    if not target.exists():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(target), commit],
                       check=True, capture_output=True)
        atexit.register(subprocess.run, ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(target)],
                        capture_output=True, check=False)
    return target


def shared_vocabulary(checkout: Path) -> dict:
    """The names this checkout's vocabulary and `checkout`'s both know, so that an older baseline refuses none
    of the generated events (a flag added since would fail every record that draws it)."""
    module = "reasoner.law.vocabulary" if (checkout / "reasoner" / "law").is_dir() else "reasoner.vocabulary"
    code = f"import json\nfrom {module} import vocabulary\nprint(json.dumps({{k: list(v) for k, v in vocabulary().items()}}))"
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(checkout)},
                          cwd=checkout, capture_output=True, text=True, check=True)  # -c puts the cwd first
    theirs = json.loads(done.stdout)
    return {key: [name for name in names if name in theirs.get(key, ())] for key, names in vocabulary().items()}


def side_by_side(args: argparse.Namespace, work: Path) -> list[tuple]:
    """Both mixes, baseline and this checkout in turns, clingo alone beside each: medians of --repeat.
    Returns the rows of the figures table: mix, events, side, clingo alone, batch, share, CPU per event."""
    table_rows: list[tuple] = []
    sides = {"new": ROOT}
    shared, suffix = None, ""
    if args.baseline:
        sides = {f"baseline {args.baseline}": baseline_checkout(args.baseline, work), "new": ROOT}
        shared, suffix = shared_vocabulary(sides[f"baseline {args.baseline}"]), "-shared"
    for size in (int(s) for s in args.events.split(",")):
        files = {mix: write_events(work / f"{mix}-{size}{suffix}.jsonl", size, mix, shared) for mix in args.mixes.split(",")}
        found: dict[tuple[str, str, str], list[dict]] = {}
        for _ in range(args.repeat):
            for mix, path in files.items():
                for side, checkout in sides.items():
                    for kind in args.kinds.split(","):
                        found.setdefault((mix, side, kind), []).append(measured_in(checkout, kind, path, work, args.chunk_size))
        for mix in files:
            print(f"\n{mix} mix, {size:,} events, all {len(encoded_ordinances())} ordinances"
                  f" (events/s, medians of {args.repeat}; runs in brackets)")
            rates = {}
            for side in sides:
                for kind, label in (("ceiling", "clingo alone, 2 processes"), ("batch", "batch, 2 workers")):
                    if (mix, side, kind) not in found:
                        continue
                    values = [r["events_per_s"] for r in found[(mix, side, kind)]]
                    rates[side, kind] = median(values)
                    print(f"  {side:<22} {label:<27} {median(values):>7,.0f}   ({', '.join(f'{v:,.0f}' for v in values)})")
                if (side, "batch") in rates and (side, "ceiling") in rates:
                    print(f"  {side:<22} {'batch / clingo alone':<27} {rates[side, 'batch'] / rates[side, 'ceiling']:>7.0%}")
                if (mix, side, "phases") in found:
                    phases = found[(mix, side, "phases")][0]["us"]
                    cells = {p: median([r["us"][p] for r in found[(mix, side, "phases")]]) for p in phases}
                    print(f"  {side:<22} {'us per event (workers)':<27} " + ", ".join(f"{p} {v:,.0f}" for p, v in cells.items())
                          + f"; total {sum(cells.values()):,.0f}")
                if (mix, side, "cpu") in found:
                    values = [r["us"]["cpu"] for r in found[(mix, side, "cpu")]]
                    rates[side, "cpu"] = median(values)
                    print(f"  {side:<22} {'CPU us per event, 1 process':<27} {median(values):>7,.0f}"
                          f"   ({', '.join(f'{v:,.0f}' for v in values)})")
                cell = {kind: rates.get((side, kind)) for kind in ("ceiling", "batch", "cpu")}
                table_rows.append((mix, f"{size:,}", side, *(f"{cell[k]:,.0f}" if cell[k] else "" for k in ("ceiling", "batch")),
                                   f"{cell['batch'] / cell['ceiling']:.0%}" if cell["batch"] and cell["ceiling"] else "",
                                   f"{cell['cpu']:,.0f}" if cell["cpu"] else ""))
            if len(sides) == 2:
                old, new = list(sides)
                ratios = [f"{label} x{rates[old, kind] / rates[new, kind] if kind == 'cpu' else rates[new, kind] / rates[old, kind]:.2f}"
                          for kind, label in (("batch", "batch"), ("ceiling", "clingo alone"), ("cpu", "events per CPU second"))
                          if (old, kind) in rates and (new, kind) in rates]
                print("  new / baseline: " + ", ".join(ratios))
    return table_rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", default="10000", help="comma-separated sizes, e.g. 10000,100000")
    parser.add_argument("--mixes", default="synthetic,regulated")
    parser.add_argument("--baseline", default=None, help="a git revision measured side by side (e.g. main)")
    parser.add_argument("--kinds", default="ceiling,batch,cpu",
                        help="what is measured per mix and side: ceiling (clingo alone), batch (the command), cpu (a "
                             "worker's CPU per event), phases (batch.run in this process: the workers' time by phase)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--naive", type=int, default=0, help="events for the naive baseline (0: not run)")
    parser.add_argument("--chunk-size", type=int, default=batch.DEFAULT_CHUNK_SIZE)
    parser.add_argument("--scale", default="", help="comma-separated sizes for the scaling runs, e.g. 10000,100000,1000000")
    parser.add_argument("--workdir", default=None, help="where the event files and outputs go (default: a temporary folder)")
    parser.add_argument("--skip-startup", action="store_true")
    parser.add_argument("--measure", nargs=2, metavar=("KIND", "FILE"), help=argparse.SUPPRESS)
    parser.add_argument("--publish", action="store_true", help="Write the figures into docs/performance.md.")
    args = parser.parse_args()
    work = Path(args.workdir or tempfile.mkdtemp(prefix="bench-batch-"))
    work.mkdir(parents=True, exist_ok=True)
    if args.measure:
        print(json.dumps(measure(args.measure[0], Path(args.measure[1]), work, args.chunk_size)))
        return
    ordinances = encoded_ordinances()
    print(f"{os.cpu_count()} CPUs; {len(ordinances)} ordinances ({', '.join(ordinances)}); medians of {args.repeat} runs")
    rows = side_by_side(args, work)
    scaled: list[tuple] = []

    if args.naive:
        naive_file = write_events(work / f"synthetic-{args.naive}.jsonl", args.naive)
        naive: dict[str, list[float]] = {}
        for _ in range(args.repeat):
            naive.setdefault("naive, 1 process", []).append(naive_in_process(naive_file, args.naive, ordinances))
            summary = batch_run(naive_file, work / "naive.jsonl", ordinances, workers=2, chunk_size=1)
            naive.setdefault("naive, 2 workers (--chunk-size 1)", []).append(summary.events / summary.seconds)
        print("\nnaive (synthetic mix, events/s): a fresh Control per event")
        for label, values in naive.items():
            print(f"  {label:<45} {median(values):>9,.0f}   (runs: {', '.join(f'{v:,.0f}' for v in values)})")

    if args.scale:
        print("\nscaling, 2 workers, as a command (events/s; peak memory: summed PSS of all processes / largest single RSS)")
        for mix in args.mixes.split(","):
            for size in (int(s) for s in args.scale.split(",")):
                source = write_events(work / f"{mix}-{size}.jsonl", size, mix)
                out = work / f"scale-{size}.jsonl"
                command = [sys.executable, "-m", "reasoner.cli", "batch", str(source), "--out", str(out),
                           "--workers", "2", "--chunk-size", str(args.chunk_size), "--no-progress"]
                seconds, pss, rss, err = measured_command(command)
                rate = re.search(r"([\d,]+) events/s", err)
                out.unlink(missing_ok=True)
                print(f"  {mix:<10} {size:>9,} events: {size / seconds:>7,.0f} events/s whole process"
                      f" ({rate.group(1) if rate else '?'} as it reports), {seconds:,.0f} s;"
                      f" peak {pss / 2**20:,.0f} MiB PSS, {rss / 2**20:,.0f} MiB largest RSS")
                scaled.append((mix, f"{size:,}", f"{size / seconds:,.0f}", f"{seconds:,.0f} s", f"{pss / 2**20:,.0f} MiB"))

    if not args.skip_startup:
        command = [sys.executable, "-m", "reasoner.cli", "evaluate", str(EXAMPLE), "--format", "json"]
        cold = []
        for _ in range(max(5, args.repeat)):
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            cold.append(time.perf_counter() - start)
        from reasoner.events.loading import load_events
        from reasoner.modes.explain import explain

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
    if args.publish:
        markdown = table(("mix", "events", "code", "clingo alone, events/s", "batch, 2 workers, events/s",
                          "batch / clingo alone", "a worker's CPU µs per event"), rows, "lrlrrrr")
        if scaled:
            markdown += "\n\nAs a command (`reasoner batch --workers 2`), with peak memory (summed PSS of all its processes):\n\n" \
                        + table(("mix", "events", "events/s", "wall", "peak memory"), scaled, "lrrrr")
        command = " ".join(["python", "benchmarks/bench_batch.py", *_shown_arguments(sys.argv[1:])])
        publish("batch", markdown, command)


def _shown_arguments(arguments: list[str]) -> list[str]:
    """The command line as docs/performance.md states it: without --publish, and without --workdir (a folder of this machine's
    that changes no figure)."""
    shown, skip = [], False
    for argument in arguments:
        if skip or argument == "--publish" or argument.startswith("--workdir="):
            skip = False
            continue
        if argument == "--workdir":
            skip = True
            continue
        shown.append(argument)
    return shown


if __name__ == "__main__":
    main()
