"""`reasoner new NAME --text FILE` scaffolds an ordinance from its text: a registry that validates, its words
verbatim and its ids the text's own numbering, an encoding skeleton in the conventions, an empty scenario file."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from reasoner.cli import main
from reasoner.law.conventions import Annotations
from reasoner.law.registry import validate
from reasoner.law.locator import SAFE_LOADER

# The text as it was published, under the name it was published with.
WYOMING = Path(__file__).resolve().parents[1] / "encodings" / "wyoming.txt"


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("published") / "wyoming-stat-35-15.txt"
    path.write_bytes(WYOMING.read_bytes())
    return path


TEXT = WYOMING


def _new(name: str, root: Path, text: Path = TEXT):
    return CliRunner().invoke(main, ["new", name, "--text", str(text), "--root", str(root)])


@pytest.fixture(scope="module")
def scaffolded(tmp_path_factory: pytest.TempPathFactory, published: Path) -> Path:
    root = tmp_path_factory.mktemp("checkout")
    result = _new("wyoming_again", root, published)
    assert result.exit_code == 0, result.output
    assert "next" in result.output and "reasoner check -o wyoming_again" in result.output
    return root


def _registry(root: Path) -> dict:
    return yaml.load((root / "encodings/wyoming_again.yaml").read_text(encoding="utf-8"), Loader=SAFE_LOADER)


def test_the_registry_validates(scaffolded: Path, published: Path) -> None:
    found, problems = validate(_registry(scaffolded), "wyoming_again", "wyoming_again.yaml")
    assert found is not None and problems == []
    assert found.metadata.level == "TODO" and found.metadata.source == published.name


def test_the_text_is_copied_beside_the_registry_and_the_rules(scaffolded: Path) -> None:
    assert (scaffolded / "encodings/wyoming_again.txt").read_bytes() == TEXT.read_bytes()
    assert sorted(p.name for p in (scaffolded / "encodings").iterdir()) == [
        "wyoming_again.lp", "wyoming_again.txt", "wyoming_again.yaml"]


def test_a_text_already_in_place_is_scaffolded_from_where_it_stands(tmp_path: Path) -> None:
    (tmp_path / "encodings").mkdir()
    in_place = tmp_path / "encodings" / "plain_town.txt"
    in_place.write_text("SECTION 1. Parades are exempt.\n", encoding="utf-8")
    assert _new("plain_town", tmp_path, in_place).exit_code == 0
    assert in_place.read_text(encoding="utf-8") == "SECTION 1. Parades are exempt.\n"
    assert (tmp_path / "encodings" / "plain_town.yaml").is_file()


def test_the_words_are_verbatim_and_every_clause_is_flagged_for_review(scaffolded: Path) -> None:
    source = " ".join(TEXT.read_text(encoding="utf-8").split())
    clauses = _registry(scaffolded)["clauses"]
    assert [c["id"] for c in clauses if " ".join(c["text"].split()) not in source] == []
    text = (scaffolded / "encodings/wyoming_again.yaml").read_text(encoding="utf-8")
    assert text.count("# REVIEW:") == len(clauses)


def test_the_ids_are_the_statutes_printed_numbering(scaffolded: Path) -> None:
    ids = {c["id"]: c for c in _registry(scaffolded)["clauses"]}
    for printed in ("35-15-104", "35-15-103(a)(iii)", "35-15-107(a)(ii)(H)", "35-15-107(a)(ii)(J)", "35-15-108(c)(xiii)"):
        assert ids[printed]["numbering"] == "printed"
    assert ids["35-15-104"]["heading"].startswith("License required to permit")
    assert "35-15-107(a)(ii)(I)" not in ids   # the text has no (I)


def test_the_encoding_has_a_header_and_a_block_per_clause(scaffolded: Path) -> None:
    text = (scaffolded / "encodings/wyoming_again.lp").read_text(encoding="utf-8")
    assert "% Source: encodings/wyoming_again.txt (published as wyoming-stat-35-15.txt)" in text
    for example in ("param(wyoming_again,", "regulated(wyoming_again,", "reason(wyoming_again,", "note(wyoming_again,"):
        assert example in text
    headers = Annotations(text).headers
    assert [h.clause for h in headers] == [c["id"] for c in _registry(scaffolded)["clauses"]]
    source = " ".join(TEXT.read_text(encoding="utf-8").split())
    assert all(fragment in source for h in headers for fragment in h.quotations())


def test_the_scenario_file_is_empty(scaffolded: Path) -> None:
    data = yaml.safe_load((scaffolded / "tests/scenarios/wyoming_again.yaml").read_text(encoding="utf-8"))
    assert data["ordinance"] == "wyoming_again" and data["cases"] == []


@pytest.mark.parametrize("name,problem", [("wyoming", "already an encoded ordinance"), ("Wyoming2", "lower-case"),
                                          ("new-town", "lower-case"), ("2town", "lower-case"), ("not", "lower-case")])
def test_a_taken_or_unsafe_name_is_refused(name: str, problem: str, tmp_path: Path) -> None:
    result = _new(name, tmp_path)
    assert result.exit_code == 2 and problem in result.output
    assert not any(tmp_path.rglob("*.*"))


def test_an_existing_name_is_refused_without_touching_its_files(scaffolded: Path) -> None:
    before = (scaffolded / "encodings/wyoming_again.lp").read_text(encoding="utf-8")
    result = _new("wyoming_again", scaffolded)
    assert result.exit_code == 2 and "already exist" in result.output
    assert (scaffolded / "encodings/wyoming_again.lp").read_text(encoding="utf-8") == before


def test_a_text_without_section_markers_is_split_by_its_paragraphs_and_marked_reconstructed(tmp_path: Path) -> None:
    text = tmp_path / "plain.txt"
    text.write_text("It is the purpose of this article to protect the public.\n\n"
                    "§ 6-17 Exemptions.\n\n(a) Parades are exempt.\n\n(b) Funerals are exempt.\n", encoding="utf-8")
    assert _new("plain_town", tmp_path, text).exit_code == 0
    data = yaml.load((tmp_path / "encodings/plain_town.yaml").read_text(encoding="utf-8"), Loader=SAFE_LOADER)
    assert [(c["id"], c["numbering"]) for c in data["clauses"]] == [
        ("p1", "reconstructed"), ("6-17", "printed"), ("6-17(a)", "printed"), ("6-17(b)", "printed")]
    assert re.search(r"text: Parades are exempt\.", (tmp_path / "encodings/plain_town.yaml").read_text())


# ---- the scraped statute texts of issue 30: numbering run into the words, every section given twice or more
SHARED = Path("/work/shared/ordinances")
STATUTES = {
    "washington": ("washington-rcw-70-108.txt",
                   ["70.108.010", "70.108.020(3)", "70.108.040(8)(b)", "70.108.040(8)(o)", "70.108.040(9)(a)",
                    "70.108.040(14)", "70.108.130(1)", "70.108.130(2)(a)", "70.108.130(2)(b)", "70.108.170"]),
    "missouri": ("missouri-rsmo-316-150-185.txt",
                 ["316.150", "316.150(1)", "316.150(4)", "316.155", "316.160(9)", "316.175(4)", "316.185"]),
    "mississippi": ("mississippi-code-45-21.txt",
                    ["45-21-1", "45-21-5", "45-21-5(a)", "45-21-5(c)", "45-21-11(5)", "45-21-19(3)", "45-21-21(2)"]),
}


@pytest.fixture(scope="module")
def statutes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not SHARED.is_dir():
        pytest.skip("the shared statute texts are not here")
    root = tmp_path_factory.mktemp("statutes")
    for name, (file, _) in STATUTES.items():
        result = _new(f"{name}_new", root, SHARED / file)
        assert result.exit_code == 0, result.output
    return root


def _clauses(root: Path, name: str) -> dict[str, dict]:
    data = yaml.load((root / f"encodings/{name}_new.yaml").read_text(encoding="utf-8"), Loader=SAFE_LOADER)
    return {c["id"]: c for c in data["clauses"]}


@pytest.mark.parametrize("name", sorted(STATUTES))
def test_a_scraped_statute_scaffolds_to_its_printed_ids_once_each(statutes: Path, name: str) -> None:
    file, printed = STATUTES[name]
    clauses = _clauses(statutes, name)
    data = yaml.load((statutes / f"encodings/{name}_new.yaml").read_text(encoding="utf-8"), Loader=SAFE_LOADER)
    assert validate(data, f"{name}_new", f"{name}_new.yaml")[1] == []
    assert [i for i in printed if i not in clauses] == []
    assert [i for i in clauses if "~" in i or " " in i] == []   # no id numbered twice, none with its heading in it
    texts = [c["text"] for c in clauses.values()]
    assert len(texts) == len(set(texts))   # each copy's words once
    # history and editors' notes, citations and chapter headings are not clauses
    assert [t for t in texts if re.match(r"(\[ \d{4}|\(L\. \d{4}|Codes, 1942|RCW \d|Title [IVX]|Chapter \d|"
                                         r".*See notes? following)", t)] == []
    source = " ".join((SHARED / file).read_text(encoding="utf-8").split())
    assert [i for i, c in clauses.items() if " ".join(c["text"].split()) not in source] == []
    headers = Annotations((statutes / f"encodings/{name}_new.lp").read_text(encoding="utf-8")).headers
    assert [h.clause for h in headers] == list(clauses)
    assert all(fragment in source for h in headers for fragment in h.quotations())


def test_the_headings_are_the_sections_own(statutes: Path) -> None:
    assert _clauses(statutes, "washington")["70.108.030"]["heading"] == \
        "Permits—Required—Compliance with rules and regulations"   # the marker cut it short
    assert _clauses(statutes, "missouri")["316.155"]["heading"] == "Festival license required — exception"
    assert _clauses(statutes, "missouri")["316.155"]["text"].startswith("No person shall operate")
    assert _clauses(statutes, "mississippi")["45-21-1"]["heading"] == "Rock festival defined"   # not the contents


def test_the_review_says_which_copy_the_words_are_and_where_copies_differ(statutes: Path) -> None:
    washington = (statutes / "encodings/washington_new.yaml").read_text(encoding="utf-8")
    assert "the text gives this section 2 times; the words are copy 1, the first full one; copy 2 differs " \
           "(it lacks '(b) Site')" in washington
    assert "a history or editor's note, not a clause: [ 1971 ex.s. c 302 s 19.]" in washington
    mississippi = (statutes / "encodings/mississippi_new.yaml").read_text(encoding="utf-8")
    assert "the text gives this section 4 times; the words are copy 1, the first full one; copy 4 differs" in mississippi
    assert "A cash bond in the amount of Ten Thousand Dollars" in _clauses(statutes, "mississippi")["45-21-5(a)"]["text"]


@pytest.mark.parametrize("opening,section", [("Sec. 1. Permit required.", "1"), ("SECTION 1. Permit required.", "1"),
                                             ("45-21-5. Permit required.", "45-21-5"),
                                             ("70.108.010 Permit required.", "70.108.010")])
def test_section_numbers_open_a_paragraph_in_every_printed_style(tmp_path: Path, opening: str, section: str) -> None:
    text = tmp_path / "plain.txt"
    text.write_text(f"{opening} No person shall hold an assembly without a permit.\n\n(a) Parades are exempt.\n",
                    encoding="utf-8")
    assert _new("plain_town", tmp_path, text).exit_code == 0
    data = yaml.load((tmp_path / "encodings/plain_town.yaml").read_text(encoding="utf-8"), Loader=SAFE_LOADER)
    assert [c["id"] for c in data["clauses"]] == [section, f"{section}(a)"]
