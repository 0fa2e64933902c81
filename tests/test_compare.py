"""Comparison tables, threshold sweeps and the thresholds table: each checked against what it joins or reads.

The numbers these tests expect are never typed in: they are the encodings' param facts (read through
`param_values`), offset by one where the ordinance's words say "greater than" or "over" rather than "or more".
"""
from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from reasoner.cli import main
from reasoner.modes.compare import ALL_KINDS, compare, parse_kinds, table, upper_limits
from reasoner.evaluate import evaluate
from reasoner.events.loading import load_events, parse_events
from reasoner.program import encoding_text
from reasoner.modes.sweep import parse_vary, sweep
from reasoner.modes.thresholds import param_values, thresholds
from reasoner.law.locator import encoded_ordinances

ROOT = Path(__file__).resolve().parents[1]
EVENTS = ROOT / "facts" / "events"
COMPARE_EVENTS = sorted(EVENTS.glob("compare-*.yaml"))
FESTIVAL = EVENTS / "compare-music-festival-camping.yaml"
RALLY = EVENTS / "compare-political-rally-park.yaml"
HARVEST = EVENTS / "harvest-music-festival.yaml"

# A festival in a localized area of town, open to the public for a fee, 13 hours, no alcohol and no Town
# services: every ordinance's attendance threshold is the only thing that decides its permit.
PROBE = {
    "id": "threshold-probe", "kinds": ["festival"], "attendance": {"expected_max": 100},
    "schedule": {"start": "2027-07-16T10:00", "end": "2027-07-16T23:00"},
    "site": {"kind": "localized_area"}, "flags": ["open_to_public", "admission_fee", "exceeds_normal_use"],
    "organizer": {"kind": "association"},
}


def probe(**changes):
    record = json.loads(json.dumps(PROBE))
    for path, value in changes.items():
        node = record
        *parents, last = path.split("__")
        for part in parents:
            node = node.setdefault(part, {})
        node[last] = value
    return parse_events(record, "probe")[0]


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


P = param_values()


# ---------------------------------------------------------------- compare

@pytest.mark.parametrize("path", COMPARE_EVENTS + [HARVEST], ids=lambda p: p.stem)
def test_every_cell_is_the_single_ordinance_result_it_joins(path):
    events = load_events(path)
    [tab] = compare(events, kinds=ALL_KINDS)
    for ordinance in encoded_ordinances():
        [alone] = evaluate(events, [ordinance])
        joined = [item for row in tab["rows"] if row["kind"] != "status" for item in row["cells"][ordinance]["items"]]
        key = lambda c: json.dumps(c, sort_keys=True)
        assert sorted(joined, key=key) == sorted(alone["conclusions"], key=key)
        status = next(r for r in tab["rows"] if r["kind"] == "status")["cells"][ordinance]
        assert status["value"] == alone["status"]


def test_not_regulated_exempt_and_no_such_requirement_are_told_apart():
    [rally] = compare(load_events(RALLY))
    statuses = {o["ordinance"]: o["status"] for o in rally["ordinances"]}
    row = next(r for r in rally["rows"] if r["kind"] == "obligation" and r["name"] == "solid_waste_plan")
    for ordinance, cell in row["cells"].items():
        expected = {"not_regulated": "not_regulated", "exempt": "exempt", "permit_required": "holds"}[statuses[ordinance]]
        assert cell["state"] == expected
        assert cell["text"] == {"not_regulated": "not regulated", "exempt": "exempt"}.get(expected, cell["text"])
    [festival] = compare(load_events(FESTIVAL), ["trempealeau", "gem"])
    emts = next(r for r in festival["rows"] if r["kind"] == "obligation" and r["name"] == "emts")
    assert festival["ordinances"][0]["status"] == "permit_required"
    assert emts["cells"]["trempealeau"] == {"state": "none", "items": [], "strictest": False, "text": "no such requirement"}


def _row(tab, kind, name):
    return next(r for r in tab["rows"] if r["kind"] == kind and r["name"] == name)


def _strictest(row):
    return {o for o, cell in row["cells"].items() if cell["strictest"]}


def test_the_strictest_cell_is_the_largest_binding_amount_and_the_earliest_deadline():
    # The five county and town ordinances, which all license the festival and count every one of these amounts (the
    # state statutes do not reach it, or state nurses without a number, which leaves a row unranked).
    local = ("trempealeau", "village", "vermont", "gem", "fulton")
    [tab] = compare(load_events(FESTIVAL), local)
    results = {r["ordinance"]: r for r in evaluate(load_events(FESTIVAL), local)}

    def amounts(kind, name, modality=None):
        return {o: i["value"] for o, r in results.items() for i in r["conclusions"]
                if i["kind"] == kind and i["name"] == name and modality in (None, i["modality"])}

    for name in ("toilets", "security_guards", "nurses"):
        binding = amounts("obligation", name, "shall")
        top = max(binding.values())
        assert _strictest(_row(tab, "obligation", name)) == {o for o, v in binding.items() if v == top}, name
    deadlines = amounts("deadline", "application_filing")
    earliest = min(deadlines.values())
    assert _strictest(_row(tab, "deadline", "application_filing")) == {o for o, d in deadlines.items() if d == earliest}
    permit = _row(tab, "status", "permit_required")
    assert _strictest(permit) == set()  # every ordinance requires one: nothing to tell apart


def test_time_limits_are_strictest_when_smallest_as_the_vocabulary_declares():
    assert "ambulance_response_minutes" in upper_limits()
    records = [{"event": "e", "ordinance": o, "jurisdiction": "", "title": "", "status": "permit_required",
                "permit_required": True, "conclusions": [
                    {"kind": "obligation", "name": "ambulance_response_minutes", "value": minutes, "unit": "minutes",
                     "modality": "shall", "clauses": ["x"]}]} for o, minutes in (("trempealeau", 10), ("gem", 20))]
    assert _strictest(_row(table(records), "obligation", "ambulance_response_minutes")) == {"trempealeau"}


def test_shall_outranks_may_and_an_unstated_amount_leaves_the_row_unranked():
    [tab] = compare(load_events(FESTIVAL))
    toilets = _row(tab, "obligation", "toilets")
    assert toilets["cells"]["village"]["items"][0]["modality"] == "may"
    assert not toilets["cells"]["village"]["strictest"]
    fee = _row(tab, "obligation", "license_fee_usd")
    assert any(c["items"] and c["items"][0]["value"] is None for c in fee["cells"].values())
    assert _strictest(fee) == set() and fee["ranked"] is False


def test_compare_formats_on_the_command_line():
    event = str(FESTIVAL)
    markdown = run("compare", event, "--ordinances", "trempealeau,gem", "--format", "markdown")
    assert markdown.exit_code == 0
    assert "| | trempealeau | gem |" in markdown.output and "**48 [5.security-bond]**" in markdown.output
    rows = list(csv.DictReader(io.StringIO(run("compare", event, "-o", "gem", "-o", "fulton", "--format", "csv").output)))
    assert rows[0]["kind"] == "status" and set(rows[0]) >= {"gem", "fulton", "strictest", "rule"}
    [data] = json.loads(run("compare", event, "--format", "json", "--kinds", "status,obligation").output)
    assert {r["kind"] for r in data["rows"]} == {"status", "obligation"}
    text = run("compare", event, "-o", "trempealeau", "-o", "village")
    assert text.exit_code == 0 and "★" in text.output


def test_compare_rejects_bad_choices_with_exit_2():
    assert CliRunner().invoke(main, ["compare", str(FESTIVAL), "--ordinances", "atlantis"]).exit_code == 2
    bad = CliRunner().invoke(main, ["compare", str(FESTIVAL), "--kinds", "obligation,wishes"])
    assert bad.exit_code == 2 and "wishes" in bad.output
    with pytest.raises(ValueError):
        parse_kinds("nonsense")


# ---------------------------------------------------------------- thresholds

def test_thresholds_are_every_param_fact_of_the_encodings_with_its_registered_clause():
    rows = thresholds()
    for ordinance in encoded_ordinances():
        stated = re.findall(rf"^param\({ordinance},\s*(\w+),\s*(\d+),", encoding_text(ordinance), re.MULTILINE)
        mine = [(r["name"], r["value"]) for r in rows if r["ordinance"] == ordinance]
        assert sorted(mine) == sorted((name, int(value)) for name, value in stated)
    assert all(r["heading"] for r in rows), [r for r in rows if not r["heading"]]
    found = {(r["ordinance"], r["name"]): r for r in rows}
    assert "2,000 or more people" in found[("trempealeau", "attendance_threshold")]["words"]


@pytest.mark.parametrize("ordinance, name, before, after", [
    ("trempealeau", "liability_insurance_usd", "general liability policy providing a minimum coverage of", "aggregate"),
    ("trempealeau", "fire_legal_liability_usd", "fire legal liability policy in the amount of", "; and worker"),
    ("trempealeau", "nurse_threshold", "anticipated assembly of", "or more one registered nurse"),
    ("trempealeau", "persons_per_nurse", "registered nurse for each", "persons or part of"),
    ("vermont", "insurance_bodily_injury_per_occurrence_usd", "minimum limits of", "per occurrence for bodily injury"),
    ("vermont", "insurance_property_damage_per_occurrence_usd", "bodily injury and", "per occurrence for property damage"),
    ("gem", "females_per_toilet", "one toilet for every", "females"),
    ("gem", "males_per_toilet", "one toilet for every", "males;"),
    ("village", "ambulances", "at least", "emergency ambulance"),
])
def test_params_of_one_clause_with_the_same_value_are_quoted_each_at_its_own_place(ordinance, name, before, after):
    """Where one clause writes a number twice for two params, each param's words are centred on its own place."""
    from reasoner.modes.thresholds import SNIPPET

    [row] = [r for r in thresholds([ordinance]) if r["name"] == name]
    words = row["words"].strip("…")
    middle = len(words) // 2
    centre = words[max(0, middle - SNIPPET // 2 - len(before)):middle + SNIPPET // 2 + len(after)]
    assert before in centre and after in centre, (name, words)


def test_thresholds_on_the_command_line():
    out = run("thresholds", "--ordinances", "fulton", "--format", "csv").output
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {r["ordinance"] for r in rows} == {"fulton"}
    assert any(r["name"] == "attendance_threshold" and r["value"] == str(P[("fulton", "attendance_threshold")]) for r in rows)
    assert run("thresholds", "-o", "gem", "--format", "markdown").output.startswith("| ordinance |")
    assert run("thresholds", "-o", "vermont").exit_code == 0


# ---------------------------------------------------------------- sweeps

def permit_from(result, ordinance):
    return result.first(ordinance, "status", "permit_required", after="permit_required")


def test_sweep_finds_each_permit_threshold_where_the_params_put_it():
    result = sweep(probe(), "attendance=50..2500", kinds=("status",))
    assert permit_from(result, "trempealeau") == P[("trempealeau", "attendance_threshold")]   # 2,000 or more
    assert permit_from(result, "gem") == P[("gem", "attendance_threshold")]                   # 350 or more
    assert permit_from(result, "fulton") == P[("fulton", "attendance_threshold")] + 1         # greater than 500
    assert permit_from(result, "vermont") == P[("vermont", "small_event_persons")]            # exempt when fewer than 100
    assert permit_from(result, "village") == P[("village", "localized_area_persons")] + 1     # exempt when not over 250
    words = {(r["ordinance"], r["name"]): r["words"] for r in thresholds()}
    for key in [("trempealeau", "attendance_threshold"), ("gem", "attendance_threshold"), ("fulton", "attendance_threshold"),
                ("vermont", "small_event_persons"), ("village", "localized_area_persons")]:
        assert words[key] and f"{P[key]:,}" in words[key], key  # the registry's words state the same number


def test_sweep_finds_the_steps_of_obligations_inside_the_permit_range():
    result = sweep(probe(), "attendance=4000..11000", ["trempealeau", "fulton"], step=1000)
    nurses = P[("trempealeau", "nurse_threshold")]
    assert result.first("trempealeau", "obligation", "nurses", change="appears") == nurses
    # one nurse at 5,000, then one more "for each 5,000 persons or part of 5,000 persons over the first 5,000"
    steps = [(c["at"], c["after"]) for c in result.changes if c["name"] == "nurses" and c["change"] == "changes"]
    assert steps == [(nurses + 1, "2"), (nurses + P[("trempealeau", "persons_per_nurse")] + 1, "3")]
    assert result.first("trempealeau", "obligation", "bond_usd", change="appears") == P[("trempealeau", "bond_threshold")] + 1
    low = sweep(probe(), "attendance=600..1400", ["fulton"], step=400)
    assert low.first("fulton", "obligation", "ems_contract", change="appears") == P[("fulton", "ems_threshold")] + 1


def test_sweep_over_hours_and_filing_dates():
    from datetime import date, timedelta

    hours = sweep(probe(attendance__expected_max=3000, schedule__start="2027-07-16T08:00"), "hours=1..20",
                  ["trempealeau", "village"], kinds=("status",))
    assert permit_from(hours, "trempealeau") == P[("trempealeau", "consecutive_hours_threshold")]
    assert permit_from(hours, "village") == P[("village", "assembly_minimum_hours")] + 1  # more than two hours, in whole hours
    start = date(2027, 7, 16)
    filed = sweep(probe(attendance__expected_max=3000), "filed=2027-05-01..2027-07-10", ["trempealeau", "fulton"])
    for ordinance in ("trempealeau", "fulton"):
        deadline = start - timedelta(days=P[(ordinance, "filing_days_before")])
        assert filed.first(ordinance, "late", "application_filing", change="appears") == (deadline + timedelta(days=1)).isoformat()


def test_every_change_point_is_exact_and_none_is_missed():
    """Against brute force: every value of a small range evaluated one by one."""
    event, ordinances = probe(), ["village", "vermont"]
    result = sweep(event, "attendance=90..270", ordinances, step=60, max_steps=10_000)
    from reasoner.modes.sweep import vary_event

    vary = parse_vary("attendance=90..270")
    records = evaluate([vary_event(event, vary, x) for x in range(90, 271)], ordinances)
    per_point = [records[i:i + 2] for i in range(0, len(records), 2)]

    def view(pair):
        return [(r["status"], [c for c in r["conclusions"] if c["kind"] in result.kinds]) for r in pair]

    brute = [90 + i for i in range(1, len(per_point)) if view(per_point[i]) != view(per_point[i - 1])]
    assert result.change_points == brute
    assert P[("vermont", "small_event_persons")] in brute and P[("village", "localized_area_persons")] + 1 in brute


def test_a_conclusion_that_holds_on_a_single_value_is_found_between_coarse_samples():
    """Fulton notes where "500 or more" (177-6D) and "greater than 500" (177-2) part: at 500 alone."""
    result = sweep(probe(), "attendance=0..3000", ["fulton"], step=1000, kinds=ALL_KINDS)
    at = P[("fulton", "permission_statement_persons")]
    notes = [c for c in result.changes if c["kind"] == "interpretation" and c["name"] == "greater_than_500_governs"]
    assert [(c["at"], c["change"]) for c in notes] == [(at, "appears"), (at + 1, "disappears")]


def test_proportional_amounts_are_tracked_for_presence_only():
    result = sweep(probe(), "attendance=1000..20000", ["gem"])
    moving = {(p["ordinance"], p["name"]) for p in result.proportional}
    assert ("gem", "parking_spaces") in moving and ("gem", "potable_water_gallons_per_day") in moving
    assert not any(c["name"] == "parking_spaces" for c in result.changes)


def test_sweep_on_the_command_line_writes_csv_samples_and_a_plot(tmp_path):
    pytest.importorskip("matplotlib")
    plot, samples = tmp_path / "sweep.png", tmp_path / "samples.csv"
    result = run("sweep", str(HARVEST), "--vary", "attendance=100..6000", "--step", "500", "--ordinances", "trempealeau,gem",
                 "--plot", str(plot), "--samples", str(samples))
    assert result.exit_code == 0
    rows = list(csv.DictReader(io.StringIO(result.output)))
    assert rows[0]["field"] == "attendance"
    gem = [r for r in rows if r["ordinance"] == "gem" and r["kind"] == "status"]
    assert gem[0]["at"] == str(P[("gem", "attendance_threshold")]) and gem[0]["after"] == "permit_required"
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and plot.stat().st_size > 10_000
    sampled = list(csv.DictReader(samples.open(encoding="utf-8")))
    assert {"at", "ordinance", "kind", "name", "value"} <= set(sampled[0])
    assert run("sweep", str(HARVEST), "--vary", "hours=1..30", "-o", "trempealeau", "--format", "text").exit_code == 0
    data = json.loads(run("sweep", str(HARVEST), "--vary", "filed=2027-05-01..2027-07-01", "-o", "gem", "--format", "json").output)
    assert data["field"] == "filed" and data["change_points"]


def test_the_sweep_csv_is_the_same_whatever_the_step_and_names_the_proportional_amounts():
    """Coarse or fine, the grid must find the same change points; amounts that move at every step are one row each."""
    outputs = [run("sweep", str(HARVEST), "--vary", "attendance=100..20000", "-o", "trempealeau", "--step", str(step)).output
               for step in (500, 10000, 19900)]
    assert outputs[0] == outputs[1] == outputs[2]
    rows = list(csv.DictReader(io.StringIO(outputs[0])))
    toilets = [r for r in rows if r["name"] == "toilets" and r["kind"] == "obligation"]
    assert [r["change"] for r in toilets] == ["appears", "proportional"]
    assert toilets[1]["at"] == "2000..20000" and (toilets[1]["before"], toilets[1]["after"]) == ("7", "67")


def test_a_sweep_refuses_unwritable_outputs_and_unknown_plot_names_before_it_works(tmp_path):
    for args in (["--samples", "/nonexistent-folder/s.csv"], ["--plot", "/nonexistent-folder/p.png"],
                 ["--plot", str(tmp_path / "p.png"), "--plot-obligations", "toilet"]):
        result = run("sweep", str(HARVEST), "--vary", "attendance=100..20000", "-o", "trempealeau", *args)
        assert result.exit_code == 2 and "error:" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("spec", ["attendance", "attendance=9..1", "filed=May..June", "site.seating_capacity=-5..10",
                                  "nothing.here=1..3"])
def test_a_bad_vary_exits_2(spec):
    result = CliRunner().invoke(main, ["sweep", str(HARVEST), "--vary", spec, "-o", "gem"])
    assert result.exit_code == 2 and "error:" in result.output and "Traceback" not in result.output


def test_the_core_commands_do_not_import_matplotlib():
    import subprocess
    import sys

    code = ("import sys; from reasoner import cli, service; from reasoner.modes import compare, sweep, thresholds; "
            "assert 'matplotlib' not in sys.modules, 'matplotlib imported'")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True).returncode == 0


def test_a_plot_without_matplotlib_says_how_to_get_it(tmp_path, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    result = CliRunner().invoke(main, ["sweep", str(HARVEST), "--vary", "attendance=100..500", "-o", "gem",
                                       "--plot", str(tmp_path / "x.png")])
    assert result.exit_code == 1 and "pip install 'reasoner[plot]'" in result.output


# ---- compare --readings (issue 29): where the answers differ because of a reading, and where whatever the reading

from reasoner.law.ordinances import ordinance_readings  # noqa: E402
from reasoner.modes.compare import compare_readings  # noqa: E402
from reasoner.program import chosen_readings  # noqa: E402

WEDDING = {"id": "farm-wedding", "kinds": ["wedding"], "attendance": {"expected_max": 800},
           "schedule": {"start": "2027-07-10T14:00", "end": "2027-07-10T23:00"},
           "site": {"kind": "open_land"}, "organizer": {"kind": "individual"}}
LATE_CONCERT = {"id": "late-concert", "kinds": ["concert"], "attendance": {"expected_max": 2500},
                "schedule": {"start": "2027-07-17T18:00", "end": "2027-07-18T01:00"},
                "site": {"kind": "open_land"}, "organizer": {"kind": "individual"}}
READING_CASES = [(WEDDING, ["fulton", "vermont", "village"]), (LATE_CONCERT, ["trempealeau", "gem", "fulton"])]


def _value(row, ordinance):
    """A row's answer for one ordinance, read off the plain table's cell: the status, or each item's value."""
    cell = row["cells"][ordinance]
    if row["kind"] == "status":
        return cell["value"]
    if row["kind"] == "reason":
        return tuple(sorted(repr(i["holds"]) for i in cell["items"]))
    return tuple(sorted(repr(True if i.get("value") is None else i["value"]) for i in cell["items"]))


def _plain_tables(record, ordinances, alternatives):
    """Plain comparisons of the event: on the defaults (None) and with each single reading chosen by hand."""
    events = parse_events(record, "t")
    found = {None: compare(events, ordinances, ALL_KINDS)[0]}
    for chosen in alternatives:
        with chosen_readings([chosen]):
            found[chosen] = compare(events, ordinances, ALL_KINDS)[0]
    return found


def _row_of(tab, key):
    return next((r for r in tab["rows"] if (r["kind"], r["name"]) == key), None)


def _agree(row, ordinances):
    return row is None or len({_value(row, o) for o in ordinances}) == 1


@pytest.mark.parametrize("record, ordinances", READING_CASES, ids=["wedding", "late-concert"])
def test_compare_readings_says_what_hand_chosen_readings_show(record, ordinances):
    """Each verdict of compare --readings is what plain comparisons with the readings chosen by hand show: a row
    that differs because of a reading agrees once one of the readings that move it is chosen; one that differs
    whatever the reading still differs under every single alternative; one that agrees on the defaults only
    differs under some reading that moves it; a row without a verdict agrees under every single alternative.
    Interpretation rows (the notes that state a reading) get no verdict."""
    [tab] = compare_readings(parse_events(record, "t"), ordinances, ALL_KINDS)
    alternatives = [((o, i), r) for o in ordinances for i, rs in ordinance_readings().get(o, {}).items() for r in rs[1:]]
    plain = _plain_tables(record, ordinances, alternatives)
    assert any("readings" in row for row in tab["rows"])
    for row in (r for r in tab["rows"] if r["kind"] != "interpretation"):  # notes: the readings' own words
        key = (row["kind"], row["name"])
        found = row.get("readings")
        default = _agree(_row_of(plain[None], key), ordinances)
        if found is None:
            assert default and all(_agree(_row_of(plain[c], key), ordinances) for c in alternatives), key
            continue
        chosen = [((m["ordinance"], m["interpretation"]), m["reading"]) for m in found["moved_by"]]
        if found["verdict"] == "differ_whatever_the_reading":
            assert not default and all(not _agree(_row_of(plain[c], key), ordinances) for c in alternatives), key
        elif found["verdict"] == "differ_because_of_a_reading":
            assert not default and any(_agree(_row_of(plain[c], key), ordinances) for c in chosen), key
        else:
            assert found["verdict"] == "agree_on_the_default_readings_only"
            assert default and any(not _agree(_row_of(plain[c], key), ordinances) for c in chosen), key


def test_compare_readings_of_one_ordinance_sets_each_reading_beside_the_default(tmp_path):
    """One ordinance: a column on the default readings and one per alternative that moves an answer, each the
    plain comparison with that reading chosen by hand; the text names the verdict of several ordinances."""
    events = parse_events(WEDDING, "t")
    [tab] = compare_readings(events, ["fulton"], ALL_KINDS)
    columns = [o["column"] for o in tab["ordinances"]]
    assert columns == ["fulton on the default readings", "fulton on weddings_exempt_anywhere=listed_venues_only"]
    [plain] = compare(events, ["fulton"], ALL_KINDS)
    with chosen_readings([(("fulton", "weddings_exempt_anywhere"), "listed_venues_only")]):
        [other] = compare(events, ["fulton"], ALL_KINDS)
    for shown, by_hand in ((columns[0], plain), (columns[1], other)):
        cells = {(r["kind"], r["name"]): r["cells"][shown]["text"] for r in tab["rows"]}
        for row in by_hand["rows"]:
            assert cells[(row["kind"], row["name"])] == row["cells"]["fulton"]["text"]
    path = tmp_path / "wedding.json"
    path.write_text(json.dumps(WEDDING))
    text = CliRunner().invoke(main, ["compare", str(path), "-o", "fulton", "-o", "vermont", "--readings"],
                              env={"COLUMNS": "200"})
    assert text.exit_code == 0, text.output
    assert ("exemption: wedding: differ because of a reading (fulton weddings_exempt_anywhere=listed_venues_only "
            "gives none)") in text.output
    plain_text = CliRunner().invoke(main, ["compare", str(path), "-o", "fulton", "-o", "vermont"], env={"COLUMNS": "200"})
    assert "because of a reading" not in plain_text.output
    refused = CliRunner().invoke(main, ["compare", str(path), "-o", "fulton", "--readings", "--versions", "2027-01-01,2027-06-01"])
    assert refused.exit_code == 2 and "use one of them" in refused.output
