"""A bridge session's travellers as the toolkit's results table.

Each traveller line (one board played by an NS pair against an EW pair) gives two
results: the NS pair's score and the EW pair's, its negation. A session is one round.
In a two-winner movement (Mitchell) North-South and East-West pairs are ranked apart:
their direction is their section.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import pandas as pd

from duplicate.errors import InvalidData, Problem

RESULT_COLUMNS = ("section", "round", "deal", "seat", "player", "score")
Winners = Literal["auto", "one", "two"]


@dataclass(frozen=True)
class TravellerLine:
    """One board's result at one table, as the file gives it."""

    section: str
    board: str
    ns_pair: str
    ew_pair: str
    ns_score: int
    line: int  # where the file gives it, for messages


def results_table(
    lines: list[TravellerLine], source: str, round_number: int = 1, winners: Winners = "auto"
) -> tuple[pd.DataFrame, str]:
    """The results table of the travellers, and a note saying how winners were chosen.

    "auto": two winners when no pair number sits in both directions (a Mitchell),
    else one (a Howell).
    """
    if not lines:
        raise InvalidData(
            [
                Problem(
                    source,
                    "holds no results",
                    hint="export the session with its travellers",
                    code="session.no-results",
                )
            ]
        )
    frame = pd.DataFrame(
        {
            "section": [t.section for t in lines],
            "board": [t.board for t in lines],
            "ns": [t.ns_pair for t in lines],
            "ew": [t.ew_pair for t in lines],
            "score": [t.ns_score for t in lines],
            "line": [t.line for t in lines],
        }
    )
    both = set(frame["ns"]) & set(frame["ew"])
    two = winners == "two" or (winners == "auto" and not both)
    note = (
        "two winners: North-South and East-West pairs ranked apart"
        if two
        else "one winner: every pair ranked together"
    )
    if winners == "auto":
        note += " (chosen from the pair numbers; choose one or two winners to say otherwise)"

    def direction(seat: str, pair: str, score: pd.Series) -> pd.DataFrame:
        section = frame["section"]
        if two:
            section = (section + " " + seat).str.strip()
        return pd.DataFrame(
            {
                "section": section,
                "round": round_number,
                "deal": frame["board"],
                "seat": seat,
                "player": frame[pair],
                "score": score,
                "line": frame["line"],
            }
        )

    table = pd.concat(
        [direction("NS", "ns", frame["score"]), direction("EW", "ew", -frame["score"])],
        ignore_index=True,
    )
    _refuse_repeats(table, source)
    table = table.sort_values(["section", "deal", "seat", "player"], kind="stable", key=_natural)
    return table[list(RESULT_COLUMNS)].reset_index(drop=True), note


def _refuse_repeats(table: pd.DataFrame, source: str) -> None:
    """A pair that plays one board twice: two lines of the file say so."""
    repeated = table[table.duplicated(["section", "deal", "player"], keep=False)]
    problems = [
        Problem(
            source,
            f"pair {player} plays board {deal} more than once",
            tuple(int(x) for x in group["line"]),
            hint="correct the pair numbers on these lines; in a Mitchell numbered 1.. in "
            "both directions, give {opt:winners=two}",
            position="line",
            code="session.pair-twice",
        )
        for (deal, player), group in repeated.groupby(["deal", "player"], sort=True)
    ]
    if problems:
        raise InvalidData(problems)


def _natural(column: pd.Series) -> pd.Series:
    """Board and pair numbers sort as numbers where they are numbers (2 before 10)."""
    if column.name in ("deal", "player"):
        return column.str.zfill(12)
    return column
