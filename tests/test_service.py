"""The service layer (reasoner/service.py) under both faces: each refusal is stated there once, the CLI prints
the service's words, and importing it costs a face nothing it does not use."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from reasoner import service
from reasoner.cli import main

ROOT = Path(__file__).resolve().parents[1]
HARVEST = str(ROOT / "facts" / "events" / "harvest-music-festival.yaml")
TWO = str(ROOT / "facts" / "events" / "vermont-barn-dance.yaml")  # two events


def test_importing_the_service_loads_neither_the_solver_nor_pydantic():
    code = ("import sys, reasoner.service; print(sorted(m for m in ('clingo', 'pydantic', 'rich') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("words", [r"has no clause \{", r"--history shows one clause", r"no such folder of scenario files",
                                   r"compares one ordinance with itself", r"needs at least two dates to compare",
                                   r"lists what changes between versions"])
def test_a_refusal_is_written_once_in_the_package(words):
    found = [(path.relative_to(ROOT).as_posix(), len(re.findall(words, path.read_text(encoding="utf-8"))))
             for path in sorted((ROOT / "reasoner").rglob("*.py"))]
    assert [path for path, count in found if count] == ["reasoner/service.py"], found


@pytest.mark.parametrize("arguments, call", [
    (["clauses", "trempealeau", "no-such"], lambda: service.clauses("trempealeau", "no-such")),
    (["explain", HARVEST, "no_such_thing", "-o", "trempealeau"],
     lambda: service.explain(service.Events(path=HARVEST, spelling=service.CLI), "no_such_thing", ["trempealeau"])),
    (["questions", TWO, "-o", "gem"], lambda: service.questions(service.Events(path=TWO, spelling=service.CLI), ["gem"])),
    (["evaluate", HARVEST, "-o", "nowhere"], lambda: service.evaluate(service.Events(path=HARVEST), ["nowhere"])),
], ids=["unregistered-clause", "unknown-conclusion", "several-events", "unknown-ordinance"])
def test_the_cli_says_what_the_service_refuses_and_exits_2(arguments, call):
    with pytest.raises(service.InputProblem) as refused:
        call()
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 2
    assert " ".join(result.output.split()) == " ".join(f"error: {refused.value.message}".split())


def test_a_face_names_the_field_its_own_way():
    web = service.Events(path=TWO)
    cli = service.Events(path=TWO, spelling=service.CLI)
    for events, how in ((web, "choose one with event_id"), (cli, "choose one with --event ID")):
        with pytest.raises(service.InputProblem, match=how):
            service.one(events)


def test_the_web_s_compare_request_asks_for_versions_and_their_changes_as_the_cli_does():
    from datetime import date

    from reasoner.web.app import CompareRequest

    source = Path(HARVEST).read_text(encoding="utf-8")
    dates = ["2010-05-25", "2010-05-26"]
    for extra, flags in (({}, []), ({"changes": True}, ["--changes"])):
        body = CompareRequest(source=source, filename="harvest.yaml", ordinances=["connecticut"], versions=dates,
                              **extra).model_dump()
        cli = CliRunner().invoke(main, ["compare", HARVEST, "-o", "connecticut", "--versions", ",".join(dates),
                                        *flags, "--format", "json"])
        assert cli.exit_code == 0, cli.output
        assert service.json_text(service.run("compare", body)) == cli.output
    for versions, words in (([date(2010, 5, 25)], "versions needs at least two dates"),
                            ([date(1800, 1, 1), date(2010, 5, 26)], "versions: '1800-01-01': must be between")):
        with pytest.raises(service.InputProblem, match=words):
            service.run("compare", {"source": source, "filename": "harvest.yaml", "ordinances": ["connecticut"],
                                    "versions": versions})
    with pytest.raises(service.InputProblem, match="changes lists what changes between versions: give their dates with versions"):
        service.run("compare", {"source": source, "filename": "harvest.yaml", "ordinances": ["connecticut"], "changes": True})


def test_the_web_s_requests_ask_which_answers_turn_on_a_reading_as_the_cli_s_readings_flag_does():
    from datetime import date

    from reasoner.web.app import CompareRequest, EvaluateRequest

    wedding = str(ROOT / "facts" / "events" / "farm-wedding.yaml")
    source = Path(wedding).read_text(encoding="utf-8")
    for request, args in ((EvaluateRequest, ["evaluate", wedding, "-o", "fulton"]),
                          (CompareRequest, ["compare", wedding, "-o", "fulton", "-o", "vermont"]),
                          (CompareRequest, ["compare", wedding, "-o", "fulton"])):
        ordinances = args[3::2]
        body = request(source=source, filename=wedding, ordinances=ordinances, depends_on_readings=True).model_dump()
        cli = CliRunner().invoke(main, [*args, "--readings", "--format", "json"])
        assert cli.exit_code == 0, cli.output
        assert service.json_text(service.run(args[0], body)) == cli.output and "readings" in cli.output
    with pytest.raises(service.InputProblem, match="versions and depends_on_readings each give the columns"):
        service.run("compare", {"source": source, "filename": "w.yaml", "ordinances": ["fulton"],
                                "versions": [date(2027, 1, 1), date(2027, 6, 1)], "depends_on_readings": True})
