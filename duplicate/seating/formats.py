"""Event formats beyond individual Swiss: pairs (人人赛) and human versus robots (人机赛).

Pairs: two partners sit opposite each other (seats 0 and 2, or 1 and 3) and move as one
unit. A unit ranks by its better-placed member, then the other; units fill tables two
at a time in the same snake (or straight) order as players do, and the same search
keeps units apart whose members have met. Robot units (two robots) complete a table.

Human versus robots: every player sits in the same seat, alone with robots.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from duplicate.errors import InvalidData, Problem, UsageError
from duplicate.model.columns import header_map
from duplicate.model.robots import ROBOT_PREFIX
from duplicate.seating.swiss import (
    SEATING_COLUMNS,
    Fill,
    History,
    Order,
    SeatingReport,
    check_seating,
    seat_field,
)

PAIR_SEATS = 4
UNIT_SEPARATOR = " & "


def parse_partners(raw: pd.DataFrame, source: str = "<partners>") -> dict[str, str]:
    """player -> partner, both ways, from a file with columns player, partner."""
    columns = header_map(raw)
    for alias, name in (("牌手", "player"), ("搭档", "partner"), ("同伴", "partner")):
        if alias in columns:
            columns.setdefault(name, columns[alias])
    if not {"player", "partner"} <= set(columns):
        raise InvalidData(
            [
                Problem(
                    source,
                    "needs the columns player and partner",
                    hint="one row per pair",
                    code="column.missing",
                )
            ]
        )
    raw = raw.reset_index(drop=True)
    player = raw[columns["player"]].astype("str").str.strip()
    partner = raw[columns["partner"]].astype("str").str.strip()
    problems = [
        Problem(
            source,
            "empty",
            (int(i) + 2,),
            name,
            "every row names a player and a partner",
            code="cell.empty",
        )
        for name, values in (("player", player), ("partner", partner))
        for i in np.flatnonzero((values == "").to_numpy())
    ]
    problems += [
        Problem(
            source,
            f"{player[i]!r} is their own partner",
            (int(i) + 2,),
            "partner",
            code="partners.own-partner",
        )
        for i in np.flatnonzero((player == partner).to_numpy() & (player != "").to_numpy())
    ]
    pairs = pd.concat(
        [
            pd.DataFrame({"a": player, "b": partner, "row": np.arange(len(raw)) + 2}),
            pd.DataFrame({"a": partner, "b": player, "row": np.arange(len(raw)) + 2}),
        ]
    )
    pairs = pairs[(pairs["a"] != "") & (pairs["b"] != "")].drop_duplicates(["a", "b"])
    for who, group in pairs.groupby("a"):
        if len(group) > 1:
            problems.append(
                Problem(
                    source,
                    f"{who!r} has partners {', '.join(repr(b) for b in sorted(group['b']))}",
                    tuple(sorted(int(r) for r in group["row"])),
                    "partner",
                    "each player has one partner",
                    code="partners.several",
                )
            )
    if problems:
        raise InvalidData(problems)
    return dict(zip(pairs["a"], pairs["b"], strict=True))


def partner_units(field: list[str], partners: dict[str, str]) -> pd.DataFrame:
    """Units in seating order: columns first (the better-placed member) and second."""
    frame = pd.DataFrame({"player": field, "position": np.arange(len(field))})
    frame["partner"] = frame["player"].map(partners)
    missing = frame["partner"].isna()
    if missing.any():
        names = ", ".join(repr(p) for p in frame.loc[missing, "player"])
        raise UsageError(
            f"no partner listed for {names}; add them to the partners file", "partners.missing"
        )
    position = dict(zip(field, range(len(field)), strict=True))
    frame["partner_position"] = frame["partner"].map(position)
    absent = frame["partner_position"].isna()
    if absent.any():
        names = ", ".join(
            f"{p!r} (partner of {q!r})"
            for p, q in zip(frame.loc[absent, "partner"], frame.loc[absent, "player"], strict=True)
        )
        raise UsageError(
            f"not in this round's field: {names}; seat both partners or neither",
            "partners.half-seated",
        )
    leads = frame[frame["position"] < frame["partner_position"]]
    return pd.DataFrame(
        {"first": leads["player"].to_numpy(), "second": leads["partner"].to_numpy()}
    )


def seat_partners(
    field: list[str],
    partners: dict[str, str],
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
    """Seat partnerships opposite each other, two units a table (a unit is new when
    both partners are)."""
    units = partner_units(field, partners)
    labels = (units["first"] + UNIT_SEPARATOR + units["second"]).tolist()
    unit_of = {
        **dict(zip(units["first"], labels, strict=True)),
        **dict(zip(units["second"], labels, strict=True)),
    }
    unit_history = None
    if history is not None:
        a, b = history.met["a"].map(unit_of), history.met["b"].map(unit_of)
        known = a.notna() & b.notna() & (a != b)
        unit_history = History(
            met=pd.DataFrame({"a": a[known], "b": b[known]}),
            seats=pd.DataFrame({"player": [], "seat": [], "count": []}),
        )
    unit_byes: dict[object, int] = {
        unit_of[p]: n for p, n in (byes_so_far or {}).items() if str(p) in unit_of
    }
    seated, report = seat_field(
        labels,
        PAIR_SEATS // 2,
        round_no,
        section=section,
        seating_order=seating_order,
        fill=fill,
        byes_so_far=unit_byes,
        history=unit_history,
        avoid_repeats=avoid_repeats,
        window=window,
        newcomers=frozenset(
            label
            for first, second, label in zip(units["first"], units["second"], labels, strict=True)
            if first in newcomers and second in newcomers
        ),
    )
    members = _members(seated["player"].astype(str))
    rows = []
    for half, seat_shift in ((0, 0), (1, PAIR_SEATS // 2)):
        part = seated.copy()
        part["player"] = members[half]
        part["seat"] = part["seat"] + seat_shift
        rows.append(part)
    out = pd.concat(rows, ignore_index=True).sort_values(
        ["bye", "table", "seat"], kind="stable", ignore_index=True
    )
    check_seating(out, field, PAIR_SEATS, robots_apart=False)
    # The report counted units; a robot unit is two robots.
    return out[list(SEATING_COLUMNS)], replace(report, robots=2 * report.robots)


def _members(labels: pd.Series) -> tuple[pd.Series, pd.Series]:
    """The two members of each unit label; robot unit robot-j is robots 2j-1 and 2j."""
    robot = labels.str.startswith(ROBOT_PREFIX)
    number = pd.to_numeric(labels.where(robot).str.removeprefix(ROBOT_PREFIX), errors="coerce")
    split = labels.str.split(UNIT_SEPARATOR, n=1, regex=False)
    first = split.str[0].where(~robot, ROBOT_PREFIX + (2 * number - 1).astype("Int64").astype(str))
    second = split.str[1].where(~robot, ROBOT_PREFIX + (2 * number).astype("Int64").astype(str))
    return first, second


def seat_versus_robots(
    field: list[str], k: int, round_no: int, *, section: str = "", seat: int = 0
) -> tuple[pd.DataFrame, SeatingReport]:
    """Every player at a table of their own, in `seat`, with robots in the others."""
    if not 0 <= seat < k:
        raise UsageError(
            f"the players' seat must be 0 to {k - 1}, not {seat}", "seating.robot-seat"
        )
    n = len(field)
    table = np.repeat(np.arange(1, n + 1), k)
    seats = np.tile(np.arange(k), n)
    human = seats == seat
    player = np.empty(n * k, dtype=object)
    player[human] = field
    player[~human] = (
        ROBOT_PREFIX + pd.Series(np.arange(1, n * (k - 1) + 1)).astype(str)
    ).to_numpy()
    out = pd.DataFrame(
        {
            "section": section,
            "round": round_no,
            "table": pd.array(table, dtype="Int64"),
            "seat": pd.array(seats, dtype="Int64"),
            "player": player,
            "bye": False,
        }
    )
    check_seating(out, field, k, robots_apart=False)
    report = SeatingReport(section, round_no, n, 0, n * (k - 1), 0, 0, 0, 0)
    return out[list(SEATING_COLUMNS)], report
