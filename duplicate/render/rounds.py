"""Round by round, for the report: who met whom (the crosstable), each round's result,
the total and place after it. Computed from the report's data; no text, no HTML."""

from __future__ import annotations

from decimal import Decimal

import pandas as pd

from duplicate.render.data import ReportData

BRIDGE_SEATS = frozenset({"NS", "EW", "N", "E", "S", "W"})
ROUND_COLUMNS = ("section", "player", "round", "table", "opponents", "result", "total", "place")


def is_bridge(scores: pd.DataFrame) -> bool:
    """Whether the results are a bridge session's: every seat a direction."""
    seats = set(scores["seat"].astype(str).unique())
    return bool(seats) and seats <= BRIDGE_SEATS


def field_section(sections: pd.Series, bridge: bool) -> pd.Series:
    """The section players sit in: a two-winner bridge session ranks its North-South
    and East-West pairs apart (section "A NS", "A EW"), but they share tables and
    boards (section "A")."""
    text = sections.astype(str)
    if not bridge:
        return text
    return text.str.replace(r"\s*\b(NS|EW)$", "", regex=True)


def has_tables(scores: pd.DataFrame) -> bool:
    """Whether every result says at which table it was played."""
    return "table" in scores.columns and bool(scores["table"].notna().all()) and len(scores) > 0


def meetings(scores: pd.DataFrame, bridge: bool) -> pd.DataFrame:
    """section, player, round, table, opponents: whom each player met at their table in
    each round (a list of (section, player), sorted), for results that name their table."""
    seated = pd.DataFrame(
        {
            "section": scores["section"].astype(str),
            "where": field_section(scores["section"], bridge),
            "player": scores["player"].astype(str),
            "round": scores["round"].astype("int64"),
            "table": scores["table"].astype(str),
        }
    ).drop_duplicates()
    at = ["where", "round", "table"]
    pairs = seated.merge(seated[[*at, "section", "player"]], on=at, suffixes=("", "_other"))
    pairs = pairs[
        (pairs["player"] != pairs["player_other"]) | (pairs["section"] != pairs["section_other"])
    ]
    others = list(zip(pairs["section_other"], pairs["player_other"], strict=True))
    pairs = pairs.assign(other=pd.Series(others, index=pairs.index, dtype=object))
    opponents = (
        pairs.sort_values("player_other", key=_natural)
        .groupby(["section", "player", "round", "table"], sort=False)["other"]
        .agg(list)
        .rename("opponents")
        .reset_index()
    )
    return seated.drop(columns="where").merge(
        opponents, on=["section", "player", "round", "table"], how="left"
    )


def round_results(data: ReportData) -> pd.DataFrame:
    """Each player's result in each round, with the total and place after it: the
    difference of the standings' totals (their percentage: the MP and top of the
    round) between one round and the one before. Columns ROUND_COLUMNS; `table` and
    `opponents` are missing where the results do not name tables."""
    frames = []
    for rnd, table in sorted(data.after_round.items()):
        frame = table[["section", "player"]].astype(str).copy()
        frame["round"] = rnd
        frame["place"] = table["place"].to_numpy()
        if "total" in table.columns:
            frame["total"] = table["total"].to_numpy()
        else:
            frame["total"] = table["percentage"].to_numpy()
            frame["mp"] = table["mp"].to_numpy()
            frame["top"] = table["top"].to_numpy()
        frames.append(frame)
    rounds = pd.concat(frames, ignore_index=True).sort_values(["section", "player", "round"])
    if "mp" in rounds.columns:
        # The round's percentage: its matchpoints over its top.
        keys = rounds.groupby(["section", "player"], sort=False)
        gained = rounds["mp"] - keys["mp"].shift(fill_value=0)
        top = rounds["top"] - keys["top"].shift(fill_value=0)
        rounds["result"] = pd.Series(
            [
                (Decimal(int(m) * 100) / Decimal(int(t))).quantize(Decimal("0.01")) if t else None
                for m, t in zip(gained, top, strict=True)
            ],
            index=rounds.index,
            dtype=object,
        )
        rounds = rounds.drop(columns=["mp", "top"])
    else:
        totals = rounds["total"].astype(object)
        before = totals.groupby([rounds["section"], rounds["player"]], sort=False).shift()
        rounds["result"] = [
            t if b is None or b != b else t - b for t, b in zip(totals, before, strict=True)
        ]
    # A player without a result in a round (they sat out) has no result there.
    played = data.scores[["section", "player", "round"]].astype(
        {"section": str, "player": str, "round": "int64"}
    )
    rounds = rounds.merge(played.drop_duplicates(), on=["section", "player", "round"])
    if has_tables(data.scores):
        rounds = rounds.merge(
            meetings(data.scores, is_bridge(data.scores)),
            on=["section", "player", "round"],
            how="left",
        )
    else:
        rounds["table"] = None
        rounds["opponents"] = None
    return rounds[list(ROUND_COLUMNS)].reset_index(drop=True)


def _natural(column: pd.Series) -> pd.Series:
    """Ids sort as numbers where they are numbers (2 before 10)."""
    return column.astype(str).str.zfill(12)
