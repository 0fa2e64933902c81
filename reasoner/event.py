"""The event file format: a pydantic model of every fact an ordinance can turn on (loading: reasoner/loading.py).

A field left out (or null) is a fact the file does not state; booleans default to "not stated",
which the reasoner reads as false until unknown-fact reasoning takes over.
"""
from __future__ import annotations

from datetime import date, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .vocabulary import names

MAX_EVENT_DAYS = 366


def _choice(section: str) -> Any:
    return Literal[names(section)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Attendance(Strict):
    expected_max: int = Field(ge=0, le=10_000_000, description="Actual or reasonably anticipated peak number of people present at any one time.")
    female: int | None = Field(None, ge=0, le=10_000_000, description="Of the peak, how many are female (when known).")
    male: int | None = Field(None, ge=0, le=10_000_000, description="Of the peak, how many are male (when known).")
    board_finding: int | None = Field(None, ge=0, le=10_000_000, description="The governing board's finding of the number expected to attend, where the ordinance makes that finding conclusive.")
    max_tickets: int | None = Field(None, ge=0, le=10_000_000, description="Maximum number of tickets to be sold.")

    @model_validator(mode="after")
    def split_within_peak(self) -> "Attendance":
        if self.female is not None and self.male is not None and self.female + self.male > self.expected_max:
            raise ValueError(f"female ({self.female}) + male ({self.male}) exceeds expected_max ({self.expected_max})")
        return self


class Schedule(Strict):
    start: datetime = Field(description="Local date and time the assembly starts, e.g. 2027-07-16T12:00.")
    end: datetime = Field(description="Local date and time the assembly ends.")
    darkness: bool | None = Field(None, description="Whether any part runs during hours of darkness; derived when left out (see README).")

    @field_validator("start", "end")
    @classmethod
    def naive_local_time(cls, value: datetime) -> datetime:
        return value.replace(tzinfo=None)

    @model_validator(mode="after")
    def ends_after_start(self) -> "Schedule":
        if self.end <= self.start:
            raise ValueError(f"end ({self.end.isoformat()}) must be after start ({self.start.isoformat()})")
        if (self.end - self.start).days > MAX_EVENT_DAYS:
            raise ValueError(f"an event may last at most {MAX_EVENT_DAYS} days")
        return self


class Site(Strict):
    kind: _choice("site_kinds") = Field("open_land", description="What kind of place hosts the event.")
    seating_capacity: int | None = Field(None, ge=0, le=10_000_000, description="Permanent maximum seating capacity of the structure.")
    capacity: int | None = Field(None, ge=0, le=10_000_000, description="Maximum capacity of the structure or outdoor location (auctions and sales).")
    locations: int = Field(1, ge=1, le=1000, description="Number of separate locations the event uses.")
    flags: list[_choice("site_flags")] = Field(default_factory=list, description="Facts about the site that hold.")


class Organizer(Strict):
    kind: _choice("organizer_kinds") = Field("individual", description="Legal form of the organizer.")
    sponsor: _choice("sponsor_kinds") = Field("private", description="Who sponsors the event.")
    applicant_age: int | None = Field(None, ge=0, le=150)
    person_in_charge_age: int | None = Field(None, ge=0, le=150)
    site_interest: _choice("site_interests") | None = Field(None, description="The applicant's interest in the site.")


class Insurance(Strict):
    general_liability_aggregate_usd: int | None = Field(None, ge=0)
    per_occurrence_bodily_injury_usd: int | None = Field(None, ge=0)
    per_occurrence_property_damage_usd: int | None = Field(None, ge=0)
    fire_legal_liability_usd: int | None = Field(None, ge=0)
    workers_compensation: bool | None = None
    names_government_as_insured: bool | None = None


class Application(Strict):
    filed: date | None = Field(None, description="Date the application was (or will be) filed.")
    contents: list[_choice("application_items")] = Field(default_factory=list, description="What the application contains.")
    insurance: Insurance = Field(default_factory=Insurance)
    bond_usd: int | None = Field(None, ge=0)
    fee_paid_usd: int | None = Field(None, ge=0)
    approvals: list[_choice("approvals")] = Field(default_factory=list)


class Event(Strict):
    id: str = Field(min_length=1, max_length=200, description="Identifier of the event (any text).")
    name: str | None = Field(None, max_length=500)
    kinds: list[_choice("event_kinds")] = Field(default_factory=list, description="What the event is.")
    attendance: Attendance
    schedule: Schedule
    site: Site = Field(default_factory=Site)
    organizer: Organizer = Field(default_factory=Organizer)
    flags: list[_choice("event_flags")] = Field(default_factory=list, description="Facts about the event that hold.")
    special_services: list[_choice("special_services")] = Field(default_factory=list)
    application: Application | None = None
    provisions: dict[_choice("obligations"), int] = Field(default_factory=dict, description="What the organizer will provide, by obligation name.")
    findings: list[_choice("findings")] = Field(default_factory=list, description="Findings of the authority (grounds it has found).")
    imposed_conditions: list[_choice("obligations")] = Field(default_factory=list, description="Discretionary conditions the authority has imposed.")

    @field_validator("provisions")
    @classmethod
    def non_negative_provisions(cls, value: dict[str, int]) -> dict[str, int]:
        for key, amount in value.items():
            if amount < 0 or amount > 10**12:
                raise ValueError(f"provision {key} must be between 0 and 10^12, got {amount}")
        return value


# The loader is re-exported here so that `from reasoner.event import load_events` keeps working.
from .loading import EventFileError, load_events, parse_events  # noqa: E402,F401
