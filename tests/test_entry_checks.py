"""Spreadsheets as they arrive, and the data-entry mistakes `validate` catches."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from duplicate.cli import app
from tests.conftest import ROOT
from tests.test_validation import FAULTS, broken, event

runner = CliRunner()
EVENT = ROOT / "sample_data" / "big2_event.csv"


def run(*args: object) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def chinese_event(tmp_path: Path) -> tuple[pd.DataFrame, Path]:
    """The sample event with Chinese names: P17 is 郭涛."""
    event = pd.read_csv(EVENT, dtype=str)
    event["player"] = event["player"].replace({"P17": "郭涛"})
    return event, tmp_path / "event.csv"


def test_a_clean_event_has_no_warnings(tmp_path: Path) -> None:
    event, path = chinese_event(tmp_path)
    event.to_csv(path, index=False)
    code, _, err = run("validate", path, "--game", "big2", "--strict")
    assert code == 0
    assert "warning" not in err
    assert "no problems" in err


def test_a_mistyped_score_leaves_its_table_off_zero(tmp_path: Path) -> None:
    event, path = chinese_event(tmp_path)
    row = event.index[(event["player"] == "P42") & (event["deal"] == "1")][0]
    event.loc[row, "score"] = event.loc[row, "score"] + "0"  # 74 typed as 740
    event.to_csv(path, index=False)
    code, _, err = run("validate", path, "--game", "big2")
    assert code == 0
    assert "round 1, deal 1, table 1: scores add up to 666, not 0" in err
    # The likely cell: the one whose correction makes the table add up to 0, by a slip.
    assert "row 5, column 'score'" in err
    assert "740, perhaps 74" in err
    assert "1 likely data-entry mistake" in err
    # Without --game nothing says the game sums to zero.
    assert "add up" not in run("validate", path)[2]
    code, _, err = run("validate", path, "--game", "big2", "--strict")
    assert code == 1
    assert "error[entry.table-not-zero]:" in err


def test_a_misspelled_name_makes_a_player_of_one_deal(tmp_path: Path) -> None:
    event, path = chinese_event(tmp_path)
    row = event.index[(event["player"] == "郭涛") & (event["deal"] == "3")][0]
    event.loc[row, "player"] = "郭滔"
    event.to_csv(path, index=False)
    code, _, err = run("validate", path)
    assert code == 0
    assert "player 郭滔 plays one deal only (others play up to 24)" in err
    assert "player 郭涛 plays 7 deal(s) at table 1 in round 1, where the table plays 8" in err
    assert "49 players" in err
    assert run("validate", path, "--strict")[0] == 1


def test_players_short_of_their_table_are_listed_table_by_table(tmp_path: Path) -> None:
    """Two deals under misspelled names, the later table's first in the file: the
    warnings come round by round, table by table."""
    event, path = chinese_event(tmp_path)
    for player, round_no in (("P42", "3"), ("P42", "2"), ("郭涛", "1")):
        mine = event.index[(event["player"] == player) & (event["round"] == round_no)]
        event.loc[mine[:2], "player"] = player + "x"
    event = pd.concat([event[event["round"] != "1"], event[event["round"] == "1"]])
    event.to_csv(path, index=False)
    code, _, err = run("validate", path)
    assert code == 0
    short = [
        line.split("column 'player': ")[1].split(", where")[0]
        for line in err.splitlines()
        if "where the table plays" in line
    ]
    assert short == [
        "player 郭涛 plays 6 deal(s) at table 1 in round 1",
        "player 郭涛x plays 2 deal(s) at table 1 in round 1",
        "player P42 plays 6 deal(s) at table 4 in round 2",
        "player P42x plays 2 deal(s) at table 4 in round 2",
        "player P42 plays 6 deal(s) at table 7 in round 3",
        "player P42x plays 2 deal(s) at table 7 in round 3",
    ]


def test_a_score_the_game_cannot_give(tmp_path: Path) -> None:
    path = tmp_path / "ddz.csv"
    path.write_text(
        "round,deal,table,seat,player,score\n1,1,1,0,a,960\n1,1,1,1,b,-480\n1,1,1,2,c,-480\n"
    )
    code, _, err = run("validate", path, "--game", "doudizhu")
    assert code == 0
    assert "score(s) a doudizhu deal cannot give: whole numbers up to 96" in err


def test_blank_rows_are_left_out_and_counted(tmp_path: Path) -> None:
    path = tmp_path / "excel.csv"
    path.write_text(
        "round,deal,table,seat,player,score\n1,1,1,0,a,10\n,,,,,\n1,1,1,1,b,-10\n"
        " , ,,,,\n1,2,1,0,a,x\n1,2,1,1,b,-5\n"
    )
    code, _, err = run("score", path)
    # The row numbers stay the file's: the bad score is on row 6.
    assert code == 1
    assert "row 6, column 'score': 'x' is not a number" in err
    path.write_text(path.read_text().replace(",x\n", ",5\n"))
    code, out, err = run("score", path)
    assert code == 0
    assert f"warning[input.blank-rows]: {path}, rows 3, 5: 2 blank rows left out\n" in err
    assert len(out.splitlines()) == 5


def test_an_unknown_results_column_is_named_but_a_note_is_fine(tmp_path: Path) -> None:
    path = tmp_path / "results.csv"
    path.write_text(
        "round,deal,table,seat,player,score,secnds,备注\n1,1,1,0,a,10,5,late\n1,1,1,1,b,-10,6,\n"
    )
    code, _, err = run("standings", path)
    assert code == 0
    assert "column 'secnds' is not used; did you mean 'seconds'?" in err
    assert "备注" not in err


@pytest.mark.parametrize(
    ("header", "fragment"),
    [
        ("王炸", "unknown column '王炸'; did you mean '火箭'?"),
        ("bomb", "unknown column 'bomb'; did you mean 'bombs'?"),
        ("xyz", "unknown column 'xyz'; doudizhu reads role, bid, bombs, rocket, spring, won"),
    ],
)
def test_an_unknown_raw_game_column_is_an_error(tmp_path: Path, header: str, fragment: str) -> None:
    path = tmp_path / "ddz.csv"
    path.write_text(
        f"round,deal,table,seat,player,role,bid,bombs,{header},spring,won,备注\n"
        "1,1,1,0,a,地主,2,1,1,0,1,\n1,1,1,1,b,农民,2,1,1,0,0,\n1,1,1,2,c,农民,2,1,1,0,0,\n"
    )
    code, out, err = run("game-score", "--game", "doudizhu", path)
    assert code == 1
    assert fragment in err
    assert out == ""


def test_csv_is_quoted_only_where_a_value_needs_it(tmp_path: Path) -> None:
    path = tmp_path / "names.csv"
    path.write_text(
        "round,deal,table,seat,player,cards_left,open,doubled\n"
        '1,1,1,0,"Lee, Ann",0,0,0\n1,1,1,1,"say ""hi""",5,0,0\n'
        "1,1,1,2,郭涛,13,0,0\n1,1,1,3,D,1,0,0\n"
    )
    code, out, err = run("game-score", "--game", "big2", path)
    assert code == 0, err
    assert out.splitlines()[1:3] == ['1,1,1,0,"Lee, Ann",0,0,0,58', '1,1,1,1,"say ""hi""",5,0,0,38']
    assert out.splitlines()[3] == "1,1,1,2,郭涛,13,0,0,-150"
    scored = tmp_path / "scored.csv"
    scored.write_text(out)
    code, out, _ = run("standings", scored)
    assert code == 0
    assert ',"Lee, Ann",' in out
    assert ",10000.00,0.00,1," in out


def test_excel_csv_has_a_bom_and_crlf_and_reads_back(tmp_path: Path) -> None:
    event, path = chinese_event(tmp_path)
    event.to_csv(path, index=False)
    out = tmp_path / "standings.csv"
    code, _, err = run("standings", path, "--format", "excel", "-o", out)
    assert code == 0, err
    data = out.read_bytes()
    assert data.startswith(b"\xef\xbb\xbfsection,place,player,")
    assert data.count(b"\r\n") == data.count(b"\n") == 49
    assert "郭涛".encode() in data
    assert (tmp_path / "standings.rules.toml").exists()
    code, _, err = run("verify", path, out)
    assert code == 0, err


def test_json_numbers_read_as_the_rules_define_them(tmp_path: Path) -> None:
    code, out, _ = run("standings", EVENT, "--format", "json")
    assert code == 0
    assert '"total": 67835.09,' in out
    assert '"penalty": 0.00,' in out
    assert '"total_seconds": 2878,' in out
    code, out, _ = run("explain", "P39", EVENT, "--format", "json")
    assert '"score": 498,' in out
    assert '"mp_pct": 100.00,' in out
    assert '"exact_cents": "21369373/7"' in out


def test_chinese_sections_come_in_the_order_of_the_stems(tmp_path: Path) -> None:
    path = tmp_path / "sections.csv"
    rows = ["section,deal,seat,player,score"]
    rows += [f"{s},1,0,{s}{p},{p}" for s in ("乙组", "丙组", "甲组", "B") for p in (1, 2)]
    path.write_text("\n".join(rows) + "\n")
    code, out, _ = run("standings", path)
    assert code == 0
    sections = [line.split(",")[0] for line in out.splitlines()[1:]]
    assert list(dict.fromkeys(sections)) == ["甲组", "乙组", "丙组", "B"]
    site = tmp_path / "site"
    assert run("report", path, "-o", site)[0] == 0
    index = (site / "index.html").read_text()
    assert index.index("甲组") < index.index("乙组") < index.index("丙组")


def test_game_score_lists_every_problem_at_once(tmp_path: Path) -> None:
    path = tmp_path / "raw.csv"
    path.write_text(
        "round,deal,table,seat,player,cards_left,open,doubled\n"
        "1,1,1,0,a,x,0,0\n1,1,1,1,b,5,0,0\n1,1,1,2,c,13,0,0\n1,1,1,3,d,1,0,0\n"
        "1,3,1,0,a,0,0,0\n1,3,1,1,b,0,0,0\n1,3,1,2,c,13,0,0\n1,3,1,3,d,1,0,0\n"
    )
    code, _, err = run("game-score", "--game", "big2", path)
    assert code == 1
    # A bad cell and a table with two winners, in one run.
    assert "row 2, column 'cards_left': 'x' is not a whole number 0 to 13" in err
    assert "rows 6, 7, 8, 9: round 1, deal 3, table 1: needs exactly one player" in err
    assert "2 problems found" in err


@pytest.mark.parametrize("command", [["standings"], ["score"], ["seat", "-k", "4"]])
def test_excel_on_every_command_that_writes_csv(command: list[str]) -> None:
    def output(*extra: str) -> bytes:
        result = runner.invoke(app, [*command, str(EVENT), "-o", "-", *extra])
        assert result.exit_code == 0, result.stderr
        return result.stdout_bytes

    plain = output()
    assert output("--excel") == b"\xef\xbb\xbf" + plain.replace(b"\n", b"\r\n")
    assert output("--excel") == output("--format", "excel")
    assert run(*command, EVENT, "--excel", "--format", "json")[0] == 2


def rename(frame: pd.DataFrame, row: int) -> pd.DataFrame:
    """One row's player misspelled: the seating still sound, the player short a deal."""
    frame = frame.copy()
    frame["player"] = frame["player"].astype(str)
    frame.loc[row, "player"] += "x"
    return frame


def validated(frame: pd.DataFrame) -> list[str]:
    """What `duplicate validate` says of `frame` as a CSV file, line by line in sort
    order, each row number given as the row's place in the frame's index (so that files
    of the same rows in another order say the same)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "event.csv"
        frame.to_csv(path, index=False)
        code, _, err = run("validate", path)
    assert code in (0, 1), err
    original = list(frame.index)

    def as_given(found: re.Match[str]) -> str:
        if found.group(3):  # the first rows of a long list: those first in the file
            return f"rows ...{found.group(3)}"
        rows = sorted(original[int(r) - 2] for r in found.group(2).split(", "))
        return f"{found.group(1)} " + ", ".join(str(r) for r in rows)

    rows = r"\b(rows?) (\d+(?:, \d+)*)( \(\+\d+ more\))?"
    said = [re.sub(rows, as_given, line) for line in err.splitlines()]
    # Each said once, in any order (they come in the file's order).
    return sorted(line.replace(str(path), "FILE") for line in said)


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    rounds=st.integers(1, 3),
    deals=st.integers(1, 3),
    tables=st.integers(1, 3),
    fault=st.sampled_from([*FAULTS, "rename"]),
)
def test_the_warnings_do_not_depend_on_the_rows_order(
    seed: int, rounds: int, deals: int, tables: int, fault: str
) -> None:
    """A file deal by deal, the same rows in any order, and sorted by player (each taken
    a different way when told whether every deal of a round is seated alike): the
    same warnings, or the same errors, row for row."""
    rng = np.random.default_rng(seed)
    frame = event(rng, rounds, deals, tables, 4)
    frame = frame.sort_values(["round", "deal", "table", "seat"], ignore_index=True)
    row = int(rng.integers(len(frame)))
    frame = rename(frame, row) if fault == "rename" else broken(frame, fault, row)
    frame["player"] = "P" + frame["player"].astype(str)
    in_file_order = validated(frame)
    assert validated(frame.sample(frac=1, random_state=seed % 1000)) == in_file_order
    assert validated(frame.sort_values("player", kind="stable")) == in_file_order


def test_a_newcomer_to_a_round_of_one_deal_plays_one_deal_only(tmp_path: Path) -> None:
    """Each round seated alike, but the last has one deal: its newcomer is warned of."""
    rows = [(1, deal, seat, f"P{seat}") for deal in (1, 2, 3) for seat in range(4)]
    rows += [(2, 1, seat, f"P{seat}") for seat in range(3)] + [(2, 1, 3, "P9")]
    frame = pd.DataFrame(rows, columns=["round", "deal", "seat", "player"])
    path = tmp_path / "event.csv"
    frame.assign(table=1, score=0).sample(frac=1, random_state=1).to_csv(path, index=False)
    code, _, err = run("validate", path)
    assert code == 0
    warned = [line.split(": ", 2)[-1] for line in err.splitlines() if "column 'player'" in line]
    assert warned == [
        "player P9 plays one deal only (others play up to 4); a misspelled name? compare it "
        "with the players at the same table"
    ]
    assert f"{path}: 16 results, 5 players, 4 deals" in err
