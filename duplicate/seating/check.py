"""Check that a round was played at the tables and seats that were published."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np
import pandas as pd

from duplicate.errors import Problem
from duplicate.model.columns import header_map
from duplicate.model.results import Results


def byes(column: pd.Series) -> np.ndarray:
    """Which rows of a published seating's bye column are byes (true or 1)."""
    return np.asarray(column.astype("str").str.strip().str.casefold().isin(["true", "1"]))


def seating_problems(results: Results, seating: pd.DataFrame, source: str) -> list[Problem]:
    """Every way a round's results differ from its published seating.

    Compares who sat at which table and seat in each round the seating covers; ids are
    compared as text, so 7 and "7" are the same player.
    """
    needed = {"round", "table", "seat", "player"}
    columns = header_map(seating)
    missing = sorted(needed - set(columns))
    if missing:
        return [
            Problem(
                source,
                f"missing seating column{'s' if len(missing) > 1 else ''} {', '.join(missing)}",
                hint="write the seating with `duplicate seat`",
                code="column.missing",
            )
        ]
    published = pd.DataFrame(
        {name: seating[columns[name]].astype("str").str.strip() for name in sorted(needed)}
    )
    if "bye" in columns:
        published = published[~byes(seating[columns["bye"]])]
    if not results.has_table:
        return [
            Problem(
                results.source,
                "has no table column to compare with the seating",
                hint="add the table of every result",
                code="seating.no-table",
            )
        ]
    differing = _differing(results, published)
    return [_difference(r, results.source, source) for r in differing.to_dict("records")]


def _differing(results: Results, published: pd.DataFrame) -> pd.DataFrame:
    """Each player of a published round whose results and seating differ: on one side
    only, or at another table or seat (the `side` column says which)."""
    rounds = set(published["round"])
    played = results.frame[["round", "table", "seat", "player", "row"]].astype({"round": "str"})
    played = played[played["round"].isin(rounds)]
    for name in ("table", "seat", "player"):
        played[name] = played[name].astype("str")
    actual = played.drop_duplicates(["round", "player"])
    merged = actual.merge(
        published,
        on=["round", "player"],
        how="outer",
        suffixes=("", "_published"),
        indicator="side",
    )
    # Only the players who differ become messages: one pass over all, a loop over few.
    moved = (merged["table"] != merged["table_published"]) | (
        merged["seat"] != merged["seat_published"]
    )
    return merged[(merged["side"] != "both") | moved]


def _difference(r: dict[Hashable, Any], results_source: str, source: str) -> Problem:
    """The problem one differing player (a row of _differing) makes."""
    if r["side"] == "left_only":
        return Problem(
            results_source,
            f"player {r['player']!r} played round {r['round']} but is not in the seating",
            (int(r["row"]),),
            "player",
            f"check {source}",
            code="seating.not-seated",
        )
    if r["side"] == "right_only":
        return Problem(
            results_source,
            f"player {r['player']!r} was seated at table "
            f"{r['table_published']} seat {r['seat_published']} in round "
            f"{r['round']} but has no results",
            (),
            "player",
            "add the missing results or correct the seating",
            code="seating.no-results",
        )
    return Problem(
        results_source,
        f"player {r['player']!r} played round "
        f"{r['round']} at table {r['table']} seat {r['seat']}, but was "
        f"seated at table {r['table_published']} seat "
        f"{r['seat_published']}",
        (int(r["row"]),),
        "seat",
        f"check {source}",
        code="seating.moved-from-published",
    )
