"""Real IMP sessions as their program published them (tests/data/sessions/*/PROVENANCE.md)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path

import pandas as pd

import duplicate
from tests.conftest import ROOT

SALLIERE = ROOT / "tests" / "data" / "sessions" / "salliere" / "imp.xml"
# Boards with an artificial score written as SCORE 0.0 (see PROVENANCE.md).
ARTIFICIAL = {3, 6, 9, 15, 27}


def traveller_lines(path: Path) -> tuple[pd.DataFrame, dict[tuple[int, str], Decimal]]:
    """The session's results, each board its own round (pairs change direction between
    boards), and every line's published IMPs by (board, pair)."""
    root = ET.parse(path).getroot()
    rows = []
    published = {}
    for board in root.iter("BOARD"):
        number = int(board.findtext("BOARD_NUMBER", ""))
        for line in board.iter("TRAVELLER_LINE"):
            score = Decimal(line.findtext("SCORE", ""))
            for seat, pair, sign, imps in (
                ("NS", "NS_PAIR_NUMBER", 1, "NS_MATCH_POINTS"),
                ("EW", "EW_PAIR_NUMBER", -1, "EW_MATCH_POINTS"),
            ):
                player = line.findtext(pair, "")
                rows.append(
                    {
                        "round": number,
                        "deal": number,
                        "seat": seat,
                        "player": player,
                        "score": str(sign * score),
                    }
                )
                published[(number, player)] = Decimal(line.findtext(imps, ""))
    return pd.DataFrame(rows), published


def test_salliere_cross_imps_line_by_line() -> None:
    results, published = traveller_lines(SALLIERE)
    scored = duplicate.score(results, duplicate.Rules(method="cross-imps")).frame
    ours = {(int(r.deal), str(r.player)): r.imps for r in scored.itertuples()}
    compared = {k: v for k, v in published.items() if k[0] not in ARTIFICIAL}
    assert len(compared) == 220
    assert {k: ours[k] for k in compared} == compared


def test_salliere_totals_and_places() -> None:
    """Totals scaled to the session's 27 boards, the artificial boards as published."""
    results, published = traveller_lines(SALLIERE)
    scored = duplicate.score(results, duplicate.Rules(method="cross-imps")).frame
    totals: dict[str, Fraction] = {}
    boards: dict[str, int] = {}
    for r in scored.itertuples():
        key = (int(r.deal), str(r.player))
        value = published[key] if key[0] in ARTIFICIAL else r.imps
        totals[key[1]] = totals.get(key[1], Fraction(0)) + Fraction(value)
        boards[key[1]] = boards.get(key[1], 0) + 1
    most = max(boards.values())
    root = ET.parse(SALLIERE).getroot()
    want, got = {}, {}
    for pair in root.iter("PAIR"):
        number = pair.findtext("PAIR_NUMBER", "")
        want[number] = (Decimal(pair.findtext("PERCENTAGE", "")), int(pair.findtext("PLACE", "")))
        scaled = totals[number] * most / boards[number]
        shown = (Decimal(scaled.numerator) / scaled.denominator).quantize(
            Decimal("0.1"), rounding=ROUND_HALF_UP
        )
        got[number] = (shown, 1 + sum(1 for t in totals if totals[t] * most / boards[t] > scaled))
    assert got == want


def test_scaled_totals_rank_as_the_averages() -> None:
    results, _ = traveller_lines(SALLIERE)
    rules = duplicate.Rules(method="cross-imps", imp_totals="scaled")
    table = duplicate.standings(results, rules).frame.set_index("player")
    # Pair 3 played 24 of 27 boards: 66.25 IMPs x 27 / 24 = 74.53125.
    assert table.loc[3, "deals"] == 24
    assert table.loc[3, "imps"] == Decimal("74.53")
    assert table.loc[10, "imps"] == Decimal("27.25")  # all 27 boards: as summed
    assert list(table["average_imps"]) == sorted(table["average_imps"], reverse=True)
