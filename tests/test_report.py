"""The web report: files, links and escaping (no browser); see test_report_browser.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from duplicate.cli import app
from tests.conftest import GOLDEN, SAMPLE, codes, line_of

runner = CliRunner()
EVIL = "<script>alert(1)</script>"


def hostile_event(tmp_path: Path) -> Path:
    """A small event with a Chinese name and a player whose name is HTML."""
    path = tmp_path / "event.csv"
    rows = ["round,deal,table,seat,player,score,seconds"]
    players = ["张三", EVIL, "A&B", "P4"]
    for deal in (1, 2):
        for i, player in enumerate(players):
            name = f'"{player}"' if "," in player else player
            rows.append(f"1,{deal},1,{i},{name},{(i * 7 + deal * 3) % 11 - 5},{60 + i}")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def build(tmp_path: Path, results: Path, *extra: str) -> Path:
    site = tmp_path / "site"
    result = runner.invoke(app, ["report", str(results), "-o", str(site), *extra])
    assert result.exit_code == 0, result.stderr
    assert "pages to" in result.stderr
    return site


def test_every_link_leads_to_a_page(tmp_path: Path) -> None:
    site = build(tmp_path, SAMPLE / "big2_event.csv")
    pages = sorted(site.rglob("*.html"))
    assert len(pages) == 1 + 1 + 1 + 1 + 3 + 24 + 48  # and crosstable, standings by round
    for page in pages:
        for href in re.findall(r'href="([^"]+)"', page.read_text(encoding="utf-8")):
            assert (page.parent / href).resolve().is_file(), f"{page.name} links to {href}"


def test_user_text_is_escaped(tmp_path: Path) -> None:
    site = build(tmp_path, hostile_event(tmp_path))
    for page in site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert "<script" not in html
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in index
    assert "A&amp;B" in index
    assert "张三" in index


def test_chinese_labels(tmp_path: Path) -> None:
    site = build(tmp_path, SAMPLE / "spec_example.csv", "--lang", "zh")
    index = (site / "index.html").read_text(encoding="utf-8")
    assert '<html lang="zh-CN">' in index
    assert "成绩排名" in index
    assert "决胜依据" in index
    assert "<td>总分</td>" in index  # decided_by "total", in the page's language


def test_adjustments_show_with_their_reasons(tmp_path: Path) -> None:
    case = GOLDEN / "adjustments"
    site = build(tmp_path, case / "results.csv", "--adjustments", str(case / "adjustments.csv"))
    rules = (site / "rules.html").read_text(encoding="utf-8")
    assert "played out of turn" in rules
    traveller = (site / "deals" / "1.html").read_text(encoding="utf-8")
    assert "mp_pct 60.00: table disconnected through no fault of the player" in traveller


def test_a_folder_the_report_did_not_write_is_never_replaced(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("mine", encoding="utf-8")
    result = runner.invoke(app, ["report", str(SAMPLE / "spec_example.csv"), "-o", str(tmp_path)])
    assert result.exit_code == 2
    assert codes(result.stderr) == ["output.folder"]
    assert (tmp_path / "keep.txt").read_text(encoding="utf-8") == "mine"


def test_a_report_replaces_an_earlier_report(tmp_path: Path) -> None:
    build(tmp_path, SAMPLE / "big2_event.csv")
    site = build(tmp_path, SAMPLE / "spec_example.csv")
    assert len(list((site / "players").iterdir())) == 3
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize(
    "name", ["index.html", "rules.html", "deals/index.html", "players/1.html", "deals/1.html"]
)
def test_pages_are_self_contained(tmp_path: Path, name: str) -> None:
    html = (build(tmp_path, SAMPLE / "spec_example.csv") / name).read_text(encoding="utf-8")
    assert not re.search(r'(src|href)="(https?:)?//', html)
    assert "<link" not in html


def test_an_adjustment_naming_no_result_stops_the_report(tmp_path: Path) -> None:
    bad = tmp_path / "adj.csv"
    bad.write_text("round,deal,player,kind,value,reason\n9,1,P1,void,,x\n", encoding="utf-8")
    result = runner.invoke(
        app,
        [
            "report",
            str(SAMPLE / "spec_example.csv"),
            "-o",
            str(tmp_path / "site"),
            "--adjustments",
            str(bad),
        ],
    )
    assert result.exit_code == 1
    assert codes(result.stderr) == ["adjustment.no-result"]
    line = line_of("adjustment.no-result", result.stderr)
    assert f"]: {bad}, row 2, column 'player': " in line
    assert "'P1'" in line
    assert not (tmp_path / "site").exists()


def test_the_report_names_players_and_speaks_chinese(tmp_path: Path) -> None:
    players = tmp_path / "players.csv"
    players.write_text("选手,姓名,俱乐部\nA,郭涛,东城棋牌社\nB,李娜,\nC,,\nD,,\n", encoding="utf-8")
    site = tmp_path / "site"
    case = GOLDEN / "adjustments"
    result = runner.invoke(
        app,
        [
            "report", str(case / "results.csv"), "-o", str(site), "--lang", "zh",
            "--adjustments", str(case / "adjustments.csv"), "--players", str(players),
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    index = (site / "index.html").read_text()
    assert '<th scope="col">姓名</th><th scope="col" class="low">俱乐部</th>' in index
    assert '<td>郭涛</td><td class="low">东城棋牌社</td>' in index
    rules = (site / "rules.html").read_text()
    assert "<td>指定MP得分率</td>" in rules
    assert "<td>成绩作废</td>" in rules
    assert '<th scope="row">并列时的名次</th><td class="wrap">competition</td>' in rules
    player = (site / "players" / "1.html").read_text()
    assert '<text class="axis"' in player
    assert ">轮次</text>" in player or ">轮</text>" in player
