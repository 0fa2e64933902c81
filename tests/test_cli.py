"""The command line, driven through click's CliRunner."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from reasoner.cli import main
from reasoner.events.model import Event

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = str(ROOT / "facts" / "events" / "harvest-music-festival.yaml")
BAD = Path(__file__).parent / "bad_events"


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_evaluate_prints_the_license_obligations_and_shortfalls():
    result = run("evaluate", EXAMPLE, "-o", "trempealeau")
    assert result.exit_code == 0
    out = result.output
    assert "LICENSE REQUIRED — 6.01(2)(a)" in out
    assert "SHORT by 2" in out and "toilets" in out
    assert "application filing: 2027-06-16" in out


def test_evaluate_json_has_the_documented_shape():
    result = run("evaluate", EXAMPLE, "-o", "trempealeau", "--format", "json")
    assert result.exit_code == 0
    [record] = json.loads(result.output)
    assert set(record) == {"event", "ordinance", "jurisdiction", "title", "status", "permit_required", "conclusions"}
    assert record["permit_required"] is True and record["status"] == "permit_required"
    for conclusion in record["conclusions"]:
        assert {"kind", "name", "value", "unit", "modality", "clauses"} <= set(conclusion)
        assert conclusion["clauses"]
    toilets = next(c for c in record["conclusions"] if c["kind"] == "obligation" and c["name"] == "toilets")
    assert (toilets["value"], toilets["unit"], toilets["modality"], toilets["clauses"]) == (12, "count", "shall", ["6.01(3)3"])


def test_the_same_input_gives_byte_identical_json():
    first = run("evaluate", EXAMPLE, "--format", "json").output
    assert first == run("evaluate", EXAMPLE, "--format", "json").output


def test_filed_option_checks_another_filing_date():
    result = run("evaluate", EXAMPLE, "-o", "trempealeau", "--filed", "2027-06-17", "--format", "json")
    [record] = json.loads(result.output)
    late = [c for c in record["conclusions"] if c["kind"] == "late"]
    assert late == [{"kind": "late", "name": "application_filing", "value": 1, "unit": "days", "modality": None,
                     "clauses": ["6.01(4)(a)"]}]


def test_without_ordinance_every_encoded_ordinance_is_evaluated():
    from reasoner.law.locator import encoded_ordinances

    records = json.loads(run("evaluate", EXAMPLE, "--format", "json").output)
    assert [r["ordinance"] for r in records] == list(encoded_ordinances())


@pytest.mark.parametrize("bad", ["wrong_type.yaml", "negative_attendance.yaml", "end_before_start.yaml",
                                 "unknown_field.yaml", "malformed.yaml", "empty.yaml"])
def test_a_bad_file_exits_2_with_a_message_and_no_traceback(bad):
    result = CliRunner().invoke(main, ["evaluate", str(BAD / bad)])
    assert result.exit_code == 2
    assert bad in result.output and "error:" in result.output
    assert "Traceback" not in result.output


def test_an_unknown_ordinance_exits_2():
    result = CliRunner().invoke(main, ["evaluate", EXAMPLE, "-o", "atlantis"])
    assert result.exit_code == 2 and "unknown ordinance 'atlantis'" in result.output


def test_explain_shows_the_arithmetic_and_the_clause_words():
    result = run("explain", EXAMPLE, "toilets", "-o", "trempealeau")
    assert result.exit_code == 0
    out = " ".join(result.output.translate(str.maketrans("", "", "│├└─")).split())
    assert "3,500 persons / 300 per toilet, rounded up = 12 toilets." in out
    assert "at the rate of at least one toilet for every 300 persons" in out
    assert "(numbering reconstructed)" in out


def test_explain_says_why_a_conclusion_does_not_hold():
    result = run("explain", EXAMPLE, "nurses", "-o", "trempealeau")
    assert result.exit_code == 0
    assert "3,500 is 1,500 short of 5,000" in result.output  # how far it misses (issue 32)


def test_explain_json_is_a_tree():
    reports = json.loads(run("explain", EXAMPLE, "bond_usd", "-o", "trempealeau", "--format", "json").output)
    [report] = reports
    assert report["holds"] is False
    attempt = report["why_not"][0]["attempts"][0]
    assert attempt["clause"] == "6.01(3)13" and attempt["failed_condition"] == "3,500 <= 5,000"


def test_clauses_lists_and_shows_the_registry():
    listing = run("clauses", "trempealeau")
    assert listing.exit_code == 0 and "6.01(3)13" in listing.output
    shown = run("clauses", "trempealeau", "6.01(3)5", "--format", "json")
    [data] = json.loads(shown.output)
    assert data["clauses"][0]["heading"] == "First aid, ambulance and nurses"
    assert CliRunner().invoke(main, ["clauses", "trempealeau", "9.99"]).exit_code == 2


def test_schema_is_the_event_models_json_schema():
    schema = json.loads(run("schema").output)
    assert schema == Event.model_json_schema()
    assert "expected_max" in schema["$defs"]["Attendance"]["properties"]


def test_every_command_has_help_text_and_an_example():
    for name, command in main.commands.items():
        assert command.help and "Example: reasoner" in command.help, name
        assert run(name, "--help").exit_code == 0


def test_the_ordinance_option_names_every_encoded_ordinance():
    from reasoner.law.locator import encoded_ordinances

    shown = " ".join(run("explain", "--help").output.split())  # the help wraps lines
    for name in encoded_ordinances():
        assert f"{name}," in shown or f"{name} or" in shown or f"or {name};" in shown, name


@pytest.mark.parametrize("path", sorted((ROOT / "facts" / "events").glob("*.yaml")), ids=lambda p: p.name)
def test_every_bundled_example_renders_as_text_under_every_ordinance(path):
    result = run("evaluate", str(path))
    assert result.exit_code == 0
    assert "REQUIRED" in result.output or "EXEMPT" in result.output


UNKNOWN_EVENT = str(ROOT / "facts" / "events" / "unknown-festival.yaml")


@pytest.mark.parametrize("args, words", [
    (("explain", EXAMPLE, "toilet", "-o", "trempealeau"), "no conclusion named 'toilet' in trempealeau; did you mean toilets"),
    (("whatif", EXAMPLE, "-o", "trempealeau", "--flip", "nosuch"), "no conclusion named 'nosuch'"),
    (("whatif", EXAMPLE, "-o", "trempealeau", "-o", "gem", "--flip", "permit_required"), "one ordinance at a time"),
    (("explain", UNKNOWN_EVENT, "toilet", "-o", "trempealeau"), "no conclusion named 'toilet'"),
    (("whatif", EXAMPLE, "-o", "trempealeau", "--flip", "permit_required", "--allow", "bogus"), "--allow bogus: no such group"),
    (("evaluate", EXAMPLE, "--time-limit", "nan"), "nan is not a number"),
    (("evaluate", EXAMPLE, "--time-limit", "inf"), "not in the range"),
    (("evaluate", EXAMPLE, "--time-limit", "2147484"), "not in the range"),
])
def test_a_question_that_cannot_be_answered_exits_2_and_says_why(args, words):
    """A typo in a conclusion's name must not read as "does not hold", with unknown facts or without."""
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert words in result.output and "Traceback" not in result.output


def test_a_conclusion_some_chosen_ordinance_has_is_explained_for_each():
    result = run("explain", EXAMPLE, "nurses", "-o", "trempealeau", "-o", "gem")
    assert result.exit_code == 0 and "no rule of this ordinance concludes 'nurses'" in result.output


def test_control_characters_from_a_file_never_reach_the_terminal():
    """An escape sequence in an id or a field name is shown as \\x1b, not sent to the terminal."""
    result = run("evaluate", str(BAD / "control_characters.json"))
    assert result.exit_code == 2
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert "\\x1b]0;PWN\\x07our" in result.output and "holds a control character" in result.output


def test_an_event_file_can_come_on_standard_input():
    text = Path(EXAMPLE).read_text(encoding="utf-8")
    result = CliRunner().invoke(main, ["evaluate", "-", "-o", "gem", "--format", "json"], input=text)
    assert result.exit_code == 0 and json.loads(result.output) == json.loads(run("evaluate", EXAMPLE, "-o", "gem", "--format", "json").output)


@pytest.mark.parametrize("args", [("compare", EXAMPLE, "--ordinances", ","), ("compare", EXAMPLE, "--kinds", " "),
                                  ("thresholds", "--ordinances", "")])
def test_an_empty_list_is_an_error_not_everything(args):
    result = run(*args)
    assert result.exit_code == 2 and "names no" in result.output


def test_standard_input_is_read_once_and_json_on_it_is_read_as_json():
    """compare reads its file twice over (--event); JSON escapes such as \\ud83d\\ude00 are JSON, not YAML."""
    text = json.dumps({"id": "smile😀", "attendance": {"expected_max": 3000},
                       "schedule": {"start": "2027-07-16T10:00", "end": "2027-07-17T23:00"}})
    assert "\\ud83d" in text
    result = CliRunner().invoke(main, ["evaluate", "-", "-o", "gem", "--format", "json"], input=text)
    assert result.exit_code == 0 and json.loads(result.output)[0]["event"] == "smile😀"
    fair = (ROOT / "facts" / "events" / "compare-county-fair.yaml").read_text(encoding="utf-8")
    result = CliRunner().invoke(main, ["compare", "-", "--event", "compare-county-fair-2027", "--format", "json"], input=fair)
    assert result.exit_code == 0, result.output


def test_a_cold_evaluate_of_known_facts_does_without_the_unknown_facts_machinery_and_pydantic(tmp_path):
    # what a cold `reasoner evaluate` imports is its start-up time (benchmarks/bench_cold.py); the first run fills
    # the data cache (the event plan of reasoner/events/plan.py among it), as any earlier run would
    code = ("import sys\nfrom reasoner.cli import main\ntry:\n    main(['evaluate', sys.argv[1], '--format', 'json'])\n"
            "except SystemExit:\n    pass\nprint(sorted(m for m in ('reasoner.unknowns', 'reasoner.law.registry', 'rich', 'pydantic')"
            " if m in sys.modules), file=sys.stderr)")
    environment = {**os.environ, "REASONER_CACHE": str(tmp_path)}
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", code, str(ROOT / "facts" / "events" / "harvest-music-festival.yaml")],
                              capture_output=True, text=True, check=True, env=environment)
    assert json.loads(done.stdout)[0]["event"] == "harvest-music-festival-2027"
    assert done.stderr.strip().splitlines()[-1] == "[]"
