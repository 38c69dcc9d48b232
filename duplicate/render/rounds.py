"""Round by round, for the report: who met whom (the crosstable), each round's result,
the total and place after it. Computed from the report's data; no text, no HTML."""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal

import pandas as pd

from duplicate.games.words import by_direction
from duplicate.render.data import ReportData
from duplicate.text import natural

# The direction a two-winner session's section name ends in.
DIRECTION = r"\s*\b(NS|EW)$"
ROUND_COLUMNS = ("section", "player", "round", "table", "opponents", "result", "total", "place")


def is_bridge(scores: pd.DataFrame) -> bool:
    """Whether the results are a bridge pairs session's: every seat NS or EW."""
    return by_direction(scores["seat"].unique())


def field_section(sections: pd.Series, bridge: bool) -> pd.Series:
    """The section players sit in: a two-winner bridge session ranks its North-South
    and East-West pairs apart (section "A NS", "A EW"), but they share tables and
    boards (section "A")."""
    text = sections.astype(str)
    if not bridge:
        return text
    return text.str.replace(DIRECTION, "", regex=True)


def field_section_of(section: str, bridge: bool) -> str:
    """`field_section` of one section."""
    return re.sub(DIRECTION, "", section) if bridge else section


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


def headline(columns: pd.Index) -> str:
    """The standings column a place is decided on: the total (rank points), the IMPs,
    or the percentage."""
    for name in ("total", "imps", "percentage"):
        if name in columns:
            return name
    raise KeyError("standings with no total, IMPs or percentage")


def round_results(data: ReportData) -> pd.DataFrame:
    """Each player's result in each round, with the total and place after it. The
    round's result is the total (or percentage) of the standings of that round alone
    where deals are compared within their round; else what its deals earned in the
    event's scoring: the sum of their rank points (penalties aside), or under
    percentage standings their MP over their top. Columns ROUND_COLUMNS; `table` and
    `opponents` are missing where the results do not name tables; a round a player sat
    out has no line."""
    frames = []
    for rnd, table in sorted(data.after_round.items()):
        frame = table[["section", "player"]].astype(str).copy()
        frame["round"] = rnd
        frame["place"] = table["place"].to_numpy()
        frame["total"] = table[headline(table.columns)].to_numpy()
        frames.append(frame)
    standings = pd.concat(frames, ignore_index=True)
    by = headline(data.standings.columns)
    if data.round_alone:
        result = pd.concat(
            [
                pd.DataFrame(
                    {
                        "section": table["section"].astype(str),
                        "player": table["player"].astype(str),
                        "round": rnd,
                        "result": table[by],
                    }
                )
                for rnd, table in sorted(data.round_alone.items())
            ],
            ignore_index=True,
        )
    else:
        result = earned(data.scores, by)
    rounds = result.merge(standings, on=["section", "player", "round"], how="left")
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


def earned(scores: pd.DataFrame, by: str) -> pd.DataFrame:
    """section, player, round, result: what a player's deals of the round earned, as
    the standings count (`by`): their rank points (total), their IMPs, or their MP
    percentage of the round's top, exact to 0.01."""
    keys = pd.DataFrame(
        {
            "section": scores["section"].astype(str),
            "player": scores["player"].astype(str),
            "round": scores["round"].astype("int64"),
        }
    )
    summed_column = {"total": "rank_points", "imps": "imps"}.get(by)
    columns = [summed_column] if summed_column else ["mp", "top"]
    # Decimal (or integer) values, summed exactly; a void result adds nothing.
    values = {c: _exact(scores[c]) for c in columns}
    summed = keys.assign(**values).groupby(["section", "player", "round"], sort=True)
    if summed_column:
        out = summed[summed_column].sum()
    else:
        total = summed.sum()
        out = pd.Series(
            [
                (Decimal(100) * m / t).quantize(Decimal("0.01"), ROUND_HALF_UP) if t else None
                for m, t in zip(total["mp"], total["top"], strict=True)
            ],
            index=total.index,
            dtype=object,
        )
    return out.rename("result").reset_index()


def _exact(column: pd.Series) -> pd.Series:
    """A numeric column as Python Decimals, missing values 0."""
    return pd.Series(
        [Decimal(0) if v is None or v is pd.NA else Decimal(v) for v in column.astype(object)],
        index=column.index,
        dtype=object,
    )


def _natural(column: pd.Series) -> pd.Series:
    return column.astype(str).map(natural)
