"""The input columns of docs/scoring.md section 1 and the names they may arrive under."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

REQUIRED = ("deal", "seat", "player", "score")
# A file of raw outcomes (cards left, bids, huxi, ...) from which game scores are computed.
RAW_REQUIRED = ("deal", "table", "seat", "player")
OPTIONAL = ("round", "table", "seconds", "section")
KNOWN = ("section", "round", "deal", "table", "seat", "player", "score", "seconds")

# Header spellings accepted for each column, compared after trimming and case-folding.
ALIASES: dict[str, tuple[str, ...]] = {
    "round": ("round", "轮次", "轮", "輪次"),
    "deal": ("deal", "board", "牌副", "副", "牌号"),
    "table": ("table", "桌号", "桌號", "桌"),
    "seat": ("seat", "方位", "座位"),
    "player": ("player", "牌手", "选手", "選手"),
    "score": ("score", "得分"),
    "seconds": ("seconds", "出牌用时", "出牌用時", "用时"),
    "section": ("section", "组", "組", "分组"),
}

_LOOKUP = {alias.casefold(): name for name, aliases in ALIASES.items() for alias in aliases}

# What a bridge session says of the play at each table, as the file writes it (text):
# the table the board was played at (as the file numbers its tables: pairs of a
# Mitchell move between them within a session, so it is no seating), the contract, the
# declarer, the opening lead and the result (tricks, or +/- the contract). Kept from the
# results to the end of `score`'s table, in this order; never used in a number.
PLAY_COLUMNS = ("at_table", "contract", "declarer", "lead", "result")

# What `score` adds to each result: a scored table read again is not misspelled.
COMPUTED = (
    *("n", "mp", "top", "mp_pct", "deal_rank", "rank_points", "adjustment", "sp"),
    *("comparisons", "datum", "difference", "imps"),
)


def compared(header: object) -> str:
    """A header cell as headers are compared: trimmed, no byte-order mark, case-folded."""
    return str(header).strip().lstrip("\ufeff").casefold()


def canonical_name(header: str) -> str | None:
    """The spec's column name for a header cell, or None for a column we do not use."""
    return _LOOKUP.get(compared(header))


def header_map(frame: pd.DataFrame) -> dict[str, Hashable]:
    """Each header as compared (see `compared`) -> the column's label in `frame`."""
    return {compared(label): label for label in frame.columns}


# Columns a scorer keeps beside the data (remarks): read past without a word.
NOTE_COLUMNS = ("note", "notes", "remark", "remarks", "comment", "comments", "备注", "備註", "说明")
# Common names that are not ours, and the column they most likely mean: no spelling is
# close to them, so the closest match cannot find it.
SYNONYMS = {"王炸": "火箭", "双王": "火箭", "名次": "place", "姓名": "player", "分数": "score"}


def is_note(header: object) -> bool:
    return compared(header) in {n.casefold() for n in NOTE_COLUMNS}


def closest_match(header: object, known: list[str]) -> str | None:
    """The name in `known` that `header` (a column, a player) most likely means, or None."""
    import difflib

    text = compared(header)
    if text in SYNONYMS and SYNONYMS[text] in known:
        return SYNONYMS[text]
    by_fold = {name.casefold(): name for name in known}
    found = difflib.get_close_matches(text, list(by_fold), n=1, cutoff=0.6)
    return by_fold[found[0]] if found else None


def unused_columns(frame: pd.DataFrame, also: tuple[str, ...] = ()) -> list[str]:
    """Headers of `frame` that name no column of the results (nor `also`), notes aside."""
    return unused_headers(list(frame.columns), also)


def unused_headers(labels: list[Hashable], also: tuple[str, ...] = ()) -> list[str]:
    """The headers among `labels` that name no column of the results (nor `also`),
    notes aside."""
    from duplicate.games.registry import GAMES

    raw = [a for game in GAMES for names in game.raw_columns.values() for a in names]
    known = set(_LOOKUP) | {a.casefold() for a in (*also, *raw, *COMPUTED, *PLAY_COLUMNS)}
    return [
        str(label)
        for label in labels
        if compared(label) not in known and not is_note(label) and str(label).strip()
    ]


def every_alias() -> list[str]:
    """Every header spelling of the results' columns."""
    return [alias for aliases in ALIASES.values() for alias in aliases]
