"""Worker processes import the installed package whatever the current directory: `reasoner batch --workers N`
and `reasoner serve` started from a folder that holds a directory named `reasoner` (a clone's root) answer as
from anywhere else, and no process imports that directory."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[1] / "facts" / "events" / "harvest-music-festival.yaml"
SCRIPT = Path(sys.executable).with_name("reasoner")


@pytest.fixture
def decoy(tmp_path: Path) -> Path:
    """A current directory holding a folder `reasoner` that is not the package."""
    (tmp_path / "reasoner").mkdir()
    (tmp_path / "reasoner" / "__init__.py").write_text(
        'raise RuntimeError("the folder named reasoner was imported, not the installed package")\n', encoding="utf-8")
    (tmp_path / "event.yaml").write_bytes(EXAMPLE.read_bytes())
    return tmp_path


def test_batch_workers_import_the_installed_package(decoy: Path) -> None:
    done = subprocess.run([str(SCRIPT), "batch", "event.yaml", "--out", "out.jsonl", "--workers", "1"], cwd=decoy,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "the folder named reasoner" not in done.stderr
    rows = [json.loads(line) for line in (decoy / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    assert rows and all("error" not in row for row in rows)


def test_web_workers_import_the_installed_package(decoy: Path) -> None:
    program = ("from reasoner.web.workers import Pool\n"
               "if __name__ == '__main__':\n"
               "    pool = Pool(1, 120)\n"
               "    try:\n"
               "        pool.call('evaluate', {'source': open('event.yaml').read(), 'filename': 'event.yaml',"
               " 'ordinances': ['trempealeau']})\n"
               "    finally:\n"
               "        pool.close()\n")
    # Run as a file from elsewhere, as the `reasoner` script is: the folder is off the server's own path.
    (decoy / "elsewhere").mkdir()
    (decoy / "elsewhere" / "serve_one.py").write_text(program, encoding="utf-8")
    done = subprocess.run([sys.executable, "elsewhere/serve_one.py"], cwd=decoy, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert "the folder named reasoner" not in done.stderr
