"""The program layer (issue 14): one place builds clingo programs; the schema drives every table;
the law's numbers stand only in the encodings."""
from __future__ import annotations

import ast as python_ast
import re
from pathlib import Path

import clingo
import pytest
from click.testing import CliRunner

from reasoner.cli import main
from reasoner.evaluate import evaluate
from reasoner.events.loading import load_events
from reasoner.program import Program, SolveTimeout, law, time_limit
from reasoner.law.schema import INPUTS, OUTPUTS, named_outputs
from reasoner.law.locator import encoded_ordinances, encodings_folder
from reasoner.modes.whatif import WhatIfError, whatif

ROOT = Path(__file__).resolve().parent.parent
HARVEST = ROOT / "facts" / "events" / "harvest-music-festival.yaml"


def test_only_the_program_layer_makes_a_clingo_control():
    makers = sorted(path.name for path in (ROOT / "reasoner").glob("*.py") if "clingo.Control(" in path.read_text())
    assert makers == ["program.py"]


def test_the_schema_declares_what_vocabulary_lp_shows_and_reads():
    text = (encodings_folder() / "vocabulary.lp").read_text()
    shown = set(re.findall(r"^#show (\w+)/(\d+)\.", text, flags=re.M))
    assert shown == {("param", "4")} | {(o.predicate, str(o.arity)) for o in OUTPUTS}
    comments = "\n".join(line for line in text.splitlines() if line.startswith("%"))
    documented = set(re.findall(r"\b(\w+)\(", comments)) | set(re.findall(r"\b(\w+)\(E\)", comments))
    assert {i.predicate for i in INPUTS} <= documented


def test_whatif_reaches_a_deadline_it_could_not_see_before():
    [event] = load_events(HARVEST)
    report = whatif(event, "trempealeau", "processing")
    assert report["holds_now"] and report["found"] and report["verified"]


@pytest.mark.parametrize("name", ["not", "processing(", "x) :- y", "_goal"])
def test_whatif_refuses_a_name_no_conclusion_carries_without_a_traceback(name):
    [event] = load_events(HARVEST)
    with pytest.raises(WhatIfError):
        whatif(event, "trempealeau", name)
    result = CliRunner().invoke(main, ["whatif", str(HARVEST), "-o", "trempealeau", "--flip", name])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_whatif_flips_one_conclusion_of_every_kind_the_festival_has():
    [event] = load_events(HARVEST)
    [record] = evaluate([event], ["trempealeau"])
    by_kind = {}
    for conclusion in record["conclusions"]:
        by_kind.setdefault(conclusion["kind"], conclusion["name"])
    assert len(by_kind) >= 8
    for kind, name in by_kind.items():
        report = whatif(event, "trempealeau", name)
        assert report["found"] and report["verified"], (kind, name, report)


def test_named_outputs_carry_their_name_third():
    assert {o.predicate for o in named_outputs()} >= {"obligation", "deadline", "exempt", "note", "penalty"}


def test_one_time_limit_covers_every_call_inside_it():
    with pytest.raises(SolveTimeout, match="time limit of 0.05 s"), time_limit(0.05):
        Program(["gem"]).add("slow(X) :- X = 1..20000000.").ground()


def test_the_time_limit_stops_an_enumeration_of_consequences():
    # a pigeon-hole: 12 pigeons in 11 holes has no answer set, and proving it takes clingo far longer than the limit
    program = Program(["gem"]).add("pigeon(1..12). hole(1..11). 1 { in(P,H) : hole(H) } 1 :- pigeon(P). "
                                   ":- hole(H), 2 { in(P,H) }.").ground()
    with pytest.raises(SolveTimeout, match="time limit of 0.2 s"), time_limit(0.2):
        program.consequences("brave")


def test_consequences_are_those_of_the_last_model():
    program = Program(["gem"]).add("{ a; b }. c :- a. c :- b. :- not c. #show a/0. #show b/0. #show c/0.").ground()

    def mine(atoms):
        return {str(s) for s in atoms if s.name in ("a", "b", "c")}
    assert mine(program.consequences("brave")) == {"a", "b", "c"}
    assert mine(program.consequences("cautious")) == {"c"}
    assert program.consequences("cautious", [(clingo.Function("c"), False)]) is None


def test_the_law_is_read_from_the_encodings():
    stated = law(tuple(encoded_ordinances()))
    assert ("trempealeau", "attendance_threshold", 2000, "6.01(2)(a)") in stated.params
    assert (60, 420) in stated.windows and "structure_removal_days" in stated.upper_limits


def _numbers_in_python() -> dict[int, list[str]]:
    found: dict[int, list[str]] = {}
    for path in (ROOT / "reasoner").glob("*.py"):
        for node in python_ast.walk(python_ast.parse(path.read_text())):
            if isinstance(node, python_ast.Constant) and type(node.value) is int:
                found.setdefault(node.value, []).append(f"{path.name}:{node.lineno}")
    return found


def test_no_number_the_village_margin_or_the_clock_windows_state_stands_in_python():
    # the numbers issue 14 found restated in Python: the Village's 50% margin, Gem's 2.5 lb as 2/5,
    # Trempealeau's 1:00 and 7:00 a.m., and the 72-hour cut
    text = "\n".join(p.read_text() for p in (ROOT / "reasoner").glob("*.py"))
    for restated in ("k // 2", "* 2 // 5", "(1, 0)", "(7, 0)", "<= 72"):
        assert restated not in text


def test_whatif_weighs_a_change_many_times_the_event_without_overflowing():
    [event] = load_events(HARVEST)
    data = event.model_dump(mode="python")
    data["attendance"] = {"expected_max": 1}
    tiny = type(event).model_validate(data)
    report = whatif(tiny, "trempealeau", "permit_required")
    assert report["found"] and report["verified"]
