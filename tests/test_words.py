"""The game decides the words people read: a board and N, E, S, W in bridge, a deal and
seat numbers in the card games; the columns of files keep their names."""

from __future__ import annotations

import io

import pandas as pd
from typer.testing import CliRunner

from duplicate.cli import app
from duplicate.games.words import BRIDGE, CARD_GAMES
from tests.conftest import SAMPLE

runner = CliRunner()
SESSION = SAMPLE / "bridge_session.pbn"


def run(*args: object) -> str:
    result = runner.invoke(app, [str(a) for a in args], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.stderr
    return result.stdout


def test_bridge_says_board_where_people_read_it() -> None:
    text = run("explain", "1", SESSION)
    header = text.splitlines()[2].split()
    assert header[:2] == ["round", "board"]
    assert "over 4 boards" in text
    table = run("score", SESSION, "--format", "table")
    assert "board" in table.splitlines()[0]
    assert " deal " not in table.splitlines()[0]


def test_card_games_say_deal() -> None:
    text = run("explain", "P39", SAMPLE / "big2_event.csv")
    assert text.splitlines()[2].split()[:2] == ["round", "deal"]
    table = run("score", SAMPLE / "big2_event.csv", "--format", "table")
    assert "deal" in table.splitlines()[0]
    assert "board" not in table


def test_files_keep_their_column_names_whatever_the_game() -> None:
    for fmt in ("csv", "json"):
        out = run("score", SESSION, "--format", fmt)
        if fmt == "csv":
            assert "deal" in pd.read_csv(io.StringIO(out)).columns
        else:
            assert '"deal":' in out
            assert '"board":' not in out


def test_the_words_of_each_game() -> None:
    assert [BRIDGE.seat(str(n)) for n in range(4)] == ["N", "E", "S", "W"]
    assert BRIDGE.seat("NS") == "NS"
    assert [CARD_GAMES.seat(str(n)) for n in range(4)] == ["0", "1", "2", "3"]
    assert [BRIDGE.heading(c) for c in ("deal", "deals", "deal_rank", "dealer")] == [
        "board",
        "boards",
        "board_rank",
        "dealer",
    ]
    assert CARD_GAMES.heading("deal_rank") == "deal_rank"
