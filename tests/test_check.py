"""`reasoner check` passes on the shipped encodings and registries, and catches each kind of defect.

The defects are planted in a copy of the package's encodings/ and clauses/ folders, one per case,
so each case shows the check names the file, the line or clause, and what is wrong.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from reasoner.quality.check import check
from reasoner.cli import main
from reasoner.law.locator import encoded_ordinances, encodings_folder

# Defects found by `reasoner check` in the shipped files and reported to their owners; remove an
# entry once it is fixed (strict: the test then fails until the entry goes).
KNOWN_DEFECTS: dict[str, str] = {}  # ordinance -> a defect `check` is known to report


@pytest.mark.parametrize("ordinance", [
    pytest.param(name, marks=pytest.mark.xfail(reason=KNOWN_DEFECTS[name], strict=True)) if name in KNOWN_DEFECTS
    else name for name in encoded_ordinances()])
def test_the_shipped_encoding_and_registry_pass_the_check(ordinance):
    [report] = check([ordinance])
    assert report.ok, "\n".join(str(p) for p in report.problems)
    counts = report.counts
    assert counts["encoded"] + counts.get("non_operative", 0) + counts.get("operative_not_encoded", 0) == counts["clauses"]
    assert counts["derivable_conclusions_sampled"] > 0 and counts["rules"] > 0


def test_the_check_command_reports_each_ordinance_and_fails_on_a_problem():
    result = CliRunner().invoke(main, ["check"], catch_exceptions=False)
    for name in encoded_ordinances():
        assert f"{name}: " in result.output
    assert result.exit_code == (1 if KNOWN_DEFECTS else 0)
    for name in KNOWN_DEFECTS:
        assert f"{name}: 1 problem" in result.output


def test_the_check_command_speaks_json():
    import json

    result = CliRunner().invoke(main, ["check", "-o", "trempealeau", "--format", "json"], catch_exceptions=False)
    [report] = json.loads(result.stdout)
    assert report["ordinance"] == "trempealeau" and report["ok"] is True and result.exit_code == 0
    assert report["operative_not_encoded"]["6.01(2)(b)2"].startswith("Encoded as the input attendance")


# ---------------------------------------------------------------- planted defects

@pytest.fixture()
def package_copy(tmp_path: Path) -> Path:
    shutil.copytree(encodings_folder(), tmp_path / "encodings")
    return tmp_path


def append_rule(text: str):
    def plant(root: Path) -> None:
        path = root / "encodings" / "trempealeau.lp"
        path.write_text(path.read_text(encoding="utf-8") + "\n% § 6.01(3)1 planted\n" + text + "\n", encoding="utf-8")
    return plant


def prepend_rule(text: str):
    def plant(root: Path) -> None:
        path = root / "encodings" / "trempealeau.lp"
        path.write_text(text + "\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    return plant


def edit_registry(change):
    def plant(root: Path) -> None:
        path = root / "encodings" / "trempealeau.yaml"
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        change(data)
        path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return plant


def _clause(data, cid):
    return next(c for c in data["clauses"] if str(c["id"]) == cid)


PERMITTED = "permit_required(trempealeau,E,_)"
DEFECTS = [
    ("a helper predicate without its ordinance's prefix", append_rule(
        f'fenced(E) :- {PERMITTED}.\nobligation(trempealeau,E,fence,shall,"6.01(3)1") :- fenced(E).'),
     "the helper predicate fenced/1 should be named trempealeau_fenced"),
    ("a clause header quoting words the clause does not have", prepend_rule(
        '% § 6.01(3)1 "A method of controlling the admission of every elephant"\n'
        'obligation(trempealeau,E,elephant_control,shall,"6.01(3)1") :- permit_required(trempealeau,E,_).'),
     "quotes 'A method of controlling the admission of every elephant', which is not in the registered words of 6.01(3)1"),
    ("a law's number written into an explanation sentence", append_rule(
        f'%@ A fence for an assembly of 2,000 or more.\nobligation(trempealeau,E,fence,shall,"6.01(3)1") :- {PERMITTED}.'),
     "the %@ sentence writes 2,000, which param attendance_threshold states"),
    ("a syntax error", append_rule("obligation(trempealeau,E :- ."), "cannot be parsed: <string>:"),
    ("an undefined atom (a misspelt input)", append_rule(
        f'obligation(trempealeau,E,fence,shall,"6.01(3)1") :- {PERMITTED}, atendance(E,_).'), "atom does not occur in any rule head: atendance("),
    ("an unsafe variable", append_rule(
        'obligation(trempealeau,E,fence,shall,"6.01(3)1") :- attendance(F,_).'), "unsafe variables"),
    ("an undefined operation", append_rule(
        f'quantity(trempealeau,E,fence_gates,Q,count,"6.01(3)1") :- {PERMITTED}, Q = abc+1.'), "operation undefined"),
    ("a conclusion citing an unregistered clause", append_rule(
        f'obligation(trempealeau,E,fence,shall,"6.01(99)") :- {PERMITTED}.'), "'6.01(99)', which is not registered"),
    ("a clause id reaching a conclusion through a variable", append_rule(
        f'cites(trempealeau,"6.01(98)"). restriction(trempealeau,E,planted,C) :- {PERMITTED}, cites(trempealeau,C).'),
     "cites clause '6.01(98)', which is not registered"),
    ("a number bound where a clause id belongs", append_rule(
        f'restriction(trempealeau,E,planted,C) :- {PERMITTED}, attendance(E,C).'), "which is not a registered clause"),
    ("a conclusion for another ordinance", append_rule(
        f'restriction(village,E,planted,"6.01(3)1") :- {PERMITTED}.'), "concluded for village, not for trempealeau"),
    ("a parameter declared twice", append_rule(
        'param(trempealeau, persons_per_toilet, 250, "6.01(3)3").'), "persons_per_toilet is declared twice"),
    ("a parameter citing an unregistered clause", append_rule(
        'param(trempealeau, planted_rate, 3, "6.01(97)").'), "cites clause '6.01(97)', which is not registered"),
    ("a number written into a rule", append_rule(
        f'quantity(trempealeau,E,fence_gates,Q,count,"6.01(3)1") :- {PERMITTED}, Q = 4.'), "the number 4 is written into a rule"),
    ("a misspelt kind of event", append_rule(
        'restriction(trempealeau,E,planted,"6.01(3)1") :- event_kind(E,festivall).'), "festivall is not in event_kinds"),
    ("a misspelt name in a lookup table", append_rule(
        'listed(trempealeau,festivall). restriction(trempealeau,E,planted,"6.01(3)1") :- event_kind(E,K), listed(trempealeau,K).'),
     "matched against event_kinds, but festivall"),
    ("an obligation missing from the vocabulary", append_rule(
        f'obligation(trempealeau,E,toilettes,shall,"6.01(3)3") :- {PERMITTED}.'), "names toilettes, which is not in obligations"),
    ("a note that is not a registered interpretation", append_rule(
        f'note(trempealeau,E,planted_note,"6.01(3)3") :- {PERMITTED}.'), "planted_note is not a registered interpretation"),
    ("a note citing another clause than its interpretation", append_rule(
        f'note(trempealeau,E,toilet_rate_counts_all_persons,"6.01(3)2") :- {PERMITTED}.'), "the registry names '6.01(3)3'"),
    ("a sentence naming a variable the rule lacks", append_rule(
        f'%@ {{Nobody}} is planted.\nrestriction(trempealeau,E,planted,"6.01(3)1") :- {PERMITTED}.'), "{Nobody}"),
    ("a conclusion citing another clause than its block's header", append_rule(
        f'restriction(trempealeau,E,planted,"6.01(3)3") :- {PERMITTED}.'),
     "cites '6.01(3)3' under the `% §` header of '6.01(3)1'"),
    ("a rule under no clause header", prepend_rule(
        f'restriction(trempealeau,E,planted,"6.01(3)1") :- {PERMITTED}.'), "stands under no `% §` clause header"),
    ("a clause neither encoded nor given a reason", edit_registry(
        lambda d: d["clauses"].append({"id": "6.01(9)", "heading": "Planted", "text": "Planted words."})),
     "clause 6.01(9): is neither cited by the encoding nor marked non-operative with a reason"),
    ("a non-operative clause without a reason", edit_registry(
        lambda d: _clause(d, "6.01(1)").pop("reason")), "clause 6.01(1): is marked non-operative without a reason"),
    ("a clause registered twice", edit_registry(
        lambda d: d["clauses"].append(dict(_clause(d, "6.01(3)1")))), "clause 6.01(3)1: registered twice"),
    ("an interpretation naming an unregistered clause", edit_registry(
        lambda d: d["interpretations"][0].update(clause="6.01(96)")), "names clause '6.01(96)', which is not registered"),
    ("an interpretation naming no clause", edit_registry(
        lambda d: d["interpretations"][0].pop("clause")), "names no clause"),
    ("an interpretation no rule emits", edit_registry(
        lambda d: d["interpretations"].append({"id": "planted_reading", "clause": "6.01(3)1", "text": "Planted."})),
     "interpretation planted_reading: is never emitted"),
    ("a reading no registry records", append_rule(
        f'restriction(trempealeau,E,planted,"6.01(3)1") :- {PERMITTED}, reading(trempealeau,ending_at_one_am_not_into_late_hours,planted).'),
     "which the registry does not record as a reading of ending_at_one_am_not_into_late_hours"),
    ("an alternative reading no rule reads", edit_registry(
        lambda d: next(i for i in d["interpretations"] if i["id"] == "ending_at_one_am_not_into_late_hours")["alternatives"].append(
            {"id": "planted_alternative", "text": "Planted."})),
     "records the reading planted_alternative, which no rule reads"),
    ("alternatives without the default reading", edit_registry(
        lambda d: next(i for i in d["interpretations"] if i["id"] == "ending_at_one_am_not_into_late_hours").pop("reading")),
     "names alternatives but not the reading applied by default"),
    ("an alternative named like an interpretation", edit_registry(
        lambda d: next(i for i in d["interpretations"] if i["id"] == "ending_at_one_am_not_into_late_hours")["alternatives"].append(
            {"id": "toilet_rate_counts_all_persons", "text": "Planted."})),
     "is both an interpretation and an alternative reading"),
]


def test_the_unchanged_copy_passes(package_copy):
    [report] = check(["trempealeau"], root=package_copy)
    assert report.ok, report.problems


@pytest.mark.parametrize("plant, expected", [d[1:] for d in DEFECTS], ids=[d[0] for d in DEFECTS])
def test_the_check_finds_a_planted_defect(package_copy, plant, expected):
    plant(package_copy)
    [report] = check(["trempealeau"], root=package_copy)
    found = [str(p) for p in report.problems]
    assert any(expected in line for line in found), found
    assert all(line.startswith("encodings/") for line in found), found


def test_an_interpretation_not_reviewed_is_a_problem_and_counted(package_copy):
    """Issue 29's review is done: every interpretation either chooses a reading (`reading:`) or says why it chooses
    nothing (`chooses_nothing:`); one that does neither fails the check, is counted, and the command says so."""
    [report] = check(["trempealeau"], root=package_copy)
    assert report.ok and report.counts["interpretations_not_reviewed"] == 0, report.problems
    edit_registry(lambda d: next(i for i in d["interpretations"] if i["id"] == "break_ends_consecutive_hours").pop(
        "chooses_nothing"))(package_copy)
    [again] = check(["trempealeau"], root=package_copy)
    assert again.counts["interpretations_not_reviewed"] == 1
    assert [str(p) for p in again.problems] == [
        "encodings/trempealeau.yaml: interpretation break_ends_consecutive_hours: is not reviewed: it neither chooses "
        "between readings (`reading:` and `alternatives:`) nor says why it chooses nothing (`chooses_nothing:`)"]


def test_every_registered_interpretation_is_reviewed():
    """No registry leaves an interpretation unreviewed (the count `reasoner check` prints is 0 for each)."""
    from reasoner.law.registry import all_registries

    unreviewed = {f"{name}.{i.id}" for name, r in all_registries().items() for i in r.interpretations.values()
                  if not i.reading and not i.chooses_nothing}
    assert unreviewed == set()
    result = CliRunner().invoke(main, ["check", "-o", "trempealeau"], catch_exceptions=False)
    assert "0 not yet reviewed" in result.output