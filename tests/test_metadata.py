"""Wherever an ordinance is named, its metadata goes with it: jurisdiction, level, adopting body, versions with their
dates, source (`reasoner ordinances`, `reasoner clauses NAME`, evaluate's panel, GET /ordinances)."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from reasoner.cli import main
from reasoner.law.registry import registry
from reasoner.law.locator import encoded_ordinances

# The level each text states, read off the texts by hand; every ordinance the registry holds must be listed here.
LEVELS = {"trempealeau": "county", "village": "village", "vermont": "town", "gem": "county", "fulton": "town",
          "wyoming": "state", "connecticut": "state", "washington": "state",
          "missouri": "state", "mississippi": "state"}


def _cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args), env={"COLUMNS": "200"}, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("name", encoded_ordinances())
def test_every_registry_states_its_level_and_adopting_body(name: str) -> None:
    assert name in LEVELS, f"{name}: state its level in LEVELS, as its text gives it"
    assert registry(name).metadata.level == LEVELS[name]
    assert registry(name).metadata.adopting_body


def test_the_listing_names_every_ordinance_with_its_metadata() -> None:
    listed = json.loads(_cli("ordinances", "--format", "json"))
    assert [o["name"] for o in listed] == list(encoded_ordinances())
    for entry in listed:
        assert {"jurisdiction", "title", "level", "adopting_body", "source", "versions"} <= set(entry)
    text = _cli("ordinances")
    for entry in listed:
        assert entry["adopting_body"] in text and entry["source"] in text


def test_versions_are_shown_with_their_dates() -> None:
    trempealeau = next(o for o in json.loads(_cli("ordinances", "--format", "json")) if o["name"] == "trempealeau")
    assert [(v["id"], v["effective"]) for v in trempealeau["versions"]] == [
        ("res_1982_04_20", "1982-04-20"), ("res_2015_02_09", "undated"), ("res_2016_06_04", "undated")]
    assert "res_1982_04_20 (1982-04-20)" in " ".join(_cli("clauses", "trempealeau").split())


@pytest.mark.parametrize("command", [("clauses", "wyoming"), ("clauses", "wyoming", "35-15-104"),
                                     ("evaluate", "facts/events/harvest-music-festival.yaml", "-o", "wyoming")])
def test_text_that_names_an_ordinance_shows_its_metadata(command: tuple[str, ...]) -> None:
    printed = " ".join(_cli(*command).split())
    assert "wyoming: state; adopted by Wyoming Legislature; versions: published (undated); source: " \
           "wyoming-stat-35-15.txt" in printed


def test_the_web_api_lists_what_the_cli_lists() -> None:
    pytest.importorskip("fastapi")
    from reasoner import service as library

    assert json.loads(json.dumps(library.ordinances())) == json.loads(_cli("ordinances", "--format", "json"))
