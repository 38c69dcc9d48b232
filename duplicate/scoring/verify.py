"""Compare published standings with standings recomputed from the results."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

import pandas as pd

from duplicate.errors import InvalidData, Problem
from duplicate.model.columns import compared
from duplicate.model.exact import fraction_rounded

DIFFERENCE_COLUMNS = ("section", "player", "field", "published", "recomputed")
KEYS = ("section", "player")
# What a published file may call its player column when it has none named player
# (bridge clubs publish pairs), in the order looked for.
PLAYER_ALIASES = ("pair", "pair_id")
_PLAIN_NUMBER = r"[+-]?[0-9]+(?:\.[0-9]*)?"
# Exact values before rounding, by column: (section, player) -> the value.
Exact = dict[str, dict[tuple[str, str], Fraction]]


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


def comparable(frame: pd.DataFrame, fields: list[str]) -> pd.DataFrame:
    """The keys as written, then each field as comparable text and as written."""
    keys = {c: shown(frame[c]) for c in KEYS}
    values = {c: canonical(frame[c]) for c in fields}
    return pd.DataFrame({**keys, **values, **{f"{c} as written": shown(frame[c]) for c in fields}})


def decimals(text: pd.Series) -> pd.Series:
    """How many decimals each plain number is written with (<NA> for other text)."""
    digits = text.str.extract(f"^({_PLAIN_NUMBER})$")[0].str.extract(r"\.([0-9]*)$")[0]
    count = digits.str.len().fillna(0).astype("Int64")
    return count.where(text.str.fullmatch(_PLAIN_NUMBER).fillna(False).astype(bool))


def fewer_decimals(published: pd.Series, recomputed: pd.Series) -> pd.Series:
    """Where a published number has fewer decimals than the recomputed one."""
    mine, ours = decimals(published), decimals(recomputed)
    return (mine.notna() & ours.notna() & (mine < ours)).fillna(False).astype(bool)


def agrees_as_published(
    published: str, recomputed: str, exact: Fraction | None, rounding: str
) -> bool:
    """Whether the recomputed value (exact when known), rounded to the published
    number's decimals (an exact half going as `rounding` says), is the published one."""
    places = len(published.partition(".")[2])
    value = exact if exact is not None else Fraction(Decimal(recomputed))
    scale = 10**places
    return bool(Fraction(Decimal(published)) * scale == fraction_rounded(value * scale, rounding))


@dataclass(frozen=True)
class Comparison:
    """What differs between published and recomputed standings, and the columns some
    published number was compared in at fewer decimals ("percentage compared at 1
    decimal, as published")."""

    differences: pd.DataFrame
    fewer_decimals: tuple[str, ...]


def compare(
    published: pd.DataFrame,
    recomputed: pd.DataFrame,
    exact: Exact | None = None,
    percentage_rounding: str = "half-up",
) -> Comparison:
    """The differences: one row per field that differs, section, player, field,
    published, recomputed.

    Only the columns the published table has are compared (not_compared names the
    others). Players are matched by (section, player), their ids compared as written; a player
    published twice, missing or extra is a difference. Rows come by player, then field
    order; values are shown as written. A number published with fewer decimals than the
    recomputed one is compared at its own: the recomputed value (`exact`, by column and
    player, when given) rounded to them, half-up (a percentage as `percentage_rounding`
    says).
    """
    published = published.rename(columns=compared)
    if "section" not in published.columns:
        published = published.assign(section="")
    missing = not_compared(published, recomputed)
    fields = [str(c) for c in recomputed.columns if c not in KEYS and c not in missing]

    mine = comparable(published, fields)
    repeated = mine[mine.duplicated(list(KEYS), keep=False)]
    counts = repeated.groupby(list(KEYS), sort=False).size().reset_index(name="rows")
    both = mine.drop_duplicates(list(KEYS)).merge(
        comparable(recomputed, fields),
        on=list(KEYS),
        how="outer",
        suffixes=("", "_new"),
        indicator=True,
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
    said = []
    for position, field in enumerate(fields):
        differ = matched[matched[field] != matched[f"{field}_new"]]
        written = f"{field} as written"
        coarser = differ[fewer_decimals(differ[written], differ[f"{written}_new"]).to_numpy()]
        if len(coarser):
            said.append(_compared_at(field, coarser[written]))
            values = (exact or {}).get(field, {})
            rounding = percentage_rounding if field == "percentage" else "half-up"
            agree = [
                agrees_as_published(mine, ours, values.get((section, player)), rounding)
                for mine, ours, section, player in zip(
                    coarser[written],
                    coarser[f"{written}_new"],
                    coarser["section"],
                    coarser["player"],
                    strict=True,
                )
            ]
            differ = differ.drop(index=coarser.index[agree])
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
    return Comparison(found[list(DIFFERENCE_COLUMNS)].astype("str"), tuple(said))


def _compared_at(field: str, coarser: pd.Series) -> str:
    """How a column's coarser published numbers were compared: at their decimals."""
    places = sorted({int(n) for n in decimals(coarser)})
    unit = "decimal" if places == [1] else "decimals"
    return f"{field} compared at {' or '.join(str(n) for n in places)} {unit}, as published"


def not_compared(published: pd.DataFrame, recomputed: pd.DataFrame) -> list[str]:
    """The standings' columns a published table does not have (a published file may
    show only some: place, player, total); they are not compared."""
    have = {compared(c) for c in published.columns} | {"section"}
    return [str(c) for c in recomputed.columns if str(c) not in have]


def with_player_column(published: pd.DataFrame) -> pd.DataFrame:
    """The published table with its `pair` (or `pair_id`) column read as the player
    column, when it has no player column."""
    headers = {compared(c): c for c in published.columns}
    if "player" in headers:
        return published
    alias = next((headers[a] for a in PLAYER_ALIASES if a in headers), None)
    return published if alias is None else published.rename(columns={alias: "player"})


def require_players(published: pd.DataFrame, published_name: str) -> None:
    """InvalidData unless the published table has a player column."""
    if "player" not in published.rename(columns=compared).columns:
        raise InvalidData(
            [
                Problem(
                    published_name,
                    "has no player column (nor pair)",
                    hint="give a file written by standings",
                    code="published.no-player",
                )
            ]
        )
