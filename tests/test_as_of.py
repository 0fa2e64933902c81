"""`--as-of DATE` means the same on every command that evaluates events, and in the web API's requests: the
answer is the one for the same event file with `as_of: DATE` written into it (Connecticut's 2009 law differs
from its law today, so the option is seen to act)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from reasoner.cli import main

EVENT = Path("facts/events/harvest-music-festival.yaml")
LAW_DATE = "2009-06-01"

COMMANDS = [
    ("evaluate", ["evaluate", "{file}", "-o", "connecticut", "--format", "json"]),
    ("compare", ["compare", "{file}", "-o", "connecticut", "-o", "trempealeau", "--format", "json"]),
    ("explain", ["explain", "{file}", "permit_required", "-o", "connecticut", "--format", "json"]),
    ("questions", ["questions", "{file}", "-o", "connecticut", "--format", "json"]),
    ("whatif", ["whatif", "{file}", "-o", "connecticut", "--flip", "permit_required", "--format", "json"]),
]


def _run(arguments: list[str], file: Path) -> str:
    result = CliRunner().invoke(main, [a.format(file=file) for a in arguments], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def dated_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = yaml.safe_load(EVENT.read_text(encoding="utf-8"))
    data["as_of"] = LAW_DATE
    path = tmp_path_factory.mktemp("as_of") / "dated.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("name,arguments", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_as_of_answers_as_the_event_file_dated_so(name: str, arguments: list[str], dated_file: Path) -> None:
    with_option = _run(arguments + ["--as-of", LAW_DATE], EVENT)
    assert with_option.replace(str(EVENT), "") == _run(arguments, dated_file).replace(str(dated_file), "")
    if name in ("evaluate", "compare", "explain"):
        assert with_option != _run(arguments, EVENT), "the law of 2009 and of 2027 give the same answer here"


def test_an_impossible_law_date_is_refused_by_every_command() -> None:
    for name, arguments in COMMANDS:
        result = CliRunner().invoke(main, [a.format(file=EVENT) for a in arguments] + ["--as-of", "1800-01-01"])
        assert result.exit_code == 2, name
        assert "--as-of" in result.output, name


def test_batch_rows_are_evaluate_records_under_the_law_date(tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    result = CliRunner().invoke(main, ["batch", str(EVENT), "--out", str(out), "-o", "connecticut", "--workers", "0",
                                       "--as-of", LAW_DATE, "--no-progress"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert rows == json.loads(_run(["evaluate", "{file}", "-o", "connecticut", "--format", "json",
                                    "--as-of", LAW_DATE], EVENT))


def test_the_web_api_takes_as_of_in_every_request() -> None:
    pytest.importorskip("fastapi")
    from datetime import date

    from reasoner import service as library

    source = EVENT.read_text(encoding="utf-8")
    day = date.fromisoformat(LAW_DATE)
    answers = {
        "evaluate": library.run("evaluate", {"source": source, "ordinances": ["connecticut"], "as_of": day}),
        "compare": library.run("compare", {"source": source, "ordinances": ["connecticut", "trempealeau"], "as_of": day}),
        "explain": library.run("explain", {"source": source, "ordinances": ["connecticut"], "conclusion": "permit_required",
                                    "as_of": day}),
        "questions": library.run("questions", {"source": source, "ordinances": ["connecticut"], "as_of": day}),
        "whatif": library.run("whatif", {"source": source, "ordinance": "connecticut", "flip": "permit_required", "as_of": day}),
    }
    for name, arguments in COMMANDS:
        assert json.loads(_run(arguments + ["--as-of", LAW_DATE], EVENT)) == json.loads(json.dumps(answers[name])), name


def test_compare_sets_one_ordinance_beside_itself_as_in_force_on_each_date():
    harvest = str(Path(__file__).resolve().parents[1] / "facts" / "events" / "harvest-music-festival.yaml")
    result = CliRunner().invoke(main, ["compare", harvest, "-o", "connecticut", "--versions", "2009-06-01,2011-06-01",
                                       "--format", "json"])
    assert result.exit_code == 0, result.output
    [table] = json.loads(result.output)
    columns = [o["column"] for o in table["ordinances"]]
    assert columns == ["connecticut as of 2009-06-01", "connecticut as of 2011-06-01"]
    # 19a-437(2)(D)'s emergency medical services plan came with P.A. 10-92; parking is owed under every version
    # (inside the grounds under the former words), so it no longer tells the two apart.
    [ems] = [row for row in table["rows"] if row["name"] == "ems_plan"]
    assert ems["cells"][columns[0]]["state"] == "none" and ems["cells"][columns[1]]["state"] == "holds"
    [parking] = [row for row in table["rows"] if row["name"] == "parking_spaces"]
    assert parking["cells"][columns[0]]["state"] == parking["cells"][columns[1]]["state"] == "holds"
    for arguments, said in ((["--versions", "2009-06-01,2011-06-01"], "name it with -o NAME"),
                            (["-o", "connecticut", "--versions", "2009-06-01"], "at least two dates"),
                            (["-o", "connecticut", "--versions", "2009-13-01,2011-06-01"], "--versions: '2009-13-01'")):
        refused = CliRunner().invoke(main, ["compare", harvest, *arguments])
        assert refused.exit_code == 2 and said in refused.output, refused.output


@pytest.fixture(scope="module")
def two_applications(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The harvest festival, and the same festival for 500 people, which neither version of Connecticut's law
    reaches."""
    large = yaml.safe_load(EVENT.read_text(encoding="utf-8"))
    small = {**large, "id": "small-harvest-2027",
             "attendance": {"expected_max": 500, "female": 250, "male": 250, "max_tickets": 500}}
    path = tmp_path_factory.mktemp("versions") / "applications.yaml"
    path.write_text(yaml.safe_dump({"events": [large, small]}), encoding="utf-8")
    return path


def test_compare_changes_lists_only_the_conclusions_an_amendment_changes_with_the_clauses_it_reworded(
        two_applications: Path) -> None:
    dates = ["2009-06-01", "2011-06-01"]
    side_by_side = json.loads(_run(["compare", "{file}", "-o", "connecticut", "--versions", ",".join(dates),
                                    "--format", "json"], two_applications))
    changes = json.loads(_run(["compare", "{file}", "-o", "connecticut", "--versions", ",".join(dates), "--changes",
                               "--format", "json"], two_applications))
    assert [c["event"] for c in changes] == [t["event"] for t in side_by_side]
    for table, change in zip(side_by_side, changes):
        columns = [o["column"] for o in table["ordinances"]]
        differing = [(row["kind"], row["name"], [row["cells"][c]["text"] for c in columns]) for row in table["rows"]
                     if len({(row["cells"][c]["state"], row["cells"][c]["text"]) for c in columns}) > 1]
        assert [(r["kind"], r["name"], [v["text"] for v in r["values"]]) for r in change["changed"]] == differing
        assert change["unchanged"] == len(table["rows"]) - len(differing)
        for row in change["changed"]:
            for cited in row["clauses"]:  # reworded: its words differ between the versions in force on the dates
                history = json.loads(_run(["clauses", "connecticut", cited["clause"], "--history", "--format", "json"],
                                          EVENT))
                words = {v["version"]: v["text"] for v in history["versions"]}
                applied = [v["version"] for v in change["versions"]]
                assert cited["amended"] == (len({words[v] for v in applied}) > 1), cited
    large, small = changes
    assert large["changed"] and not small["changed"]
    # 19a-437(2)(D), (G) and (H) came with P.A. 10-92 (effective May 26, 2010): its day against the day before, and
    # against a later day under the same version
    same_version = json.loads(_run(["compare", "{file}", "-o", "connecticut", "--versions", "2010-05-26,2011-06-01",
                                    "--changes", "--format", "json"], two_applications))
    on_the_day = json.loads(_run(["compare", "{file}", "-o", "connecticut", "--versions", "2010-05-25,2010-05-26",
                                  "--changes", "--format", "json"], two_applications))
    assert not any(c["changed"] for c in same_version) and not any(c["amended"] for c in same_version)
    # before P.A. 696's day is known (the text gives its year only) its words are the only ones there can be
    undated = json.loads(_run(["compare", "{file}", "-o", "connecticut", "--versions", "1971-06-01,1972-06-01",
                               "--changes", "--format", "json"], two_applications))
    assert [v["version"] for v in undated[0]["versions"]] == [None, "pa_1971_696"]
    assert not any(c["amended"] for c in undated)
    moved = {(r["name"], c["clause"]) for r in on_the_day[0]["changed"] for c in r["clauses"] if c["amended"]}
    assert {("ems_plan", "19a-437(2)(D)"), ("security_traffic_plan", "19a-437(2)(G)"),
            ("fire_protection_plan", "19a-437(2)(H)")} <= moved
    text = _run(["compare", "{file}", "-o", "connecticut", "--versions", ",".join(dates), "--changes"], two_applications)
    assert "1 of 2 event(s) change their answer" in text and "small-harvest-2027" in text
    rows = _run(["compare", "{file}", "-o", "connecticut", "--versions", ",".join(dates), "--changes", "--format", "csv"],
                two_applications).splitlines()
    assert rows[0] == "event,ordinance,kind,name,as of 2009-06-01,as of 2011-06-01,clauses,amended"
    assert len(rows) == 1 + len(large["changed"]) + 1 and rows[-1].startswith("small-harvest-2027,connecticut,,,unchanged")
    refused = CliRunner().invoke(main, ["compare", str(EVENT), "-o", "connecticut", "--changes"])
    assert refused.exit_code == 2 and "give their dates with --versions" in refused.output, refused.output


def test_as_of_given_twice_to_compare_is_versions():
    dates = ["2010-05-25", "2010-05-26"]
    for flags in ([], ["--changes"]):
        repeated = _run(["compare", "{file}", "-o", "connecticut", "--as-of", dates[0], "--as-of", dates[1], *flags,
                         "--format", "json"], EVENT)
        assert repeated == _run(["compare", "{file}", "-o", "connecticut", "--versions", ",".join(dates), *flags,
                                 "--format", "json"], EVENT)
    for arguments, said in ((["--as-of", dates[0], "--as-of", dates[1], "--versions", ",".join(dates)],
                             "give the dates to compare once"),
                            (["--as-of", "1800-01-01", "--as-of", dates[1]], "--as-of: must be between")):
        refused = CliRunner().invoke(main, ["compare", str(EVENT), "-o", "connecticut", *arguments])
        assert refused.exit_code == 2 and said in refused.output, refused.output


@pytest.mark.parametrize("day, version, may_be", [
    ("1970-06-01", None, []),                        # before the year of P.A. 696
    ("1971-06-01", None, ["pa_1971_696"]),           # in its year, whose day the text does not give
    ("2009-06-01", "pa_1971_696", ["pa_09_232"]),    # P.A. 09-232 took effect some day up to 2010-05-25
    ("2010-05-26", "pa_10_92", []),
])
def test_the_version_compare_reads_is_the_one_the_solver_has_in_force(day, version, may_be):
    from datetime import date

    from reasoner.evaluate import evaluate_any
    from reasoner.events.loading import parse_events
    from reasoner.events.rules import with_law_date

    for file in (EVENT, Path("facts/events/unknown-festival.yaml")):  # known facts, and over unknown ones
        events = with_law_date(parse_events(yaml.safe_load(file.read_text(encoding="utf-8")), str(file)),
                               date.fromisoformat(day))
        assert file == EVENT or events[0].has_unknowns
        [record] = evaluate_any(events, ["connecticut"], versions=True)
        assert record["in_force"] == {"version": version, "may_be": may_be}
        [plain] = evaluate_any(events, ["connecticut"])
        assert "in_force" not in plain and plain == {k: v for k, v in record.items() if k != "in_force"}
        # the encoding's own note of the doubt rests on the same derivation (version_uncertain)
        notes = {c["name"] for c in record["conclusions"] if c["kind"] == "interpretation"}
        assert ("version_date_not_fixed" in notes) == bool(version and may_be)
    [report] = json.loads(_run(["compare", "{file}", "-o", "connecticut", "--versions", f"{day},2011-06-01",
                                "--changes", "--format", "json"], EVENT))
    assert (report["versions"][0]["version"], report["versions"][0]["may_be"]) == (version, may_be)
