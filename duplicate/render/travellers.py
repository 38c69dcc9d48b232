"""A bridge board's traveller: one line per table, the North-South pair's result beside
the East-West pair's (docs/publishing.md)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pandas as pd

from duplicate.model.columns import PLAY_COLUMNS
from duplicate.text import natural

# The table a session says a board was played at (no seating: see PLAY_COLUMNS).
PLAYED_AT = "at_table"
# What a session may say of the play at each table, shown when its results carry it.
PLAY_FIELDS = tuple(name for name in PLAY_COLUMNS if name != PLAYED_AT)
NORTH_SOUTH = "NS"

Line = tuple[dict[str, Any] | None, dict[str, Any] | None]


def traveller_lines(rows: pd.DataFrame, deal_keys: list[str]) -> list[Line]:
    """The board's results as (North-South, East-West) lines, one per table: matched by
    round and table where the results name tables (their own, or those a session
    says the board was played at); else a North-South result is matched
    with the one East-West result of the opposite score in its round, when only one
    such pair of results is there; a result matched with none has a line of its own."""
    records: list[dict[str, Any]] = [
        {str(k): v for k, v in r.items()} for r in rows.to_dict("records")
    ]
    column = table_column(rows)
    tables = column is not None and rows[column].notna().all()
    # The key that places two results at one table.
    groups: dict[tuple[str, ...], tuple[list[dict[str, Any]], list[dict[str, Any]]]] = defaultdict(
        lambda: ([], [])
    )
    for record in records:
        at = (str(record["round"]), str(record[column]) if tables and column else "")
        side = 0 if str(record["seat"]) == NORTH_SOUTH else 1
        groups[at][side].append(record)
    lines: list[Line] = []
    for _, (north_south, east_west) in sorted(groups.items(), key=lambda kv: _natural(kv[0])):
        if tables:
            lines.extend(_zip_table(north_south, east_west))
        else:
            lines.extend(_match_scores(north_south, east_west))
    return lines


def table_column(rows: pd.DataFrame) -> str | None:
    """The column that names each result's table: the results' own `table`, else the
    table the session says the board was played at; None when neither is given."""
    for column in ("table", PLAYED_AT):
        if column in rows.columns and rows[column].notna().any():
            return column
    return None


def _zip_table(ns: list[dict[str, Any]], ew: list[dict[str, Any]]) -> list[Line]:
    """One table's results: one line, or (a table with two results of one direction) a
    line for each."""
    if len(ns) <= 1 and len(ew) <= 1:
        return [(ns[0] if ns else None, ew[0] if ew else None)]
    return [(r, None) for r in ns] + [(None, r) for r in ew]


def _match_scores(ns: list[dict[str, Any]], ew: list[dict[str, Any]]) -> list[Line]:
    """Lines of a round's results without table numbers: a pair of opposite scores
    found once is one table; the others stand alone (their opponents are not known)."""
    by_score: dict[object, list[dict[str, Any]]] = defaultdict(list)
    for record in ew:
        by_score[record["score"]].append(record)
    count: dict[object, int] = defaultdict(int)
    for record in ns:
        count[record["score"]] += 1
    lines: list[Line] = []
    used: set[int] = set()
    for record in sorted(ns, key=lambda r: (-r["score"], _natural((str(r["player"]),)))):
        others = by_score.get(-record["score"], [])
        if count[record["score"]] == 1 and len(others) == 1:
            lines.append((record, others[0]))
            used.add(id(others[0]))
        else:
            lines.append((record, None))
    lines.extend((None, r) for r in ew if id(r) not in used)
    return lines


def bridge_scores(ns: dict[str, Any] | None, ew: dict[str, Any] | None) -> tuple[object, object]:
    """The line's score as a traveller shows it: in the column of the side that scored
    it (North-South's when nobody did); each side's own where the two are not opposite
    (an assigned score); none where every side's result is assigned (an artificial
    score: its 0 is no score made at the table, and the adjustment says what it is)."""
    if all(_assigned(side) for side in (ns, ew) if side is not None):
        return None, None
    if ns is not None and ew is not None:
        if ns["score"] != -ew["score"]:
            return ns["score"], ew["score"]
        score = ns["score"]
    elif ns is not None:
        score = ns["score"]
    else:
        assert ew is not None
        score = -ew["score"]
    return (score, None) if score >= 0 else (None, -score)


def _assigned(result: dict[str, Any]) -> bool:
    """A result given by an adjustment and compared with none (an assigned percentage,
    average plus or minus): its score is a placeholder."""
    adjusted = result.get("adjustment")
    return "n" in result and pd.isna(result["n"]) and not pd.isna(adjusted) and bool(adjusted)


def _natural(key: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(natural(part) for part in key)
