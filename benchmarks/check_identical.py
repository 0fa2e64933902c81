"""Rows byte-identical to another commit: the batch output of both benchmark mixes, the batch output of
every scenario event, and `evaluate --format json` of every scenario event under its own ordinance.

Usage:
  python benchmarks/check_identical.py [--baseline main] [--events 10000] [--workdir DIR]

The baseline is checked out in a temporary worktree and run by the same interpreter with PYTHONPATH
pointing at it; this checkout is run the same way. Prints one line per comparison and exits 1 on any
difference (with the first differing line), 0 when everything is identical.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_batch import ROOT, baseline_checkout, write_events  # noqa: E402

from reasoner.quality.coverage import scenario_cases  # noqa: E402


def reasoner_command(checkout: Path, arguments: list[str], out: Path) -> bytes:
    """`reasoner ARGUMENTS` run by the code of `checkout`; what it wrote to `out` (or printed)."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    # Run from outside every checkout: `python -m` puts the current directory ahead of PYTHONPATH, so run
    # from a checkout's root both sides would import that checkout and the comparison would prove nothing.
    done = subprocess.run([sys.executable, "-m", "reasoner.cli", *arguments], env=env, capture_output=True,
                          check=False, cwd=tempfile.gettempdir())
    if done.returncode not in (0, 1):  # 1: some records failed, which the rows then say
        raise SystemExit(f"reasoner {' '.join(arguments)} (PYTHONPATH={checkout}) exit {done.returncode}:\n"
                         f"{done.stderr.decode(errors='replace')}")
    return out.read_bytes() if out.name else done.stdout


def compare(label: str, old: bytes, new: bytes) -> bool:
    if old == new:
        print(f"  identical  {label}: {len(new.splitlines()):,} lines, {len(new):,} bytes")
        return True
    old_lines, new_lines = old.splitlines(), new.splitlines()
    first = next((i for i, (a, b) in enumerate(zip(old_lines, new_lines)) if a != b), min(len(old_lines), len(new_lines)))
    differing = sum(a != b for a, b in zip(old_lines, new_lines)) + abs(len(old_lines) - len(new_lines))
    print(f"  DIFFERENT  {label}: {differing:,} of {len(old_lines):,} lines; first at line {first + 1}:\n"
          f"    baseline: {old_lines[first][:300] if first < len(old_lines) else '(none)'}\n"
          f"    new:      {new_lines[first][:300] if first < len(new_lines) else '(none)'}")
    return False


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--baseline", default="main")
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--workdir", default=None)
    args = parser.parse_args()
    work = Path(args.workdir or tempfile.mkdtemp(prefix="check-identical-")).resolve()
    work.mkdir(parents=True, exist_ok=True)
    sides = {"baseline": baseline_checkout(args.baseline, work), "new": ROOT}
    print(f"baseline {args.baseline} ({sides['baseline']}) against this checkout ({ROOT})")
    for side, checkout in sides.items():  # each side must run its own code, or "identical" is vacuous
        where = subprocess.run([sys.executable, "-c", "import reasoner; print(reasoner.__file__)"], check=True,
                               env={**os.environ, "PYTHONPATH": str(checkout)}, capture_output=True, text=True,
                               cwd=tempfile.gettempdir()).stdout.strip()
        if not Path(where).resolve().is_relative_to(Path(checkout).resolve()):
            raise SystemExit(f"the {side} side imports {where}, not its checkout {checkout}")

    inputs = {mix: write_events(work / f"{mix}-{args.events}.jsonl", args.events, mix) for mix in ("synthetic", "regulated")}
    cases = scenario_cases(ROOT / "tests" / "scenarios")
    scenarios = work / "scenarios.jsonl"
    by_ordinance: dict[str, list[dict]] = {}
    with scenarios.open("w", encoding="utf-8") as handle:
        for number, case in enumerate(cases):
            record = {**case.record, "id": f"{Path(case.file).stem}-{number:04d}"}
            handle.write(json.dumps(record, default=str) + "\n")
            by_ordinance.setdefault(case.ordinance, []).append(record)
    inputs["scenario events"] = scenarios

    same = True
    for label, path in inputs.items():
        for chunk_size in ("1000", "7"):  # chunks of the default size, and many small ones
            rows = {}
            for side, checkout in sides.items():
                out = work / f"{side}-{path.stem}.jsonl"
                rows[side] = reasoner_command(checkout, ["batch", str(path), "--out", str(out), "--workers", "2",
                                                         "--chunk-size", chunk_size, "--no-progress", "--restart"], out)
            same &= compare(f"batch, {label}, --chunk-size {chunk_size}", rows["baseline"], rows["new"])
    for ordinance, records in by_ordinance.items():
        events = work / f"scenarios-{ordinance}.json"
        events.write_text(json.dumps({"events": records}, default=str), encoding="utf-8")
        printed = {side: reasoner_command(checkout, ["evaluate", str(events), "-o", ordinance, "--format", "json"], Path())
                   for side, checkout in sides.items()}
        same &= compare(f"evaluate --format json, {len(records)} scenario events of {ordinance}",
                        printed["baseline"], printed["new"])
    print("all identical" if same else "DIFFERENCES FOUND")
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
