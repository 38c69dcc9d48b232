"""Swiss seating for the next round (SCORING.md section 5; 000_*.txt appendix 3).

Players in standings order fill tables of k: in a snake (1,2,3 / 6,5,4 / 7,8,9 / ...)
or straight (1,2,3 / 4,5,6 / ..., the platform variant of 003_*.txt). Round 1 is drawn
at random from a seed. A field that does not divide by k is completed with robots or
gives byes to the lowest-ranked players who have had the fewest byes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
import pandas as pd

from duplicate.core.exact import IntArray
from duplicate.core.results import Results
from duplicate.core.robots import ROBOT_PREFIX, is_robot
from duplicate.errors import Problem, UsageError
from duplicate.rules import Rules

SEATING_COLUMNS = ("section", "round", "table", "seat", "player", "bye")

Order = Literal["snake", "straight"]
Fill = Literal["robot", "bye"]


def table_positions(n: int, k: int, order: Order = "snake") -> tuple[IntArray, IntArray]:
    """(table from 1, seat from 0) for the i-th player in order, i = 0..n-1."""
    if k < 2:
        raise UsageError(f"a table needs at least 2 seats, not {k}")
    i = np.arange(n, dtype=np.int64)
    table, position = np.divmod(i, k)
    if order == "snake":
        position = np.where(table % 2 == 1, k - 1 - position, position)
    elif order != "straight":
        raise UsageError(f"order must be 'snake' or 'straight', not {order!r}")
    return table + 1, position


def random_order(players: Sequence[object], seed: int) -> list[object]:
    """A reproducible random order: the same players and seed give the same order.

    The players are sorted by id first, so the order they were listed in does not matter.
    """
    ordered = sorted(players, key=str)
    permutation = np.random.default_rng(seed).permutation(len(ordered))
    return [ordered[i] for i in permutation]


def choose_byes(order: Sequence[object], count: int, byes_so_far: dict[object, int]) -> set[object]:
    """The `count` players to sit out: fewest byes so far first, then the lowest ranked."""
    if count == 0:
        return set()
    had = np.array([byes_so_far.get(p, 0) for p in order], dtype=np.int64)
    rank = np.arange(len(order), dtype=np.int64)
    chosen = np.lexsort((-rank, had))[:count]
    return {order[i] for i in chosen}


def seat_field(
    order: Sequence[object],
    k: int,
    round_no: int,
    *,
    section: str = "",
    seating_order: Order = "snake",
    fill: Fill = "robot",
    byes_so_far: dict[object, int] | None = None,
) -> pd.DataFrame:
    """One row per seat (and one per bye) for players given in standings order."""
    if len(set(order)) != len(order):
        raise UsageError("a player appears twice in the field to seat")
    players: list[object] = list(order)
    short = -len(players) % k
    byes: set[object] = set()
    if short and fill == "robot":
        players += [f"{ROBOT_PREFIX}{i}" for i in range(1, short + 1)]
    elif short and fill == "bye":
        byes = choose_byes(players, len(players) % k, byes_so_far or {})
        players = [p for p in players if p not in byes]
    elif short:
        raise UsageError(f"fill must be 'robot' or 'bye', not {fill!r}")
    table, seat = table_positions(len(players), k, seating_order)
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
            "player": pd.Series([p for p in order if p in byes], dtype=object),
            "bye": True,
        }
    )
    out = pd.concat([seated.sort_values(["table", "seat"]), sitting_out], ignore_index=True)
    check_seating(out, order, k)
    return out[list(SEATING_COLUMNS)]


def check_seating(seating: pd.DataFrame, field: Sequence[object], k: int) -> None:
    """The seating's own guarantees; a failure here is a defect, not bad input."""
    humans = seating[~is_robot(seating["player"])]
    at_tables = seating[~seating["bye"]]
    if sorted(map(str, humans["player"])) != sorted(map(str, field)):
        raise AssertionError("seating lost or doubled a player")
    if not (at_tables.groupby("table")["player"].size() == k).all():
        raise AssertionError("seating left a table short")
    if at_tables.duplicated(["table", "seat"]).any():
        raise AssertionError("seating put two players in one seat")


def byes_from_results(frame: pd.DataFrame) -> dict[object, int]:
    """Rounds each player missed after first playing: the byes the results show."""
    rounds = frame[["player", "round"]].drop_duplicates()
    first = rounds.groupby("player")["round"].min()
    last_round = int(frame["round"].max())
    played = rounds.groupby("player")["round"].nunique()
    missed = (last_round - first + 1) - played
    return {p: int(n) for p, n in missed.items() if n > 0}


ACTIVE = {"", "active", "在赛", "正常"}
WITHDRAWN = {"withdrawn", "退赛", "弃权"}


def parse_players(raw: pd.DataFrame, source: str = "<players>") -> pd.DataFrame:
    """A players file: player (required), name, status (active|withdrawn), registered.

    Returns player (text), status and a registration position (file order when the
    file has no `registered` column).
    """
    from duplicate.errors import InvalidData, Problem

    columns = {str(c).strip().casefold(): c for c in raw.columns}
    aliases = {"牌手": "player", "选手": "player", "状态": "status", "报名": "registered"}
    columns.update({aliases[k]: v for k, v in list(columns.items()) if k in aliases})
    if "player" not in columns:
        raise InvalidData(
            [
                Problem(
                    source,
                    "missing required column player",
                    hint="a players file needs player; optional: name, status, registered",
                )
            ]
        )
    raw = raw.reset_index(drop=True)
    player = raw[columns["player"]].astype("str").str.strip()
    status = (
        raw[columns["status"]].fillna("").astype("str").str.strip().str.casefold()
        if "status" in columns
        else pd.Series([""] * len(raw), dtype="str")
    )
    problems = [
        Problem(source, f"unknown status {value!r}", (i + 2,), "status", "use active or withdrawn")
        for i, value in enumerate(status)
        if value not in ACTIVE | WITHDRAWN
    ] + [
        Problem(source, "empty", (int(i) + 2,), "player", "every row needs a player")
        for i in np.flatnonzero((player == "").to_numpy())
    ]
    twice = player.duplicated(keep=False) & (player != "")
    for name in sorted(set(player[twice])):
        rows = tuple(int(i) + 2 for i in np.flatnonzero((player == name).to_numpy()))
        problems.append(
            Problem(
                source, f"player {name!r} is listed twice", rows, "player", "list each player once"
            )
        )
    if problems:
        raise InvalidData(problems)
    if "registered" in columns:
        registered = raw[columns["registered"]].astype("str")
        position = registered.rank(method="first").astype("int64").to_numpy()
    else:
        position = np.arange(1, len(raw) + 1)
    return pd.DataFrame(
        {
            "player": player,
            "withdrawn": status.isin(WITHDRAWN).to_numpy(),
            "registered": position,
        }
    )


def field_order(standings_order: Sequence[object], players: pd.DataFrame | None) -> list[str]:
    """Who plays next, in seating order: ranked players, then late entries.

    Withdrawn players are dropped; players in the file without results join below
    everyone with results, in registration order.
    """
    ranked = [str(p) for p in standings_order]
    if players is None:
        return ranked
    withdrawn = set(players.loc[players["withdrawn"], "player"])
    have_results = set(ranked)
    late = players[~players["withdrawn"] & ~players["player"].isin(have_results)]
    late = late.sort_values(["registered", "player"])
    return [p for p in ranked if p not in withdrawn] + list(late["player"])


def seat_next_round(
    results: Results | pd.DataFrame | None,
    rules: Rules | None = None,
    *,
    players: pd.DataFrame | None = None,
    table_size: int = 4,
    order: Order = "snake",
    fill: Fill = "robot",
    seed: int | None = None,
) -> pd.DataFrame:
    """The seating of the round after the last one in `results` (round 1 when None).

    Later rounds follow the full standings order (ties still unresolved go by player
    id); round 1 is a random draw from `seed` over the active players of `players`.
    """
    from duplicate.core.scoring import as_results
    from duplicate.core.standings import standings

    rules = rules or Rules()
    if results is None:
        if players is None or seed is None:
            raise UsageError("round 1 is drawn at random: give the players file and a seed")
        active = list(players.loc[~players["withdrawn"], "player"])
        return seat_field(random_order(active, seed), table_size, 1, seating_order=order, fill=fill)
    data = as_results(results, rules)
    frame = data.frame[~is_robot(data.frame["player"])]
    table = standings(data, rules)
    next_round = int(data.frame["round"].max()) + 1
    sections = sorted(table["section"].unique())
    if players is not None and len(sections) > 1:
        raise UsageError("a players file seats one section; seat each section's results apart")
    parts = []
    for section in sections:
        ranked = table.loc[table["section"] == section, "player"]
        in_section = frame[frame["section"] == section]
        parts.append(
            seat_field(
                field_order(list(ranked), players),
                table_size,
                next_round,
                section=section,
                seating_order=order,
                fill=fill,
                byes_so_far={str(p): n for p, n in byes_from_results(in_section).items()},
            )
        )
    return pd.concat(parts, ignore_index=True)


def seating_problems(results: Results, seating: pd.DataFrame, source: str) -> list[Problem]:
    """Every way a round's results differ from its published seating.

    Compares who sat at which table and seat in each round the seating covers; ids are
    compared as text, so 7 and "7" are the same player.
    """
    needed = {"round", "table", "seat", "player"}
    columns = {str(c).strip().casefold(): c for c in seating.columns}
    missing = sorted(needed - set(columns))
    if missing:
        return [
            Problem(
                source,
                f"missing seating column{'s' if len(missing) > 1 else ''} {', '.join(missing)}",
                hint="write the seating with `duplicate seat`",
            )
        ]
    published = pd.DataFrame(
        {name: seating[columns[name]].astype("str").str.strip() for name in sorted(needed)}
    )
    if "bye" in columns:
        published = published[
            ~seating[columns["bye"]].astype("str").str.casefold().isin(["true", "1"]).to_numpy()
        ]
    if not results.has_table:
        return [
            Problem(
                results.source,
                "has no table column to compare with the seating",
                hint="add the table of every result",
            )
        ]
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
    problems: list[Problem] = []
    for r in merged.to_dict("records"):
        if r["side"] == "left_only":
            problems.append(
                Problem(
                    results.source,
                    f"player {r['player']!r} played round {r['round']} but is not in the seating",
                    (int(r["row"]),),
                    "player",
                    f"check {source}",
                )
            )
        elif r["side"] == "right_only":
            problems.append(
                Problem(
                    results.source,
                    f"player {r['player']!r} was seated at table "
                    f"{r['table_published']} seat {r['seat_published']} in round "
                    f"{r['round']} but has no results",
                    (),
                    "player",
                    "add the missing results or correct the seating",
                )
            )
        elif (r["table"], r["seat"]) != (r["table_published"], r["seat_published"]):
            problems.append(
                Problem(
                    results.source,
                    f"player {r['player']!r} played round "
                    f"{r['round']} at table {r['table']} seat {r['seat']}, but was "
                    f"seated at table {r['table_published']} seat "
                    f"{r['seat_published']}",
                    (int(r["row"]),),
                    "seat",
                    f"check {source}",
                )
            )
    return problems
