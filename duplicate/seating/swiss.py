"""Swiss seating for the next round (docs/scoring.md section 5; 000_*.txt appendix 3).

Players in standings order fill tables of k: in a snake (1,2,3 / 6,5,4 / 7,8,9 / ...)
or straight (1,2,3 / 4,5,6 / ..., the platform variant of 003_*.txt). Round 1 is drawn
at random from a seed. A field that does not divide by k is completed with robots or
gives byes to the lowest-ranked players who have had the fewest byes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt
import pandas as pd

from duplicate.errors import UsageError
from duplicate.model.exact import IntArray
from duplicate.model.robots import ROBOT_PREFIX, is_robot
from duplicate.seating.rematch import (
    assign_tables,
    balance_seats,
    pair_keys,
    repeats_in,
    search_fits,
)
from duplicate.text import counted

SEATING_COLUMNS = ("section", "round", "table", "seat", "player", "bye")
PAIR_TABLE = 4

Order = Literal["snake", "straight"]
Fill = Literal["robot", "bye"]


def require_table_size(k: int) -> None:
    if k < 2:
        raise UsageError(f"a table needs at least 2 seats, not {k}", "seat.table-size")


def table_positions(n: int, k: int, order: Order = "snake") -> tuple[IntArray, IntArray]:
    """(table from 1, seat from 0) for the i-th player in order, i = 0..n-1."""
    require_table_size(k)
    i = np.arange(n, dtype=np.int64)
    table, position = np.divmod(i, k)
    if order == "snake":
        position = np.where(table % 2 == 1, k - 1 - position, position)
    elif order != "straight":
        raise UsageError(f"order must be 'snake' or 'straight', not {order!r}", "seat.order")
    return table + 1, position


def random_order(players: Sequence[object], seed: int) -> list[object]:
    """A reproducible random order: the same players and seed give the same order.

    The players are sorted by id first, so the order they were listed in does not matter.
    """
    ordered = sorted(players, key=str)
    permutation = np.random.default_rng(seed).permutation(len(ordered))
    return [ordered[i] for i in permutation]


def choose_byes(
    order: Sequence[object],
    count: int,
    byes_so_far: dict[object, int],
    newcomers: frozenset[object] = frozenset(),
) -> set[object]:
    """The `count` players to sit out: players who have played before newcomers (a
    late entry does not sit out its first round), then the fewest byes so far, then
    the lowest ranked."""
    if count == 0:
        return set()
    field = pd.Series(list(order), dtype=object)
    had = field.map(byes_so_far).fillna(0).to_numpy(dtype=np.int64)
    new = field.isin(list(newcomers)).to_numpy(dtype=bool)
    rank = np.arange(len(order), dtype=np.int64)
    chosen = np.lexsort((-rank, had, new))[:count]
    return {order[i] for i in chosen}


@dataclass(frozen=True)
class History:
    """What earlier rounds say: who shared a table, and who sat in which seat."""

    met: pd.DataFrame  # columns a, b: player ids (text) who shared a table
    seats: pd.DataFrame  # columns player, seat, count


@dataclass(frozen=True)
class SeatingReport:
    """What the seating did, for the scorer to read."""

    section: str
    round: int
    tables: int
    byes: int
    robots: int
    repeats_in_rule_order: int
    repeats_left: int
    players_moved: int
    largest_move: int
    # Why the seating kept the rule order when asked to avoid repeats ("" if it did not).
    note: str = ""

    def __str__(self) -> str:
        where = f"section {self.section!r} " if self.section else ""
        text = f"{where}round {self.round}: {counted(self.tables, 'table')}"
        if self.byes:
            text += f", {self.byes} bye{'s' if self.byes > 1 else ''}"
        if self.robots:
            text += f", {self.robots} robot{'s' if self.robots > 1 else ''}"
        text += f"; {counted(self.repeats_left, 'repeated tablemate pair')}"
        if self.repeats_in_rule_order != self.repeats_left or self.players_moved:
            text += (
                f" (rule order: {self.repeats_in_rule_order}); "
                f"{counted(self.players_moved, 'player')} moved off their snake table, by at "
                f"most {self.largest_move}"
            )
        return f"{text}; {self.note}" if self.note else text


def history_from_results(frame: pd.DataFrame) -> History:
    """Tablemates and seats of every earlier round (robots excluded)."""
    frame = frame[~is_robot(frame["player"])]
    sitting = frame[["round", "table", "player"]].drop_duplicates().astype({"player": "str"})
    pairs = sitting.merge(sitting, on=["round", "table"], suffixes=("_a", "_b"))
    pairs = pairs[pairs["player_a"] < pairs["player_b"]]
    seats = (
        frame[["round", "player", "seat"]]
        .drop_duplicates()
        .astype({"player": "str"})
        .groupby(["player", "seat"], as_index=False)
        .size()
        .rename(columns={"size": "count"})
    )
    return History(
        met=pd.DataFrame({"a": pairs["player_a"].to_numpy(), "b": pairs["player_b"].to_numpy()}),
        seats=seats,
    )


def seat_field(
    order: Sequence[object],
    k: int,
    round_no: int,
    *,
    section: str = "",
    seating_order: Order = "snake",
    fill: Fill = "robot",
    byes_so_far: dict[object, int] | None = None,
    history: History | None = None,
    avoid_repeats: bool = False,
    window: int | None = None,
    newcomers: frozenset[object] = frozenset(),
) -> tuple[pd.DataFrame, SeatingReport]:
    """One row per seat (and one per bye) for players given in standings order.

    A field that does not fill its tables gets one robot at each of its last tables
    (never a table of robots), or byes (`fill="bye"`; never to one of `newcomers`, the
    players who have not yet played, while someone who has can sit out).

    With `avoid_repeats` and a `history`, tables avoid repeated tablemates (exact within
    `window` ranks; see rematch.default_window), then stay nearest the snake, then balance seats;
    otherwise the rule order is kept exactly, and the history only counts repeats.
    """
    if len(set(order)) != len(order):
        raise UsageError("a player appears twice in the field to seat", "players.repeated")
    players, byes = _filled(list(order), k, fill, byes_so_far or {}, newcomers)
    table, seat = table_positions(len(players), k, seating_order)
    codes = np.where(is_robot(pd.Series(players, dtype=object)), -1, np.arange(len(players)))
    met = _met_keys(history, players) if history is not None else np.zeros(0, np.int64)
    rule_repeats = int(repeats_in(_rank_rows(table, codes, k), met, len(players)).sum())
    moved = np.zeros(len(players), dtype=np.int64)
    note = ""
    if avoid_repeats and history is not None and not search_fits(k, window or k):
        if window is not None:
            raise UsageError(
                f"{{opt:window}} {window} with tables of {k} is too wide a search to bound; "
                "choose a smaller window",
                "seat.window",
            )
        note = f"tables of {k} are too large for the repeat-avoiding search: the snake kept"
    elif avoid_repeats and history is not None and len(players):
        best = _tables_avoiding_repeats(codes, k, met, window)
        moved = np.abs(best - (table - 1))
        table = best + 1
        seat = _balanced_seats(table, codes, k, seating_order, _seat_counts(history, players, k))
    report = SeatingReport(
        section=section,
        round=round_no,
        tables=len(players) // k,
        byes=len(byes),
        robots=int((codes < 0).sum()),
        repeats_in_rule_order=rule_repeats,
        repeats_left=int(repeats_in(_rank_rows(table, codes, k), met, len(players)).sum()),
        players_moved=int((moved > 0).sum()),
        largest_move=int(moved.max(initial=0)),
        note=note,
    )
    out = _seating_frame(section, round_no, table, seat, players, [p for p in order if p in byes])
    check_seating(out, order, k, byes_so_far or {}, newcomers)
    return out, report


def _filled(
    players: list[object],
    k: int,
    fill: Fill,
    byes_so_far: dict[object, int],
    newcomers: frozenset[object],
) -> tuple[list[object], set[object]]:
    """The players to seat, robots added or byes left out so that they fill their
    tables, and the byes."""
    short = -len(players) % k
    if not short:
        return players, set()
    if fill == "robot":
        return spread_robots(players, k), set()
    if fill == "bye":
        byes = choose_byes(players, len(players) % k, byes_so_far, newcomers)
        return [p for p in players if p not in byes], byes
    raise UsageError(f"fill must be 'robot' or 'bye', not {fill!r}", "seat.fill")


def _tables_avoiding_repeats(
    codes: IntArray, k: int, met: IntArray, window: int | None
) -> IntArray:
    """Each position's table (from 0) by the repeat-avoiding search."""
    n = len(codes)
    # Robots have met nobody; the search treats two robots as having met, so that it
    # never puts them at one table (each robot completes a different table).
    robot_codes = np.flatnonzero(codes < 0)
    search_codes = np.arange(n, dtype=np.int64) if len(robot_codes) else codes
    robot_a, robot_b = np.triu_indices(len(robot_codes), 1)
    search_met = np.union1d(met, pair_keys(robot_codes[robot_a], robot_codes[robot_b], n))
    return assign_tables(search_codes, k, search_met, n, window)


def _balanced_seats(
    table: IntArray,
    codes: IntArray,
    k: int,
    seating_order: Order,
    seat_counts: npt.NDArray[np.float64],
) -> IntArray:
    """Each position's seat at its table: the snake's, then balanced by the seats each
    player has had (balance_seats)."""
    members = _rank_rows(table, codes, k)
    position = np.arange(k)
    snake_seats = np.where(
        (np.arange(len(members)) % 2 == 1)[:, None] & (seating_order == "snake"),
        k - 1 - position,
        position,
    )
    seats = balance_seats(members, snake_seats, seat_counts)
    in_table_order = np.lexsort((np.arange(len(codes)), table))
    seat = np.empty(len(codes), dtype=np.int64)
    seat[in_table_order] = seats.reshape(-1)
    return seat


def _seating_frame(
    section: str,
    round_no: int,
    table: IntArray,
    seat: IntArray,
    players: list[object],
    byes: list[object],
) -> pd.DataFrame:
    """The seats by table and seat, then the byes in standings order."""
    seated = pd.DataFrame(
        {
            "section": section,
            "round": round_no,
            "table": pd.array(table, dtype="Int64"),
            "seat": pd.array(seat, dtype="Int64"),
            "player": pd.Series(players, dtype=object),
            "bye": False,
        }
    )
    sitting_out = pd.DataFrame(
        {
            "section": section,
            "round": round_no,
            "table": pd.array([None] * len(byes), dtype="Int64"),
            "seat": pd.array([None] * len(byes), dtype="Int64"),
            "player": pd.Series(byes, dtype=object),
            "bye": True,
        }
    )
    out = pd.concat([seated.sort_values(["table", "seat"]), sitting_out], ignore_index=True)
    return out[list(SEATING_COLUMNS)]


def _rank_rows(table: IntArray, codes: IntArray, k: int) -> IntArray:
    """Player codes by table (rows), in rank order within each table."""
    in_table_order = np.lexsort((np.arange(len(codes)), table))
    return codes[in_table_order].reshape(-1, k)


def _met_keys(history: History, players: list[object]) -> IntArray:
    """Sorted pair keys, in this field's codes, of players who shared a table before."""
    code = {str(p): i for i, p in enumerate(players)}
    a = history.met["a"].map(code)
    b = history.met["b"].map(code)
    known = a.notna() & b.notna()
    keys = pair_keys(
        a[known].to_numpy(dtype=np.int64), b[known].to_numpy(dtype=np.int64), len(players)
    )
    return np.unique(keys)


def _seat_counts(history: History, players: list[object], k: int) -> npt.NDArray[np.float64]:
    """counts[code, seat]: how often each player sat in each seat 0..k-1 before."""
    code = {str(p): i for i, p in enumerate(players)}
    counts = np.zeros((max(len(players), 1), k))
    seats = history.seats
    who = seats["player"].map(code)
    seat = pd.to_numeric(seats["seat"], errors="coerce")
    usable = who.notna() & seat.notna() & seat.between(0, k - 1)
    np.add.at(
        counts,
        (who[usable].to_numpy(dtype=np.int64), seat[usable].to_numpy(dtype=np.int64)),
        seats.loc[usable, "count"].to_numpy(dtype=np.float64),
    )
    return counts


def check_seating(
    seating: pd.DataFrame,
    field: Sequence[object],
    k: int,
    byes_so_far: dict[object, int] | None = None,
    newcomers: frozenset[object] = frozenset(),
    robots_apart: bool = True,
) -> None:
    """The seating's own guarantees; a failure here is a defect, not bad input.

    Every player of the field exactly once, every table full, one player per seat, at
    most one robot a table when there are humans to fill it (`robots_apart`: not for
    pairs, whose robots come two by two, nor play against robots), no bye to a newcomer while
    a player who has played plays, and no bye to a player who has had more byes than
    one who plays.
    """
    humans = seating[~is_robot(seating["player"])]
    at_tables = seating[~seating["bye"]]
    if sorted(map(str, humans["player"])) != sorted(map(str, field)):
        raise AssertionError("seating lost or doubled a player")
    if not (at_tables.groupby("table")["player"].size() == k).all():
        raise AssertionError("seating left a table short")
    if at_tables.duplicated(["table", "seat"]).any():
        raise AssertionError("seating put two players in one seat")
    robots = at_tables[is_robot(at_tables["player"])]
    crowded = robots["table"].duplicated().any() and len(robots) < at_tables["table"].nunique()
    if robots_apart and crowded:
        raise AssertionError("seating put two robots at one table")
    new = humans["player"].isin(newcomers)
    if (humans["bye"] & new).any() and (~humans["bye"] & ~new).any():
        raise AssertionError("seating gave a bye to a player who has not yet played")
    played = humans[~new]
    if byes_so_far is not None and played["bye"].any() and not played["bye"].all():
        had = played["player"].map(byes_so_far).fillna(0)
        if had[played["bye"]].max() > had[~played["bye"]].min():
            raise AssertionError("seating gave a bye to a player who had more than another")


def spread_robots(players: list[object], k: int) -> list[object]:
    """The field in standings order with robots completing its last tables, one robot
    at each: `short` tables of k - 1 players and a robot, after the full ones."""
    short = -len(players) % k
    tables = (len(players) + short) // k
    full = (tables - short) * k
    robots = [f"{ROBOT_PREFIX}{i}" for i in range(1, short + 1)]
    rest = players[full:]
    spread: list[object] = list(players[:full])
    for j, robot in enumerate(robots):
        spread += [*rest[j * (k - 1) : (j + 1) * (k - 1)], robot]
    return spread


def byes_from_results(frame: pd.DataFrame) -> dict[object, int]:
    """Rounds each player missed after first playing: the byes the results show."""
    rounds = frame[["player", "round"]].drop_duplicates()
    first = rounds.groupby("player")["round"].min()
    last_round = int(frame["round"].max())
    played = rounds.groupby("player")["round"].nunique()
    missed = (last_round - first + 1) - played
    return {p: int(n) for p, n in missed.items() if n > 0}
