"""Cold start, side by side: `python -c "import clingo"` (the floor), `reasoner --help`, and a cold
`reasoner evaluate FILE --format json`, for this checkout and, with --baseline REV, for an earlier commit.
Prints medians of --repeat runs, interleaved so that the machine's noise falls on every variant alike.

    python benchmarks/bench_cold.py --repeat 9 --baseline HEAD~1 [--publish]

Each variant runs as `python -m reasoner.cli` from a copy of its checkout's `reasoner/` and `encodings/` in a
temporary folder (so both sides run from the same kind of place): once with the bytecode compiled beforehand,
as a wheel installs it or as any second run finds it, and once from source only (an editable install under
PYTHONDONTWRITEBYTECODE, where Python compiles every module on every start). The first run of each fills the
operating system's file cache and the reasoner's data cache (reasoner/law/datacache.py), as any earlier run would.

Wall time is what a person waits; CPU time (user + system of the process) is what the process itself did, and
varies less on a shared machine. The last column compares each run with the same run of the baseline.
--publish writes the table into docs/performance.md's block `cold`.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from timing import publish, table

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "facts" / "events" / "harvest-music-festival.yaml"
FLOOR = "import clingo (floor)"


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: list[str], folder: Path, env: dict[str, str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one run; `python -m` puts the working folder first on the path, so the reasoner
    imported is the copy in `folder`."""
    cpu, start = _child_cpu(), time.perf_counter()
    subprocess.run(command, env=env, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start, _child_cpu() - cpu


def copy_of(checkout: Path, target: Path, compiled: bool) -> Path:
    """The package and its encodings, without bytecode, or with all of it compiled now."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for part in ("reasoner", "encodings"):
        shutil.copytree(checkout / part, target / part, ignore=ignore)
    if compiled:
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(target / "reasoner")], check=True,
                       stdout=subprocess.DEVNULL)
    return target


def variants(label: str, checkout: Path, scratch: Path, env: dict[str, str]) -> dict[str, tuple[list[str], Path, dict]]:
    compiled = copy_of(checkout, scratch / f"{label}-compiled", compiled=True)
    source = copy_of(checkout, scratch / f"{label}-source", compiled=False)
    plain = {**env, "PYTHONDONTWRITEBYTECODE": "1"}   # the copy without bytecode stays without
    cli = [sys.executable, "-m", "reasoner.cli"]
    evaluate = [*cli, "evaluate", str(EXAMPLE), "--format", "json"]
    return {
        f"{label}: reasoner --help": ([*cli, "--help"], compiled, plain),
        f"{label}: evaluate --format json": (evaluate, compiled, plain),
        f"{label}: evaluate --format json, no bytecode": (evaluate, source, plain),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--baseline", metavar="REV", help="an earlier commit to run beside this checkout")
    parser.add_argument("--publish", action="store_true", help="Write the figures into docs/performance.md.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        scratch = Path(name)
        env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
        env["REASONER_CACHE"] = str(scratch / "data-cache")   # filled by the first run, gone afterwards
        runs: dict[str, tuple[list[str], Path, dict]] = {FLOOR: ([sys.executable, "-c", "import clingo"], scratch, env)}
        runs.update(variants("this checkout", ROOT, scratch, env))
        if args.baseline:
            checkout = scratch / "baseline-worktree"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(checkout), args.baseline],
                           check=True, capture_output=True)
            try:
                runs.update(variants(args.baseline, checkout, scratch, env))
            finally:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(checkout)],
                               capture_output=True)
        for command, folder, variant_env in runs.values():   # file cache, data cache
            timed(command, folder, variant_env)
        wall: dict[str, list[float]] = {name: [] for name in runs}
        cpu: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(args.repeat):
            for name, (command, folder, variant_env) in runs.items():
                seconds, used = timed(command, folder, variant_env)
                wall[name].append(seconds)
                cpu[name].append(used)
    command = " ".join(["python", "benchmarks/bench_cold.py", *(a for a in sys.argv[1:] if a != "--publish")])
    floor = statistics.median(wall[FLOOR])
    rows = []
    for name in runs:
        median, used = statistics.median(wall[name]), statistics.median(cpu[name])
        versus = ""
        if args.baseline and name.startswith("this checkout: "):
            before = name.replace("this checkout", args.baseline, 1)
            versus = (f"{median / statistics.median(wall[before]):.0%}, "
                      f"{used / statistics.median(cpu[before]):.0%}")
        rows.append((name, f"{median * 1000:.0f}", f"{min(wall[name]) * 1000:.0f}", f"{used * 1000:.0f}",
                     f"{median / floor:.1f}", versus))
    markdown = table(("run", "wall ms, median", "wall ms, min", "CPU ms, median", "wall x floor",
                      "wall, CPU vs baseline"), rows)
    print(f"`{command}`: cold start, {args.repeat} runs of each, interleaved; `{EXAMPLE.relative_to(ROOT)}` under "
          "every ordinance.\n")
    print(markdown)
    if args.publish:
        publish("cold", markdown, command)

if __name__ == "__main__":
    main()
