"""One table of labels and one phrasing of each conclusion (reasoner/law/labels.py), used by every output."""
from __future__ import annotations

import re
from pathlib import Path

from reasoner.batch.files import csv_cells, wide_cells
from reasoner.law import labels
from reasoner.law.labels import KIND_LABELS, STATUS_LABELS, WHATIF_LABELS, phrase
from reasoner.law.schema import KIND_ORDER
from reasoner.law.locator import encoded_ordinances
from reasoner.modes import compare
from reasoner.views import charts, render, report

APP_JS = Path(render.__file__).parents[1] / "web" / "static" / "app.js"

LATE = {"kind": "late", "name": "application_filing", "value": 3, "unit": "days", "modality": None,
        "clauses": ["1.2"]}
ON_TIME = {**LATE, "kind": "on_time", "value": 1}
DENIAL = {"kind": "denial_ground", "name": "false_statement", "value": None, "unit": None, "modality": "may",
          "clauses": ["3"]}


def test_every_kind_and_status_has_one_label():
    assert set(KIND_LABELS) == set(KIND_ORDER)
    assert set(STATUS_LABELS) >= set(compare.STATUS_RANK) | {"inconsistent"}
    assert len(set(KIND_LABELS.values())) == len(KIND_LABELS)


def test_the_headings_of_render_report_and_charts_come_from_the_table():
    for kind, title in (*render.SECTIONS, *report.SECTIONS):
        assert title == KIND_LABELS[kind], kind
    assert all(report.STATUS[s] == labels.heading(STATUS_LABELS[s]) for s in STATUS_LABELS)
    assert all(charts.STATUS_WORDS[s] == STATUS_LABELS[s] for s in charts.STATUS_WORDS)
    assert all(compare.STATE_TEXT[s] == STATUS_LABELS[s] for s in compare.STATE_TEXT)


def test_a_conclusion_is_phrased_the_same_in_the_terminal_the_report_the_comparison_and_the_batch():
    ordinance = sorted(encoded_ordinances())[0]
    for item in (LATE, ON_TIME):
        words = phrase(item)
        assert re.fullmatch(r"\d+ day\(s\) (late|to spare)", words)
        assert render._line(item) == f"application filing: {words}"
        assert compare.item_text(item) == words
        assert report._amount(item) == words
        record = {"event": "e", "ordinance": ordinance, "jurisdiction": "", "status": "permit_required",
                  "permit_required": True, "conclusions": [item]}
        assert f"application_filing: {words} [1.2]" in csv_cells(record)  # the long layout's cell
        signed = item["value"] if item["kind"] == "late" else -item["value"]
        assert signed in wide_cells(record)  # the wide layout's: a number to sort by, days to spare below zero
    assert render._line(DENIAL) == f"false statement: {phrase(DENIAL)}"
    assert compare.item_text(DENIAL) == phrase(DENIAL) == "may deny"
    record = {"event": "e", "ordinance": ordinance, "jurisdiction": "", "status": "permit_required",
              "permit_required": True, "conclusions": [DENIAL]}
    assert "false_statement: may deny [3]" in csv_cells(record) and "false_statement: may deny [3]" in wide_cells(record)


def test_the_page_takes_its_labels_from_the_server_not_a_copy():
    script = APP_JS.read_text(encoding="utf-8")
    copied = [label for label in (*KIND_LABELS.values(), *STATUS_LABELS.values(), *WHATIF_LABELS.values())
              if " " in label and (f'"{label}"' in script or f"'{label}'" in script)]
    assert not copied, f"app.js restates labels of reasoner/law/labels.py: {copied}"
    assert 'api("GET", "/labels")' in script
