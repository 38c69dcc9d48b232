"""The scoring a session file declares (PBN's `[Scoring "..."]` tag, USEBIO's
`BOARD_SCORING_METHOD` (1.2) or the event's `EVENT_TYPE` (1.0), as the readers find
them), mapped to the toolkit's method in one place.

    >>> scoring_method("IMP;Cross"), scoring_method("BUTLER_IMPS"), scoring_method("MP")
    ('cross-imps', 'butler', 'percentage')
"""

from __future__ import annotations

import re

from duplicate.options import Method

# What names a scoring, once a declared text is cut into words (upper case).
_CROSS = {"CROSS", "XIMP", "XIMPS", "CROSSIMP", "CROSSIMPS"}
_BUTLER = {"BUTLER", "BUTLERIMP", "BUTLERIMPS"}
_MATCHPOINTS = {"MP", "MPS", "MP1", "MP2", "OLDMP", "MATCHPOINTS", "MATCH", "MATCHPOINT"}
_WORDS = re.compile(r"[;,_\s/-]+")


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
