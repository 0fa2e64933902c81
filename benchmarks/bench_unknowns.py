"""Unknown facts: how long certain/possible answers, questions, explanations and whatif take (medians).

Usage: python benchmarks/bench_unknowns.py [--repeat 5] [--publish]
The event has 20 unknown facts (18 yes/no facts, the site kind, darkness) and an attendance range,
and is evaluated under every encoded ordinance; the bundled unknown festival is explained and what-if'd
under Trempealeau. --publish writes the figures into docs/performance.md's block `unknowns`. Then (printed only) a
three-day fair open from 10:00, its daily closing time known, a range, or unknown, side by side (and a
seven-day one unknown).
"""
from __future__ import annotations

import argparse

from timing import ROOT, median_ms, publish, table

from reasoner.evaluate import evaluate_any
from reasoner.modes.explain import explain
from reasoner.events.loading import load_events, parse_events
from reasoner.unknowns import Completions, evaluate_uncertain, questions
from reasoner.law.locator import encoded_ordinances
from reasoner.modes.whatif import whatif

UNKNOWN = ["flags.alcohol_sold", "flags.camping", "flags.amplified_sound", "flags.participation_fee", "flags.admission_fee",
           "flags.open_to_public", "flags.food_sold", "flags.uses_public_roads", "flags.fermented_malt_beverages_sold",
           "flags.government_approved", "special_services.road_closure", "special_services.traffic_control",
           "findings.endangers_public", "findings.false_information", "findings.hazardous_location",
           "site.flags.properly_zoned", "site.flags.within_incorporated_municipality", "kinds.wedding",
           "site.kind", "schedule.darkness"]
UNKNOWN_FESTIVAL = ROOT / "facts" / "events" / "unknown-festival.yaml"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--publish", action="store_true", help="Write the figures into docs/performance.md.")
    args = parser.parse_args()
    ordinances = encoded_ordinances()
    record = {"id": "bench", "kinds": ["festival"], "attendance": {"expected_max": {"min": 1500, "max": 6000}},
              "schedule": {"start": "2027-07-17T10:00", "end": "2027-07-18T01:30"}, "unknown": UNKNOWN}
    event = parse_events(record, "bench")[0]
    known = parse_events({**record, "attendance": {"expected_max": 3500}, "unknown": []}, "bench")[0]
    festival = load_events(UNKNOWN_FESTIVAL)[0]
    completions = Completions(event, ordinances)
    sizes = ", ".join(f"{u.path}: {len(u.values)}" for u in completions.unknowns if len(u.values) > 2)
    print(f"{len(UNKNOWN)} unknown facts + attendance 1,500-6,000 ({sizes}); ordinances: {', '.join(ordinances)}")
    print(f"median of {args.repeat} runs, in one process")
    rows = [
        (f"{len(UNKNOWN)} unknown facts and a range, all {len(ordinances)} ordinances: evaluate (brave + cautious)",
         lambda: evaluate_uncertain(event, ordinances)),
        ("the same: questions", lambda: questions(event, ordinances)),
        ("whatif permit_required, trempealeau, the event with every fact known", lambda: whatif(known, "trempealeau", "permit_required")),
        ("unknown festival: explain permit_required, trempealeau", lambda: explain(festival, "trempealeau", "permit_required")),
        ("unknown festival: explain toilets, trempealeau", lambda: explain(festival, "trempealeau", "toilets")),
        ("unknown festival: explain every conclusion, trempealeau", lambda: explain(festival, "trempealeau")),
        ("unknown festival: whatif permit_required, trempealeau", lambda: whatif(festival, "trempealeau", "permit_required")),
    ]
    measured = []
    for label, action in rows:
        ms = median_ms(action, args.repeat)
        measured.append((label, f"{ms:,.0f} ms"))
        print(f"  {label:<95} {ms:8.1f} ms", flush=True)
    if args.publish:
        publish("unknowns", table(("run", f"median of {args.repeat}"), measured),
                f"python benchmarks/bench_unknowns.py --repeat {args.repeat}")

    closing_hours(ordinances, args.repeat)


def closing_hours(ordinances: tuple[str, ...], repeat: int) -> None:
    """The same fair with its closing time known, a range, or unknown: evaluate and questions, side by side."""
    def fair(close: object, last_day: str = "2027-07-18"):
        return parse_events({"id": "fair", "kinds": ["fair"], "attendance": {"expected_max": 2600},
                             "schedule": {"daily": {"first_day": "2027-07-16", "last_day": last_day, "open": "10:00",
                                                    "close": close}}}, "bench")[0]

    print(f"closing time of a fair open from 10:00, 2,600 at peak; median of {repeat} runs")
    print(f"  {'close':34} {'candidates':>10} {'evaluate':>12} {'questions':>12}")
    for label, event in (("21:00, 3 days (no unknowns)", fair("21:00")),
                         ("21:00..01:00, 3 days", fair({"min": "21:00", "max": "01:00"})),
                         ("unknown, 3 days", fair("unknown")), ("unknown, 7 days", fair("unknown", "2027-07-22"))):
        if event.has_unknowns:
            [unknown] = Completions(event, ordinances).unknowns
            size = str(len(unknown.values))
            asked = f"{median_ms(lambda: questions(event, ordinances), repeat):9.1f} ms"
        else:
            size, asked = "-", "-"
        timed = median_ms(lambda: evaluate_any([event], ordinances), repeat)
        print(f"  {label:34} {size:>10} {timed:9.1f} ms {asked:>12}")


if __name__ == "__main__":
    main()
