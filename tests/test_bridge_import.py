"""Bridge sessions imported from PBN and USEBIO, and the sample session scored by hand."""

from __future__ import annotations

import io
from decimal import Decimal
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

import duplicate
from duplicate.cli import app
from tests.conftest import BAD, ROOT

runner = CliRunner()
SAMPLE = ROOT / "sample_data"


def run(*args: object) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def test_the_sample_session_scores_as_worked_by_hand(tmp_path: Path) -> None:
    """A five-table Mitchell (EW 10 a phantom: one NS pair sits out each round), one
    board a round. Board 5 was fouled at table 3 (left out: 3 results where 4 is normal,
    factored by Neuberg); on board 2 the director gave NS 5 and EW 8 a weighted score of
    60% of 4S= (420) and 40% of 3S+1 (170).

    MP per board, top 6 (NS; EW mirror them):
    - 1: 450 (NS 2) 6; 420 (NS 1, NS 4) 3 each; -50 (NS 5) 0.
    - 2: as played 420 (NS 2, NS 4), 170 (NS 3). NS 5's parts: 420 scores 2 + 1 + 1 = 4,
      170 scores 1: 0.6 x 4 + 0.4 x 1 = 2.8. NS 2: 1 (NS 4) + 2 (NS 3) + 0.6 x 1 + 0.4 x 2
      = 4.4, NS 4 the same; NS 3: 0.4 x 1 = 0.4.
    - 3: 140 (NS 3) 6; 110 (NS 2, NS 5) 3 each; -100 (NS 1) 0.
    - 4: 650 (NS 5) 6; 620 (NS 1, NS 3) 3 each; -100 (NS 4) 0.
    - 5: 90 (NS 2, NS 4) 3 of 4; -200 (NS 1) 0. Neuberg, N = 4, n = 3: (3 + 1) x 4/3 - 1
      = 13/3 of 6 (72.22%); (0 + 1) x 4/3 - 1 = 1/3 (5.56%).
    Percentages, the mean over the boards each pair has a result on:
    - NS 1: (1/2 + 0 + 1/2 + 1/18) / 4 = 19/72 = 26.39%.
    - NS 2: (1 + 11/15 + 1/2 + 13/18) / 4 = 133/180 = 73.89%.
    - NS 3: (1/15 + 1 + 1/2) / 3 = 47/90 = 52.22% (it played the fouled board).
    - NS 4: (1/2 + 11/15 + 0 + 13/18) / 4 = 22/45 = 48.89%.
    - NS 5: (0 + 7/15 + 1/2 + 1) / 4 = 59/120 = 49.17%.
    - EW 6: (1/2 + 4/15 + 1/2 + 0) / 4 = 19/60 = 31.67% (it played the fouled board).
    - EW 7: (1/2 + 4/15 + 1/2 + 1/2 + 17/18) / 5 = 122/225 = 54.22%.
    - EW 8: (0 + 8/15 + 0 + 1/2 + 5/18) / 5 = 59/225 = 26.22%.
    - EW 9: (1 + 14/15 + 1 + 1 + 5/18) / 5 = 379/450 = 84.22%.
    """
    results = tmp_path / "results.csv"
    code, _, err = run("import", SAMPLE / "bridge_session.pbn", "-o", results)
    assert code == 0, err
    assert "38 results; two winners" in err
    # The club's rules: percentages, Neuberg for the fouled board, the director's scores.
    rules = ("--method", "percentage", "--factoring", "neuberg")
    rules += ("--adjustments", str(SAMPLE / "bridge_adjustments.csv"))
    code, out, err = run("standings", results, *rules)
    assert code == 0, err
    table = pd.read_csv(io.StringIO(out), dtype=str)
    assert table[["section", "place", "player", "percentage", "deals"]].values.tolist() == [
        ["EW", "1", "9", "84.22", "5"],
        ["EW", "2", "7", "54.22", "5"],
        ["EW", "3", "6", "31.67", "4"],
        ["EW", "4", "8", "26.22", "5"],
        ["NS", "1", "2", "73.89", "4"],
        ["NS", "2", "3", "52.22", "3"],
        ["NS", "3", "5", "49.17", "4"],
        ["NS", "4", "4", "48.89", "4"],
        ["NS", "5", "1", "26.39", "4"],
    ]
    # NS 2's matchpoints: 6 + 4.4 + 3 + 4.33 (13/3, shown to 2 decimals) of 24.
    ns2 = table[(table["section"] == "NS") & (table["player"] == "2")].iloc[0]
    assert (ns2["mp"], ns2["top"]) == ("17.73", "24")
    code, out, err = run("explain", "5", results, "--section", "NS", *rules)
    assert code == 0, err
    assert "weighted: 60% of 420: 4 MP; 40% of 170: 1 MP" in out
    assert "Percentage 49.17" in out


TRAVELLERS = [
    # board, NS pair, EW pair, NS score
    ("1", "1", "5", 420),
    ("1", "2", "6", -50),
    ("1", "3", "4", 450),
    ("2", "1", "6", 110),
    ("2", "2", "4", 140),
    ("2", "3", "5", -100),
]


def pbn_text(travellers: list[tuple[str, str, str, int]]) -> str:
    lines = ['[Event "Round trip"]', ""]
    header = '[ScoreTable "PairId_NS\\2R;PairId_EW\\2R;Contract\\4L;Score_NS\\6R;Score_EW\\6R"]'
    for board in sorted({t[0] for t in travellers}):
        lines += [f'[Board "{board}"]', header]
        for _, ns, ew, score in (t for t in travellers if t[0] == board):
            shown = f"{score} -" if score >= 0 else f"- {-score}"
            lines.append(f'{ns} {ew} "3NT" {shown}')
        lines.append("")
    return "\n".join(lines)


def usebio_text(travellers: list[tuple[str, str, str, int]]) -> str:
    boards = []
    for board in sorted({t[0] for t in travellers}):
        lines = "".join(
            f"<TRAVELLER_LINE><NS_PAIR_NUMBER>{ns}</NS_PAIR_NUMBER>"
            f"<EW_PAIR_NUMBER>{ew}</EW_PAIR_NUMBER><SCORE>{score}</SCORE></TRAVELLER_LINE>\n"
            for b, ns, ew, score in travellers
            if b == board
        )
        boards.append(f"<BOARD>\n<BOARD_NUMBER>{board}</BOARD_NUMBER>\n{lines}</BOARD>\n")
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<USEBIO Version="1.2">\n'
        '<EVENT EVENT_TYPE="MP_PAIRS">\n' + "".join(boards) + "</EVENT>\n</USEBIO>\n"
    )


def expected_table() -> list[list[object]]:
    rows = []
    for board, ns, ew, score in TRAVELLERS:
        rows.append(["NS", 1, board, "NS", ns, score])
        rows.append(["EW", 1, board, "EW", ew, -score])
    return sorted(rows, key=lambda r: (r[0], int(str(r[2])), r[3], int(str(r[4]))))


@pytest.mark.parametrize(("name", "writer"), [("s.pbn", pbn_text), ("s.xml", usebio_text)])
def test_a_session_written_by_the_tests_comes_back(
    tmp_path: Path, name: str, writer: object
) -> None:
    path = tmp_path / name
    path.write_text(writer(TRAVELLERS))  # type: ignore[operator]
    session = duplicate.import_session(path)
    assert session.frame.iloc[:, :6].values.tolist() == expected_table()
    # What the file says of the play comes last: these PBN lines give a contract.
    assert list(session.frame.columns[6:]) == (["contract"] if name.endswith(".pbn") else [])
    assert session.notes["session"].startswith("two winners")
    # Scored straight away, one command each.
    results = tmp_path / "results.csv"
    assert run("import", path, "-o", results)[0] == 0
    code, out, err = run("standings", results, "--method", "percentage")
    assert code == 0, err
    assert "every comparison group holds a single result" not in err
    places = pd.read_csv(io.StringIO(out), dtype=str)
    # Board 1 NS: 450 (3) 2, 420 (1) 1, -50 (2) 0; board 2: 140 (2) 2, 110 (1) 1, -100 (3) 0.
    ns = places[places["section"] == "NS"].set_index("player")["percentage"]
    assert ns.to_dict() == {"1": "50.00", "2": "50.00", "3": "50.00"}


def test_a_howell_is_one_section_and_winners_can_be_chosen(tmp_path: Path) -> None:
    howell = [("1", "1", "2", 100), ("1", "3", "4", 200), ("2", "2", "3", 50), ("2", "4", "1", 0)]
    path = tmp_path / "howell.pbn"
    path.write_text(pbn_text(howell))
    session = duplicate.import_session(path)
    assert set(session.frame["section"]) == {""}
    assert session.notes["session"].startswith("one winner")
    table = duplicate.import_session(path, winners="two").frame
    assert set(table["section"]) == {"NS", "EW"}


def test_a_mitchell_numbered_both_ways_needs_two_winners(tmp_path: Path) -> None:
    mitchell = [("1", "1", "1", 100), ("1", "2", "2", 200), ("2", "1", "2", 50), ("2", "2", "1", 0)]
    path = tmp_path / "mitchell.pbn"
    path.write_text(pbn_text(mitchell))
    code, _, err = run("import", path)
    assert code == 1
    assert "pair 1 plays board 1 more than once" in err
    assert "--winners two" in err
    code, out, _ = run("import", path, "--winners", "two")
    assert code == 0
    assert out.splitlines()[0] == "section,round,deal,seat,player,score,contract"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        (
            '[Board "1"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS;Score_EW"]\n1 2 420\n',
            "line 3: 3 values where the results table has 4 columns; quote a value",
        ),
        (
            '[Board "1"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS;Score_EW"]\n1 2 4S -\n',
            "line 3, column 'Score_NS': score '4S/-' is not a score; give a score in points",
        ),
        (
            '[Board "1"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS;Score_EW"]\n1 2 42.5 -\n',
            "score '42.5/-' has a fraction: a bridge score is a whole number of points",
        ),
        (
            '[Board "1"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS;Score_EW"]\n1 2 420 400\n',
            "score '420/400' is not a score",
        ),
        (
            '[Board "1"]\n[ScoreTable "PairId_NS;Score_NS"]\n1 420\n',
            "line 2: the results table has no PairId_EW column",
        ),
        ('[Board "1"\n', "line 1: '[Board \"1\"' is not a tag pair"),
        ('[Event "x"]\n', "holds no results table"),
    ],
)
def test_a_malformed_pbn_names_the_line_and_the_fix(
    tmp_path: Path, text: str, fragment: str
) -> None:
    path = tmp_path / "bad.pbn"
    path.write_text(text)
    code, _, err = run("import", path, "-o", tmp_path / "out.csv")
    assert code == 1
    assert f"{path}, " in err or f"{path}:" in err
    assert fragment in err
    assert not (tmp_path / "out.csv").exists()


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("<USEBIO><EVENT>\n<BOARD>\n</EVENT></USEBIO>", "line 3: not well-formed XML"),
        ("<RESULTS/>", "the document is <RESULTS>, not <USEBIO>"),
        (
            "<USEBIO><BOARD><BOARD_NUMBER>1</BOARD_NUMBER>\n<TRAVELLER_LINE>"
            "<NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><SCORE>1</SCORE></TRAVELLER_LINE></BOARD></USEBIO>",
            "line 2, column 'EW_PAIR_NUMBER': <TRAVELLER_LINE> has no EW_PAIR_NUMBER",
        ),
        (
            "<USEBIO><BOARD><BOARD_NUMBER>1</BOARD_NUMBER>\n<TRAVELLER_LINE>"
            "<NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>2</EW_PAIR_NUMBER>"
            "<SCORE>4S</SCORE></TRAVELLER_LINE></BOARD></USEBIO>",
            "SCORE '4S' is not a score in points",
        ),
        (
            "<USEBIO><BOARD><BOARD_NUMBER>1</BOARD_NUMBER>\n<TRAVELLER_LINE>"
            "<NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>2</EW_PAIR_NUMBER>"
            "<SCORE>430.5</SCORE></TRAVELLER_LINE></BOARD></USEBIO>",
            "SCORE '430.5' has a fraction: a bridge score is a whole number of points",
        ),
        ("<USEBIO/>", "holds no results"),
    ],
)
def test_a_malformed_usebio_names_the_line_and_the_fix(
    tmp_path: Path, text: str, fragment: str
) -> None:
    path = tmp_path / "bad.xml"
    path.write_text(text)
    code, _, err = run("import", path)
    assert code == 1
    assert fragment in err
    assert str(path) in err


def test_xml_entities_are_never_expanded(tmp_path: Path) -> None:
    """Neither a billion laughs nor an external entity reaches the table."""
    secret = tmp_path / "secret.txt"
    secret.write_text("7")
    path = tmp_path / "hostile.xml"
    laughs = "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 9))
    path.write_text(
        f'<?xml version="1.0"?>\n<!DOCTYPE USEBIO [<!ENTITY l0 "lol">{laughs}'
        f'<!ENTITY file SYSTEM "file://{secret}">]>\n'
        "<USEBIO><BOARD><BOARD_NUMBER>&file;</BOARD_NUMBER>\n<TRAVELLER_LINE>"
        "<NS_PAIR_NUMBER>&l8;</NS_PAIR_NUMBER><EW_PAIR_NUMBER>2</EW_PAIR_NUMBER>"
        "<SCORE>1</SCORE></TRAVELLER_LINE></BOARD></USEBIO>"
    )
    code, out, err = run("import", path)
    assert code == 1
    assert out == ""
    assert "lol" not in err
    # Without the laughs, the external entity alone is left unresolved: refused.
    path.write_text(
        f'<?xml version="1.0"?>\n<!DOCTYPE USEBIO [<!ENTITY file SYSTEM "file://{secret}">]>\n'
        "<USEBIO><BOARD><BOARD_NUMBER>&file;</BOARD_NUMBER></BOARD></USEBIO>"
    )
    code, out, err = run("import", path)
    assert (code, out) == (1, "")
    assert "error[session.entity]" in err
    assert "7" not in err.replace(str(path), "")


def test_repeated_tags_and_comments_and_latin1(tmp_path: Path) -> None:
    text = (
        "% PBN 2.1\n; a comment\n{ a comment\nover lines }\n"
        '[Event "Café"]\n[Board "1"]\n[ScoreTable "PairId_NS;PairId_EW;Score_NS;Score_EW"]\n'
        "1 2 420 -\n\n"
        '[Event "#"]\n[Board "2"]\n[ScoreTable "#"]\n1 2 - 100\n'
    )
    path = tmp_path / "club.pbn"
    path.write_bytes(text.encode("latin-1"))
    table = duplicate.import_session(path).frame
    ns = table[table["seat"] == "NS"]
    assert ns["score"].tolist() == [420, -100]
    assert [Decimal(s) for s in table[table["seat"] == "EW"]["score"]] == [-420, 100]


@pytest.mark.parametrize("name", sorted(p.name for p in BAD.iterdir() if p.name != "EXPECTED.toml"))
def test_files_that_are_not_sessions_are_refused_cleanly(name: str, tmp_path: Path) -> None:
    code, out, err = run("import", BAD / name, "-o", tmp_path / "out.csv")
    assert code == 1, err
    assert (out, "Traceback" in err) == ("", False)
    assert str(BAD / name) in err
    assert not (tmp_path / "out.csv").exists()


def test_percentage_standings_share_places_across_a_sit_out(tmp_path: Path) -> None:
    """Three tables, three boards; EW 4 and NS 3 each sit out one board.

    NS matchpoints (top 4 with three results, 2 with two): board 1: 420 (NS 1) 4,
    400 (NS 2) 2, 100 (NS 3) 0; board 2: 200 (NS 1) 2, 100 (NS 2) 0; board 3: 150 (NS 3)
    4, 100 (NS 1) 2, 50 (NS 2) 0. EW pairs take the rest of their table's top.
    - NS 1: 4 + 2 + 2 = 8 of 10, MP% 100, 100, 50: 83.33; EW 6 the same (v NS 3, 2, 1).
    - NS 3: 0 + 4 of 8 (it sits out board 2), 0 and 100: 50; EW 4 the same.
    - NS 2: 2 + 0 + 0 of 10, 50, 0, 0: 16.67; EW 5 the same.
    Equal percentages share the place; the next place counts them.
    """
    travellers = [
        ("1", "1", "4", 420),
        ("1", "2", "5", 400),
        ("1", "3", "6", 100),
        ("2", "1", "5", 200),
        ("2", "2", "6", 100),
        ("3", "1", "6", 100),
        ("3", "2", "4", 50),
        ("3", "3", "5", 150),
    ]
    session = tmp_path / "session.xml"
    session.write_text(usebio_text(travellers))
    results = tmp_path / "results.csv"
    assert run("import", session, "-o", results, "--winners", "one")[0] == 0
    code, out, err = run("standings", results, "--method", "percentage")
    assert code == 0, err
    assert out.replace("\r", "").splitlines() == [
        "section,place,player,percentage,mp,top,deals",
        ",1,1,83.33,8,10,3",
        ",1,6,83.33,8,10,3",
        ",3,3,50.00,4,8,2",
        ",3,4,50.00,4,8,2",
        ",5,2,16.67,2,10,3",
        ",5,5,16.67,2,10,3",
    ]
