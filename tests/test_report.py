"""`reasoner report`: one self-contained page per event to hand on, checked by parsing its HTML and by a
screenshot in headless Chromium."""
from __future__ import annotations

import os
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from reasoner.cli import main

ROOT = Path(__file__).resolve().parents[1]
HARVEST = ROOT / "facts" / "events" / "harvest-music-festival.yaml"


class Page(HTMLParser):
    """What a reader sees of the page: its text, headings, table rows, and every address it would load."""

    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.headings: list[str] = []
        self.rows: list[list[str]] = []
        self.external: list[str] = []
        self._tag: list[str] = []

    def handle_starttag(self, tag, attrs):
        self._tag.append(tag)
        if tag == "tr":
            self.rows.append([])
        for name, value in attrs:
            if name in ("src", "href") or (tag == "link"):
                self.external.append(f"{tag} {name}={value}")

    def handle_endtag(self, tag):
        if self._tag:
            self._tag.pop()

    def handle_data(self, data):
        self.text.append(data)
        if self._tag and self._tag[-1] in ("h1", "h2", "h3"):
            self.headings.append(data)
        if self._tag and self._tag[-1] == "td" and self.rows:
            self.rows[-1].append(data)


def write(tmp_path, *arguments):
    result = CliRunner().invoke(main, ["report", str(HARVEST), *arguments])
    assert result.exit_code == 0, result.output
    return result


def test_the_page_has_the_status_the_arithmetic_the_deadline_the_readings_and_the_words(tmp_path):
    out = tmp_path / "report.html"
    write(tmp_path, "-o", "trempealeau", "--out", str(out))
    page = Page()
    page.feed(out.read_text(encoding="utf-8"))
    text = " ".join(" ".join(page.text).split())
    assert not page.external  # self-contained: nothing loaded from elsewhere
    assert "Permit or license required" in text
    assert ["toilets", "12", "shall", "6.01(3)3", "3,500 persons / 300 per toilet, rounded up = 12 toilets."] in page.rows
    assert any(row[:2] == ["application filing", ""] or "2027-06-16" in row for row in page.rows)
    assert "2027-06-16" in text
    assert "Interpretations" in page.headings and "The clauses cited" in page.headings
    assert "one parking space for every four persons" in text


def test_markdown_by_suffix(tmp_path):
    out = tmp_path / "report.md"
    write(tmp_path, "-o", "gem", "--out", str(out))
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# Harvest Music Festival: what the ordinances require\n\nEvent harvest-music-festival-2027\n")
    assert "| what | amount | duty | clause | how it follows |" in text
    assert "- **When**: 2027-07-16 12:00 to 2027-07-18 02:00" in text


def test_the_page_is_titled_by_the_event_name_and_opens_with_its_facts(tmp_path):
    out = tmp_path / "report.html"
    write(tmp_path, "-o", "trempealeau", "--out", str(out))
    source = out.read_text(encoding="utf-8")
    page = Page()
    page.feed(source)
    assert "<title>Harvest Music Festival: what the ordinances require</title>" in source
    assert page.headings[0] == "Harvest Music Festival: what the ordinances require"
    text = " ".join(" ".join(page.text).split())
    summary = text[text.index("The event"):text.index("Trempealeau")]  # before the first ordinance's section
    for fact in ("Event harvest-music-festival-2027", "2027-07-16 12:00 to 2027-07-18 02:00", "3,500 at most at any one time",
                 "open land or a farm field", "a corporation", "privately sponsored"):
        assert fact in text[:text.index("Trempealeau")], fact
    assert summary.startswith("The event When")


def test_the_summary_lists_every_session_and_a_range(tmp_path):
    from reasoner.events.model import Event
    from reasoner.views.report import facts

    event = Event.model_validate({"id": "x", "attendance": {"expected_max": {"min": 900, "max": 1200}, "total": 4000},
                                  "schedule": {"daily": {"first_day": "2027-08-06", "last_day": "2027-08-07",
                                                         "open": "10:00", "close": "22:00"}}})
    found = dict(facts(event))
    assert found["When"] == "2 sessions: 2027-08-06 10:00 to 2027-08-06 22:00; 2027-08-07 10:00 to 2027-08-07 22:00"
    assert found["Attendance"] == "between 900 and 1,200 at most at any one time; 4,000 persons over the whole event"


def _browser():
    browser = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
    driver = shutil.which("chromedriver")
    return (browser, driver) if browser and driver else None


@pytest.mark.skipif(_browser() is None, reason="NO BROWSER: chromium and chromedriver are not installed")
def test_the_page_renders_in_a_browser(tmp_path):
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.common.by import By

    out = tmp_path / "report.html"
    write(tmp_path, "-o", "trempealeau", "-o", "fulton", "--out", str(out))
    options = webdriver.ChromeOptions()
    browser, driver = _browser()
    options.binary_location = browser
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}",
                     "--window-size=1100,1400"):
        options.add_argument(argument)
    chrome = webdriver.Chrome(service=webdriver.ChromeService(executable_path=driver), options=options)
    try:
        chrome.get(out.as_uri())
        tables = chrome.find_elements(By.TAG_NAME, "table")
        assert tables and all(t.size["width"] <= 1100 for t in tables)
        assert chrome.find_element(By.CSS_SELECTOR, ".status.permit_required").is_displayed()
        target = Path(os.environ.get("REASONER_REPORT_SCREENSHOT", tmp_path / "report.png"))
        assert chrome.save_screenshot(str(target)) and target.stat().st_size > 10_000
        chrome.set_window_size(420, 900)  # a phone: the tables become lists, the page does not scroll sideways
        assert chrome.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
        assert chrome.save_screenshot(str(tmp_path / "narrow.png"))
    finally:
        chrome.quit()


WEDDING = ROOT / "facts" / "events" / "farm-wedding.yaml"


def test_with_readings_the_page_lists_what_turns_on_a_reading_and_without_it_nothing(tmp_path):
    """Fulton exempts a wedding anywhere on the default reading; on listed_venues_only the farm wedding needs a
    permit, so the page says that reading moves the status, and what else it moves (issue 29: the HTML report lists
    the answers that depend on a reading)."""
    html_out, markdown_out, plain_out = tmp_path / "r.html", tmp_path / "r.md", tmp_path / "plain.html"
    for out, extra in ((html_out, ["--readings"]), (markdown_out, ["--readings"]), (plain_out, [])):
        result = CliRunner().invoke(main, ["report", str(WEDDING), "-o", "fulton", "--out", str(out), *extra])
        assert result.exit_code == 0, result.output
    page = Page()
    page.feed(html_out.read_text(encoding="utf-8"))
    text = " ".join(" ".join(page.text).split())
    assert "Readings of the text this answer turns on" in page.headings
    assert "weddings_exempt_anywhere=listed_venues_only" in text and "status: exempt → permit required" in text
    markdown = markdown_out.read_text(encoding="utf-8")
    assert "### Readings of the text this answer turns on" in markdown
    assert "- **weddings_exempt_anywhere=listed_venues_only**:" in markdown and "  - status: exempt → permit required" in markdown
    plain = Page()
    plain.feed(plain_out.read_text(encoding="utf-8"))
    assert plain.headings == [h for h in page.headings if h != "Readings of the text this answer turns on"]
