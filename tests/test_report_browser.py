"""The web report in a real browser: Debian's chromium, driven through chromedriver.

`make test` installs chromium and chromium-driver; without them these tests fail, unless
DUPLICATE_NO_BROWSER=1 says on purpose that this machine has no browser.
A screenshot of the standings page is kept in test-artifacts/.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from typer.testing import CliRunner

import duplicate
from duplicate.cli import app
from tests.conftest import ROOT, SAMPLE
from tests.test_report import EVIL, hostile_event

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        if os.environ.get("DUPLICATE_NO_BROWSER"):
            pytest.skip("DUPLICATE_NO_BROWSER is set")
        pytest.fail("chromium and chromedriver are missing: run `make test`, which installs them")
    profile = tempfile.mkdtemp(prefix="duplicate-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
        "--window-size=1400,1000",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def console_errors(driver: webdriver.Chrome) -> list[str]:
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def site_for(tmp_path: Path, results: Path, lang: str = "en") -> Path:
    site = tmp_path / "site"
    result = CliRunner().invoke(app, ["report", str(results), "-o", str(site), "--lang", lang])
    assert result.exit_code == 0, result.stderr
    return site


def test_standings_page_matches_the_standings_command(
    browser: webdriver.Chrome, tmp_path: Path
) -> None:
    site = site_for(tmp_path, SAMPLE / "big2_event.csv", "zh")
    browser.get((site / "index.html").as_uri())
    assert console_errors(browser) == []
    assert browser.find_element(By.TAG_NAME, "h1").text == "成绩排名"
    shown = [
        row.find_elements(By.TAG_NAME, "td")[1].text
        for row in browser.find_elements(By.CSS_SELECTOR, "table.standings tbody tr")
    ]
    expected = list(duplicate.standings(SAMPLE / "big2_event.csv").frame["player"])
    assert shown == expected
    ARTIFACTS.mkdir(exist_ok=True)
    assert browser.save_screenshot(str(ARTIFACTS / "report-standings.png"))


def test_links_between_pages_work(browser: webdriver.Chrome, tmp_path: Path) -> None:
    site = site_for(tmp_path, SAMPLE / "big2_event.csv")
    browser.get((site / "index.html").as_uri())
    first = browser.find_element(By.CSS_SELECTOR, "table.standings tbody tr td:nth-child(2) a")
    name = first.text
    first.click()
    assert browser.find_element(By.TAG_NAME, "h1").text == f"Player {name}"
    assert browser.find_elements(By.CSS_SELECTOR, "svg.place-chart polyline")
    browser.find_element(By.CSS_SELECTOR, "table.player-deals tbody tr a").click()
    assert browser.find_element(By.TAG_NAME, "h1").text.startswith("Round 1 · Deal 1")
    assert name in [a.text for a in browser.find_elements(By.CSS_SELECTOR, "table.traveller a")]
    browser.find_element(By.LINK_TEXT, "Rules").click()
    assert "tie_ranking" in browser.find_element(By.TAG_NAME, "pre").text
    browser.find_element(By.LINK_TEXT, "Deals").click()
    assert len(browser.find_elements(By.CSS_SELECTOR, "ul.deals a")) == 24
    assert console_errors(browser) == []


def test_hostile_and_chinese_names_show_as_text(browser: webdriver.Chrome, tmp_path: Path) -> None:
    site = site_for(tmp_path, hostile_event(tmp_path))
    for page in sorted(site.rglob("*.html")):
        browser.get(page.as_uri())
        assert console_errors(browser) == [], page.name
    browser.get((site / "index.html").as_uri())
    names = {a.text for a in browser.find_elements(By.CSS_SELECTOR, "table.standings a")}
    assert {"张三", EVIL, "A&B"} <= names
    assert browser.execute_script("return document.querySelectorAll('body script').length") == 0


def test_a_stage_site_shows_standings_eliminations_and_chips(
    browser: webdriver.Chrome, tmp_path: Path
) -> None:
    hands = pd.read_csv(SAMPLE / "stage_example.csv", dtype=str)
    hands["player"] = hands["player"].replace({"A": EVIL, "C": "张三"})
    log = tmp_path / "hands.csv"
    hands.to_csv(log, index=False)
    site = tmp_path / "stage"
    result = CliRunner().invoke(
        app,
        [
            "elimination",
            str(log),
            "--base",
            "0:100,4:200,8:400",
            "--advance",
            "3",
            "--report",
            str(site),
            "-o",
            str(tmp_path / "stage.csv"),
        ],
    )
    assert result.exit_code == 0, result.stderr
    for page in sorted(site.rglob("*.html")):
        browser.get(page.as_uri())
        assert console_errors(browser) == [], page.name
        assert browser.execute_script("return document.querySelectorAll('body script').length") == 0
    browser.get((site / "index.html").as_uri())
    shown = [
        row.find_elements(By.TAG_NAME, "td")[1].text
        for row in browser.find_elements(By.CSS_SELECTOR, "table.standings tbody tr")
    ]
    assert shown == ["F", "B", EVIL, "E", "张三", "D"]
    browser.find_element(By.LINK_TEXT, EVIL).click()
    assert browser.find_element(By.TAG_NAME, "h1").text == f"Player {EVIL}"
    chart = "svg.chips-chart"
    labels = [t.text for t in browser.find_elements(By.CSS_SELECTOR, f"{chart} text:not(.axis)")]
    assert labels[::2] == ["1600", "900", "1700"]
    axes = [t.text for t in browser.find_elements(By.CSS_SELECTOR, f"{chart} text.axis")]
    assert axes == ["Hand", "Chips"]
    assert len(browser.find_elements(By.CSS_SELECTOR, "table.payments tbody tr")) == 4
    browser.find_element(By.LINK_TEXT, "Eliminations").click()
    order = [a.text for a in browser.find_elements(By.CSS_SELECTOR, "ol.timeline a")]
    assert order == ["D", "张三", "E"]
