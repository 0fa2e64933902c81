"""The CSV a clerk can use (issue 19): one row per event with a column per ordinance and obligation,
filing stated with its sign, formula-like cells escaped, and the same numbers as the JSONL when read back."""
from __future__ import annotations

import csv
import json
import re
from datetime import date

import pytest
import yaml
from click.testing import CliRunner

from reasoner.batch import run as batch
from reasoner.batch.files import BatchInputError, ordinance_obligations
from reasoner.cli import main
from reasoner.law.labels import listed, phrase
from reasoner.modes.catalog import catalog
from reasoner.law.vocabulary import names

from test_batch import ORDINANCES, SCENARIOS, read_jsonl, scenario_events

FILED = [{**event, "id": f"filed-{n}", "name": f"Event {n}", "application": {"filed": day}}
         for n, (event, day) in enumerate(zip(scenario_events(7), ["2027-01-05", "2027-07-10"] * 100))]


def run(tmp_path, name: str, records: list, **given) -> list:
    source = tmp_path / "events.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    out = tmp_path / name
    batch.run(batch.BatchOptions(str(source), str(out), ORDINANCES, workers=0, **given))
    if name.endswith(".jsonl"):
        return read_jsonl(out)
    with out.open(encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle))


def test_obligation_columns_are_the_obligations_the_catalog_says_each_ordinance_can_conclude():
    for ordinance in ORDINANCES:
        concluded = {e["name"] for e in catalog(ordinance) if e["kind"] == "obligation"}
        assert set(ordinance_obligations(ordinance)) == concluded and concluded <= set(names("obligations"))
    assert "toilets" in ordinance_obligations("trempealeau") and "security_guards" in ordinance_obligations("gem")


def test_a_duty_the_authority_imposes_by_any_name_has_its_column_in_the_wide_csv(tmp_path):
    # Fulton 177-4 and Missouri 316.170: the board may impose conditions of its own, by a name of the vocabulary
    # the ordinance's own text never writes; the wide row must not drop them.
    base = yaml.safe_load((SCENARIOS / "fulton.yaml").read_text(encoding="utf-8"))["base"]
    imposed = {**json.loads(json.dumps(base, default=str)), "id": "imposed", "name": "Imposed",
               "imposed_conditions": ["toilets", "security_guards"]}
    [record] = [r for r in run(tmp_path, "out.jsonl", [imposed]) if r["ordinance"] == "fulton"]
    wanted = [c for c in record["conclusions"] if c["kind"] == "obligation" and c["name"] in ("toilets", "security_guards")]
    assert len(wanted) == 2
    header, row = run(tmp_path, "out.csv", [imposed])
    cells = dict(zip(header, row))
    for item in wanted:
        assert cells[f"fulton.{item['name']}"] == "yes"
        assert all(clause in cells[f"fulton.{item['name']}.clauses"] for clause in item["clauses"])


def test_the_wide_csv_is_one_row_per_event_with_the_numbers_of_the_jsonl(tmp_path):
    records = run(tmp_path, "out.jsonl", FILED)
    header, *rows = run(tmp_path, "out.csv", FILED)
    assert header[:2] == ["event", "name"] and header[-3:] == ["source", "line", "error"]
    assert "trempealeau.toilets" in header and "gem.security_guards" in header
    assert len(rows) == len(FILED)
    table = [dict(zip(header, row)) for row in rows]
    checked = 0
    for record in records:
        row = next(r for r in table if r["event"] == record["event"])
        prefix = record["ordinance"] + "."
        assert row["name"] == next(e["name"] for e in FILED if e["id"] == record["event"])
        assert row[prefix + "status"] == record["status"]
        for item in record["conclusions"]:
            if item["kind"] == "obligation" and isinstance(item["value"], int) and not isinstance(item["value"], bool):
                assert int(row[prefix + item["name"]]) == item["value"]
                assert all(clause in row[prefix + item["name"] + ".clauses"] for clause in item["clauses"])
                checked += 1
            elif item["kind"] == "permits":
                assert int(row[prefix + "permits"]) == item["value"]
    assert checked > 100
    assert max(len(cell) for row in rows for cell in row) < 1000  # no JSON tree in a cell


def test_each_deadline_has_its_own_date_column_and_the_filing_a_signed_number_of_days(tmp_path):
    records = run(tmp_path, "out.jsonl", FILED)
    header, *rows = run(tmp_path, "out.csv", FILED)
    table = {row[0]: dict(zip(header, row)) for row in rows}
    dated = signed = 0
    for record in records:
        row, prefix = table[record["event"]], f"{record['ordinance']}.deadline."
        for item in record["conclusions"]:
            if item["kind"] == "deadline":
                cell = row[prefix + item["name"]]
                assert date.fromisoformat(cell).isoformat() == item["value"]  # an ISO date alone: sortable as text
                assert all(clause in row[prefix + item["name"] + ".clauses"] for clause in item["clauses"])
                dated += 1
            elif item["kind"] in ("late", "on_time"):  # days late, or days to spare as a negative number
                days = int(row[prefix + item["name"] + ".days_late"])
                assert days == (item["value"] if item["kind"] == "late" else -item["value"])
                signed += days > 0 or -1
    assert dated > 100 and signed not in (dated, -dated)
    assert sum(1 for r in records for c in r["conclusions"] if c["kind"] == "late") > 10
    assert sum(1 for r in records for c in r["conclusions"] if c["kind"] == "on_time") > 10
    # the authority's processing deadline is dated, but a filing is never late for it (vocabulary.lp)
    assert "trempealeau.deadline.processing" in header and "trempealeau.deadline.processing.days_late" not in header


def test_the_long_layout_keeps_one_row_per_event_and_ordinance(tmp_path):
    header, *rows = run(tmp_path, "out.csv", FILED[:5], layout="long")
    assert header[:3] == ["event", "name", "ordinance"] and len(rows) == 5 * len(ORDINANCES)


def test_cells_a_spreadsheet_would_run_as_formulas_are_escaped(tmp_path):
    hostile = [{**FILED[0], "id": "=HYPERLINK(\"http://x\")", "name": "+1"},
               {**FILED[1], "id": "@SUM(A1)", "name": "-2"}, {"id": "=bad", "attendance": "lots"}]
    for layout in ("wide", "long"):
        rows = run(tmp_path, f"{layout}.csv", hostile, layout=layout)[1:]
        cells = [cell for row in rows for cell in row]
        # a number of days to spare is a number, as a spreadsheet reads it: not a formula
        assert not any(cell.startswith(("=", "+", "-", "@")) and not re.fullmatch(r"-[0-9]+", cell) for cell in cells)
        assert "'=HYPERLINK(\"http://x\")" in cells and "'@SUM(A1)" in cells and "'=bad" in cells
        assert layout == "long" or ("'+1" in cells and "'-2" in cells)  # names are a wide row's


def test_an_error_row_of_a_wide_csv_keeps_the_columns(tmp_path):
    header, good, bad = run(tmp_path, "out.csv", [FILED[0], {"id": "x", "attendance": "lots"}])
    assert len(good) == len(bad) == len(header)
    assert bad[0] == "x" and bad[-2] == "2" and "attendance" in bad[-1]


def test_an_error_row_of_a_wide_csv_keeps_the_applications_name(tmp_path):
    header, good, bad = run(tmp_path, "out.csv", [FILED[0], {"id": "x", "name": "Harvest Days", "attendance": "lots"}])
    assert header[:2] == ["event", "name"]
    assert good[1] == "Event 0" and bad[:2] == ["x", "Harvest Days"]


def test_an_error_row_keeps_the_applications_name_in_the_jsonl_and_in_an_errors_file(tmp_path):
    bad = {"id": "x", "name": "Harvest Days", "attendance": "lots"}
    records = run(tmp_path, "out.jsonl", [FILED[0], bad, {"id": "y", "attendance": "lots"}])
    errors = [r for r in records if "error" in r]
    assert [(r["event"], r.get("name")) for r in errors] == [("x", "Harvest Days"), ("y", None)]
    apart = tmp_path / "errors.csv"
    run(tmp_path, "kept.csv", [FILED[0], bad], errors=str(apart))
    with apart.open(encoding="utf-8", newline="") as handle:
        header, row = list(csv.reader(handle))
    assert header[:2] == ["event", "name"] and row[:2] == ["x", "Harvest Days"]


def test_a_csv_row_refused_for_one_cell_keeps_its_id_and_name_in_every_output(tmp_path):
    source = tmp_path / "applications.csv"
    source.write_text("id,name,attendance.expected_max,schedule.start,schedule.end,schedule.sessions\n"
                      "fair-1,County Fair,5000,2027-07-16T10:00,2027-07-16T22:00,2027-07-16T10:00\n",
                      encoding="utf-8")
    for out, field in (("out.jsonl", None), ("wide.csv", "wide"), ("long.csv", "long")):
        batch.run(batch.BatchOptions(str(source), str(tmp_path / out), ORDINANCES, workers=0, layout=field))
        if field is None:
            [row] = read_jsonl(tmp_path / out)
            assert (row["event"], row["name"]) == ("fair-1", "County Fair") and "schedule.sessions" in row["error"]
            continue
        with (tmp_path / out).open(encoding="utf-8", newline="") as handle:
            header, row = list(csv.reader(handle))
        assert header[:2] == ["event", "name"] and row[:2] == ["fair-1", "County Fair"] and "schedule.sessions" in row[-1]


def test_the_long_layout_names_the_application_on_each_row_an_error_row_included(tmp_path):
    header, *rows = run(tmp_path, "out.csv", [FILED[0], {"id": "x", "name": "Harvest Days", "attendance": "lots"}],
                        layout="long")
    assert header[:3] == ["event", "name", "ordinance"]
    assert [row[:2] for row in rows] == [["filed-0", "Event 0"]] * len(ORDINANCES) + [["x", "Harvest Days"]]
    assert all(len(row) == len(header) for row in rows)


def test_the_long_layouts_cells_say_each_conclusion_in_the_one_phrasing_the_terminal_and_the_page_use(tmp_path):
    records = [r for r in run(tmp_path, "out.jsonl", FILED) if "error" not in r]
    header, *rows = run(tmp_path, "out.csv", FILED, layout="long")
    assert len(rows) == len(records)
    kinds = {"obligations": "obligation", "deadlines": "deadline", "filing": ("late", "on_time"),
             "penalties": "penalty", "shortfalls": "shortfall", "denial_grounds": "denial_ground"}
    said = set()
    for record, row in zip(records, rows):
        cells = dict(zip(header, row))
        for column, kind in kinds.items():
            items = [c for c in record["conclusions"] if c["kind"] in kind]
            assert cells[column] == "; ".join(listed(c) for c in items)
            for item in items:  # "14 day(s) late", "$1,000–$20,000", "may deny": phrase() of labels.py
                assert f"{item['name']}: {phrase(item)} [" in cells[column] or phrase(item) == "yes"
                said.add(item["kind"])
    assert said >= {"obligation", "deadline", "late", "on_time", "penalty", "shortfall", "denial_ground"}


def test_columns_selects_the_named_columns_with_the_applications_id_name_and_error(tmp_path):
    records = FILED[:20] + [{"id": "x", "name": "Harvest Days", "attendance": "lots"}]
    header, *rows = run(tmp_path, "all.csv", records)
    patterns = ("*.status", "gem.deadline.*", "trempealeau.toilets")
    picked, *chosen = run(tmp_path, "some.csv", records, columns=patterns)
    assert picked == [c for c in header if c in ("event", "name", "source", "line", "error")
                      or c.endswith(".status") or c.startswith("gem.deadline.") or c == "trempealeau.toilets"]
    assert "gem.deadline.application_filing.days_late" in picked and len(picked) < len(header) / 10
    assert chosen == [[dict(zip(header, row))[column] for column in picked] for row in rows]
    assert chosen[-1][:2] == ["x", "Harvest Days"] and "attendance" in chosen[-1][-1]


def test_columns_refuses_a_name_of_no_column_suggesting_the_nearest(tmp_path):
    source = tmp_path / "events.jsonl"
    source.write_text(json.dumps(FILED[0]) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["batch", str(source), "--out", str(tmp_path / "out.csv"), "--workers", "0",
                                       "--columns", "gem.status,trempealeau.toilet"])
    assert result.exit_code == 2 and "'trempealeau.toilet'" in result.output and "trempealeau.toilets" in result.output
    result = CliRunner().invoke(main, ["batch", str(source), "--out", str(tmp_path / "out.jsonl"), "--workers", "0",
                                       "--columns", "gem.status"])
    assert result.exit_code == 2 and "CSV" in result.output


def test_a_run_resumes_only_with_the_columns_it_was_given(tmp_path):
    source = tmp_path / "events.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in FILED[:40]), encoding="utf-8")
    out = tmp_path / "out.csv"

    def stop(summary, position, size):
        raise KeyboardInterrupt

    options = dict(workers=0, chunk_size=8, columns=("*.status",))
    with pytest.raises(KeyboardInterrupt):
        batch.run(batch.BatchOptions(str(source), str(out), ORDINANCES, **options), stop)
    with pytest.raises(BatchInputError, match="--columns"):
        batch.run(batch.BatchOptions(str(source), str(out), ORDINANCES, resume=True, **{**options, "columns": ("*.permits",)}))
    batch.run(batch.BatchOptions(str(source), str(out), ORDINANCES, resume=True, **options))
    whole = tmp_path / "whole.csv"
    batch.run(batch.BatchOptions(str(source), str(whole), ORDINANCES, **options))
    assert out.read_bytes() == whole.read_bytes()
