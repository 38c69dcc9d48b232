"""Compare published standings with standings recomputed from the results."""

from __future__ import annotations

import pandas as pd

from duplicate.errors import InvalidData, Problem
from duplicate.model.columns import compared

DIFFERENCE_COLUMNS = ("section", "player", "field", "published", "recomputed")
KEYS = ("section", "player")
_PLAIN_NUMBER = r"[+-]?[0-9]+(?:\.[0-9]*)?"


def shown(column: pd.Series) -> pd.Series:
    """Cells as written: trimmed text, blanks empty, a spreadsheet's apostrophe dropped.

    Identifiers are compared this way, exactly (player 007 is not player 7), and every
    value is shown this way in a difference (29335.70 stays 29335.70).
    """
    text = column.astype("str").where(column.notna(), "").str.strip()
    # A NUL is shown escaped: some pandas versions end a string at it when matching keys.
    text = text.str.replace("\x00", "\\x00", regex=False)
    return text.where(~text.str.match(r"'[=+\-@\t\r]"), text.str.slice(1)).reset_index(drop=True)


def canonical(column: pd.Series) -> pd.Series:
    """Cells as comparable text: numbers by value, booleans and blanks spelled one way.

    Exact and vectorised: a number's text loses its plus sign, leading zeros and trailing
    zeros (25000.00 and 25000.0 both read 25000), never passing through a float. CSV
    written for spreadsheets prefixes risky text with an apostrophe (see io/write.py):
    that apostrophe is dropped.
    """
    text = shown(column)
    folded = text.str.casefold()
    text = text.where(~folded.isin(["true", "false"]), folded)
    text = text.where(~folded.isin(["nan", "<na>", "none"]), "")
    number = (
        text.str.replace(r"^\+", "", regex=True)
        .str.replace(r"^(-?)0+(?=[0-9])", r"\1", regex=True)
        .str.replace(r"(\.[0-9]*?)0+$", r"\1", regex=True)
        .str.replace(r"\.$", "", regex=True)
        .replace("-0", "0")
    )
    return text.where(~text.str.fullmatch(_PLAIN_NUMBER), number)


def differences(published: pd.DataFrame, recomputed: pd.DataFrame) -> pd.DataFrame:
    """One row per field that differs: section, player, field, published, recomputed.

    Only the columns the published table has are compared (not_compared names the
    others). Players are matched by (section, player), their ids compared as written; a player
    published twice, missing or extra is a difference. Rows come by player, then field
    order; values are shown as written.
    """
    published = published.rename(columns=compared)
    if "section" not in published.columns:
        published = published.assign(section="")
    missing = not_compared(published, recomputed)
    fields = [str(c) for c in recomputed.columns if c not in KEYS and c not in missing]

    def comparable(frame: pd.DataFrame) -> pd.DataFrame:
        keys = {c: shown(frame[c]) for c in KEYS}
        values = {c: canonical(frame[c]) for c in fields}
        return pd.DataFrame(
            {**keys, **values, **{f"{c} as written": shown(frame[c]) for c in fields}}
        )

    mine = comparable(published)
    repeated = mine[mine.duplicated(list(KEYS), keep=False)]
    counts = repeated.groupby(list(KEYS), sort=False).size().reset_index(name="rows")
    both = mine.drop_duplicates(list(KEYS)).merge(
        comparable(recomputed), on=list(KEYS), how="outer", suffixes=("", "_new"), indicator=True
    )
    only_published = both[both["_merge"] == "left_only"]
    only_results = both[both["_merge"] == "right_only"]
    pieces = [
        counts[list(KEYS)].assign(
            field="player",
            published=counts["rows"].astype("str") + " rows",
            recomputed="1 row",
            _order=-2,
        ),
        only_results[list(KEYS)].assign(
            field="player", published="(missing)", recomputed=only_results["player"], _order=-1
        ),
        only_published[list(KEYS)].assign(
            field="player",
            published=only_published["player"],
            recomputed="(not in the results)",
            _order=-1,
        ),
    ]
    matched = both[both["_merge"] == "both"]
    for position, field in enumerate(fields):
        differ = matched[matched[field] != matched[f"{field}_new"]]
        pieces.append(
            differ[list(KEYS)].assign(
                field=field,
                published=differ[f"{field} as written"],
                recomputed=differ[f"{field} as written_new"],
                _order=position,
            )
        )
    found = pd.concat(pieces, ignore_index=True)
    found = found.sort_values([*KEYS, "_order"], kind="stable", ignore_index=True)
    return found[list(DIFFERENCE_COLUMNS)].astype("str")


def not_compared(published: pd.DataFrame, recomputed: pd.DataFrame) -> list[str]:
    """The standings' columns a published table does not have (a published file may
    show only some: place, player, total); they are not compared."""
    have = {compared(c) for c in published.columns} | {"section"}
    return [str(c) for c in recomputed.columns if str(c) not in have]


def require_players(published: pd.DataFrame, published_name: str) -> None:
    """InvalidData unless the published table has a player column."""
    if "player" not in published.rename(columns=compared).columns:
        raise InvalidData(
            [
                Problem(
                    published_name,
                    "has no player column",
                    hint="give a file written by standings",
                    code="published.no-player",
                )
            ]
        )
