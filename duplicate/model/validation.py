"""Checks that need more than one row: who sat where, and who played what."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np

from duplicate.deal_scope import deal_scope as scope_of
from duplicate.errors import Problem
from duplicate.limits import MAX_LISTED
from duplicate.model.codes import (
    HISTOGRAM_LIMIT,
    bounded,
    combine,
    count_per,
    has_repeats,
    occupied,
    value_per_key,
    varies_within,
    varying_keys,
)
from duplicate.model.seated_alike import seated_alike

if TYPE_CHECKING:
    import pandas as pd

    from duplicate.model.results import Results


def structural_problems(results: Results, deal_scope: str = "round") -> list[Problem]:
    """Every seating or duplication problem in `results`, one Problem per conflict."""
    deal_key = list(scope_of(deal_scope).deal_keys)
    if _certainly_sound(results, deal_key):
        return []
    flags = _flags(results, deal_key)
    problems: list[Problem] = []
    _played_twice(results, deal_key, flags["twice"], problems)
    for place in ["table", "seat"] if results.has_table else ["seat"]:
        _moved(results, place, flags[f"moved_{place}"], problems)
    if results.has_table:
        _seats_shared(results, deal_key, flags["shared"] & ~flags["twice"], problems)
        if flags["uneven"].any():
            _tables_uneven(results, flags["uneven"], problems)
    return problems


def _played_twice(
    results: Results, deal_key: list[str], twice: np.ndarray, problems: list[Problem]
) -> None:
    src = results.source
    keys = [*deal_key, "player"]
    for key, group in _conflicts(results.frame, twice, keys, problems, src, "seating.played-twice"):
        problems.append(
            Problem(
                src,
                f"player {_show(key[-1])} appears {len(group)} times on "
                f"{_deal(key[:-1], deal_key)}",
                _rows(group),
                "player",
                "keep one row per player per deal",
                code="seating.played-twice",
            )
        )


def _moved(results: Results, place: str, moved: np.ndarray, problems: list[Problem]) -> None:
    src = results.source
    keys = ["section", "round", "player"]
    code = "seating.moved-table" if place == "table" else "seating.moved-seat"
    for key, group in _conflicts(results.frame, moved, keys, problems, src, code):
        where = ", ".join(_show(v) for v in sorted(group[place].unique()))
        problems.append(
            Problem(
                src,
                f"player {_show(key[-1])} sits at {place}s {where} in "
                f"{_section(key[0])}round {key[1]}",
                _rows(group),
                place,
                f"a player keeps one {place} for a whole round; correct the {place}",
                code=code,
            )
        )


def _seats_shared(
    results: Results, deal_key: list[str], shared: np.ndarray, problems: list[Problem]
) -> None:
    src = results.source
    seat_key = [*deal_key, "table", "seat"]
    code = "seating.seat-shared"
    for key, group in _conflicts(results.frame, shared, seat_key, problems, src, code):
        names = ", ".join(_show(p) for p in group["player"])
        problems.append(
            Problem(
                src,
                f"table {_show(key[-2])} seat {_show(key[-1])} on {_deal(key[:-2], deal_key)} "
                f"has players {names}",
                _rows(group),
                "seat",
                "each seat of a table holds one player per deal",
                code="seating.seat-shared",
            )
        )


def _tables_uneven(results: Results, uneven: np.ndarray, problems: list[Problem]) -> None:
    src, frame = results.source, results.frame
    table_key = ["section", "round", "table"]
    sizes = frame.groupby([*table_key, "deal"], sort=False)["player"].transform("size")
    code = "seating.table-uneven"
    for key, group in _conflicts(frame.assign(size=sizes), uneven, table_key, problems, src, code):
        counts = group.groupby("size")["deal"].unique()
        detail = "; ".join(
            f"{size} on deal{'s' if len(deals) > 1 else ''} "
            + ", ".join(_show(d) for d in sorted(deals))
            for size, deals in counts.items()
        )
        problems.append(
            Problem(
                src,
                f"table {_show(key[2])} in {_section(key[0])}round {key[1]} has different "
                f"numbers of players: {detail}",
                _rows(group),
                "table",
                "every deal of a round is played by the same players at a table; "
                "add the missing rows or correct the table",
                code="seating.table-uneven",
            )
        )


def _certainly_sound(results: Results, deal_key: list[str]) -> bool:
    """True when no rule is broken, decided in fewer passes than `_flags` takes.

    With a table column, a player twice on a deal has either changed seat or table
    within the round, or shares a (table, seat) on that deal with themself: so the seat
    checks decide `twice` too. No seat is shared when the (deal, table, seat) keys rise
    row by row (else a histogram says), and table sizes are counted per (deal, table)
    (occupied). False means "look closer" (`_flags` then finds who breaks which
    rule), never "broken" by itself.
    """
    code = results.codes
    deal = results.key(*deal_key)
    if seated_alike(results, deal_key):
        return True
    # Player and table numbers need only sort and index a bounded table here: as they
    # are, when small (no dense codes to make).
    in_round = bounded(*combine([code("section"), code("round"), results.sorting_codes("player")]))
    if not results.has_table:
        return not (
            varying_keys(*in_round, code("seat")[0]).any()
            or has_repeats(*combine([deal, code("player")]))
        )
    tables, n_tables = results.sorting_codes("table")
    seats, n_seats = code("seat")
    # One place per (table, seat): a player keeps one place for the round.
    if varying_keys(*in_round, combine([(tables, n_tables), (seats, n_seats)])[0]).any():
        return False
    if deal[1] * n_tables * n_seats > HISTOGRAM_LIMIT:
        # Sparse table numbers: their dense codes may fit.
        tables, n_tables = code("table")
        if deal[1] * n_tables * n_seats > HISTOGRAM_LIMIT:
            return False
    section_round = results.key("section", "round")
    # A deal id played in more than one round (deal scope "event"; a deal key holding
    # the round cannot be).
    if "round" not in deal_key and varying_keys(*deal, section_round[0]).any():
        return False
    deal_table = combine([deal, (tables, n_tables)])
    if has_repeats(*combine([deal_table, (seats, n_seats)])):
        return False
    # Players per (deal, table) where the table played the deal (no seat is shared);
    # one count per table of a round, or the table's size varies.
    played, players = occupied(*deal_table)
    round_of_deal = value_per_key(*deal, section_round[0]).astype(np.int64)
    pair_table = round_of_deal[played // n_tables] * n_tables + played % n_tables
    pairs = bounded(pair_table, section_round[1] * n_tables)
    return not bool(varying_keys(*pairs, players).any())


def _flags(results: Results, deal_key: list[str]) -> dict[str, np.ndarray]:
    """Which rows break each rule, found on integer codes (fast on millions of rows)."""
    code = results.codes
    deal = results.key(*deal_key)
    in_round = combine([code("section"), code("round"), code("player")])
    flags = {
        "twice": count_per(*combine([deal, code("player")])) > 1,
        "moved_seat": varies_within(*in_round, code("seat")[0]),
    }
    if results.has_table:
        flags["moved_table"] = varies_within(*in_round, code("table")[0])
        flags["shared"] = count_per(*combine([deal, code("table"), code("seat")])) > 1
        table = combine([code("section"), code("round"), code("table")])
        players_at_deal = count_per(*combine([table, code("deal")]))
        flags["uneven"] = varies_within(*table, players_at_deal)
    return flags


def _conflicts(
    frame: pd.DataFrame,
    mask: np.ndarray,
    keys: list[str],
    problems: list[Problem],
    src: str,
    code: str,
) -> Iterator[tuple[tuple[object, ...], pd.DataFrame]]:
    """The flagged rows grouped by `keys`, in key order (only called on bad data): the
    first MAX_LISTED groups, then one problem in `problems` counting the rest."""
    if not mask.any():
        return
    grouped = frame[mask].groupby(keys, sort=True)
    for listed, (key, group) in enumerate(grouped):
        if listed == MAX_LISTED:
            rest = grouped.ngroups - MAX_LISTED
            problems.append(
                Problem(
                    src,
                    f"{rest} more conflicts like these",
                    column=keys[-1],
                    count=rest,
                    code=code,
                )
            )
            return
        yield tuple(key), group.sort_values("row")


def _rows(group: pd.DataFrame) -> tuple[int, ...]:
    return tuple(int(r) for r in group["row"])


def _show(value: object) -> str:
    return repr(value) if isinstance(value, str) else str(value)


def _section(section: object) -> str:
    return f"section {section!r}, " if section else ""


def _deal(key: tuple[object, ...], names: list[str]) -> str:
    parts = dict(zip(names, key, strict=True))
    where = [_section(parts["section"]).rstrip(", ")] if parts["section"] else []
    if "round" in parts:
        where.append(f"round {parts['round']}")
    where.append(f"deal {_show(parts['deal'])}")
    return ", ".join(where)
