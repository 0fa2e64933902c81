"""Cold start, side by side: `python -c "import clingo"` (the floor), `reasoner --help`, and a cold
`reasoner evaluate FILE --format json`, for this checkout and, with --baseline REV, for an earlier commit
checked out beside it (run with `python -m reasoner.cli` from that checkout). Prints medians of --repeat
runs, interleaved so that the machine's noise falls on every variant alike.

    python benchmarks/bench_cold.py --repeat 15 --baseline HEAD~1
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "facts" / "events" / "harvest-music-festival.yaml"


def timed(command: list[str], env: dict[str, str]) -> float:
    """Seconds for one run; `python -m` puts the working folder first on the path, so each variant runs
    from the checkout it measures (PYTHONPATH names it)."""
    start = time.perf_counter()
    subprocess.run(command, env=env, cwd=env.get("PYTHONPATH", str(ROOT)), stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=11)
    parser.add_argument("--baseline", metavar="REV", help="an earlier commit to run beside this checkout")
    args = parser.parse_args()
    env = dict(os.environ)
    variants: dict[str, tuple[list[str], dict[str, str]]] = {
        "import clingo (floor)": ([sys.executable, "-c", "import clingo"], env),
        "reasoner --help": ([sys.executable, "-m", "reasoner.cli", "--help"], {**env, "PYTHONPATH": str(ROOT)}),
        "reasoner evaluate --format json": ([sys.executable, "-m", "reasoner.cli", "evaluate", str(EXAMPLE),
                                             "--format", "json"], {**env, "PYTHONPATH": str(ROOT)}),
    }
    with tempfile.TemporaryDirectory() as folder:
        if args.baseline:
            checkout = Path(folder) / "baseline"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(checkout), args.baseline],
                           check=True, capture_output=True)
            old = {**env, "PYTHONPATH": str(checkout)}
            variants[f"{args.baseline}: reasoner --help"] = ([sys.executable, "-m", "reasoner.cli", "--help"], old)
            variants[f"{args.baseline}: reasoner evaluate --format json"] = (
                [sys.executable, "-m", "reasoner.cli", "evaluate", str(EXAMPLE), "--format", "json"], old)
        try:
            for command, variant_env in variants.values():   # warm the file cache and compile bytecode
                timed(command, variant_env)
            samples: dict[str, list[float]] = {name: [] for name in variants}
            for _ in range(args.repeat):
                for name, (command, variant_env) in variants.items():
                    samples[name].append(timed(command, variant_env))
        finally:
            if args.baseline:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(checkout)],
                               capture_output=True)
    floor = statistics.median(samples["import clingo (floor)"])
    print(f"{'run':<48} {'median ms':>10} {'min ms':>8} {'x floor':>8}")
    for name, values in samples.items():
        median = statistics.median(values)
        print(f"{name:<48} {median * 1000:>10.0f} {min(values) * 1000:>8.0f} {median / floor:>8.1f}")


if __name__ == "__main__":
    main()
