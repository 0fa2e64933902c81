"""The batch's messages name what is wrong (issue 33, messages)."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from reasoner.cli import main


@pytest.mark.parametrize(("mark", "name"), [(";", "semicolons"), ("\t", "tabs")])
def test_a_csv_separated_by_another_mark_is_refused_naming_the_separator(tmp_path, mark, name):
    source = tmp_path / "apps.csv"
    source.write_text(mark.join(["id", "name", "attendance"]) + "\n" + mark.join(["x", "y", "100"]) + "\n",
                      encoding="utf-8")
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(main, ["batch", str(source), "--out", str(out), "--workers", "0", "-o", "gem"])
    assert result.exit_code == 2, result.output
    [line] = result.output.splitlines()
    assert f"separated by commas, not {name}" in line and "line 1" in line
    assert not out.exists() and not (tmp_path / "out.jsonl.part").exists()
