"""The input columns of SCORING.md section 1 and the names they may arrive under."""

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


def compared(header: object) -> str:
    """A header cell as headers are compared: trimmed, no byte-order mark, case-folded."""
    return str(header).strip().lstrip("\ufeff").casefold()


def canonical_name(header: str) -> str | None:
    """The spec's column name for a header cell, or None for a column we do not use."""
    return _LOOKUP.get(compared(header))


def header_map(frame: pd.DataFrame) -> dict[str, Hashable]:
    """Each header as compared (see `compared`) -> the column's label in `frame`."""
    return {compared(label): label for label in frame.columns}
