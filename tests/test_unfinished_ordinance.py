"""An ordinance just scaffolded (`reasoner new`) is not encoded yet: its TODO metadata and its [0, 0, 0, 0]
extent fail `check`, `coverage` says it is not encoded yet (not "100% of 0"), and no other command evaluates it:
left out of every default with a note, refused by name, never answered as not regulated."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from reasoner.law.locator import encoded_ordinances
from click.testing import CliRunner

from reasoner.cli import main

ROOT = Path(__file__).resolve().parents[1]
EVENT = ROOT / "facts" / "events" / "harvest-music-festival.yaml"
# The commands run against a copy of the encodings folder that holds the scaffolded ordinance beside the seven.
DRIVER = """import sys
from pathlib import Path
import reasoner.law.locator as locator
locator.encodings_folder = lambda: Path(sys.argv[1])
from reasoner.cli import main
main(sys.argv[2:], prog_name="reasoner")
"""


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("checkout")
    (root / "encodings").mkdir()
    for file in (ROOT / "encodings").iterdir():
        (root / "encodings" / file.name).symlink_to(file)
    text = root / "example-ordinance.txt"
    text.write_text("SECTION 1. Permit required. No person shall hold an assembly of more than 1,000 persons "
                    "without a permit.\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["new", "example", "--text", str(text), "--root", str(root)])
    assert result.exit_code == 0, result.output
    (root / "drive.py").write_text(DRIVER, encoding="utf-8")
    return root


def reasoner(checkout: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(checkout / "drive.py"), str(checkout / "encodings"), *args],
                          cwd=checkout, capture_output=True, text=True, timeout=300,
                          env={"PATH": "/usr/bin:/bin", "REASONER_CACHE": "off"})


def test_check_fails_on_todo_metadata_and_a_zero_extent(checkout: Path) -> None:
    done = reasoner(checkout, "check", "-o", "example")
    assert done.returncode == 1
    assert "the metadata is unfinished (jurisdiction is TODO;" in done.stdout
    assert "extent [0, 0, 0, 0] bounds no land" in done.stdout


def test_coverage_says_not_encoded_yet_instead_of_all_of_nothing(checkout: Path) -> None:
    done = reasoner(checkout, "coverage", str(checkout / "tests" / "scenarios"), "-o", "example")
    assert done.returncode == 1
    assert done.stdout.startswith("example: not encoded yet — jurisdiction is TODO;")
    assert "100.0%" not in done.stdout


def test_evaluate_leaves_it_out_of_every_ordinance_and_says_so(checkout: Path) -> None:
    done = reasoner(checkout, "evaluate", str(EVENT), "--format", "json")
    assert done.returncode == 0, done.stderr
    assert "note: example is not encoded yet and is left out" in done.stderr
    records = json.loads(done.stdout)
    assert "example" not in done.stdout and "TODO" not in done.stdout and records


def test_naming_it_is_refused_as_not_encoded_yet(checkout: Path) -> None:
    for command in (["evaluate", str(EVENT)], ["explain", str(EVENT), "permit_required"], ["compare", str(EVENT)]):
        done = reasoner(checkout, *command, "-o", "example")
        assert done.returncode == 2, (command, done.stdout, done.stderr)
        assert "example is not encoded yet (jurisdiction is TODO;" in done.stderr
        assert "not_regulated" not in done.stdout


def test_batch_and_the_listing_leave_it_out(checkout: Path) -> None:
    done = reasoner(checkout, "batch", str(EVENT), "--out", str(checkout / "out.jsonl"), "--workers", "0")
    assert done.returncode == 0, done.stderr
    assert "example" not in (checkout / "out.jsonl").read_text(encoding="utf-8")
    listing = reasoner(checkout, "ordinances", "--format", "json")
    # every finished ordinance, in the order the registries give, and not the unfinished one
    assert [entry["name"] for entry in json.loads(listing.stdout)] == list(encoded_ordinances())
