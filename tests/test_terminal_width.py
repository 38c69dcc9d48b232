"""A table for a person fits their terminal: low-priority columns left out (and named on
standard error), text wrapped within its cells, numbers whole; what goes to a pipe or a
file is the same at any width."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.cells import cell_len

from duplicate.scoring.standings import STANDINGS_COLUMNS
from tests.conftest import SAMPLE
from tests.test_cli import on_a_terminal

EVENT = str(SAMPLE / "big2_event.csv")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
LEFT_OUT = re.compile(r"not shown in (\d+) columns: (.*) \(a wider terminal")
STANDINGS = list(STANDINGS_COLUMNS)

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pseudo-terminals")


def lines_of(shown: bytes) -> list[str]:
    return [ANSI.sub("", line).rstrip("\r") for line in shown.decode("utf-8").split("\n")]


def header_of(lines: list[str]) -> list[str]:
    return [cell.strip() for cell in lines[0].split("┃")]


@pytest.mark.parametrize("columns", [80, 120, 200])
def test_a_standings_table_fits_the_terminal(columns: int) -> None:
    out, err = on_a_terminal("standings", EVENT, columns=columns)
    lines = [line for line in lines_of(out) if line]
    assert max(cell_len(line) for line in lines) <= columns
    shown = header_of(lines)
    said = LEFT_OUT.search(ANSI.sub("", err.decode("utf-8")).replace("\r\n", " "))
    left_out = [] if said is None else said.group(2).split(", ")
    # Every column is shown or named as left out; the place, player and total always shown.
    assert sorted(shown + left_out) == sorted(STANDINGS)
    assert {"place", "player", "total"} <= set(shown)
    if said is not None:
        assert said.group(1) == str(columns)
    # No number is cut: the first row's total is whole.
    assert "67835.09" in lines[2]
    assert "…" not in out.decode("utf-8")


def test_a_narrow_terminal_leaves_out_the_tie_break_details_first() -> None:
    out, err = on_a_terminal("standings", EVENT, columns=80)
    shown = header_of([line for line in lines_of(out) if line])
    assert "rank_counts" not in shown
    assert "trimmed_seconds" not in shown
    assert "decided_by" in shown
    assert "rank_counts" in ANSI.sub("", err.decode("utf-8"))
    wide, wide_err = on_a_terminal("standings", EVENT, columns=250)
    assert "rank_counts" in header_of([line for line in lines_of(wide) if line])
    assert b"not shown" not in wide_err


def test_long_names_wrap_in_their_cells(tmp_path: Path) -> None:
    players = tmp_path / "players.csv"
    long_name = "Bartholomew Fitzwilliam-Montgomery of Little Snoring"
    ids = [f"P{n:02d}" for n in range(1, 49)]
    players.write_text(
        "player,name\n" + "".join(f"{p},{long_name} {p}\n" for p in ids), encoding="utf-8"
    )
    out, _ = on_a_terminal("standings", EVENT, "--players", str(players), columns=80)
    lines = [line for line in lines_of(out) if line]
    assert max(cell_len(line) for line in lines) <= 80
    assert "name" in header_of(lines)
    # The name goes on over more lines than one; the total stays whole on its row.
    assert any("67835.09" in line and "Bartholomew" in line for line in lines)
    assert not any(long_name in line for line in lines)


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_plain_output_is_the_same_at_any_width(fmt: str) -> None:
    printed = set()
    for columns in ("80", "120", "200"):
        env = {**os.environ, "COLUMNS": columns}
        done = subprocess.run(
            [sys.executable, "-m", "duplicate", "standings", EVENT, "--format", fmt],
            capture_output=True,
            env=env,
            check=True,
        )
        assert b"not shown" not in done.stderr
        printed.add(done.stdout)
    assert len(printed) == 1


def test_a_mitchell_s_directions_are_never_left_out() -> None:
    """North-South and East-West both have a place 1: their section tells them apart."""
    out, err = on_a_terminal("standings", str(SAMPLE / "bridge_session.pbn"), columns=40)
    shown = header_of([line for line in lines_of(out) if line])
    assert shown[:3] == ["section", "place", "player"]
    assert "section" not in ANSI.sub("", err.decode("utf-8"))
