"""What a bridge session says of the play (table, contract, declarer, lead, result):
kept as written through import, an event folder and `score`, shown on the report's
travellers a line per table, never part of a number."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pandas as pd
from typer.testing import CliRunner

from duplicate.cli import app
from tests.conftest import ROOT, codes
from tests.test_report import as_records, tables_of

runner = CliRunner()

SCORE_FIRST = [
    *("section", "round", "deal", "table", "seat", "player", "score", "seconds", "n", "mp"),
    *("top", "mp_pct", "deal_rank", "rank_points", "adjustment"),
]
PLAYED = ["at_table", "contract", "declarer", "lead", "result"]

# board, table, NS pair, EW pair, contract, declarer, lead, result, NS score. Tables are
# numbered apart from the pairs, and two tables of board 1 score alike: only the table
# tells which East-West pair played against which North-South pair there.
LINES = [
    ("1", "7", "1", "5", "3NT", "N", "S4", "+1", 430),
    ("1", "8", "2", "6", "3NT", "S", "H10", "+1", 430),
    ("1", "9", "3", "4", "4S", "E", "CA", "-1", 50),
    ("2", "7", "1", "6", "2H X", "W", "DQ", "=", -470),
    ("2", "8", "2", "4", "3C", "N", "-", "8", -50),
    ("2", "9", "3", "5", "1NT", "N", "SJ", "=", 90),
]


def run(*args: object) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def pbn(path: Path, play: bool = True, scoring: str = "MP") -> Path:
    columns = "Table\\2R;PairId_NS\\2R;PairId_EW\\2R;Contract\\5L;Declarer\\1R;Lead\\3L;"
    columns += "Result\\2R;Score_NS\\6R;Score_EW\\6R"
    if not play:
        columns = "PairId_NS\\2R;PairId_EW\\2R;Score_NS\\6R;Score_EW\\6R"
    text = ['[Event "Play kept"]', '[Date "2026.11.24"]', f'[Scoring "{scoring}"]', ""]
    for board in ("1", "2"):
        text += [f'[Board "{board}"]', f'[ScoreTable "{columns}"]']
        for b, table, ns, ew, contract, by, lead, result, score in LINES:
            if b != board:
                continue
            scores = f"{score} -" if score >= 0 else f"- {-score}"
            given = f'{table} {ns} {ew} "{contract}" {by} {lead} "{result}" {scores}'
            text.append(given if play else f"{ns} {ew} {scores}")
        text.append("")
    path.write_text("\n".join(text), encoding="utf-8")
    return path


def usebio(path: Path) -> Path:
    boards = []
    for board in ("1", "2"):
        lines = "".join(
            f"<TRAVELLER_LINE><TABLE_NUMBER>{table}</TABLE_NUMBER>"
            f"<NS_PAIR_NUMBER>{ns}</NS_PAIR_NUMBER><EW_PAIR_NUMBER>{ew}</EW_PAIR_NUMBER>"
            f"<CONTRACT>{contract}</CONTRACT><PLAYED_BY>{by}</PLAYED_BY>"
            + (f"<LEAD>{lead}</LEAD>" if lead != "-" else "")
            + f"<TRICKS>{result}</TRICKS><SCORE>{score}</SCORE></TRAVELLER_LINE>\n"
            for b, table, ns, ew, contract, by, lead, result, score in LINES
            if b == board
        )
        boards.append(f"<BOARD><BOARD_NUMBER>{board}</BOARD_NUMBER>\n{lines}</BOARD>\n")
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<USEBIO Version="1.2">\n'
        '<EVENT EVENT_TYPE="MP_PAIRS"><DATE>24/11/2026</DATE>\n'
        + "".join(boards)
        + "</EVENT>\n</USEBIO>\n",
        encoding="utf-8",
    )
    return path


def csv(text: str) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)


def expected_play(seat: str) -> list[list[str]]:
    """The play columns of each side's rows, in the order `import` writes them."""
    pair = 2 if seat == "NS" else 3
    rows = sorted(LINES, key=lambda line: (int(line[0]), int(line[pair])))
    return [[t, c, d, "" if lead == "-" else lead, r] for _, t, _, _, c, d, lead, r, _ in rows]


def test_import_keeps_the_play_as_written_after_the_results(tmp_path: Path) -> None:
    for session in (pbn(tmp_path / "s.pbn"), usebio(tmp_path / "s.xml")):
        code, out, err = run("import", session)
        assert code == 0, err
        table = csv(out)
        assert list(table.columns) == [
            *("section", "round", "deal", "seat", "player", "score"),
            *PLAYED,
        ]
        # CSV guards a cell a spreadsheet would run ("+1", "=") with an apostrophe.
        assert set(table["result"]) == {"'+1", "-1", "'=", "8"}
        played = table[PLAYED].replace(r"^'", "", regex=True)
        for seat in ("NS", "EW"):
            rows = played[table["seat"] == seat]
            assert rows.values.tolist() == expected_play(seat), session.name


def test_score_carries_the_play_last_and_its_numbers_are_unchanged(tmp_path: Path) -> None:
    """The session read directly (PBN, USEBIO), imported to a file, imported as an event
    folder: each scores as the same session without the play does, the play after."""
    sources = {"pbn": pbn(tmp_path / "s.pbn"), "xml": usebio(tmp_path / "s.xml")}
    plain = pbn(tmp_path / "plain.pbn", play=False)
    assert run("import", sources["pbn"], "-o", tmp_path / "s.csv")[0] == 0
    assert run("import", plain, "-o", tmp_path / "plain.csv")[0] == 0
    assert run("import", sources["xml"], "--event", tmp_path / "event")[0] == 0
    assert run("import", plain, "--event", tmp_path / "plain event")[0] == 0
    pairs = [
        (sources["pbn"], plain),
        (sources["xml"], plain),
        (tmp_path / "s.csv", tmp_path / "plain.csv"),
        (tmp_path / "event", tmp_path / "plain event"),
    ]
    for source, without in pairs:
        code, out, err = run("score", source)
        assert code == 0, err
        assert codes(err) == [], err  # no column "not used", nothing warned
        scored = csv(out)
        assert list(scored.columns) == [*SCORE_FIRST, *PLAYED], source
        unplayed = csv(run("score", without)[1])
        assert list(unplayed.columns) == SCORE_FIRST
        assert scored[SCORE_FIRST].equals(unplayed), source
        # Each table's two sides carry its play, as written: CSV output guards "+1" as
        # "'+1", once (a file read back is guarded again, not twice).
        seen = scored[PLAYED].replace(r"^'", "", regex=True)
        seen.index = scored["seat"] + scored["player"] + "/" + scored["deal"]
        for board, table, ns, ew, contract, by, lead, result, _ in LINES:
            for side in (f"NS{ns}/{board}", f"EW{ew}/{board}"):
                shown = seen.loc[side, PLAYED].tolist()
                assert shown == [table, contract, by, "" if lead == "-" else lead, result]
        # The standings are those of the session without the play.
        assert run("standings", source)[1] == run("standings", without)[1]


def test_an_imp_session_carries_the_play_too(tmp_path: Path) -> None:
    for scoring in ("Cross-IMPs", "Butler"):
        session = pbn(tmp_path / f"{scoring}.pbn", scoring=scoring)
        code, out, err = run("score", session)
        assert code == 0, err
        scored = csv(out)
        assert "imps" in scored.columns
        assert list(scored.columns[-5:]) == PLAYED
        assert set(scored["contract"]) == {line[4] for line in LINES}
        plain = csv(run("score", pbn(tmp_path / "p.pbn", False, scoring))[1])
        assert scored.drop(columns=PLAYED).equals(plain)


def test_the_report_traveller_is_a_line_per_table_with_the_play(tmp_path: Path) -> None:
    folder = tmp_path / "event"
    assert run("import", pbn(tmp_path / "s.pbn"), "--event", folder)[0] == 0
    for source in (tmp_path / "s.pbn", folder):
        site = tmp_path / f"site {source.name}"
        code, _, err = run("report", source, "-o", site)
        assert code == 0, err
        for board in ("1", "2"):
            [traveller] = tables_of(site / "deals" / f"{board}.html")
            assert traveller[0][:8] == [
                *("Table", "NS pair", "EW pair", "Contract", "By", "Lead", "Result"),
                "Score NS",
            ]
            shown = [
                (r["Table"], r["NS pair"], r["EW pair"], r["Contract"], r["By"], r["Lead"])
                for r in as_records(traveller)
            ]
            assert shown == [
                (t, ns, ew, c, by, "" if lead == "-" else lead)
                for b, t, ns, ew, c, by, lead, _, _ in LINES
                if b == board
            ]
        [board1] = tables_of(site / "deals" / "1.html")
        # Tables 7 and 8 score alike: each East-West pair is on its own table's line.
        assert board1[1][:7] == ["7", "1", "5", "3NT", "N", "S4", "+1"]
        assert board1[2][:7] == ["8", "2", "6", "3NT", "S", "H10", "+1"]


def test_printed_travellers_name_the_tables(tmp_path: Path) -> None:
    from tests.test_printing import pages

    out = tmp_path / "travellers.pdf"
    code, _, err = run("print", pbn(tmp_path / "s.pbn"), "--what", "travellers", "-o", out)
    assert code == 0, err
    first = pages(out)[0]
    assert "桌 Table" in first
    board_1 = first[: first.index("Board 2")]
    assert re.findall(r"\r\n([0-9]+) ([0-9]+) ([0-9]+)", board_1) == [
        ("7", "1", "5"),
        ("8", "2", "6"),
        ("9", "3", "4"),
    ]
    # A session that names no tables prints no table column.
    plain = tmp_path / "plain.pdf"
    assert run("print", pbn(tmp_path / "p.pbn", False), "--what", "travellers", "-o", plain)[0] == 0
    assert "桌 Table" not in pages(plain)[0]


# A published session with the play (tests/data/sessions/magic-contest/PROVENANCE.md):
# 22 tables, the tables numbered apart from the pairs, pairs changing direction.
PUBLISHED = ROOT / "tests" / "data" / "sessions" / "magic-contest"
FFB = PUBLISHED / "open-dn1-seance-1.pbn"


def published_lines() -> dict[str, list[list[str]]]:
    """Board -> each line's table, NS pair, EW pair, contract, declarer, lead, result,
    as the file writes them ("-": none)."""
    lines: dict[str, list[list[str]]] = {}
    board = ""
    for line in FFB.read_text(encoding="latin-1").splitlines():
        if line.startswith("[Board "):
            board = line.split('"')[1]
        parts = line.split()
        if len(parts) == 14 and parts[0].isdigit():
            table, _, ns, ew, contract, by, result, lead = parts[:8]
            shown = [table, ns, ew, contract, by, lead, result]
            lines.setdefault(board, []).append(["" if v == "-" else v for v in shown])
    return lines


def test_a_published_session_keeps_its_play_and_its_travellers_are_its_tables(
    tmp_path: Path,
) -> None:
    from tests.sessions_published import compare, published

    code, out, err = run("score", FFB)
    assert code == 0, err
    scored = csv(out)
    assert list(scored.columns) == [*SCORE_FIRST, *PLAYED]
    # The numbers: every traveller line's published percentage (1,320 of them).
    found = compare(published(FFB), scored, csv(run("standings", FFB)[1]))
    assert found.matched["line_pct"] == found.total["line_pct"] == 1320
    site = tmp_path / "site"
    assert run("report", FFB, "-o", site)[0] == 0
    lines = published_lines()
    assert sorted(lines, key=int) == [str(board) for board in range(1, 31)]
    for board, given in lines.items():
        [traveller] = tables_of(site / "deals" / f"{board}.html")
        head = ["Table", "NS pair", "EW pair", "Contract", "By", "Lead", "Result"]
        assert traveller[0][:7] == head
        assert [row[:7] for row in traveller[1:]] == sorted(given, key=lambda r: int(r[0]))
    # Table 1 of board 1: pair 44 against pair 1, 4S by South, the 9 of spades led, 10
    # tricks, 420 to North-South.
    [board1] = tables_of(site / "deals" / "1.html")
    assert board1[1][:8] == ["1", "44", "1", "4S", "S", "S9", "10", "420"]
