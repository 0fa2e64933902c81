"""What the benchmark scripts share: the median timer, and writing their figures into the documentation.

Every figure the documentation quotes stands in a block of docs/performance.md that a benchmark script wrote,
between `<!-- figures: NAME -->` and `<!-- /figures: NAME -->`; `--publish` on that script writes it anew, with the
date, the commit and the machine's load, so no figure is ever copied by hand.
"""
from __future__ import annotations

import os
import re
import statistics
import subprocess
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIGURES_PAGE = ROOT / "docs" / "performance.md"


def median_ms(action, repeat: int) -> float:
    """Median wall time of `repeat` calls of `action`, in milliseconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def conditions() -> str:
    """When and where figures were measured: the date, the commit and the load of this shared machine."""
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or "unknown"
    load = os.getloadavg()[0]
    return f"measured {date.today().isoformat()} at commit {commit}, {os.cpu_count()} cores, load average {load:.1f}"


def table(header: tuple[str, ...], rows: list[tuple], align: str | None = None) -> str:
    """A markdown table; `align` has one letter per column, `l` or `r` (numbers right by default)."""
    align = align or "l" + "r" * (len(header) - 1)
    rule = ["---:" if a == "r" else "---" for a in align]
    lines = [header, rule, *rows]
    return "\n".join("| " + " | ".join(str(cell) for cell in line) + " |" for line in lines)


def publish(name: str, markdown: str, command: str, page: Path = FIGURES_PAGE) -> None:
    """Replace the page's figures block `name` by `markdown`, preceded by the command and the conditions."""
    start, end = f"<!-- figures: {name} -->", f"<!-- /figures: {name} -->"
    text = page.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.S)
    if not pattern.search(text):
        raise SystemExit(f"{page}: no block {start} ... {end} to write the figures into")
    block = f"{start}\n`{command}` ({conditions()}):\n\n{markdown.strip()}\n{end}"
    page.write_text(pattern.sub(lambda _: block, text, count=1), encoding="utf-8")
    print(f"wrote the figures into {page} ({name})")
