"""`standings`: the final order with every tie-break."""

from __future__ import annotations

from typing import Any

from duplicate.actions.common import event_of
from duplicate.output import Table, with_names
from duplicate.rules import Rules


def standings(
    source: Any, rules: Rules | None = None, adjustments: Any = None, **settings: Any
) -> Table:
    """One row per player in final order: section, place, player (and name), total,
    penalty, deals, beaten_avg, rank_counts, total_seconds, trimmed_seconds, decided_by,
    playoff (by percentage: section, place, player, percentage, mp, top, deals).

        >>> import duplicate
        >>> duplicate.standings("sample_data/spec_example.csv").frame  # doctest: +SKIP
    """
    from duplicate.scoring.methods import standings_batches, standings_frame

    event = event_of(source, rules, adjustments=adjustments, **settings)
    results = event.needs_results("standings")
    table = standings_batches(results, event.rules, event.adjustments).to_table()
    return Table(
        "standings",
        event.rules,
        with_names(table, event.players),
        event=event,
        viewed_as=standings_frame,
    )
