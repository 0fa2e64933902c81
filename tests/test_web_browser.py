"""The page in a real browser: Debian's headless Chromium driven by Selenium (`.ci/run` installs both).
Skipped, loudly, only where no Chromium can be found."""
from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed: pip install -e '.[test]'")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed: pip install -e '.[test]'")

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support import expected_conditions as seen  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from web_server import running_server  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
HARVEST = ROOT / "facts" / "events" / "harvest-music-festival.yaml"
UNKNOWN = ROOT / "facts" / "events" / "unknown-festival.yaml"


def _browser() -> tuple[str, str] | None:
    found = [shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome")]
    driver = shutil.which("chromedriver")
    browser = next((path for path in found if path), None)
    return (browser, driver) if browser and driver else None


BROWSER = _browser()
if BROWSER is None:
    message = ("NO BROWSER: chromium and chromedriver are not installed, so the page is NOT tested in a browser "
               "(apt-get install chromium chromium-driver, as .ci/run does)")
    warnings.warn(message)
    pytestmark = pytest.mark.skip(reason=message)


@pytest.fixture(scope="module")
def server():
    with running_server(workers=2, time_limit=120) as url:
        yield url


def open_browser(folder: Path, width: int, height: int = 1000):
    options = webdriver.ChromeOptions()
    options.binary_location = BROWSER[0]
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     f"--user-data-dir={folder / f'profile-{width}'}", f"--window-size={width},{height}"):
        options.add_argument(argument)
    return webdriver.Chrome(service=webdriver.ChromeService(executable_path=BROWSER[1]), options=options)


def submit(browser, url: str, event: Path) -> WebDriverWait:
    wait = WebDriverWait(browser, 60)
    browser.get(url)
    wait.until(seen.presence_of_element_located((By.ID, "o-trempealeau")))
    browser.find_element(By.ID, "upload").send_keys(str(event))
    wait.until(lambda b: b.find_element(By.ID, "source").get_attribute("value").startswith("#")
               or "id:" in b.find_element(By.ID, "source").get_attribute("value"))
    browser.find_element(By.ID, "submit").click()
    wait.until(seen.presence_of_element_located((By.ID, "panel-trempealeau")))
    return wait


@pytest.mark.parametrize("width", [1280, 420])
def test_the_harvest_festival_unfolds_its_toilets_and_compares(server, tmp_path, width):
    browser = open_browser(tmp_path, width)
    try:
        wait = submit(browser, server, HARVEST)
        panel = browser.find_element(By.ID, "panel-trempealeau")
        assert "PERMIT REQUIRED" in panel.text.upper()
        toilets = panel.find_element(By.CSS_SELECTOR, 'li.kind-obligation button.conclusion[data-name="toilets"]')
        assert toilets.get_attribute("aria-expanded") == "false"
        toilets.send_keys(Keys.ENTER)   # the keyboard, as a user without a mouse
        explanation = toilets.find_element(By.XPATH, "ancestor::li[1]").find_element(By.CSS_SELECTOR, ".explanation")
        wait.until(lambda b: explanation.find_elements(By.CSS_SELECTOR, ".tree"))
        assert toilets.get_attribute("aria-expanded") == "true"
        assert "3,500 persons / 300 per toilet, rounded up = 12 toilets." in explanation.text
        assert "6.01(3)3" in explanation.text
        explanation.find_element(By.CSS_SELECTOR, '.clause-link[data-clause="6.01(3)3"]').click()
        cited = wait.until(seen.visibility_of_element_located((By.CSS_SELECTOR, "#law-text .clause.cited")))
        assert cited.get_attribute("data-clause") == "6.01(3)3" and "every 300 persons" in cited.text
        browser.execute_script("arguments[0].scrollIntoView({block: 'start'})", toilets)
        browser.save_screenshot(str(tmp_path / f"explanation-{width}.png"))

        browser.find_element(By.ID, "tab-compare").click()
        table = wait.until(seen.visibility_of_element_located((By.CSS_SELECTOR, "table.comparison")))
        headers = [th.text.split("\n")[0] for th in table.find_elements(By.CSS_SELECTOR, "thead th")]
        assert headers == ["conclusion", "trempealeau", "village", "vermont", "gem", "fulton", "wyoming", "connecticut"]
        assert table.find_elements(By.CSS_SELECTOR, "td.strictest")
        browser.save_screenshot(str(tmp_path / f"comparison-{width}.png"))
        assert (tmp_path / f"comparison-{width}.png").stat().st_size > 10_000
        page_width = browser.execute_script("return document.documentElement.scrollWidth")
        assert page_width <= browser.execute_script("return window.innerWidth"), "the page scrolls sideways"
    finally:
        browser.quit()


def test_unknown_facts_show_as_certain_or_possible_with_the_questions(server, tmp_path):
    browser = open_browser(tmp_path, 1280)
    try:
        wait = submit(browser, server, UNKNOWN)
        questions = wait.until(seen.visibility_of_element_located((By.ID, "questions")))
        assert "attendance.expected_max" in questions.text
        panel = browser.find_element(By.ID, "panel-trempealeau")
        assert "POSSIBLY REQUIRED" in panel.text.upper()
        assert panel.find_elements(By.CSS_SELECTOR, ".certainty.possible")
        browser.save_screenshot(str(tmp_path / "unknown.png"))
    finally:
        browser.quit()


def test_every_field_of_the_page_has_a_label(server, tmp_path):
    browser = open_browser(tmp_path, 1280)
    try:
        browser.get(server)
        WebDriverWait(browser, 60).until(seen.presence_of_element_located((By.ID, "f-id")))
        unlabelled = browser.execute_script("""
            return [...document.querySelectorAll('input, select, textarea')]
              .filter((f) => !(f.labels && f.labels.length) && !f.getAttribute('aria-label'))
              .map((f) => f.id || f.outerHTML);""")
        assert unlabelled == []
    finally:
        browser.quit()


def test_the_form_from_the_schema_evaluates_an_event(server, tmp_path):
    browser = open_browser(tmp_path, 1280)
    try:
        wait = WebDriverWait(browser, 60)
        browser.get(server)
        wait.until(seen.presence_of_element_located((By.ID, "f-id")))
        browser.find_element(By.ID, "tab-form").click()
        browser.find_element(By.ID, "f-id").send_keys("form-fair")
        browser.find_element(By.ID, "f-attendance-expected_max").send_keys("3500")
        for field, text in (("f-schedule-start", "2027-07-16T12:00"), ("f-schedule-end", "2027-07-18T02:00")):
            browser.execute_script("arguments[0].value = arguments[1]", browser.find_element(By.ID, field), text)
        browser.find_element(By.ID, "submit").click()
        panel = wait.until(seen.presence_of_element_located((By.ID, "panel-trempealeau")))
        assert "toilets: 12" in panel.text
    finally:
        browser.quit()
