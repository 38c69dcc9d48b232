"""The web report in a real browser: Debian's chromium, driven through chromedriver.

`make test` installs chromium and chromium-driver; without them these tests fail, unless
DUPLICATE_NO_BROWSER=1 says on purpose that this machine has no browser.
Screenshots of the sample event's main pages, at a phone's width (390 px) and a
laptop's (1280 px), are kept in test-artifacts/report/.
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
from tests.test_report import EVIL, MOVEMENT_ROWS, hostile_event

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
ARTIFACTS = ROOT / "test-artifacts" / "report"
PHONE, LAPTOP = 390, 1280


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
    labels = [
        t.text
        for t in browser.find_elements(By.CSS_SELECTOR, f"{chart} text:not(.axis):not(.scale)")
    ]
    assert labels[::2] == ["1600", "900", "1700"]
    axes = [t.text for t in browser.find_elements(By.CSS_SELECTOR, f"{chart} text.axis")]
    assert axes == ["Hand", "Chips"]
    assert len(browser.find_elements(By.CSS_SELECTOR, "table.payments tbody tr")) == 4
    browser.find_element(By.LINK_TEXT, "Eliminations").click()
    order = [a.text for a in browser.find_elements(By.CSS_SELECTOR, "ol.timeline a")]
    assert order == ["D", "张三", "E"]


# -- phone and laptop -------------------------------------------------------------------

CLUBS = [
    "东城区老年活动中心棋牌社",
    "Riverside Bridge & Card Club",
    "朝阳",
    "海淀区第二少年宫扑克俱乐部",
]


def named_event(tmp_path: Path) -> Path:
    """The sample event with a players file: names and long club names, Chinese and
    English (as a club's players file gives them)."""
    players = tmp_path / "players.csv"
    rows = ["player,name,club"]
    for i in range(1, 49):
        name = f"选手{i:02d} 王" if i % 3 else f"Player Number {i:02d}"
        rows.append(f"P{i:02d},{name},{CLUBS[i % len(CLUBS)]}")
    players.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return players


def site_with(tmp_path: Path, name: str, *args: str) -> Path:
    site = tmp_path / name
    result = CliRunner().invoke(app, ["report", *args, "-o", str(site)])
    assert result.exit_code == 0, result.stderr
    return site


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The sample event in Chinese and English (names and clubs from a players file),
    the sample bridge session, a published one with the play at each table, and a
    bridge movement that names its tables."""
    tmp = tmp_path_factory.mktemp("sites")
    players = named_event(tmp)
    event = str(SAMPLE / "big2_event.csv")
    movement = tmp / "movement.csv"
    movement.write_text(MOVEMENT_ROWS, encoding="utf-8")
    stage = CliRunner().invoke(
        app,
        [
            "elimination", str(SAMPLE / "stage_example.csv"), "--base", "0:100,4:200,8:400",
            "--advance", "3", "--report", str(tmp / "stage"), "-o", str(tmp / "stage.csv"),
            "--lang", "zh",
        ],
    )  # fmt: skip
    assert stage.exit_code == 0, stage.stderr
    return {
        "stage": tmp / "stage",
        "zh": site_with(tmp, "zh", event, "--players", str(players), "--lang", "zh"),
        "en": site_with(tmp, "en", event, "--players", str(players)),
        "bridge": site_with(tmp, "bridge", str(SAMPLE / "bridge_session.pbn")),
        "published": site_with(tmp, "published", str(PUBLISHED_SESSION)),
        "movement": site_with(tmp, "movement", str(movement), "--deal-scope", "event"),
    }


def view(browser: webdriver.Chrome, width: int) -> None:
    """The page as a screen `width` CSS pixels wide shows it (a phone: a mobile one)."""
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": 844 if width < 600 else 800, "deviceScaleFactor": 1,
         "mobile": width < 600},
    )  # fmt: skip


# Everything that sticks out of the page's width (outside a box that scrolls sideways),
# every cell whose text breaks into more lines than it has words (a name one character a
# line; a unit in brackets and each part of a hyphenated word count as words), and every
# box that hides what sticks out of it.
LAYOUT_FAULTS = r"""
const width = document.documentElement.clientWidth;
const faults = [];
const describe = (e) => e.tagName.toLowerCase() + (e.className ? '.' + e.className : '')
  + ' "' + (e.textContent || '').trim().slice(0, 40) + '"';
if (document.documentElement.scrollWidth > width) {
  faults.push('page scrolls sideways: ' + document.documentElement.scrollWidth + ' > ' + width);
}
for (const e of document.body.querySelectorAll('*')) {
  if (e.closest('.scroll')) continue;
  const r = e.getBoundingClientRect();
  if (r.width > 0 && r.right > width + 0.5) faults.push('sticks out: ' + describe(e));
}
for (const box of document.querySelectorAll('.scroll')) {
  if (box.scrollWidth > box.clientWidth && getComputedStyle(box).overflowX !== 'auto') {
    faults.push('clipped: ' + describe(box));
  }
}
for (const cell of document.querySelectorAll('td, th')) {
  const text = cell.textContent.trim();
  if (!text) continue;
  const range = document.createRange();
  range.selectNodeContents(cell);
  const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
  // Words: between spaces and after a hyphen; a unit in brackets ("用时(秒)") may go
  // to the next line.
  const words = text.split(/\s+|(?<=-)|(?=[(\uff08])/).length;
  if (tops.size > Math.max(words, 1)) faults.push('broken inside a word: ' + describe(cell));
}
return faults;
"""

MAIN_PAGES = {
    "standings": "index.html",
    "after-round-1": "rounds/1.html",
    "crosstable": "crosstable.html",
    "deal": "deals/1.html",
    "player": "players/1.html",
    "rules": "rules.html",
}
BRIDGE_PAGES = {"bridge-standings": "index.html", "bridge-board": "deals/1.html"}
# A published session's board: 22 tables, each with its contract, declarer, lead, result.
PUBLISHED_SESSION = ROOT / "tests/data/sessions/magic-contest/open-dn1-seance-1.pbn"
PUBLISHED_PAGES = {"published-session-board": "deals/1.html"}
MOVEMENT_PAGES = {"movement-board": "deals/1.html", "movement-crosstable": "crosstable.html"}
STAGE_PAGES = {"stage-standings": "index.html", "stage-player": "players/1.html"}
# The screenshots kept: every main page in Chinese, the English standings, the bridge pages.
KEPT = {*(f"{k}-zh" for k in MAIN_PAGES), "standings-en", *BRIDGE_PAGES, *MOVEMENT_PAGES}
KEPT |= set(STAGE_PAGES) | set(PUBLISHED_PAGES)


@pytest.mark.slow
@pytest.mark.parametrize("width", [PHONE, LAPTOP])
def test_pages_fit_a_phone_and_a_laptop(
    browser: webdriver.Chrome, sites: dict[str, Path], width: int
) -> None:
    view(browser, width)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pages = [(f"{k}-zh", sites["zh"], v) for k, v in MAIN_PAGES.items()]
    pages += [(f"{k}-en", sites["en"], v) for k, v in MAIN_PAGES.items()]
    pages += [(k, sites["bridge"], v) for k, v in BRIDGE_PAGES.items()]
    pages += [(k, sites["published"], v) for k, v in PUBLISHED_PAGES.items()]
    pages += [(k, sites["movement"], v) for k, v in MOVEMENT_PAGES.items()]
    pages += [(k, sites["stage"], v) for k, v in STAGE_PAGES.items()]
    for name, site, page in pages:
        browser.get((site / page).as_uri())
        assert browser.execute_script(LAYOUT_FAULTS) == [], f"{name} at {width} px"
        assert console_errors(browser) == [], name
        if name in KEPT:
            assert browser.save_screenshot(str(ARTIFACTS / f"{name}-{width}.png"))


def test_every_standings_column_shows_on_a_laptop(
    browser: webdriver.Chrome, sites: dict[str, Path]
) -> None:
    """At 1280 px the standings need no sideways scrolling: the play-off column is in
    view; on a phone their box scrolls, the page does not."""
    view(browser, LAPTOP)
    browser.get((sites["zh"] / "index.html").as_uri())
    box = browser.find_element(By.CSS_SELECTOR, ".scroll")
    assert box.get_property("scrollWidth") <= box.get_property("clientWidth")
    last = browser.find_element(By.CSS_SELECTOR, "table.standings thead th:last-child")
    assert last.text == "加赛"
    assert last.rect["x"] + last.rect["width"] <= LAPTOP
    view(browser, PHONE)
    browser.get((sites["zh"] / "index.html").as_uri())
    box = browser.find_element(By.CSS_SELECTOR, ".scroll")
    assert box.get_property("scrollWidth") > box.get_property("clientWidth")
    browser.execute_script("arguments[0].scrollLeft = arguments[0].scrollWidth", box)
    last = browser.find_element(By.CSS_SELECTOR, "table.standings thead th:last-child")
    assert last.rect["x"] >= 0
    assert last.rect["x"] + last.rect["width"] <= PHONE + 1
