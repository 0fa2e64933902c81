"""--time-limit on every command that solves (issue 33, item 13): past it, no answer, exit 3 and one line; in a
batch, the record is an error row that says so, and no other record is lost."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from reasoner.cli import main

EVENT = "facts/events/harvest-music-festival.yaml"
PASSED = "no answer within the time limit of 1e-06 s"

COMMANDS = {
    "explain": ["explain", EVENT, "toilets", "-o", "trempealeau"],
    "readings": ["readings", EVENT, "-o", "fulton"],
    "questions": ["questions", EVENT, "-o", "trempealeau"],
    "whatif": ["whatif", EVENT, "-o", "trempealeau", "--flip", "permit_required"],
    "compare": ["compare", EVENT, "-o", "trempealeau", "-o", "gem"],
    "sweep": ["sweep", EVENT, "--vary", "attendance=100..20000", "-o", "gem"],
    "check": ["check", "-o", "gem"],
    "coverage": ["coverage", "tests/scenarios", "-o", "gem"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_passed_time_limit_gives_no_answer_exit_3_and_one_line(command):
    result = CliRunner().invoke(main, [*COMMANDS[command], "--time-limit", "0.000001"])
    assert result.exit_code == 3, result.output
    assert result.stdout == ""
    [line] = result.stderr.splitlines()
    assert PASSED in line and "Traceback" not in result.output


def test_report_past_its_time_limit_writes_no_page(tmp_path):
    out = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["report", EVENT, "-o", "gem", "--out", str(out), "--time-limit", "0.000001"])
    assert result.exit_code == 3, result.output
    assert PASSED in result.stderr and not out.exists()


@pytest.mark.parametrize("command", ["explain", "whatif"])
def test_an_ample_time_limit_changes_nothing(command):
    given = COMMANDS[command] + ["--format", "json"]
    plain = CliRunner().invoke(main, given)
    limited = CliRunner().invoke(main, [*given, "--time-limit", "600"])
    assert plain.exit_code == limited.exit_code == 0, limited.output
    assert limited.stdout == plain.stdout and json.loads(plain.stdout)


@pytest.fixture()
def applications(tmp_path) -> Path:
    from test_batch import scenario_events

    path = tmp_path / "apps.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in scenario_events(3)[:12]), encoding="utf-8")
    return path


def _batch(source: Path, out: Path, *more: str):
    return CliRunner().invoke(main, ["batch", str(source), "--out", str(out), "--workers", "0", "-o", "gem",
                                     "--chunk-size", "5", *more])


def test_a_batch_record_past_its_time_limit_is_an_error_row_and_none_is_lost(applications, tmp_path):
    out = tmp_path / "out.jsonl"
    result = _batch(applications, out, "--time-limit", "0.000001")
    assert result.exit_code == 1, result.output
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    given = [json.loads(line)["id"] for line in applications.read_text(encoding="utf-8").splitlines()]
    assert [row["event"] for row in rows] == given
    assert all(PASSED in row["error"] for row in rows)


def test_a_batch_within_its_time_limit_writes_the_rows_it_writes_without(applications, tmp_path):
    plain, limited = tmp_path / "plain.jsonl", tmp_path / "limited.jsonl"
    assert _batch(applications, plain).exit_code == 0
    assert _batch(applications, limited, "--time-limit", "600").exit_code == 0
    assert limited.read_bytes() == plain.read_bytes()


def test_check_past_its_time_limit_while_grounding_is_no_verdict_not_a_defect(monkeypatch):
    from reasoner import program

    real = program.Program.ground

    def passed(self):   # the lint's own grounding (the only one given clingo's messages) outlives the limit
        if getattr(self, "_lint", False):
            raise program.SolveTimeout(600, "grounding")
        return real(self)

    start = program.Program.__init__

    def marked(self, *args, **kwargs):
        start(self, *args, **kwargs)
        self._lint = kwargs.get("logger") is not None

    monkeypatch.setattr(program.Program, "__init__", marked)

    monkeypatch.setattr(program.Program, "ground", passed)
    result = CliRunner().invoke(main, ["check", "-o", "gem", "--time-limit", "600"])
    assert result.exit_code == 3, result.output
    assert "no answer within the time limit of 600 s" in result.stderr and "grounding failed" not in result.output
