"""Players files: who is registered, who has withdrawn, and who joins late."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from duplicate.errors import InvalidData, Problem
from duplicate.model.columns import header_map

ACTIVE = {"", "active", "在赛", "正常"}
WITHDRAWN = {"withdrawn", "退赛", "弃权"}


def parse_players(raw: pd.DataFrame, source: str = "<players>") -> pd.DataFrame:
    """A players file: player (required), name, status (active|withdrawn), registered.

    Returns player (text), status and a registration position (file order when the
    file has no `registered` column).
    """
    columns = header_map(raw)
    aliases = {"牌手": "player", "选手": "player", "状态": "status", "报名": "registered"}
    columns.update({aliases[k]: v for k, v in list(columns.items()) if k in aliases})
    if "player" not in columns:
        raise InvalidData(
            [
                Problem(
                    source,
                    "missing required column player",
                    hint="a players file needs player; optional: name, status, registered",
                    code="column.missing",
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
        Problem(
            source,
            f"unknown status {value!r}",
            (i + 2,),
            "status",
            "use active or withdrawn",
            code="players.unknown-status",
        )
        for i, value in enumerate(status)
        if value not in ACTIVE | WITHDRAWN
    ] + [
        Problem(
            source, "empty", (int(i) + 2,), "player", "every row needs a player", code="cell.empty"
        )
        for i in np.flatnonzero((player == "").to_numpy())
    ]
    twice = player.duplicated(keep=False) & (player != "")
    for name in sorted(set(player[twice])):
        rows = tuple(int(i) + 2 for i in np.flatnonzero((player == name).to_numpy()))
        problems.append(
            Problem(
                source,
                f"player {name!r} is listed twice",
                rows,
                "player",
                "list each player once",
                code="players.repeated",
            )
        )
    if problems:
        raise InvalidData(problems)
    if "registered" in columns:
        position = registration_order(raw[columns["registered"]])
    else:
        position = np.arange(1, len(raw) + 1)
    return pd.DataFrame(
        {
            "player": player,
            "withdrawn": status.isin(WITHDRAWN).to_numpy(),
            "registered": position,
        }
    )


def registration_order(registered: pd.Series) -> np.ndarray:
    """Each player's position in the registration order (1 first): by number when
    every entry is a whole number (9 before 10), else by text (ISO dates and times sort
    as written); ties in file order."""
    text = registered.astype("str").str.strip()
    if bool(text.str.fullmatch(r"[0-9]{1,18}").all()):
        keys: pd.Series = text.astype("int64")
    else:
        keys = text
    return np.asarray(keys.rank(method="first").astype("int64").to_numpy())


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


def player_details(raw: pd.DataFrame) -> pd.DataFrame:
    """Each player's name and club as a players file gives them (name or 姓名; club,
    俱乐部 or 单位), as text; empty where the file has none."""
    columns = header_map(raw)
    found = {
        "player": next((columns[k] for k in ("player", "选手", "牌手") if k in columns), None),
        "name": next((columns[k] for k in ("name", "姓名") if k in columns), None),
        "club": next((columns[k] for k in ("club", "俱乐部", "单位") if k in columns), None),
    }
    if found["player"] is None:
        return pd.DataFrame({"player": [], "name": [], "club": []}, dtype="str")
    return pd.DataFrame(
        {
            key: raw[label].fillna("").astype("str").str.strip()
            if label is not None
            else pd.Series([""] * len(raw), dtype="str")
            for key, label in found.items()
        }
    )
