"""`batch --versions D,D --changes`: an amendment's impact report over a batch. Each row is what `compare --versions
D,D --changes` reports of that event under that ordinance, with whether its answer flips; a bad record is an error
row; an interrupted run resumes into the very bytes of an uninterrupted one (issue 29, "Versions as readings of
time")."""
from __future__ import annotations

import csv
import io
import json
from datetime import date
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from reasoner.batch import run as batch
from reasoner.batch.files import BatchInputError
from reasoner.cli import main

ROOT = Path(__file__).resolve().parents[1]
DATES = (date(2009, 6, 1), date(2011, 6, 1))   # Connecticut before and after P.A. 10-92; Fulton the same version
ORDINANCES = ("connecticut", "fulton")
BAD = {"id": "bad-attendance", "attendance": {"expected_max": "lots"},
       "schedule": {"start": "2027-07-16T12:00", "end": "2027-07-16T23:00"}}


def _events() -> list[dict]:
    """The example event files' events (one with unknown facts among them), as JSON."""
    found = []
    for file in sorted((ROOT / "facts" / "events").glob("*.yaml")):
        data = yaml.safe_load(file.read_text(encoding="utf-8"))
        found += data["events"] if isinstance(data, dict) and "events" in data else [data]
    return json.loads(json.dumps(found, default=str))


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    events = _events()
    path = tmp_path_factory.mktemp("changes") / "apps.jsonl"
    records = [*events[:7], BAD, *events[7:]]
    path.write_text("".join(json.dumps(e) + "\n" for e in records), encoding="utf-8")
    return path


def _options(source: Path, out: Path, **given) -> batch.BatchOptions:
    return batch.BatchOptions(str(source), str(out), given.pop("ordinances", ORDINANCES), workers=given.pop("workers", 0),
                              chunk_size=given.pop("chunk_size", 4), versions=given.pop("versions", DATES), **given)


def _compare(source: Path, ordinance: str) -> list[dict]:
    events = [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines()]
    good = source.with_name(f"good-{ordinance}.yaml")
    good.write_text(yaml.safe_dump({"events": [e for e in events if e["id"] != BAD["id"]]}), encoding="utf-8")
    result = CliRunner().invoke(main, ["compare", str(good), "-o", ordinance, "--versions",
                                       ",".join(d.isoformat() for d in DATES), "--changes", "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_each_row_is_the_compare_report_of_its_event_with_whether_its_answer_flips(source, tmp_path):
    out = tmp_path / "impact.jsonl"
    summary = batch.run(_options(source, out))
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert summary.failed == 1 and summary.events == len(_events())
    [error] = [r for r in rows if "error" in r]
    assert error["event"] == BAD["id"] and error["problems"][0]["field"] == "attendance.expected_max"
    assert rows.index(error) == 7 * len(ORDINANCES)   # in its place among the events
    for ordinance in ORDINANCES:
        mine = [r for r in rows if r.get("ordinance") == ordinance]
        reports = _compare(source, ordinance)
        assert [r["event"] for r in mine] == [r["event"] for r in reports]
        for row, report in zip(mine, reports):
            assert row["flips"] == bool(report["changed"])
            assert {k: v for k, v in row.items() if k != "flips"} == report
    flipped = {r["event"] for r in rows if r.get("flips")}
    assert flipped and all(r["ordinance"] == "connecticut" for r in rows if r.get("flips"))
    assert "unknown-festival-2027" in {r["event"] for r in rows}   # over unknown facts too
    # the same bytes with worker processes and other chunks
    again = tmp_path / "again.jsonl"
    batch.run(_options(source, again, workers=2, chunk_size=3))
    assert again.read_bytes() == out.read_bytes()


def test_the_csv_has_a_row_per_event_and_ordinance_and_an_error_row_as_wide_as_the_others(source, tmp_path):
    out = tmp_path / "impact.csv"
    batch.run(_options(source, out))
    rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8"))))
    header, body = rows[0], rows[1:]
    assert header == ["event", "name", "ordinance", "flips", "status as of 2009-06-01", "status as of 2011-06-01",
                      "versions", "changed", "changes", "clauses", "amended", "source", "line", "error"]
    assert {len(row) for row in body} == {len(header)}
    assert len(body) == len(_events()) * len(ORDINANCES) + 1
    [error] = [row for row in body if row[-1]]
    assert error[0] == BAD["id"] and error[header.index("line")] == "8"
    reports = {(r["event"], r["ordinance"]): r for r in map(json.loads, _jsonl(source, tmp_path).splitlines())
               if "error" not in r}
    for row in body:
        if row[-1]:
            continue
        cell = dict(zip(header, row))
        report = reports[(cell["event"], cell["ordinance"])]
        assert cell["flips"] == ("true" if report["flips"] else "false")
        assert cell["changed"] == "; ".join(r["label"] for r in report["changed"])
        cited = {c["clause"] for r in report["changed"] for c in r["clauses"]}
        assert set(cell["clauses"].split()) == cited
        assert set(cell["amended"].split()) == {c["clause"] for r in report["changed"] for c in r["clauses"] if c["amended"]}
        assert "pa_10_92" in cell["versions"] if cell["ordinance"] == "connecticut" else "amended_2002_09_12" in cell["versions"]
        if "permit required" in cell["changed"].split("; "):
            assert cell["status as of 2009-06-01"] != cell["status as of 2011-06-01"]


def _jsonl(source: Path, tmp_path: Path) -> str:
    out = tmp_path / "for-csv.jsonl"
    batch.run(_options(source, out))
    return out.read_text(encoding="utf-8")


@pytest.mark.parametrize("suffix", ["jsonl", "csv"])
def test_an_interrupted_impact_report_resumes_into_the_same_bytes(source, tmp_path, suffix):
    clean = tmp_path / f"clean.{suffix}"
    batch.run(_options(source, clean))
    out = tmp_path / f"out.{suffix}"
    seen = []

    def stop_after_two(summary, position, size):
        seen.append(summary.records)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        batch.run(_options(source, out), stop_after_two)
    assert not out.exists() and Path(f"{out}.part.state.json").is_file()
    with pytest.raises(BatchInputError, match="give it the same --versions"):
        batch.run(_options(source, out, resume=True, versions=(date(2010, 5, 25), date(2010, 5, 26))))
    with pytest.raises(BatchInputError, match="no impact report"):
        batch.run(_options(source, out, resume=True, versions=()))
    summary = batch.run(_options(source, out, resume=True))
    assert summary.resumed == seen[-1] > 0
    assert out.read_bytes() == clean.read_bytes()


@pytest.mark.parametrize("arguments, said", [
    (["--versions", "2009-06-01,2011-06-01"], "add --changes"),
    (["--changes"], "give their dates with --versions"),
    (["--versions", "2009-06-01", "--changes"], "at least two dates"),
    (["--versions", "2009-06-01,1700-01-01", "--changes"], "must be between"),
    (["--versions", "2009-06-01,2011-06-01", "--changes", "--as-of", "2010-01-01"], "--as-of does not apply"),
    (["--versions", "2009-06-01,2011-06-01", "--changes", "--readings"], "--readings does not apply"),
    (["--versions", "2009-06-01,2011-06-01", "--changes", "--layout", "long"], "--layout does not apply"),
])
def test_what_the_impact_report_cannot_be_given_with_is_refused(source, tmp_path, arguments, said):
    result = CliRunner().invoke(main, ["batch", str(source), "--out", str(tmp_path / "x.csv"), "--workers", "0",
                                       "-o", "connecticut", *arguments])
    assert result.exit_code == 2 and said in result.output, result.output
    assert not list(tmp_path.glob("x.csv*"))
