"""Ordering stage standings: criteria in turn, the equal-result rule (docs/scoring.md 8.5),
shared places, and what decided each place."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cmp_to_key
from typing import Any


@dataclass(frozen=True)
class Criterion:
    """A name (what `decided_by` says) and a key: smaller goes first."""

    name: str
    key: Callable[[Any], Any]


def order_rows(
    rows: Sequence[Any], criteria: list[Criterion], by_id: Callable[[Any], Any]
) -> tuple[list[Any], list[int], list[str]]:
    """`rows` in order, each one's place and `decided_by` (the first criterion telling it
    from the row above; `tied` when none does: it shares that row's place, and ties are
    listed by `by_id`).

    Stages hold hundreds or thousands of players: a comparison sort in Python is fine.
    """

    def compare(a: Any, b: Any) -> int:
        for criterion in criteria:
            ka, kb = criterion.key(a), criterion.key(b)
            if ka != kb:
                return -1 if ka < kb else 1
        ia, ib = by_id(a), by_id(b)
        return -1 if ia < ib else (1 if ia > ib else 0)

    ordered = sorted(rows, key=cmp_to_key(compare))
    places: list[int] = []
    decided: list[str] = []
    for i, row in enumerate(ordered):
        if i == 0:
            places.append(1)
            decided.append("")
            continue
        above = ordered[i - 1]
        by = next((c.name for c in criteria if c.key(row) != c.key(above)), "tied")
        decided.append(by)
        places.append(places[-1] if by == "tied" else i + 1)
    return ordered, places, decided
