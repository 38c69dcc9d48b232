"""Real sessions as the programs that scored them published them (one folder per
program under tests/data/sessions/, each file with its source in PROVENANCE.md):
imported as an event, scored with no other option, and every published number
compared. Each number not given exactly is named with the convention that explains it.
"""

from __future__ import annotations

import io
from collections import defaultdict
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pandas as pd
from typer.testing import CliRunner

from duplicate.cli import app
from tests.conftest import ROOT
from tests.sessions_published import Published, compare, published

runner = CliRunner()
SESSIONS = ROOT / "tests" / "data" / "sessions"


def imported_and_scored(source: Path, folder: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """`import SOURCE --event FOLDER`, then `score` and `standings` with no other option."""
    result = runner.invoke(app, ["import", str(source), "--event", str(folder)])
    assert result.exit_code == 0, result.stderr
    tables = []
    for command in ("score", "standings"):
        result = runner.invoke(app, [command, str(folder), "-o", "-"])
        assert result.exit_code == 0, result.stderr
        tables.append(pd.read_csv(io.StringIO(result.stdout), dtype=str, keep_default_na=False))
    return tables[0], tables[1]


def from_published_board_mps(found: Published, top: int) -> dict[str, str]:
    """Each pair's percentage from the board matchpoints as the file publishes them
    (rounded), at 2 decimals: the convention of programs that rank on those."""
    total: dict[str, Decimal] = defaultdict(Decimal)
    boards: dict[str, int] = defaultdict(int)
    for (_, _, pair), mp in found.line_mp.items():
        total[pair] += Decimal(mp)
        boards[pair] += 1
    cent = Decimal("0.01")
    return {
        pair: str((total[pair] * 100 / (boards[pair] * top)).quantize(cent, ROUND_HALF_UP))
        for pair in total
    }


def test_scorebridge_one_winner_session(tmp_path: Path) -> None:
    """ScoreBridge, 17 pairs, 24 boards, boards played 7 times factored to top 14 and
    published at 1 decimal. Every traveller line's matchpoints (352) are ScoreBridge's.
    Its pair percentages are taken from those rounded board matchpoints: the 13 of 17
    that differ here are, every one, that convention; and so is the place it
    shares (8=, pairs 9 and 10 at 51.29%: 8th and 9th from exact matchpoints)."""
    source = SESSIONS / "scorebridge" / "monday-pairs.xml"
    found = published(source)
    assert found.count() == 386
    result = compare(found, *imported_and_scored(source, tmp_path / "event"))
    assert dict(result.matched) == {"line_mp": 352, "pair_pct": 4, "place": 16}
    rounded = from_published_board_mps(found, top=14)
    assert rounded == found.pair_pct  # the convention gives all 17 as published
    differing = {d[1] for d in result.differences if d[0] == "pair_pct"}
    assert len(differing) == 13
    left = result.explained("pair_pct", differing)
    assert [difference[:3] for difference in left] == [("place", "9", "8")]


def test_realbridge_one_winner_session(tmp_path: Path) -> None:
    """RealBridge, 19 pairs, 20 boards played 9 times each (top 16). Every traveller
    line's matchpoints (360), every place (19) and 18 of the 19 percentages are
    RealBridge's; the one left is an exact half rounded down (48.125 published
    48.12), RealBridge's tie rounding."""
    source = SESSIONS / "realbridge" / "monday-pairs.xml"
    found = published(source)
    assert found.count() == 398
    result = compare(found, *imported_and_scored(source, tmp_path / "event"))
    assert dict(result.matched) == {"line_mp": 360, "pair_pct": 18, "place": 19}
    assert result.differences == [("pair_pct", "7", "48.12", "48.125")]
    assert from_published_board_mps(found, top=16)["7"] == "48.13"  # half up


def test_ebuscore_two_winner_session_with_an_artificial_score(tmp_path: Path) -> None:
    """EBUScore, 18 pairs in a Mitchell (two winners), one A5050 on a board the
    other seven results of which are factored to top 14. Every traveller line's
    matchpoints (430) and every place (18) are EBUScore's; the A5050 line's 7 and 7
    are the 50% adjustments it imports as. EBUScore's percentages are from the
    published (rounded) board matchpoints: the 2 that differ here (pairs 16, 18,
    East-West on the factored board) are that convention."""
    source = SESSIONS / "ebuscore" / "thursday-pairs.xml"
    found = published(source)
    assert found.count() == 468
    folder = tmp_path / "event"
    result = compare(found, *imported_and_scored(source, folder))
    assert dict(result.matched) == {"line_mp": 430, "pair_pct": 16, "place": 18}
    artificial = {("18", "NS", "8"), ("18", "EW", "10")}
    adjustments = pd.read_csv(folder / "adjustments.csv", dtype=str)
    assert sorted(zip(adjustments["player"], adjustments["value"], strict=True)) == [
        ("10", "50"),
        ("8", "50"),
    ]
    assert {found.line_mp[key] for key in artificial} == {"7"}  # 50% of top 14
    rounded = from_published_board_mps(found, top=14)
    assert all(Decimal(rounded[pair]) == Decimal(pct) for pair, pct in found.pair_pct.items())
    left = result.explained("line_mp", artificial)
    assert [d[:3] for d in left] == [
        ("pair_pct", "16", "50.76"),
        ("pair_pct", "18", "41.63"),
    ]
