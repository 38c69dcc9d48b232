"""The web report: files, links and escaping (no browser); see test_report_browser.py."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from duplicate.cli import app
from tests.conftest import GOLDEN, SAMPLE, codes, line_of
from tests.test_properties import events

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


def test_pages_are_self_contained(tmp_path: Path) -> None:
    site = build(tmp_path, SAMPLE / "big2_event.csv")
    for name in (
        "index.html", "rules.html", "deals/index.html", "players/1.html", "deals/1.html",
        "rounds/1.html", "crosstable.html",
    ):  # fmt: skip
        html = (site / name).read_text(encoding="utf-8")
        assert not re.search(r'(src|href)="(https?:)?//', html)
        assert "<link" not in html
        assert "<script" not in html


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


# -- tables as a reader sees them ---------------------------------------------------------


class _Tables(HTMLParser):
    """Every table of a page: its rows, each row's cells as text."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.cell is not None:
            self.tables[-1][-1].append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def tables_of(page: Path) -> list[list[list[str]]]:
    return _tables_in(page.read_text(encoding="utf-8"))


def _tables_in(html: str) -> list[list[list[str]]]:
    parser = _Tables()
    parser.feed(html)
    return parser.tables


def as_records(table: list[list[str]]) -> list[dict[str, str]]:
    head, *rows = table
    return [dict(zip(head, row, strict=True)) for row in rows]


# A two-round bridge event of four pairs at two tables: pairs 1 and 2 sit North-South.
BRIDGE_ROWS = """round,deal,table,seat,player,score
1,1,1,NS,1,420
1,1,1,EW,3,-420
1,1,2,NS,2,-50
1,1,2,EW,4,50
1,2,1,NS,1,110
1,2,1,EW,3,-110
1,2,2,NS,2,140
1,2,2,EW,4,-140
2,3,1,NS,1,-100
2,3,1,EW,4,100
2,3,2,NS,2,-100
2,3,2,EW,3,100
2,4,1,NS,1,620
2,4,1,EW,4,-620
2,4,2,NS,2,600
2,4,2,EW,3,-600
"""


def bridge_event(tmp_path: Path) -> Path:
    path = tmp_path / "bridge.csv"
    path.write_text(BRIDGE_ROWS, encoding="utf-8")
    return path


def test_a_bridge_board_is_one_page_with_a_line_per_table(tmp_path: Path) -> None:
    site = build(tmp_path, bridge_event(tmp_path))
    assert sorted(p.name for p in (site / "deals").iterdir()) == [
        "1.html", "2.html", "3.html", "4.html", "index.html",
    ]  # fmt: skip
    board = site / "deals" / "1.html"
    assert "<title>Round 1 · Board 1</title>" in board.read_text(encoding="utf-8")
    [traveller] = tables_of(board)
    assert as_records(traveller) == [
        {"Table": "1", "NS pair": "1", "EW pair": "3", "Score NS": "420", "Score EW": "",
         "MP NS": "2", "MP% NS": "100.00", "MP EW": "0", "MP% EW": "0.00"},
        {"Table": "2", "NS pair": "2", "EW pair": "4", "Score NS": "", "Score EW": "50",
         "MP NS": "0", "MP% NS": "0.00", "MP EW": "2", "MP% EW": "100.00"},
    ]  # fmt: skip
    index = (site / "deals" / "index.html").read_text(encoding="utf-8")
    assert ">Boards</a>" in index
    assert "Deal" not in index


# Boards that travel: each is played at one table in round 1 and at the other in round 2.
MOVEMENT_ROWS = """round,deal,table,seat,player,score
1,1,1,NS,1,420
1,1,1,EW,3,-420
1,2,1,NS,1,-50
1,2,1,EW,3,50
1,3,2,NS,2,110
1,3,2,EW,4,-110
1,4,2,NS,2,-200
1,4,2,EW,4,200
2,3,1,NS,1,140
2,3,1,EW,3,-140
2,4,1,NS,1,-100
2,4,1,EW,3,100
2,1,2,NS,2,450
2,1,2,EW,4,-450
2,2,2,NS,2,-50
2,2,2,EW,4,50
"""


def test_a_board_played_in_several_rounds_is_one_traveller(tmp_path: Path) -> None:
    results = tmp_path / "movement.csv"
    results.write_text(MOVEMENT_ROWS, encoding="utf-8")
    site = build(tmp_path, results, "--deal-scope", "event")
    board = site / "deals" / "1.html"
    assert "<title>Board 1</title>" in board.read_text(encoding="utf-8")
    [traveller] = tables_of(board)
    lines = as_records(traveller)
    assert [(r["Round"], r["Table"], r["NS pair"], r["EW pair"]) for r in lines] == [
        ("1", "1", "1", "3"),
        ("2", "2", "2", "4"),
    ]
    assert [r["MP NS"] for r in lines] == ["0", "2"]


def test_a_traveller_shows_the_play_when_the_session_gives_it(tmp_path: Path) -> None:
    """Contract, declarer, lead and result, each where the results carry it; names
    beside the pair numbers."""
    from dataclasses import replace

    import duplicate
    from duplicate.actions.common import event_of
    from duplicate.render.data import report_data
    from duplicate.render.pages import build_site

    event = event_of(bridge_event(tmp_path), None)
    assert event.results is not None
    data = report_data(event.results, event.rules)
    scores = data.scores
    first = (scores["deal"] == 1).to_numpy()
    scores = scores.assign(
        name=scores["player"]
        .astype(str)
        .map({"1": "Ann & Bo", "2": "Cy & Di", "3": "Ed & Flo", "4": "刘 & 何"}),
        contract=["4S" if f else None for f in first],
        declarer=["N" if f else None for f in first],
        lead=["HK" if f else None for f in first],
    )
    site = tmp_path / "site"
    for path, html in build_site(replace(data, scores=scores), "zh").items():
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        (site / path).write_text(html, encoding="utf-8")
    [traveller] = tables_of(site / "deals" / "1.html")
    assert traveller[0] == [
        "桌号", "南北对", "姓名", "东西对", "姓名", "定约", "庄家", "首攻",
        "南北得分", "东西得分", "MP 南北", "MP得分率 南北", "MP 东西", "MP得分率 东西",
    ]  # fmt: skip
    assert traveller[1][:8] == ["1", "1", "Ann & Bo", "3", "Ed & Flo", "4S", "N", "HK"]
    # A board whose results say nothing of the play has no such columns.
    [other] = tables_of(site / "deals" / "3.html")
    assert "定约" not in other[0]
    assert duplicate.__version__ in (site / "index.html").read_text(encoding="utf-8")


def sample_without_tables(tmp_path: Path) -> Path:
    """The sample session with its Table column taken out."""
    lines = []
    for line in (SAMPLE / "bridge_session.pbn").read_text().splitlines():
        parts = line.split()
        if len(parts) == 8 and parts[0].isdigit():
            line = " ".join(parts[:1] + parts[2:])
        lines.append(line.replace("Table\\2R;", ""))
    path = tmp_path / "no tables.pbn"
    path.write_text("\n".join(lines) + "\n")
    return path


def sample_tables() -> dict[str, list[tuple[str, str, str, str]]]:
    """Board -> (table, NS pair, EW pair, contract) of each line of the sample session."""
    played: dict[str, list[tuple[str, str, str, str]]] = {}
    board = ""
    for line in (SAMPLE / "bridge_session.pbn").read_text().splitlines():
        parts = line.split()
        if line.startswith("[Board "):
            board = line.split('"')[1]
        elif len(parts) == 8 and parts[0].isdigit():
            played.setdefault(board, []).append((*parts[1:4], parts[4].strip('"')))
    return played


def test_a_traveller_without_tables_never_guesses_opponents(tmp_path: Path) -> None:
    """A session that names no tables: a North-South and an East-West result share a
    line only when their scores match no other; every such line is a table of the file."""
    assert ";Table" not in sample_without_tables(tmp_path).read_text()
    site = build(tmp_path, sample_without_tables(tmp_path))
    assert len(list((site / "deals").glob("[0-9]*.html"))) == 5
    played = {(ns, ew) for lines in sample_tables().values() for _, ns, ew, _ in lines}
    lines = 0
    for page in (site / "deals").glob("[0-9]*.html"):
        [traveller] = tables_of(page)
        assert "Table" not in traveller[0]
        for record in as_records(traveller):
            if record["NS pair"] and record["EW pair"]:
                assert (record["NS pair"], record["EW pair"]) in played
                lines += 1
    assert lines > 0
    [board1] = tables_of(site / "deals" / "1.html")
    assert [(r["NS pair"], r["EW pair"]) for r in as_records(board1)] == [
        ("2", "8"), ("1", ""), ("4", ""), ("5", "9"), ("", "6"), ("", "7"),
    ]  # fmt: skip


def test_a_session_traveller_is_a_line_per_table_with_the_play(tmp_path: Path) -> None:
    """The sample session names each line's table and gives its contract and declarer:
    each board's traveller is the file's lines, a line per table, in table order."""
    site = build(tmp_path, SAMPLE / "bridge_session.pbn")
    for board, lines in sample_tables().items():
        [traveller] = tables_of(site / "deals" / f"{board}.html")
        assert traveller[0][:5] == ["Table", "NS pair", "EW pair", "Contract", "By"]
        records = as_records(traveller)
        shown = [(r["Table"], r["NS pair"], r["EW pair"], r["Contract"]) for r in records]
        assert shown == sorted(lines, key=lambda line: int(line[0]))
    [board1] = tables_of(site / "deals" / "1.html")
    assert board1[1] == [
        "1", "1", "6", "4S", "N", "420", "", "3.00", "50.00", "3.00", "50.00",
    ]  # fmt: skip


def test_the_standings_after_each_round_are_those_of_the_rounds_so_far(tmp_path: Path) -> None:
    import duplicate

    site = build(tmp_path, SAMPLE / "big2_event.csv")
    rows = (SAMPLE / "big2_event.csv").read_text().splitlines()
    for rnd in (1, 2, 3):
        so_far = tmp_path / f"round{rnd}.csv"
        so_far.write_text(
            "\n".join([rows[0], *(r for r in rows[1:] if int(r.split(",")[0]) <= rnd)]) + "\n"
        )
        expected = duplicate.standings(so_far).frame
        [table] = tables_of(site / "rounds" / f"{rnd}.html")
        shown = as_records(table)
        assert [r["Player"] for r in shown] == list(expected["player"])
        assert [r["Total"] for r in shown] == [f"{t:.2f}" for t in expected["total"]]
    index = (site / "index.html").read_text(encoding="utf-8")
    assert '<a href="rounds/2.html">round 2</a>' in index
    assert (
        '<strong aria-current="page">round 2</strong>' in (site / "rounds" / "2.html").read_text()
    )


def test_the_crosstable_shows_whom_each_player_met_and_how_they_did(tmp_path: Path) -> None:
    """Against a plain reading of the results file and of `score`: each round's table,
    the others at it, and the sum of the player's rank points in that round."""
    import csv
    import io
    from collections import defaultdict
    from decimal import Decimal

    site = build(tmp_path, SAMPLE / "big2_event.csv")
    at: dict[tuple[str, str], set[str]] = defaultdict(set)
    table_of: dict[tuple[str, str], str] = {}
    with (SAMPLE / "big2_event.csv").open() as f:
        for row in csv.DictReader(f):
            at[(row["round"], row["table"])].add(row["player"])
            table_of[(row["player"], row["round"])] = row["table"]
    scored = runner.invoke(app, ["score", str(SAMPLE / "big2_event.csv"), "--format", "csv"])
    points: dict[tuple[str, str], Decimal] = defaultdict(Decimal)
    for row in csv.DictReader(io.StringIO(scored.stdout)):
        points[(row["player"], row["round"])] += Decimal(row["rank_points"])
    [table] = tables_of(site / "crosstable.html")
    shown = as_records(table)
    assert len(shown) == 48
    for record in shown:
        player = record["Player"]
        for rnd in ("1", "2", "3"):
            table_no = table_of[(player, rnd)]
            others = sorted(at[(rnd, table_no)] - {player})
            assert record[f"Round {rnd}"] == (
                f"T{table_no} {', '.join(others)} {points[(player, rnd)]}"
            )


def test_stage_pages_say_yes_and_no_in_the_pages_language(tmp_path: Path) -> None:
    """Qualified or not, and what capped a payment, in the page's words."""
    for lang, yes, cap in (("en", ">yes<", ">payer's chips<"), ("zh", ">是<", ">支付方积分<")):
        site = tmp_path / lang
        result = runner.invoke(
            app,
            [
                "elimination", str(SAMPLE / "stage_example.csv"), "--base", "0:100,4:200,8:400",
                "--advance", "3", "--report", str(site), "-o", str(tmp_path / f"{lang}.csv"),
                "--lang", lang,
            ],
        )  # fmt: skip
        assert result.exit_code == 0, result.stderr
        for page in site.rglob("*.html"):
            html = page.read_text(encoding="utf-8")
            assert ">True<" not in html
            assert ">False<" not in html
        assert yes in (site / "index.html").read_text(encoding="utf-8")
        pages = "".join(p.read_text(encoding="utf-8") for p in (site / "players").iterdir())
        assert cap.replace("'", "&#x27;") in pages
        assert "payer_chips" not in pages


def test_the_place_chart_says_its_points_in_words(tmp_path: Path) -> None:
    site = build(tmp_path, SAMPLE / "big2_event.csv")
    player = (site / "players" / "1.html").read_text(encoding="utf-8")
    said = re.search(r'<svg class="place-chart"[^>]*><title>([^<]*)</title>', player)
    assert said is not None
    [_, rounds, *_] = tables_of(site / "players" / "1.html")
    places = [r["Place"] for r in as_records(rounds)]
    assert said[1] == "; ".join(f"Round {i}: Place {p}" for i, p in enumerate(places, 1))
    assert "<script" not in player


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events(), st.sampled_from(["matchpoints", "percentage"]))
def test_any_event_s_site_links_whole_and_its_rounds_add_up(event: object, method: str) -> None:
    """Random events (sections, one or two rounds, tables or none): every link leads to
    a page; each player's round results add up to their total (matchpoints); the
    crosstable has every player once."""
    import posixpath
    from decimal import Decimal

    import duplicate
    from duplicate.actions.common import event_of
    from duplicate.render.data import report_data
    from duplicate.render.rounds import round_results

    site = duplicate.report(event, method=method)
    for path, html in site.pages.items():
        for href in re.findall(r'href="([^"]+)"', html):
            target = posixpath.normpath(posixpath.join(posixpath.dirname(path), href))
            assert target in site.pages, f"{path} links to {href}"
    loaded = event_of(event, None, method=method)
    assert loaded.results is not None
    data = report_data(loaded.results, loaded.rules)
    rounds = round_results(data)
    if method == "matchpoints":
        summed = rounds.groupby(["section", "player"])["result"].agg(lambda r: sum(r, Decimal(0)))
        final = data.standings.astype({"section": str, "player": str})
        for record in final.to_dict("records"):
            assert summed[(record["section"], record["player"])] == record["total"]
    if "crosstable.html" in site.pages:
        tables = _tables_in(site.pages["crosstable.html"])
        players = [row[1] for table in tables for row in table[1:]]
        assert len(players) == len(data.standings)


def test_a_two_winner_session_shares_its_boards_and_tables(tmp_path: Path) -> None:
    """North-South and East-West ranked apart (a section each) still play one board at
    one table: a traveller per board, and opponents from the other direction."""
    lines = MOVEMENT_ROWS.splitlines()
    rows = ["section," + lines[0], *(f"{line.split(',')[3]},{line}" for line in lines[1:])]
    results = tmp_path / "two.csv"
    results.write_text("\n".join(rows) + "\n", encoding="utf-8")
    site = build(tmp_path, results, "--deal-scope", "event")
    assert len(list((site / "deals").glob("[0-9]*.html"))) == 4
    [traveller] = tables_of(site / "deals" / "1.html")
    assert [(r["NS pair"], r["EW pair"]) for r in as_records(traveller)] == [("1", "3"), ("2", "4")]
    met = {
        record["Pair"]: (record["Round 1"].split()[1], record["Round 2"].split()[1])
        for table in tables_of(site / "crosstable.html")
        for record in as_records(table)
    }
    assert met == {"1": ("3", "3"), "2": ("4", "4"), "3": ("1", "1"), "4": ("2", "2")}


def test_a_card_game_with_compass_seats_keeps_its_words(tmp_path: Path) -> None:
    """Seats named N, E, S, W are a card game's seats: deals, and a traveller by seat."""
    rows = ["round,deal,table,seat,player,score"]
    for deal in (1, 2):
        for table in (1, 2):
            for i, seat in enumerate("NESW"):
                rows.append(f"1,{deal},{table},{seat},P{table}{i},{(i * 5 + deal + table) % 7 - 3}")
    results = tmp_path / "compass.csv"
    results.write_text("\n".join(rows) + "\n", encoding="utf-8")
    site = build(tmp_path, results)
    deal = (site / "deals" / "1.html").read_text(encoding="utf-8")
    assert "<title>Round 1 · Deal 1</title>" in deal
    assert re.findall(r"<h2>([^<]*)</h2>", deal) == [
        "Seat E", "Seat N", "Seat S", "Seat W",
    ]  # fmt: skip
    assert ">Deals</a>" in deal


def test_a_bridge_board_shows_its_adjustments(tmp_path: Path) -> None:
    site = build(
        tmp_path,
        SAMPLE / "bridge_session.pbn",
        "--adjustments",
        str(SAMPLE / "bridge_adjustments.csv"),
    )
    [traveller] = tables_of(site / "deals" / "2.html")
    [adjusted] = [r for r in as_records(traveller) if r["Adjustment"]]
    assert (adjusted["NS pair"], adjusted["EW pair"]) == ("5", "8")
    assert adjusted["Adjustment"].startswith("NS: weighted 60% of 420: misinformation")
    assert "; EW: weighted 60% of -420:" in adjusted["Adjustment"]


def test_a_percentage_crosstable_gives_each_round_s_own_percentage(tmp_path: Path) -> None:
    """Each round's result is the percentage the standings give that round alone."""
    import duplicate

    site = build(tmp_path, SAMPLE / "big2_event.csv", "--method", "percentage")
    [table] = tables_of(site / "crosstable.html")
    shown = {r["Player"]: r for r in as_records(table)}
    rows = (SAMPLE / "big2_event.csv").read_text().splitlines()
    for rnd in (1, 2, 3):
        alone = tmp_path / f"alone{rnd}.csv"
        alone.write_text(
            "\n".join([rows[0], *(r for r in rows[1:] if int(r.split(",")[0]) == rnd)]) + "\n"
        )
        expected = duplicate.standings(alone, method="percentage").frame
        for player, percentage in zip(expected["player"], expected["percentage"], strict=True):
            assert shown[player][f"Round {rnd}"].split()[-1] == f"{percentage:.2f}"


def test_an_artificial_score_shows_no_score_made_at_the_table(tmp_path: Path) -> None:
    """A line given A+/A- by the director was not played out: its placeholder 0 is no
    score (a 0 reads as a board passed out); the adjustment says what it is."""
    session = tmp_path / "club.pbn"
    session.write_text(
        '[Board "1"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS;Score_EW"]\n'
        "1 4 420 -\n2 5 A+ -\n3 6 0 0\n",
        encoding="utf-8",
    )
    site = build(tmp_path, session)
    [traveller] = tables_of(site / "deals" / "1.html")
    lines = {r["NS pair"]: r for r in as_records(traveller)}
    assert (lines["2"]["Score NS"], lines["2"]["Score EW"]) == ("", "")
    assert lines["2"]["Adjustment"].startswith("NS: avg_plus")
    assert lines["3"]["Score NS"] == "0"  # a board passed out
    assert lines["1"]["Score NS"] == "420"


def test_a_session_file_s_pages_are_headed_as_its_event_folder_s(tmp_path: Path) -> None:
    """The title and date a session file gives head the report made from the file itself,
    as they head the report of the event folder it imports as."""
    session = SAMPLE / "bridge_session.pbn"
    folder = tmp_path / "imported" / "event"
    imported = runner.invoke(app, ["import", str(session), "--event", str(folder)])
    assert imported.exit_code == 0, imported.stderr
    for source in (session, folder):
        (tmp_path / source.name).mkdir(exist_ok=True)
        site = build(tmp_path / source.name, source)
        page = (site / "index.html").read_text(encoding="utf-8")
        assert '<p class="event">Tuesday pairs · 2026-11-24</p>' in page, source


def test_the_rules_page_shows_the_settings_its_method_reads(tmp_path: Path) -> None:
    """Cross-IMPs rank no deal and count no rank points: the rules page does not list
    those settings (the rules file below it still holds every one)."""
    bridge = SAMPLE / "bridge_session.pbn"
    (tmp_path / "imps").mkdir()
    (tmp_path / "mp").mkdir()
    imps = build(tmp_path / "imps", bridge, "--method", "cross-imps", "--factoring", "none")
    shown = (imps / "rules.html").read_text(encoding="utf-8")
    table = shown.split('<table class="rules">')[1].split("</table>")[0]
    assert "cross-imps" in table
    for label in ("Deal ranks on a tie", "Rank points", "Tie-breaks", "Factoring"):
        assert label not in table, label
    assert "tie_ranking" in shown  # in the rules file
    matchpoints = (build(tmp_path / "mp", SAMPLE / "big2_event.csv") / "rules.html").read_text()
    for label in ("Deal ranks on a tie", "Rank points", "Tie-breaks", "Factoring"):
        assert label in matchpoints, label
