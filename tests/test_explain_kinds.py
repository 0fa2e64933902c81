"""`explain EVENT exempt` names a kind of conclusion, not one: where none of that kind holds, the answer is an
input problem (exit 2, as for a misspelt conclusion) listing the names of that kind each ordinance has, with
their clauses, so that the next question can name one; where some hold, they are explained as before."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from reasoner.modes.catalog import catalog
from reasoner.cli import main

HARVEST = Path(__file__).resolve().parents[1] / "facts" / "events" / "harvest-music-festival.yaml"


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.mark.parametrize("kind", ["exempt", "exemption"])
def test_a_kind_of_which_none_holds_lists_its_names(kind: str) -> None:
    result = run("explain", str(HARVEST), kind, "-o", "trempealeau", "-o", "gem")
    assert result.exit_code == 2
    words = " ".join(result.output.split())
    assert f"error: '{kind}' is a kind of conclusion, not one, and none of that kind holds" in words
    for ordinance in ("trempealeau", "gem"):
        names = [e["name"] for e in catalog(ordinance) if e["kind"] == "exemption"]
        assert names and all(name in words for name in names)
    assert "not_a_person (6.01(2)(b)1)" in words


def test_a_kind_of_which_some_hold_is_explained_as_before() -> None:
    result = run("explain", str(HARVEST), "obligation", "-o", "trempealeau")
    assert result.exit_code == 0
    assert "obligation (shall): admission control" in result.output


def test_the_web_answers_the_same_problem() -> None:
    from reasoner import service as library

    with pytest.raises(library.InputProblem, match="'exempt' is a kind of conclusion"):
        library.run("explain", {"source": HARVEST.read_text(encoding="utf-8"), "filename": str(HARVEST),
                                "conclusion": "exempt", "ordinances": ["trempealeau"]})
