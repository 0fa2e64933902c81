"""Unknown facts: certain/possible answers equal brute-force enumeration of every completion; questions
are relevant and settle what they say; whatif changes really flip the conclusion, and minimally."""
from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from reasoner.cli import main
from reasoner.evaluate import evaluate
from reasoner.events.model import Event, Range
from reasoner.events.loading import parse_events
from reasoner.unknowns import EXACT_RANGE_LIMIT, evaluate_uncertain, questions
from reasoner.law.locator import encoded_ordinances
from reasoner.modes.whatif import whatif

ORDINANCES = encoded_ordinances()
ROOT = Path(__file__).resolve().parents[1]

BASE = {"id": "u", "kinds": ["festival"], "attendance": {"expected_max": 2000},
        "schedule": {"start": "2027-07-17T10:00", "end": "2027-07-17T23:00"},
        "flags": ["open_to_public", "participation_fee", "primary_purpose_music"], "site": {"kind": "open_land"}}
# Music is the festival's principal entertainment, so that Mississippi's "rock festival" (45-21-1) can be reached too;
# no other ordinance reads the flag.
FLAG_UNKNOWNS = ["flags.alcohol_sold", "flags.camping", "flags.licensed_under_other_county_rules",
                 "special_services.road_closure", "site.flags.within_incorporated_municipality", "kinds.wedding",
                 "findings.endangers_public", "schedule.darkness"]


def event(**changes) -> Event:
    return parse_events({**BASE, **changes}, "test")[0]


def completions(e: Event) -> list[Event]:
    """Every completion of an event's unknown facts, as plain events (the brute force)."""
    choices = []
    for path in e.unknown:
        if path == "schedule.darkness":
            choices.append([(path, True), (path, False)])
        elif path == "site.kind":
            from reasoner.law.vocabulary import names
            choices.append([(path, k) for k in names("site_kinds")])
        else:
            choices.append([(path, True), (path, False)])
    peak = e.attendance.expected_max
    peaks = range(peak.min, peak.max + 1) if isinstance(peak, Range) else [peak]
    out = []
    for number, (people, picked) in enumerate(itertools.product(peaks, itertools.product(*choices))):
        data = e.model_dump(mode="json")
        data["id"], data["unknown"] = f"c{number}", []
        data["attendance"]["expected_max"] = people
        for path, value in picked:
            if path == "schedule.darkness":
                data["schedule"]["darkness"] = value
            elif path == "site.kind":
                data["site"]["kind"] = value
            else:
                prefix, _, name = path.rpartition(".")
                holder = data["site"] if prefix == "site.flags" else data
                key = "flags" if prefix in ("flags", "site.flags") else prefix
                if value:
                    holder[key] = sorted(set(holder[key]) | {name})
        out.append(Event.model_validate(data))
    return out


def key(c: dict, with_value: bool) -> tuple:
    fields = ("kind", "name", "modality", "clauses", "holds") + (("value", "required", "provided", "min", "max") if with_value else ())
    return tuple(json.dumps(c.get(f)) for f in fields)


def brute_force(e: Event, with_values: bool):
    """Per ordinance: conclusions in every completion, in some, and each obligation's quantity range."""
    results = evaluate(completions(e), ORDINANCES)
    out = {}
    for ordinance in ORDINANCES:
        mine = [r for r in results if r["ordinance"] == ordinance]
        sets, ranges = [], {}
        for record in mine:
            found = set()
            for c in record["conclusions"]:
                found.add(key(c, with_values and c["kind"] != "obligation"))
                if c["kind"] == "obligation" and isinstance(c["value"], (int, float)):
                    low, high = ranges.get(c["name"] + str(c["clauses"]), (c["value"], c["value"]))
                    ranges[c["name"] + str(c["clauses"])] = (min(low, c["value"]), max(high, c["value"]))
            sets.append(found)
        out[ordinance] = (set.intersection(*sets), set.union(*sets), ranges)
    return out


def solver_answer(e: Event, with_values: bool):
    out = {}
    for record in evaluate_uncertain(e, ORDINANCES):
        certain, possible, ranges = set(), set(), {}
        for c in record["conclusions"]:
            k = key(c, with_values and c["kind"] != "obligation")
            possible.add(k)
            if c["certainty"] == "certain":
                certain.add(k)
            if c["kind"] == "obligation" and (c.get("range") or isinstance(c["value"], (int, float))):
                low, high = c.get("range") or (c["value"], c["value"])
                ranges[c["name"] + str(c["clauses"])] = (low, high)
        out[record["ordinance"]] = (certain, possible, ranges)
    return out


def compare(e: Event, with_values: bool) -> None:
    expected, got = brute_force(e, with_values), solver_answer(e, with_values)
    for ordinance in ORDINANCES:
        (want_certain, want_possible, want_ranges), (have_certain, have_possible, have_ranges) = expected[ordinance], got[ordinance]
        assert have_possible == want_possible, (ordinance, have_possible ^ want_possible)
        if with_values:
            assert have_certain == want_certain, (ordinance, have_certain ^ want_certain)
        assert have_ranges == want_ranges, ordinance


@pytest.mark.parametrize("seed", range(6))
def test_certain_and_possible_equal_brute_force_on_random_small_events(seed):
    rng = random.Random(seed)
    low = rng.choice([90, 240, 480, 990, 1980, 4990])
    unknown = rng.sample(FLAG_UNKNOWNS, 3) + (["site.kind"] if seed == 1 else [])
    e = event(attendance={"expected_max": {"min": low, "max": low + rng.randint(5, 15)}}, unknown=unknown,
              site={"kind": "open_land", "seating_capacity": max(0, low - 100)})
    compare(e, with_values=True)


@pytest.mark.parametrize("low, high, provided", [(1850, 2160, {"toilets": 7, "security_guards": 2}),
                                                 (4900, 5210, {"parking_spaces": 1290, "toilets": 17})])
def test_wide_ranges_are_exact_at_their_breakpoints(low, high, provided):
    assert high - low + 1 > EXACT_RANGE_LIMIT
    e = event(attendance={"expected_max": {"min": low, "max": high}}, unknown=["flags.camping"], provisions=provided,
              site={"kind": "permanent_venue", "seating_capacity": low + 400})
    compare(e, with_values=False)


def test_a_wide_range_is_exact_at_an_auction_site_capacity_plus_its_margin():
    """Gem exempts an auction within its site's capacity plus 250: with capacity 400, from 651 a license is
    needed, so every quantity's range starts at 651's (parking 163, not 250), though 300..1000 is sampled."""
    e = event(kinds=["auction"], attendance={"expected_max": {"min": 300, "max": 1000}}, unknown=["flags.camping"],
              site={"kind": "open_land", "capacity": 400})
    compare(e, with_values=False)


def permit_status(e: Event, ordinance: str) -> str:
    [record] = evaluate_uncertain(e, [ordinance]) if e.has_unknowns else evaluate([e], [ordinance])
    return record["status"]


@pytest.mark.parametrize("ordinance", ORDINANCES)
def test_every_ordinance_has_certain_possible_and_impossible_permit_duties(ordinance):
    music = BASE["flags"] + ["music_provided"]  # a festival with music: Missouri's festival is a musical activity
    wide = event(attendance={"expected_max": {"min": 10, "max": 20000}}, unknown=["flags.camping"], flags=music,
                 schedule={"start": "2027-07-17T10:00", "end": "2027-07-18T23:00"})  # long enough for every statute's hours
    small = event(attendance={"expected_max": {"min": 10, "max": 20}}, unknown=["flags.camping"], flags=music)
    large = event(attendance={"expected_max": {"min": 15000, "max": 20000}}, unknown=["flags.camping"], flags=music,
                  schedule={"start": "2027-07-17T10:00", "end": "2027-07-18T23:00"})
    assert permit_status(wide, ordinance) == "possibly_required"
    assert permit_status(small, ordinance) in ("not_regulated", "exempt")
    assert permit_status(large, ordinance) == "permit_required"


def test_questions_are_relevant_and_their_answers_settle_what_they_claim():
    e = event(attendance={"expected_max": {"min": 1500, "max": 2500}},
              unknown=["flags.alcohol_sold", "findings.prior_misconduct", "site.kind"])
    report = questions(e, ["trempealeau"])
    facts = [q["fact"] for q in report["questions"]]
    assert facts[0] == "attendance.expected_max"
    assert report["questions"][0]["settles_permit_for"] == ["trempealeau"]
    pieces = report["questions"][0]["answers"]
    assert [(p["from"], p["to"], p["permit"]["trempealeau"]) for p in pieces] == [
        (1500, 1999, "not_required"), (2000, 2500, "required")]
    # Trempealeau does not turn on alcohol or prior misconduct: they are not asked.
    assert "flags.alcohol_sold" not in facts and "findings.prior_misconduct" not in facts
    for p in pieces:
        answered = e.model_copy(update={"attendance": e.attendance.model_copy(update={"expected_max": p["from"]})})
        assert permit_status(answered, "trempealeau") != "possibly_required"


def test_an_event_without_unknown_facts_has_no_questions():
    assert questions(event(unknown=[]), ["trempealeau"])["questions"] == []


@pytest.mark.parametrize("keep, fact, value", [(("schedule",), "attendance.expected_max", 1999),
                                               (("attendance",), "schedule.end", "2027-07-17T21:59")])
def test_whatif_flips_the_permit_with_the_smallest_change(keep, fact, value):
    e = event(attendance={"expected_max": 3500})
    report = whatif(e, "trempealeau", "permit_required", keep)
    assert report["holds_now"] and report["verified"]
    assert report["changes"] == [{"fact": fact, "from": e.attendance.expected_max if fact.startswith("att") else "2027-07-17T23:00", "to": value}]
    assert "6.01(2)(a)" in report["clauses"]
    # with nothing kept, ending 61 minutes earlier (8% of the event) beats cutting 43% of the crowd
    assert whatif(e, "trempealeau", "permit_required")["changes"][0]["fact"] == "schedule.end"
    if fact.startswith("att"):  # one person more would still need a license
        assert permit_status(event(attendance={"expected_max": value + 1}), "trempealeau") == "permit_required"


def test_whatif_can_make_a_conclusion_hold():
    report = whatif(event(attendance={"expected_max": 3500}), "trempealeau", "nurses")
    assert report["changes"] == [{"fact": "attendance.expected_max", "from": 3500, "to": 5000}]
    assert report["verified"] and report["clauses"] == ["6.01(3)5"]


def test_whatif_refuses_unknown_groups():
    from reasoner.modes.whatif import WhatIfError

    with pytest.raises(WhatIfError):
        whatif(event(), "trempealeau", "permit_required", keep=("weather",))


def test_cli_questions_whatif_and_uncertain_evaluate():
    runner = CliRunner()
    example = str(ROOT / "facts" / "events" / "unknown-festival.yaml")
    out = runner.invoke(main, ["evaluate", example, "-o", "trempealeau", "--format", "json"], catch_exceptions=False)
    [record] = json.loads(out.output)
    assert record["status"] == "possibly_required" and record["permit_required"] is None
    toilets = next(c for c in record["conclusions"] if c["name"] == "toilets")
    assert toilets["certainty"] == "possible" and toilets["range"] == [7, 9]
    asked = runner.invoke(main, ["questions", example, "-o", "trempealeau"], catch_exceptions=False)
    assert asked.exit_code == 0 and "attendance.expected_max" in asked.output
    harvest = str(ROOT / "facts" / "events" / "harvest-music-festival.yaml")
    flipped = runner.invoke(main, ["whatif", harvest, "-o", "trempealeau", "--flip", "permit_required"], catch_exceptions=False)
    assert flipped.exit_code == 0 and "attendance.expected_max: 3500 → 1999" in flipped.output
    bad = runner.invoke(main, ["whatif", harvest, "-o", "trempealeau", "--flip", "permit_required", "--keep", "weather"])
    assert bad.exit_code == 2


def test_an_unknown_path_that_is_not_a_fact_is_refused():
    from reasoner.events.loading import EventFileError

    with pytest.raises(EventFileError, match="not a fact that can be unknown"):
        event(unknown=["flags.free_beer"])
    with pytest.raises(EventFileError, match="stated and also listed as unknown"):
        event(unknown=["flags.open_to_public"])


@pytest.mark.parametrize("split, lowest", [({"male": 450}, 450), ({"female": 120, "male": 330}, 450), ({"female": 10}, 400)])
def test_a_peak_below_the_stated_split_is_no_completion(split, lowest):
    """450 males stated: the peak is at least 450, though the range says 400..500."""
    from reasoner.unknowns import unknowns_of

    e = event(attendance={"expected_max": {"min": 400, "max": 500}, **split})
    [attendance] = [u for u in unknowns_of(e, 1, tuple(ORDINANCES)) if u.path == "attendance.expected_max"]
    values = [value for value, _ in attendance.values]
    assert min(values) == lowest and max(values) == 500
    [record] = evaluate_uncertain(e, ["village"])
    toilets = {c["name"]: c for c in record["conclusions"] if c["kind"] == "obligation"}
    females = [n - split.get("male", 0) for n in range(lowest, 501)] if "female" not in split else [split["female"]]
    assert toilets["toilets_female"].get("range", [toilets["toilets_female"]["value"]] * 2)[0] == \
        min(-(-f // 200) for f in females)


def _combined_status(statuses: set[str]) -> str:
    """The status of an event over its completions, as brute force sees it."""
    if statuses == {"permit_required"}:
        return "permit_required"
    if "permit_required" in statuses:
        return "possibly_required"
    if statuses == {"exempt"}:
        return "exempt"
    return "possibly_exempt" if "exempt" in statuses else "not_regulated"


@pytest.mark.parametrize("seed", range(6))
def test_wide_ranges_equal_brute_force_in_status_shortfalls_and_quantities(seed):
    """Issue 16: a range wider than the enumerated limit is reasoned at its change points, and every status,
    shortfall (certainty and amounts) and quantity must equal enumerating every value, under all five."""
    rng = random.Random(1600 + seed)
    low = rng.choice([150, 240, 330, 480, 900, 1850, 4850])
    high = low + rng.randint(EXACT_RANGE_LIMIT + 5, 420)
    provided = {name: rng.randint(1, 40) * step for name, step in
                (("parking_spaces", 10), ("toilets", 1), ("security_guards", 1)) if rng.random() < 0.7}
    site = rng.choice([{"kind": "open_land"}, {"kind": "permanent_venue", "seating_capacity": low + rng.randint(0, 300)}])
    e = event(attendance={"expected_max": {"min": low, "max": high}}, provisions=provided, site=site,
              kinds=[rng.choice(["festival", "auction", "concert"])])
    plain = evaluate(completions(e), ORDINANCES)
    solved = {r["ordinance"]: r for r in evaluate_uncertain(e, ORDINANCES)}
    for ordinance in ORDINANCES:
        records = [r for r in plain if r["ordinance"] == ordinance]
        assert solved[ordinance]["status"] == _combined_status({r["status"] for r in records}), ordinance
        shorts: dict[str, list] = {}
        for record in records:
            for c in record["conclusions"]:
                if c["kind"] == "shortfall":
                    shorts.setdefault(c["name"], []).append(c["value"])
        mine = {c["name"]: c for c in solved[ordinance]["conclusions"] if c["kind"] == "shortfall"}
        assert set(mine) == set(shorts), ordinance
        for name, values in shorts.items():
            certain = len(values) == len(records)
            assert (mine[name]["certainty"] == "certain") is certain, (ordinance, name)
            got = mine[name].get("range") or [mine[name]["value"], mine[name]["value"]]
            assert got == [min(values), max(values)], (ordinance, name)
    compare(e, with_values=False)


def test_an_agricultural_fair_whose_description_may_not_have_been_delivered_possibly_needs_a_license():
    """Connecticut 19a-443(c)(4): the exception holds only if the description was hand-delivered ninety days ahead;
    a delivery not known yet leaves the license possible and is the question that settles it."""
    fair = parse_events({"id": "fair", "kinds": ["fair"], "attendance": {"expected_max": 3000, "average": 2500},
                         "schedule": {"start": "2027-07-16T08:00", "end": "2027-07-16T22:00"},
                         "flags": ["agricultural_fair", "annual_event", "nonprofit_organizer"], "held_annually_since": 2017,
                         "site": {"kind": "fairgrounds"}, "organizer": {"kind": "association", "site_interest": "owner"},
                         "unknown": ["flags.agricultural_fair_description_delivered"]}, "test")[0]
    [record] = evaluate_uncertain(fair, ["connecticut"])
    assert record["status"] == "possibly_required"
    found = {(c["kind"], c["name"]): c["certainty"] for c in record["conclusions"]}
    assert found[("exemption", "annual_agricultural_fair")] == "possible"
    assert found[("permit_required", "permit_required")] == "possible"
    assert found[("deadline", "agricultural_fair_description")] == "certain"
    [asked] = questions(fair, ["connecticut"])["questions"]
    assert asked["fact"] == "flags.agricultural_fair_description_delivered"


@pytest.mark.parametrize("peak, status", [(1999, "not_regulated"), (2000, "possibly_required")])
def test_an_unknown_average_lies_at_most_at_the_peak(peak, status):
    """Connecticut 19a-436(a) counts the average over all hours: one left unknown ranges from 0 to the peak, never
    above it (it ranged to 10,000,000, so 1,999 at the peak was "possibly required")."""
    e = parse_events({"id": "a", "attendance": {"expected_max": peak, "average": "unknown"},
                      "schedule": {"start": "2027-07-16T08:00", "end": "2027-07-17T08:00"}}, "t")[0]
    [record] = evaluate_uncertain(e, ["connecticut"])
    assert record["status"] == status
    counted = [c.get("range") or [c["actual"]] for c in record["conclusions"] if c["kind"] == "reason" and c["name"] == "counted_at_least"]
    assert counted and max(max(r) for r in counted) == peak, counted


def test_a_peak_left_open_is_its_largest_session_s_where_every_session_states_one():
    e = parse_events({"id": "a", "attendance": {"expected_max": {"min": 2000, "max": 7000}},
                      "schedule": {"sessions": [{"start": "2027-07-16T08:00", "end": "2027-07-17T06:00", "expected_max": 5000},
                                                {"start": "2027-07-17T18:00", "end": "2027-07-17T21:00", "expected_max": 4000}]}}, "t")[0]
    [record] = evaluate_uncertain(e, ["wyoming"])
    [bond] = [c for c in record["conclusions"] if c["name"] == "bond_usd" and c["kind"] == "obligation"]
    assert record["status"] == "permit_required" and bond["value"] == 5000 and bond["certainty"] == "certain", bond
