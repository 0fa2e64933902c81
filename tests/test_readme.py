"""The documentation's examples are what the commands print: on every page (README.md and docs/*.md), each line
shown under a `$ reasoner ...` command (box drawing and line wrapping aside; lines with "..." stand for left-out rows)
appears in the command's output."""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from reasoner.cli import main

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"```\n\$ (reasoner [^\n]+)\n(.*?)```", re.DOTALL)
DRAWING = str.maketrans("", "", "│├└─╭╮╰╯┏┓┗┛┃━┡┩╇┳┻╋┼┬┴┤┌┐┘")


def flat(text: str) -> str:
    return " ".join(text.translate(DRAWING).split())


def examples() -> list[tuple[str, str, str]]:
    found = [(page.relative_to(ROOT).as_posix(), command, shown) for page in PAGES
             for command, shown in BLOCK.findall(page.read_text(encoding="utf-8"))
             if shown.strip() and not shown.startswith("$ ")]  # a block of commands only shows no output
    assert sum(page == "README.md" for page, _, _ in found) >= 2
    assert len({page for page, _, _ in found}) >= 4, "the examples of the docs/ pages are not found"
    return found


def _example_id(page: str, command: str) -> str:
    return f"{Path(page).stem}:{command.split()[1]}"


@pytest.mark.parametrize("page, command, shown", examples(),
                         ids=[_example_id(page, command) for page, command, _ in examples()])
def test_an_example_is_what_the_command_prints(page, command, shown, monkeypatch):
    monkeypatch.chdir(ROOT)
    args = shlex.split(command.split("#")[0])[1:]
    result = CliRunner().invoke(main, args, env={"COLUMNS": "80"})
    assert result.exit_code in (0, 1), result.output
    printed = flat(result.output)
    for line in shown.splitlines():
        if "..." in line or "…" in line or not flat(line):
            continue
        assert flat(line) in printed, f"{page} shows {line.strip()!r}; `{command}` prints:\n{result.output}"


FIGURES = re.compile(r"<!-- figures: (\S+) -->\n(.*?)<!-- /figures: \1 -->", re.S)


def test_every_figure_was_written_by_a_benchmark_script_into_the_page_it_writes():
    """A figures block is written by the script it names (`--publish`), never by hand: each block names its
    command, the commit and the machine's load, and holds a table; and every block stands in the page
    benchmarks/timing.py writes them into, where the next run will find it."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import timing
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    assert timing.FIGURES_PAGE.parent == ROOT / "docs"
    elsewhere = [page.name for page in PAGES if page != timing.FIGURES_PAGE
                 and "<!-- figures: " in page.read_text(encoding="utf-8")]
    assert not elsewhere, f"figures blocks outside {timing.FIGURES_PAGE.name}, where no script writes them: {elsewhere}"
    text = timing.FIGURES_PAGE.read_text(encoding="utf-8")
    blocks = FIGURES.findall(text)
    assert len(blocks) == text.count("<!-- figures: "), "a figures block is not closed"
    assert {name for name, _ in blocks} >= {"web", "unknowns", "batch", "cold", "evaluate"}
    for name, body in blocks:
        command = re.match(r"`python (benchmarks/\w+\.py)[^`]*` \(measured \d{4}-\d\d-\d\d at commit \w+", body)
        assert command, f"figures block {name} does not start with the command and conditions that produced it"
        assert f'publish("{name}"' in (ROOT / command.group(1)).read_text(encoding="utf-8"), \
            f"{command.group(1)} does not write the figures block {name}"
        assert re.search(r"^\| .* \|$", body, re.M), f"figures block {name} holds no table"


def test_publishing_figures_rewrites_only_its_block(tmp_path):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import timing
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    page = tmp_path / "performance.md"
    page.write_text("# P\n\n<!-- figures: a -->\nold\n<!-- /figures: a -->\n\n<!-- figures: b -->\nkept\n<!-- /figures: b -->\n",
                    encoding="utf-8")
    timing.publish("a", timing.table(("run", "ms"), [("x", 1)]), "python benchmarks/x.py", page=page)
    text = page.read_text(encoding="utf-8")
    assert "old" not in text and "| x | 1 |" in text and "kept" in text
    assert re.search(r"<!-- figures: a -->\n`python benchmarks/x.py` \(measured ", text)


@pytest.mark.parametrize("script", sorted(p.name for p in (ROOT / "benchmarks").glob("*.py")))
def test_every_benchmark_script_imports(script):
    # the scripts that write the figures of docs/performance.md run outside the suite: an import they lost shows here
    done = subprocess.run([sys.executable, "-c", f"import {script.removesuffix('.py')}"], cwd=ROOT / "benchmarks",
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_batch_benchmarks_clingo_alone_derives_what_a_worker_derives(tmp_path):
    # "clingo alone" is the ceiling batch throughput is compared with: it must solve the very program a batch
    # worker solves (it once left out the ordinances' time zones and derived a third fewer atoms)
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import bench_batch
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    from reasoner.events.atoms import facts_program
    from reasoner.events.loading import load_events
    from reasoner.program import solve
    from reasoner.law.locator import encoded_ordinances

    events = load_events(ROOT / "facts" / "events" / "harvest-music-festival.yaml")
    facts = tmp_path / "facts.lp"
    facts.write_text(facts_program(events), encoding="utf-8")
    assert bench_batch._ground_and_solve(str(facts)) == len(solve(events, encoded_ordinances())) > 0
