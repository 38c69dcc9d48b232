"""`score`: every result's matchpoints, MP%, deal rank and rank points."""

from __future__ import annotations

from typing import Any

from duplicate.actions.common import event_of
from duplicate.output import Table, with_names
from duplicate.rules import Rules


def score(
    source: Any, rules: Rules | None = None, adjustments: Any = None, **settings: Any
) -> Table:
    """One row per result: section, round, deal, table, seat, player (and name, when
    the players file gives names), score, seconds, n, mp, top, mp_pct, deal_rank,
    rank_points, adjustment; in a canonical order, whatever the input's.

    `source`: anything duplicate.load_event takes (a results file, an event folder, a
    bridge session, an Event ...); `settings`: its settings by keyword.

        >>> import duplicate
        >>> table = duplicate.score("sample_data/spec_example.csv")
        >>> table.frame[["player", "mp", "deal_rank", "rank_points"]].head(3)  # doctest: +SKIP
    """
    from duplicate.scoring.methods import score_batches

    event = event_of(source, rules, adjustments=adjustments, **settings)
    results = event.needs_results("score")
    batches = score_batches(results, event.rules, event.adjustments)
    return Table("scores", event.rules, with_names(batches, event.players), event=event)
