"""Hostile arguments and files against the commands that change an event folder: add
(--round, --force --reason), withdraw, adjust, player add and withdraw.

Whatever is given, each ends with exit 0, 1, 2 or 3 and no traceback, and the folder
stays whole: its log's chain intact, every file the log names there, and every command
still reading it. `make test` runs a fixed set of examples; `make fuzz` many more.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from duplicate.cli import app
from duplicate.io.event_folder import chain_intact, log_lines
from tests.conftest import ROOT
from tests.test_fuzz import ALLOWED_EXITS, NASTY_CELLS
from tests.test_fuzz import fuzz as fuzz_settings

# Processes killed and faults injected at every step: seconds each, and the same on
# every version of the libraries (the minimum-versions run leaves them out).
pytestmark = pytest.mark.slow

# Each example copies a folder and runs several commands: fewer in `make test`.
fuzz = settings(fuzz_settings, max_examples=int(os.environ.get("DUPLICATE_FUZZ_EXAMPLES", "8")))

runner = CliRunner()
EVENT = ROOT / "sample_data" / "big2_event.csv"
# What a hostile argument or cell holds: the CSV suite's cells, and a few of its own.
TEXT = st.one_of(
    st.sampled_from([*NASTY_CELLS, "\n", "a\r\nb", "\t", "P01", " P02 ", "0", "-1", "99"]),
    st.text(max_size=12),
)


def run(*args: object, stdin: bytes | None = None) -> tuple[int, str]:
    result = runner.invoke(app, [str(a) for a in args], input=stdin)
    return result.exit_code, result.stderr


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of two rounds, its players and a seating of round 3; copied for each
    example."""
    where = tmp_path_factory.mktemp("made")
    played = pd.read_csv(EVENT, dtype=str)
    played = played[played["player"].isin([f"P{i:02d}" for i in range(1, 17)])]
    pd.DataFrame({"player": sorted(played["player"].unique())}).to_csv(
        where / "players.csv", index=False
    )
    folder = where / "spring"
    code, err = run(
        "event", "init", folder, "--name", "Spring", "--date", "2026-12-05", "--game", "big2",
        "--table-size", "4", "--players", where / "players.csv",
    )  # fmt: skip
    assert code == 0, err
    for number in ("1", "2"):
        upload = where / f"round{number}.csv"
        played[played["round"] == number].to_csv(upload, index=False)
        assert run("event", "add", folder, upload)[0] == 0
    played[played["round"] == "3"].to_csv(where / "round3.csv", index=False)
    assert run("seat", folder, "-o", "-")[0] == 0
    return where


def whole(folder: Path) -> None:
    """The folder as the program leaves it: the chain intact, each file the log names
    still there, and every command still reading it."""
    lines = log_lines(folder)
    assert chain_intact(lines)
    for line in lines:
        entry = json.loads(line)
        for key in ("file", "kept"):
            if isinstance(entry.get(key), dict):
                assert (folder / entry[key]["path"]).exists(), entry
    code, err = run("standings", folder, "-o", "-")
    assert code == 0, err


def attempt(made: Path, tmp_path: Path, *args: object, stdin: bytes | None = None) -> None:
    folder = tmp_path / "spring"
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(made / "spring", folder)
    code, err = run(*[folder if a == "DIR" else a for a in args], stdin=stdin)
    assert code in ALLOWED_EXITS, err
    assert "Traceback" not in err
    assert "internal error" not in err
    whole(folder)


@fuzz
@given(player=TEXT, name=TEXT, club=TEXT, reason=TEXT)
def test_player_changes(
    made: Path, tmp_path_factory: pytest.TempPathFactory, player: str, name: str, club: str,
    reason: str,
) -> None:  # fmt: skip
    tmp = tmp_path_factory.mktemp("player")
    attempt(made, tmp, "event", "player", "add", "DIR", player, "--name", name, "--club", club)
    attempt(made, tmp, "event", "player", "withdraw", "DIR", player, "--reason", reason)


@fuzz
@given(number=TEXT, reason=TEXT)
def test_withdraw_and_forced_adds(
    made: Path, tmp_path_factory: pytest.TempPathFactory, number: str, reason: str
) -> None:
    tmp = tmp_path_factory.mktemp("withdraw")
    attempt(made, tmp, "event", "withdraw", "DIR", number, "--reason", reason)
    upload = made / "round3.csv"
    attempt(made, tmp, "event", "add", "DIR", upload, "--round", number)
    attempt(made, tmp, "event", "add", "DIR", upload, "--force", "--reason", reason)
    attempt(made, tmp, "event", "add", "DIR", "-", "--strict", stdin=upload.read_bytes())


@fuzz
@given(
    cells=st.lists(TEXT, min_size=6, max_size=6),
    reason=TEXT,
    replace=st.booleans(),
)
def test_hostile_adjustments(
    made: Path,
    tmp_path_factory: pytest.TempPathFactory,
    cells: list[str],
    reason: str,
    replace: bool,
) -> None:
    tmp = tmp_path_factory.mktemp("adjust")
    upload = tmp / "ruling.csv"
    frame = pd.DataFrame(
        [["1", "1", "P01", "penalty", "50", "late"], cells],
        columns=["round", "deal", "player", "kind", "value", "reason"],
    )
    upload.write_bytes(frame.to_csv(index=False).encode("utf-8", "surrogatepass"))
    extra = ["--replace"] if replace else []
    attempt(made, tmp, "event", "adjust", "DIR", upload, "--reason", reason, *extra)
