"""Big Two (锄大地) game scores: cards left, shown hands and doubles (000_*.txt, appendix 1)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from duplicate.model.exact import IntArray


def card_points(cards_left: IntArray) -> IntArray:
    """n cards left score n (n < 8), 2n (8-9), 3n (10-12), 4n (13).

    The rule text says "8<n<10" for 2n, but its own example scores 8 cards as 16.
    """
    n = np.asarray(cards_left, dtype=np.int64)
    factor = np.select([n < 8, n < 10, n < 13], [1, 2, 3], default=4)
    return np.asarray(n * factor, dtype=np.int64)


def big2_scores(
    table: pd.Series | IntArray,  # any label of the table-deal each row belongs to
    cards_left: IntArray,
    opened: np.ndarray,
    doubled: np.ndarray,
) -> IntArray:
    """Each player's score against every other player at the same table and deal.

    A's score is the sum over the others X of (points_X - points_A) x m_A x m_X, where
    m is 3 for a shown hand times 2 for a double. Expanding the sum gives
    m_A x (sum of points x m - points_A x sum of m), both sums over the whole table,
    so one grouped sum per table replaces the pairwise loop. Scores sum to 0 per table.
    """
    points = card_points(cards_left)
    multiplier = np.where(opened, 3, 1) * np.where(doubled, 2, 1)
    codes, _ = pd.factorize(pd.Series(table))
    tables = int(codes.max()) + 1 if len(codes) else 0
    sum_pm = np.bincount(codes, weights=points * multiplier, minlength=tables)
    sum_m = np.bincount(codes, weights=multiplier, minlength=tables)
    # The weighted bincount sums small integers, exactly, in float64.
    total_pm = sum_pm.astype(np.int64)[codes]
    total_m = sum_m.astype(np.int64)[codes]
    return np.asarray(multiplier * (total_pm - points * total_m), dtype=np.int64)
