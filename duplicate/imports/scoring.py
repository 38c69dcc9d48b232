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
# Scorings of pairs that are neither matchpoints nor IMPs, by the words that name them:
# what the file is, said when it is refused (checked first: BOARD-A-MATCH holds MATCH).
_OTHERS = (
    ({"AGGREGATE", "TOTAL", "TOTALPOINTS"}, "aggregate (total points)"),
    ({"BAM", "BOARDAMATCH"}, "board-a-match"),
    ({"RUBBER", "CHICAGO"}, "rubber bridge"),
)


def _words(declared: str) -> set[str]:
    return {w for w in _WORDS.split(declared.strip().upper()) if w}


def other_scoring(declared: str) -> str | None:
    """What a declared scoring is when the toolkit has no method for it (aggregate,
    board-a-match, rubber), or None.

    >>> other_scoring("AGGREGATE"), other_scoring("Board-a-match"), other_scoring("MP")
    ('aggregate (total points)', 'board-a-match', None)
    """
    words = _words(declared)
    if {"BOARD", "A", "MATCH"} <= words:
        words.add("BAM")
    for names, what in _OTHERS:
        if words & names:
            return what
    return None


def scoring_method(declared: str) -> Method | None:
    """The method for a scoring as a file declares it: "percentage" for matchpoints
    (bridge clubs rank by the mean MP%), "cross-imps", "butler"; None for any other
    (teams IMPs, board-a-match, aggregate, rubber, or a text it does not know)."""
    if other_scoring(declared) is not None:
        return None
    words = _words(declared)
    if words & _CROSS:
        return "cross-imps"
    if words & _BUTLER:
        return "butler"
    if words & _MATCHPOINTS:
        return "percentage"
    return None


def imps_unsaid(declared: str) -> bool:
    """Whether a declared scoring is IMPs without saying how (cross-IMPs or Butler):
    such a session is scored as cross-IMPs, as most programs score IMP pairs."""
    words = _words(declared)
    return any(w.startswith("IMP") for w in words) and scoring_method(declared) is None
