"""Sample events that between them state every input predicate and every vocabulary name atoms.py can write:
`reasoner check` grounds each encoding with them, and the catalog of conclusions is read off that grounding."""
from __future__ import annotations

from reasoner.events.model import Event
from reasoner.law.vocabulary import names


def sample_events() -> list:
    """Events that between them state every input predicate and every vocabulary name atoms.py can write."""
    kinds = names("event_kinds")
    sites, organizers, sponsors, interests = (names(s) for s in ("site_kinds", "organizer_kinds", "sponsor_kinds", "site_interests"))
    every = {
        "kinds": list(kinds), "flags": list(names("event_flags")), "special_services": list(names("special_services")),
        "findings": list(names("findings")), "imposed_conditions": list(names("obligations")),
        "provisions": {name: 1 for name in names("obligations")},
    }
    application = {"filed": "2027-05-01", "hearing_date": "2027-05-20", "contents": list(names("application_items")), "approvals": list(names("approvals")),
                   "bond_usd": 1000, "fee_paid_usd": 100,
                   "insurance": {"general_liability_aggregate_usd": 1_000_000, "per_occurrence_bodily_injury_usd": 1_000_000,
                                 "per_occurrence_property_damage_usd": 1_000_000, "fire_legal_liability_usd": 1_000_000,
                                 "workers_compensation": True, "names_government_as_insured": True}}
    count = max(len(sites), len(organizers), len(sponsors), len(interests), 3)
    events = []
    for index in range(2 * count):
        darkness = (True, False, None)[index % 3]
        plain = index >= count  # no flags, kinds or findings: no exemption gets in the way of the obligations
        record = {
            "id": f"sample-{index}", "attendance": {"expected_max": 6000 + index, "total": 9000, "average": 4000, "female": 3000, "male": 2000,
                                                   "board_finding": 5500, "max_tickets": 6000},
            "schedule": {"start": "2027-07-16T12:00", "end": "2027-07-18T02:00", "darkness": darkness},
            "site": {"kind": sites[index % len(sites)], "seating_capacity": 5000, "capacity": 5000, "locations": 2,
                     "county_population": 1_000_000,
                     "flags": [] if plain else list(names("site_flags"))},
            "organizer": {"kind": organizers[index % len(organizers)], "sponsor": sponsors[index % len(sponsors)],
                          "applicant_age": 17 + index % 3, "person_in_charge_age": 17 + index % 3,
                          "site_interest": interests[index % len(interests)]},
            "application": application, "held_annually_since": 1995 + index,
            # the plain events are music, outdoors: the statutes that reach only music festivals reach them too
            **({"kinds": [kinds[index % len(kinds)]], "flags": ["open_to_public", "admission_fee", "participation_fee",
                                                                "primary_purpose_music", "music_provided", "outdoors"],
                "provisions": {name: index % 2 for name in names("obligations")}} if plain else every),
        }
        if darkness is None:
            record["schedule"].pop("darkness")
            record["schedule"].update(start="2027-12-16T12:00", end="2027-12-16T20:00")
        events.append(Event.model_validate(record))
    events.append(Event.model_validate({"id": "sample-small", "attendance": {"expected_max": 50},
                                        "schedule": {"start": "2027-07-16T10:00", "end": "2027-07-16T12:00"}}))
    return events
