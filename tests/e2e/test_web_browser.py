"""The web pages in a real browser: Debian's Chromium, headless, driven by Selenium through
Debian's chromedriver (scripts/install-test-services.sh installs both, as it installs Dovecot).
Each page is loaded as a player would load it, a screenshot is taken, and the content is checked
through the DOM (the phase's heading, the units' count, the map drawn), never by pixels.

Without Chromium these tests fail, loudly: CI installs it with the same script, so a missing
browser is a broken setup, not a reason to skip."""

from __future__ import annotations

import base64
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from gmserver.config import WebConfig
from gmserver.db.migrate import upgrade
from gmserver.services.features import pages
from gmserver.services.turn import turns
from gmserver.web.auth import hash_password
from tests.integration.test_web_pages import orders
from tests.support.dovecot import free_port
from tests.support.web import serving
from tests.support.world import new_game, services_for

pytestmark = pytest.mark.e2e

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


@pytest.fixture()
def browser(tmp_path: Path) -> Iterator[webdriver.Chrome]:
    if not (os.access(CHROMIUM, os.X_OK) and os.access(CHROMEDRIVER, os.X_OK)):
        pytest.fail(f"the browser tests need Debian's chromium and chromium-driver ({CHROMIUM}, {CHROMEDRIVER}): "
                    "run scripts/install-test-services.sh")
    options = Options()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1280,1800", f"--user-data-dir={tmp_path / 'profile'}"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture()
def game(clock, tmp_path: Path):
    """lepanto, SQLite (the browser sees no difference), after Spring 1901 with France's Fall
    orders on file; the GM's password is "sesame"."""
    url = f"sqlite:///{tmp_path / 'gm.db'}"
    upgrade(url)
    services = services_for(url)
    new_game(services, clock())
    orders(services, clock, "FRANCE", "S1901M", "A PAR - BUR\nA MAR - SPA\nF BRE - MAO")
    clock.advance(hours=48)
    turns.adjudicate_due(services, clock())
    orders(services, clock, "FRANCE", "F1901M", "A BUR - BEL\nA SPA H")
    token = pages.issue_page_token(services.sessions, "lepanto", "FRANCE", clock())
    web = WebConfig(listen=f"127.0.0.1:{free_port()}", gm_password_hash=hash_password("sesame", iterations=1000))
    with serving(services, web) as base:
        yield base, token


def screenshot(driver: webdriver.Chrome, name: str) -> Path:
    """The whole page as a PNG, kept where CI collects it ($GMSERVER_SCREENSHOTS) or beside the test."""
    folder = Path(os.environ.get("GMSERVER_SCREENSHOTS") or "/tmp/gmserver-screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    data = driver.get_screenshot_as_png()
    path.write_bytes(data)
    assert data.startswith(b"\x89PNG") and len(data) > 10_000
    return path


def images_drawn(driver: webdriver.Chrome) -> list[int]:
    return [driver.execute_script("return arguments[0].complete ? arguments[0].naturalWidth : 0", image)
            for image in driver.find_elements(By.TAG_NAME, "img")]


def no_policy_violations(driver: webdriver.Chrome) -> None:
    """The strict Content-Security-Policy blocked nothing the page needs (no inline style or script)."""
    logged = [entry["message"] for entry in driver.get_log("browser")]
    assert not [m for m in logged if "Content Security Policy" in m], logged


def units_listed(driver: webdriver.Chrome) -> int:
    return sum(len([u for u in cell.text.split(", ") if u and u != "none"])
               for cell in driver.find_elements(By.CSS_SELECTOR, "table.powers td.units"))


def test_a_demo_games_public_page_in_chromium(browser, game) -> None:
    base, _ = game
    browser.get(f"{base}/games/lepanto")
    screenshot(browser, "game")
    assert browser.find_element(By.ID, "phase").text == "lepanto: Fall 1901 Movement (F1901M)"
    assert units_listed(browser) == 22
    assert browser.find_element(By.CLASS_NAME, "unit-count").text == "22 units on the board."
    assert images_drawn(browser) == [918]
    # the enhancement ran: the deadline also in the viewer's own zone
    assert browser.find_element(By.CLASS_NAME, "viewer-time").text.startswith("(your time:")
    no_policy_violations(browser)
    browser.find_element(By.LINK_TEXT, "Spring 1901 Movement (S1901M)").click()
    assert browser.current_url == f"{base}/games/lepanto/phases/S1901M"


def test_a_past_phase_in_chromium(browser, game) -> None:
    base, _ = game
    browser.get(f"{base}/games/lepanto/phases/S1901M")
    screenshot(browser, "phase")
    assert browser.find_element(By.ID, "phase").text == "lepanto: Spring 1901 Movement (S1901M), results"
    assert len(browser.find_elements(By.CSS_SELECTOR, "table.units ul.units li")) == 22
    assert images_drawn(browser) == [918]
    assert "A PAR - BUR" in browser.find_element(By.CSS_SELECTOR, "table.orders").text
    no_policy_violations(browser)


def test_a_players_page_shows_their_orders_on_the_map_in_chromium(browser, game) -> None:
    base, token = game
    browser.get(f"{base}/games/lepanto/p/{token}")
    screenshot(browser, "player")
    assert browser.find_element(By.ID, "phase").text == "lepanto: Fall 1901 Movement (F1901M)"
    listed = [item.text for item in browser.find_elements(By.CSS_SELECTOR, "#own-orders li")]
    assert listed == ["A Burgundy -> Belgium A BUR - BEL", "A Spain holds A SPA H"]
    assert images_drawn(browser) == [918]
    assert "2 orders on file" in browser.find_element(By.CSS_SELECTOR, "img.map").get_attribute("alt")
    no_policy_violations(browser)


def test_the_gm_page_in_chromium(browser, game) -> None:
    base, _ = game
    browser.get(f"{base}/gm")  # 401: the browser asks for the password, the page shows nothing
    assert "Every game" not in browser.page_source
    # what the browser sends once the GM typed the password into its dialog
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {
        "Authorization": "Basic " + base64.b64encode(b"gm:sesame").decode()}})
    browser.get(f"{base}/gm")
    screenshot(browser, "gm")
    assert browser.find_element(By.ID, "phase").text == "Every game"
    [row] = browser.find_elements(By.CSS_SELECTOR, "table.games tr.game")
    assert row.text.startswith("lepanto Fall 1901 Movement (F1901M)")
    assert "Austria, England, Germany, Italy, Russia, Turkey" in row.text
    no_policy_violations(browser)
