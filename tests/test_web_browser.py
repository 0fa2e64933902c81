"""The page in a real browser: Debian's headless Chromium driven by Selenium (`.ci/run` installs both).
Skipped, loudly, only where no Chromium can be found."""
from __future__ import annotations

import re
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

from reasoner.law.locator import encoded_ordinances  # noqa: E402
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
        # the picture (the README's) shows the cited clause beside the tree, however far the page has scrolled
        browser.execute_script("""const law = document.getElementById('law');
            law.scrollTop += arguments[0].getBoundingClientRect().top - law.getBoundingClientRect().top - 8;""", cited)
        browser.save_screenshot(str(tmp_path / f"explanation-{width}.png"))

        browser.find_element(By.ID, "tab-compare").click()
        table = wait.until(seen.visibility_of_element_located((By.CSS_SELECTOR, "table.comparison")))
        headers = [th.text.split("\n")[0] for th in table.find_elements(By.CSS_SELECTOR, "thead th")]
        assert headers == ["conclusion", *encoded_ordinances()]
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
        # the tree says which unknown value each step assumes, as `reasoner explain` does
        toilets = panel.find_element(By.CSS_SELECTOR, 'button.conclusion[data-name="toilets"]')
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", toilets)
        toilets.click()
        explanation = toilets.find_element(By.XPATH, "ancestor::li[1]").find_element(By.CSS_SELECTOR, ".explanation")
        wait.until(lambda b: explanation.find_elements(By.CSS_SELECTOR, ".tree"))
        assert "Holds in some completions of the unknown facts only." in explanation.text
        assert "Does not hold." not in explanation.text
        assert "decided by attendance.expected_max (at the values reasoned): 1,500–1,999: does not hold; 2,000–2,500: holds" \
            in explanation.text
        assert "possible: not in every completion" in explanation.text
        assert re.search(r"if attendance\.expected_max is [0-9,]+: unknown", explanation.text)
        browser.save_screenshot(str(tmp_path / "unknown-explanation.png"))
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


def set_value(browser, element_id: str, text: str) -> None:
    """Date, time and date-time inputs take their value as the page's own script would (typing is locale-bound)."""
    browser.execute_script("arguments[0].value = arguments[1]", browser.find_element(By.ID, element_id), text)


def page_answer(browser, wait: WebDriverWait, ordinance: str, before=None) -> dict:
    """What the page's panel of `ordinance` says: its status and each conclusion (kind, name, line)."""
    if before is not None:
        wait.until(seen.staleness_of(before))
    panel = wait.until(seen.presence_of_element_located((By.ID, f"panel-{ordinance}")))
    status = next(c.removeprefix("status-") for c in panel.get_attribute("class").split() if c.startswith("status-"))
    lines = [(b.get_attribute("data-kind"), b.get_attribute("data-name"), b.text)
             for b in panel.find_elements(By.CSS_SELECTOR, "button.conclusion")]
    return {"status": status, "conclusions": lines, "panel": panel}


def cli_answer(tmp_path: Path, event: dict, ordinance: str) -> dict:
    import json

    import yaml
    from click.testing import CliRunner

    from reasoner.cli import main

    path = tmp_path / f"{event['id']}.yaml"
    path.write_text(yaml.safe_dump(event, sort_keys=False), encoding="utf-8")
    result = CliRunner().invoke(main, ["evaluate", str(path), "-o", ordinance, "--format", "json"])
    assert result.exit_code == 0, result.output
    [record] = json.loads(result.output)
    return record


def assert_same_answer(page: dict, record: dict) -> None:
    assert page["status"] == record["status"]
    assert [(kind, name) for kind, name, _ in page["conclusions"]] == [(c["kind"], c["name"]) for c in record["conclusions"]]
    for (_, _, line), c in zip(page["conclusions"], record["conclusions"]):
        if c["kind"] == "reason":
            assert c["text"] in line
        elif isinstance(c["value"], int) and not isinstance(c["value"], bool):
            assert f"{c['value']:,}" in line


def fair(close: str, **schedule) -> dict:
    """A 3-day fair, 2,500 at the peak and 9,000 over the three days, open 10:00 to `close` each day."""
    return {"id": f"form-fair-to-{close.replace(':', '')}", "kinds": ["fair"],
            "attendance": {"expected_max": 2500, "total": 9000},
            "schedule": schedule or {"daily": {"first_day": "2027-08-12", "last_day": "2027-08-14", "open": "10:00",
                                               "close": close}}}


def fill_fair(browser, event: dict) -> None:
    browser.find_element(By.ID, "f-id").clear()
    browser.find_element(By.ID, "f-id").send_keys(event["id"])
    for name in ("expected_max", "total"):
        box = browser.find_element(By.ID, f"f-attendance-{name}")
        box.clear()
        box.send_keys(str(event["attendance"][name]))
    kinds = browser.find_element(By.ID, "f-kinds-fair")
    if not kinds.is_selected():
        kinds.click()


def open_form(browser, server: str, schedule_as: str) -> WebDriverWait:
    """The page's form, its schedule stated as `schedule_as` (span, daily or sessions)."""
    wait = WebDriverWait(browser, 60)
    browser.get(server)
    wait.until(seen.presence_of_element_located((By.ID, "f-id")))
    browser.find_element(By.ID, "tab-form").click()
    browser.find_element(By.ID, f"f-schedule-as-{schedule_as}-choice").click()
    return wait


def test_a_three_day_fair_with_daily_hours_from_the_form_gets_the_clis_answer(server, tmp_path):
    """Open 10:00-21:00 each day (11 hours, never into 1:00-7:00 a.m.) and 10:00-22:00 (12 hours): on both sides of
    Trempealeau's 12 consecutive hours the page answers what `reasoner evaluate` answers for the same event file."""
    browser = open_browser(tmp_path, 1280, 1400)
    try:
        wait = open_form(browser, server, "daily")
        assert browser.find_element(By.ID, "f-schedule-start").is_displayed() is False
        statuses, panel = [], None
        for close in ("21:00", "22:00"):
            event = fair(close)
            fill_fair(browser, event)
            for name, value in event["schedule"]["daily"].items():
                set_value(browser, f"f-schedule-daily-{name}", value)
            browser.find_element(By.ID, "submit").click()
            page = page_answer(browser, wait, "trempealeau", panel)
            record = cli_answer(tmp_path, event, "trempealeau")
            assert_same_answer(page, record)
            statuses.append(record["status"])
            panel = page["panel"]
        assert statuses[0] != statuses[1], "the two closing hours lie on one side of the threshold"
        browser.execute_script("document.getElementById('f-schedule').scrollIntoView()")
        browser.save_screenshot(str(tmp_path / "form-daily.png"))
    finally:
        browser.quit()


def test_sessions_are_added_and_removed_in_the_form_and_answered_as_the_cli_answers(server, tmp_path):
    """Four sessions added, the second (overlapping the first, which the event model would refuse) removed: the
    event is the three sessions left, the first with a smaller crowd of its own."""
    days = ("2027-08-12", "2027-08-13", "2027-08-14")
    sessions = [{"start": f"{day}T10:00", "end": f"{day}T21:00"} for day in days]
    sessions[0]["expected_max"] = 1500
    event = fair("21:00", sessions=sessions)
    event["id"] = "form-fair-sessions"
    browser = open_browser(tmp_path, 1280, 1400)
    try:
        wait = open_form(browser, server, "sessions")
        fill_fair(browser, event)
        add = browser.find_element(By.ID, "f-schedule-sessions-add")
        for _ in range(4):
            add.click()
        items = browser.find_elements(By.CSS_SELECTOR, "#f-schedule-sessions .item")
        assert [i.find_element(By.TAG_NAME, "legend").text for i in items] == [f"session {n}" for n in (1, 2, 3, 4)]
        ids = [i.get_attribute("id") for i in items]
        filled = [sessions[0], {"start": f"{days[0]}T12:00", "end": f"{days[0]}T23:00"}, *sessions[1:]]
        for item_id, session in zip(ids, filled):
            for name, value in session.items():
                set_value(browser, f"{item_id}-{name}", str(value))
        browser.find_element(By.ID, f"{ids[1]}-remove").click()
        items = browser.find_elements(By.CSS_SELECTOR, "#f-schedule-sessions .item")
        assert [i.find_element(By.TAG_NAME, "legend").text for i in items] == ["session 1", "session 2", "session 3"]
        browser.find_element(By.ID, "submit").click()
        page = page_answer(browser, wait, "trempealeau")
        assert browser.find_element(By.ID, "error").text == ""
        assert_same_answer(page, cli_answer(tmp_path, event, "trempealeau"))
        browser.execute_script("document.getElementById('f-schedule').scrollIntoView()")
        browser.save_screenshot(str(tmp_path / "form-sessions.png"))
    finally:
        browser.quit()


COUNTY_FAIR = ROOT / "facts" / "events" / "compare-county-fair.yaml"


def test_an_explanation_unfolds_each_step_once_and_gives_its_readings(server, tmp_path):
    """As `reasoner explain`: a step the tree already unfolded says "derived above", the reading of unclear text a
    step rests on is said (once), and why no exemption applies is shown, rule by rule."""
    browser = open_browser(tmp_path, 1280)
    try:
        wait = submit(browser, server, COUNTY_FAIR)
        panel = browser.find_element(By.ID, "panel-gem")
        lighting = panel.find_element(By.CSS_SELECTOR, 'button.conclusion[data-name="illumination_footcandles"]')
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", lighting)
        lighting.click()
        explanation = lighting.find_element(By.XPATH, "ancestor::li[1]").find_element(By.CSS_SELECTOR, ".explanation")
        wait.until(lambda b: explanation.find_elements(By.CSS_SELECTOR, ".tree"))
        text = explanation.text
        # the duty is unfolded under itself and named again under its quantity, not unfolded twice
        assert text.count("Part of the assembly continues during hours of darkness.") == 2
        assert text.count("Part of the assembly continues during hours of darkness. (derived above)") == 1
        assert text.count("The ordinance regulates the event and no exemption applies.") == 1
        readings = explanation.find_elements(By.CSS_SELECTOR, ".reading")
        assert len(readings) == 1 and "(darkness_read_from_sun, 5.lighting)" in readings[0].text
        assert '"Hours of darkness" is not defined' in readings[0].text
        assert "does not hold: an exemption applies" in text
        assert "from the sun: the session from" in text and ": sunset at" in text
        assert "would need: The assembly is within an incorporated municipality." in text
        assert "failed: not so: the site: within incorporated municipality" in text
        browser.execute_script("arguments[0].scrollIntoView({block: 'start'})", lighting)
        browser.save_screenshot(str(tmp_path / "explanation-reading.png"))
        browser.save_screenshot("/tmp/s26/explanation-reading.png")
    finally:
        browser.quit()


@pytest.mark.parametrize("source, said", [
    ("id: broken\nattendance: {expected_max: -5}\nschedule: {start: nope}\n", "problems"),  # several problems
    ("id: broken\nattendance: [\n", "yaml"),  # malformed YAML
])
def test_a_refused_event_leaves_nothing_of_the_previous_answer(server, tmp_path, source, said):
    browser = open_browser(tmp_path, 1280)
    try:
        wait = submit(browser, server, HARVEST)
        assert browser.find_element(By.ID, "results").is_displayed()
        text = browser.find_element(By.ID, "source")
        text.clear()
        text.send_keys(source)
        browser.find_element(By.ID, "submit").click()
        error = wait.until(lambda b: b.find_element(By.ID, "error").text and b.find_element(By.ID, "error"))
        browser.save_screenshot(str(tmp_path / "refused.png"))
        shutil.copy(tmp_path / "refused.png", f"/tmp/ux-refused-{said}.png")
        assert not browser.find_element(By.ID, "results").is_displayed()
        assert not browser.find_elements(By.CSS_SELECTOR, "#panels .panel, #comparison table, #question-list li")
        top, bottom = browser.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.top, r.bottom];", error)
        assert 0 <= top and bottom <= browser.execute_script("return window.innerHeight"), "the refusal is out of sight"
        print(error.text)
        assert "null" not in error.text and said in error.text.lower()
        items = [li.text for li in error.find_elements(By.CSS_SELECTOR, "li")]
        for item in items:  # each problem is said once, not also in a line that joins them all
            assert error.text.count(item) == 1, error.text
    finally:
        browser.quit()


def in_view(browser, element) -> bool:
    top, bottom = browser.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.top, r.bottom];",
                                         element)
    return 0 <= top and bottom <= browser.execute_script("return window.innerHeight")


@pytest.mark.parametrize("width", [1280, 420])
def test_a_clause_read_in_the_ordinance_leads_back_to_where_it_was_asked_for(server, tmp_path, width):
    """Narrow, the ordinance's text lies below the whole answer: the cited clause offers a way back to the very
    clause id that was selected, and takes the reader (and the keyboard's focus) there."""
    browser = open_browser(tmp_path, width)
    try:
        wait = submit(browser, server, HARVEST)
        panel = browser.find_element(By.ID, "panel-trempealeau")
        toilets = panel.find_element(By.CSS_SELECTOR, 'button.conclusion[data-name="toilets"]')
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", toilets)
        toilets.click()
        explanation = toilets.find_element(By.XPATH, "ancestor::li[1]").find_element(By.CSS_SELECTOR, ".explanation")
        wait.until(lambda b: explanation.find_elements(By.CSS_SELECTOR, ".tree"))
        link = explanation.find_element(By.CSS_SELECTOR, '.clause-link[data-clause="6.01(3)3"]')
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
        link.click()
        cited = wait.until(seen.visibility_of_element_located((By.CSS_SELECTOR, "#law-text .clause.cited")))
        assert cited.get_attribute("data-clause") == "6.01(3)3"
        back = cited.find_element(By.CSS_SELECTOR, "button.back")
        wait.until(lambda b: in_view(b, back))
        assert back.text == "↩ back to the answer"
        if width < 900:
            assert not in_view(browser, link), "the clause's text lies beside the answer, not below it"
        browser.save_screenshot(f"/tmp/page-clause-{width}.png")
        back.click()
        wait.until(lambda b: in_view(b, link))
        # the focus follows the click's own events, which a loaded machine may deliver after the scroll is seen
        wait.until(lambda b: b.switch_to.active_element == link)
        browser.save_screenshot(f"/tmp/page-back-{width}.png")
        # a second clause leaves one way back only, to the second place
        other = panel.find_element(By.CSS_SELECTOR, "li.kind-obligation .clauses .clause-link")
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", other)
        other.click()
        wait.until(lambda b: b.find_element(By.CSS_SELECTOR, "#law-text .clause.cited").get_attribute("data-clause")
                   == other.get_attribute("data-clause"))
        backs = browser.find_elements(By.CSS_SELECTOR, "#law-text button.back")
        assert len(backs) == 1
        wait.until(lambda b: in_view(b, backs[0]))
        backs[0].click()
        wait.until(lambda b: in_view(b, other))
        assert browser.switch_to.active_element == other
    finally:
        browser.quit()


@pytest.mark.parametrize("width", [1280, 420])
def test_the_comparison_keeps_its_caption_head_row_and_conclusions_in_sight_however_far_it_scrolls(server, tmp_path,
                                                                                                    width):
    """Eleven ordinances do not fit across: scrolled to the last of them and down its rows, the caption still reads
    whole, the row of ordinance names stays on top and each row still says which conclusion it is."""
    browser = open_browser(tmp_path, width)
    try:
        wait = submit(browser, server, HARVEST)
        browser.find_element(By.ID, "tab-compare").click()
        wait.until(seen.visibility_of_element_located((By.CSS_SELECTOR, "table.comparison")))
        region = browser.find_element(By.CSS_SELECTOR, "#comparison [role=region]")
        caption = browser.find_element(By.XPATH, "//*[contains(text(), 'each ordinance side by side')]")
        browser.execute_script("window.scrollBy(0, arguments[0].getBoundingClientRect().top - 8)", caption)
        box = "const r = arguments[0].getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom];"
        moved = browser.execute_script("""const region = arguments[0];
            region.scrollLeft = region.scrollWidth; region.scrollTop = 600;
            return [region.scrollLeft, region.scrollTop];""", region)
        assert moved[0] > 0, "the comparison fits across: nothing to scroll"
        browser.save_screenshot(f"/tmp/page-comparison-scrolled-{width}.png")
        left, right, top, _ = browser.execute_script(box, region)
        c_left, c_right, c_top, c_bottom = browser.execute_script(box, caption)
        assert left <= c_left and c_right <= right, "the caption scrolled out of sight"
        assert 0 <= c_top and c_bottom <= top + 1, "the caption is not above the table"
        head = browser.find_element(By.CSS_SELECTOR, "table.comparison thead th:last-child")
        assert abs(browser.execute_script(box, head)[2] - top) <= 2, "the ordinance names scrolled away"
        rows = browser.find_elements(By.CSS_SELECTOR, "table.comparison tbody th[scope=row]")
        showing = [r for r in rows if top < browser.execute_script(box, r)[2] < top + 300]
        assert showing and all(abs(browser.execute_script(box, r)[0] - left) <= 2 for r in showing), \
            "the conclusions' names scrolled away"
    finally:
        browser.quit()


def cli_json(*arguments: str):
    import json

    from click.testing import CliRunner

    from reasoner.cli import main

    result = CliRunner().invoke(main, [*arguments, "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_what_if_on_the_page_ranks_the_smallest_changes_as_the_cli_does(server, tmp_path):
    """Under a panel, "What would change it?" asks POST /whatif about that ordinance: the proposals the page lists,
    the smallest first, are `reasoner whatif`'s, each with the clauses it rests on and whether it was checked."""
    browser = open_browser(tmp_path, 1280)
    try:
        wait = submit(browser, server, HARVEST)
        part = browser.find_element(By.ID, "whatif-trempealeau")
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", part)
        part.find_element(By.TAG_NAME, "summary").click()
        choice = browser.find_element(By.ID, "whatif-trempealeau-flip")
        assert choice.get_attribute("value") == "permit_required"
        browser.find_element(By.ID, "whatif-trempealeau-ask").click()
        answer = browser.find_element(By.ID, "whatif-trempealeau-answer")
        wait.until(lambda b: answer.find_elements(By.CSS_SELECTOR, "ol.proposals > li"))
        report = cli_json("whatif", str(HARVEST), "-o", "trempealeau", "--flip", "permit_required")
        expected = [report, *report["alternatives"]]
        shown = answer.find_elements(By.CSS_SELECTOR, "ol.proposals > li")
        assert "The smallest changes to make permit required stop holding:" in answer.text
        assert len(shown) == len(expected) > 1
        for item, proposal in zip(shown, expected):
            changes = [li.text for li in item.find_elements(By.CSS_SELECTOR, "ul.changes > li")]
            assert [c.split(":")[0] for c in changes] == [c["fact"] for c in proposal["changes"]]
            assert [link.text for link in item.find_elements(By.CSS_SELECTOR, ".clause-link")] == proposal["clauses"]
            assert "checked: the changed event no longer has it" in item.text
        browser.execute_script("arguments[0].scrollIntoView({block: 'start'})", part)
        browser.save_screenshot("/tmp/page-whatif.png")
    finally:
        browser.quit()


def test_what_if_over_unknown_facts_says_what_decides_it_and_searches_each_way(server, tmp_path):
    """With the crowd unknown, the permit duty holds in some completions only: the page says which answers decide
    it and, as `reasoner whatif`, what would make it hold in every completion and what in none."""
    browser = open_browser(tmp_path, 1280)
    try:
        wait = submit(browser, server, UNKNOWN)
        part = browser.find_element(By.ID, "whatif-trempealeau")
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", part)
        part.find_element(By.TAG_NAME, "summary").click()
        browser.find_element(By.ID, "whatif-trempealeau-ask").click()
        answer = browser.find_element(By.ID, "whatif-trempealeau-answer")
        wait.until(lambda b: "To make" in answer.text)
        report = cli_json("whatif", str(UNKNOWN), "-o", "trempealeau", "--flip", "permit_required")
        assert report["certainty_now"] == "possible"
        assert "permit required: Holds in some completions of the unknown facts only." in answer.text
        for entry in report["decided_by"]:
            assert f"decided by {entry['fact']}: " in answer.text
        searches = [s for s in (report, report.get("otherwise")) if s]
        for search in searches:
            assert f"To make permit required {labels()['whatif'][search['wanted']]}:" in answer.text
        lists = answer.find_elements(By.CSS_SELECTOR, "ol.proposals")
        assert len(lists) == sum(1 for s in searches if s["found"]) > 0
        found = [s for s in searches if s["found"]]
        for shown, search in zip(lists, found):
            facts = [li.text.split(":")[0] for li in shown.find_elements(By.CSS_SELECTOR, "ul.changes > li")]
            assert facts == [c["fact"] for p in (search, *search["alternatives"]) for c in p["changes"]]
            assert labels()["whatif"]["checked_every_completion"] in shown.text
        for search in (s for s in searches if not s["found"]):
            said = f" (the {search['tried']} cheapest tried)." if search.get("gave_up") else "."
            assert "No change of the facts allowed to change does it" + said in answer.text
        browser.execute_script("arguments[0].scrollIntoView({block: 'start'})", part)
        browser.save_screenshot("/tmp/page-whatif-unknown.png")
    finally:
        browser.quit()


def labels() -> dict:
    from reasoner.law.labels import as_json

    return as_json()


@pytest.mark.parametrize("fmt, suffix", [("html", "html"), ("markdown", "md")])
def test_the_report_downloads_from_the_page_as_the_cli_writes_it(server, tmp_path, fmt, suffix):
    browser = open_browser(tmp_path, 1280)
    saved = tmp_path / "downloads"
    saved.mkdir()
    try:
        browser.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(saved)})
        wait = submit(browser, server, HARVEST)
        for name in encoded_ordinances():
            if name not in ("trempealeau", "gem"):
                browser.find_element(By.ID, f"o-{name}").click()
        browser.find_element(By.ID, "submit").click()
        wait.until(lambda b: b.find_elements(By.ID, "panel-gem") and not b.find_elements(By.ID, "panel-village"))
        browser.find_element(By.ID, f"report-{fmt}").click()
        name = f"harvest-music-festival-2027-report.{suffix}"
        wait.until(lambda b: (saved / name).exists() and b.find_element(By.ID, "report-status").text == f"Saved {name}.")
        written = tmp_path / f"cli.{suffix}"
        from click.testing import CliRunner

        from reasoner.cli import main

        result = CliRunner().invoke(main, ["report", str(HARVEST), "-o", "trempealeau", "-o", "gem", "--out", str(written)])
        assert result.exit_code == 0, result.output
        wait.until(lambda b: (saved / name).read_bytes() == written.read_bytes())
        browser.save_screenshot(f"/tmp/page-report-{fmt}.png")
    finally:
        browser.quit()


FARM_WEDDING = ROOT / "facts" / "events" / "farm-wedding.yaml"


@pytest.mark.parametrize("width", [1280, 420])
def test_flipping_a_reading_on_the_page_changes_the_answer_that_turns_on_it(server, tmp_path, width):
    """Fulton exempts weddings anywhere on its default reading of 177-2; on `listed_venues_only` a wedding of 800
    on open land needs a permit. The page marks the status, offers the other reading beside it, and answers again."""
    from selenium.webdriver.support.ui import Select

    from reasoner.law.labels import READING_LABELS, STATUS_LABELS, VERDICT_LABELS

    browser = open_browser(tmp_path, width)
    choice = (By.CSS_SELECTOR, '#panel-fulton select[data-interpretation="weddings_exempt_anywhere"]')
    badge = lambda b: b.find_element(By.CSS_SELECTOR, "#panel-fulton .badge").text.lower()  # noqa: E731
    try:
        wait = submit(browser, server, FARM_WEDDING)
        wait.until(lambda b: badge(b) == STATUS_LABELS["exempt"])
        # what turns on a reading comes in a second answer, drawn into the panels once it is in
        wait.until(seen.presence_of_element_located(choice))
        panel = browser.find_element(By.ID, "panel-fulton")
        wedding = panel.find_element(By.CSS_SELECTOR, 'li.kind-exemption button.conclusion[data-name="wedding"]')
        assert wedding.find_element(By.XPATH, "ancestor::li[1]").find_elements(By.CSS_SELECTOR, "button.turns")
        mark = panel.find_element(By.CSS_SELECTOR, 'p.status button.turns[data-interpretation="weddings_exempt_anywhere"]')
        assert READING_LABELS["mark"] in mark.text
        mark.send_keys(Keys.ENTER)   # the mark leads to the choice of reading, by keyboard
        wait.until(lambda b: b.switch_to.active_element == b.find_element(*choice))
        options = [o.text for o in Select(browser.find_element(*choice)).options]
        assert options == [f"anywhere ({READING_LABELS['default']})", "listed venues only"]
        assert "exempting weddings and anniversary gatherings wherever they are held" in panel.text
        browser.save_screenshot(str(tmp_path / f"reading-default-{width}.png"))
        browser.save_screenshot(f"/tmp/webr-reading-default-{width}.png")

        Select(browser.find_element(*choice)).select_by_value("listed_venues_only")
        wait.until(lambda b: b.find_elements(By.ID, "panel-fulton") and badge(b) == STATUS_LABELS["permit_required"])
        wait.until(seen.presence_of_element_located(choice))
        panel = browser.find_element(By.ID, "panel-fulton")
        assert not panel.find_elements(By.CSS_SELECTOR, 'li.kind-exemption button.conclusion[data-name="wedding"]')
        # the reader stays at the choice they changed, which now offers the default as the other side
        wait.until(lambda b: b.switch_to.active_element == b.find_element(*choice))
        assert Select(browser.find_element(*choice)).first_selected_option.get_attribute("value") == "listed_venues_only"
        assert READING_LABELS["chosen"] in panel.text
        applied = browser.find_element(By.ID, "readings-applied")
        assert applied.is_displayed() and "fulton.weddings_exempt_anywhere=listed_venues_only" in applied.text
        browser.save_screenshot(str(tmp_path / f"reading-flipped-{width}.png"))
        browser.save_screenshot(f"/tmp/webr-reading-flipped-{width}.png")

        browser.find_element(By.ID, "readings-reset").click()
        wait.until(lambda b: b.find_elements(By.ID, "panel-fulton") and badge(b) == STATUS_LABELS["exempt"])
        wait.until(lambda b: not b.find_element(By.ID, "readings-applied").is_displayed())

        browser.find_element(By.ID, "tab-compare").click()
        wait.until(seen.visibility_of_element_located((By.CSS_SELECTOR, "table.comparison .verdict")))
        row = browser.find_element(By.XPATH, '//table[@class="comparison"]//th[@scope="row"][starts-with(., "wedding")]')
        verdict = row.find_element(By.CSS_SELECTOR, ".verdict")
        assert verdict.text.split("\n") == [VERDICT_LABELS["differ_because_of_a_reading"],
                                             "fulton weddings exempt anywhere = listed venues only "
                                             f"{READING_LABELS['gives']} {READING_LABELS['absent']}"]
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
        browser.save_screenshot(f"/tmp/webr-reading-compare-{width}.png")
        page_width = browser.execute_script("return document.documentElement.scrollWidth")
        assert page_width <= browser.execute_script("return window.innerWidth"), "the page scrolls sideways"
    finally:
        browser.quit()
