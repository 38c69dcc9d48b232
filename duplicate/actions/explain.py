"""`explain`: every number behind one player's place, to check with a pencil."""

from __future__ import annotations

from typing import Any

from duplicate.actions.common import event_of
from duplicate.load import player_of
from duplicate.rules import Rules
from duplicate.scoring.explanation import Explanation


def explain(
    source: Any,
    player: str,
    rules: Rules | None = None,
    adjustments: Any = None,
    section: str | None = None,
    **settings: Any,
) -> Explanation:
    """A player's deals, total (or percentage), tie-break values, and what separates
    them from the players just above and below. `player`: their id, or their name when
    the players file gives names.

        >>> import duplicate
        >>> why = duplicate.explain("sample_data/spec_example.csv", "P1")
        >>> why.place, why.total  # doctest: +SKIP
    """
    from duplicate.scoring.explain import explain as derive

    event = event_of(source, rules, adjustments=adjustments, **settings)
    results = event.needs_results("explain")
    found = derive(results, player_of(event, player), event.rules, event.adjustments, section)
    return Explanation.of(found, event)
