"""The scoring a session file declares, mapped to the toolkit's method in one place:
PBN's `[Scoring "..."]` tag, USEBIO's `BOARD_SCORING_METHOD` (1.2) or the event's
`EVENT_TYPE` (1.0).

    >>> scoring_method("IMP;Cross"), scoring_method("BUTLER_IMPS"), scoring_method("MP")
    ('cross-imps', 'butler', 'percentage')
"""

from __future__ import annotations

import re
from typing import Literal

from duplicate.options import Method

# What names a scoring, once a declared text is cut into words (upper case).
_CROSS = {"CROSS", "XIMP", "XIMPS", "CROSSIMP", "CROSSIMPS"}
_BUTLER = {"BUTLER", "BUTLERIMP", "BUTLERIMPS"}
_MATCHPOINTS = {"MP", "MPS", "MP1", "MP2", "OLDMP", "MATCHPOINTS", "MATCH", "MATCHPOINT"}
_WORDS = re.compile(r"[;,_\s/-]+")

# Where a file declares its scoring.
_PBN_SCORING = re.compile(rb'^\s*\[\s*Scoring\s+"([^"]*)"\s*\]', re.MULTILINE)
_USEBIO_METHOD = re.compile(rb"<BOARD_SCORING_METHOD>\s*([A-Za-z_ ]*?)\s*</BOARD_SCORING_METHOD>")
_USEBIO_EVENT = re.compile(rb"<EVENT\b[^>]*\bEVENT_TYPE\s*=\s*[\"']([A-Za-z_ ]*)[\"']")


def scoring_method(declared: str) -> Method | None:
    """The method for a scoring as a file declares it: "percentage" for matchpoints
    (bridge clubs rank by the mean MP%), "cross-imps", "butler"; None for any other
    (teams IMPs, board-a-match, aggregate, rubber, or a text it does not know)."""
    words = {w for w in _WORDS.split(declared.strip().upper()) if w}
    if words & _CROSS:
        return "cross-imps"
    if words & _BUTLER:
        return "butler"
    if words & _MATCHPOINTS:
        return "percentage"
    return None


def declared_scoring(data: bytes, fmt: Literal["pbn", "usebio"]) -> str | None:
    """The scoring text a session file declares, if it declares one: PBN's first
    `[Scoring]` tag; USEBIO's BOARD_SCORING_METHOD, else the event's EVENT_TYPE."""
    if fmt == "pbn":
        found = _PBN_SCORING.search(data)
    else:
        found = _USEBIO_METHOD.search(data) or _USEBIO_EVENT.search(data)
    return found.group(1).decode("latin-1") if found else None


def session_method(data: bytes, fmt: Literal["pbn", "usebio"]) -> Method:
    """The method a session is scored by: the one it declares, matchpoint percentages
    when it declares none the toolkit scores."""
    return scoring_method(declared_scoring(data, fmt) or "") or "percentage"
