"""The README's examples are what the commands print: each line shown under a `$ reasoner ...` command (box
drawing and line wrapping aside; lines with "..." stand for left-out rows) appears in the command's output."""
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
BLOCK = re.compile(r"```\n\$ (reasoner [^\n]+)\n(.*?)```", re.DOTALL)
DRAWING = str.maketrans("", "", "│├└─╭╮╰╯┏┓┗┛┃━┡┩╇┳┻╋┼┬┴┤┌┐┘")


def flat(text: str) -> str:
    return " ".join(text.translate(DRAWING).split())


def examples() -> list[tuple[str, str]]:
    found = [(command, shown) for command, shown in BLOCK.findall((ROOT / "README.md").read_text(encoding="utf-8"))
             if shown.strip() and not shown.startswith("$ ")]  # a block of commands only shows no output
    assert len(found) >= 4
    return found


@pytest.mark.parametrize("command, shown", examples(), ids=lambda v: v.split()[1] if v.startswith("reasoner") else "")
def test_a_readme_example_is_what_the_command_prints(command, shown, monkeypatch):
    monkeypatch.chdir(ROOT)
    args = shlex.split(command.split("#")[0])[1:]
    result = CliRunner().invoke(main, args, env={"COLUMNS": "80"})
    assert result.exit_code in (0, 1), result.output
    printed = flat(result.output)
    for line in shown.splitlines():
        if "..." in line or "…" in line or not flat(line):
            continue
        assert flat(line) in printed, f"README shows {line.strip()!r}; `{command}` prints:\n{result.output}"


FIGURES = re.compile(r"<!-- figures: (\S+) -->\n(.*?)<!-- /figures: \1 -->", re.S)


def test_every_figure_in_the_readme_was_written_by_a_benchmark_script():
    """A figures block is written by the script it names (`--readme`), never by hand: each block names its
    command, the commit and the machine's load, and holds a table."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = FIGURES.findall(text)
    assert len(blocks) == text.count("<!-- figures: "), "a figures block is not closed"
    assert {name for name, _ in blocks} >= {"web", "unknowns", "batch", "cold", "evaluate"}
    for name, body in blocks:
        command = re.match(r"`python (benchmarks/\w+\.py)[^`]*` \(measured \d{4}-\d\d-\d\d at commit \w+", body)
        assert command, f"figures block {name} does not start with the command and conditions that produced it"
        assert f'publish("{name}"' in (ROOT / command.group(1)).read_text(encoding="utf-8"), \
            f"{command.group(1)} does not write the figures block {name}"
        assert re.search(r"^\| .* \|$", body, re.M), f"figures block {name} holds no table"


@pytest.mark.parametrize("script", sorted(p.name for p in (ROOT / "benchmarks").glob("*.py")))
def test_every_benchmark_script_imports(script):
    # the scripts that write the README's figures run outside the suite: an import they lost shows here
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
    from reasoner.atoms import facts_program
    from reasoner.loading import load_events
    from reasoner.program import solve
    from reasoner.vocabulary import encoded_ordinances

    events = load_events(ROOT / "facts" / "events" / "harvest-music-festival.yaml")
    facts = tmp_path / "facts.lp"
    facts.write_text(facts_program(events), encoding="utf-8")
    assert bench_batch._ground_and_solve(str(facts)) == len(solve(events, encoded_ordinances())) > 0
