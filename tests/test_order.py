"""The standings' two shortcuts: sorting only tied runs, and counting ranks in a table."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duplicate.scoring import player_stats, standings
from duplicate.scoring.final_order import _lexical_order
from tests.golden.regenerate import cases, expected_outputs

CASES = cases()


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(0, 60),
    n_keys=st.integers(1, 6),
    spread=st.integers(1, 4),
)
def test_lexical_order_is_lexsort(seed: int, n: int, n_keys: int, spread: int) -> None:
    rng = np.random.default_rng(seed)
    # Few values per key, so that many rows tie on the first keys; the last key is an
    # id, as in the standings, so the order is total.
    keys = [rng.integers(0, spread, n) for _ in range(n_keys)]
    keys.append(rng.permutation(n))
    expected = np.lexsort(keys[::-1])
    assert np.array_equal(_lexical_order(keys), expected)


def test_float_keys_sort_too() -> None:
    keys = [np.array([0, 0, 0, 1]), np.array([0.5, 0.25, 0.5, 0.0]), np.array([3, 2, 1, 0])]
    assert _lexical_order(keys).tolist() == np.lexsort(keys[::-1]).tolist() == [1, 2, 0, 3]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_rank_counts_by_sorting_pairs_give_the_same_standings(
    case: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both ways of counting each player's deal ranks agree (a table per player, or a sort)."""
    expected = expected_outputs(case)["standings.csv"]
    monkeypatch.setattr(player_stats, "HISTOGRAM_LIMIT", 0)
    assert expected_outputs(case)["standings.csv"] == expected


@settings(max_examples=100, deadline=None)
@given(
    counts=st.lists(
        st.dictionaries(st.integers(1, 9), st.integers(1, 3), min_size=0, max_size=4),
        min_size=1,
        max_size=8,
    )
)
def test_rank_matrix_rows_are_each_players_ranks_best_first(
    counts: list[dict[int, int]],
) -> None:
    """Players with different numbers of ranked deals are padded past the worst rank."""
    pairs = [(p, r, c) for p, ranks in enumerate(counts) for r, c in sorted(ranks.items())]
    player, rank, count = (np.array([t[i] for t in pairs], dtype=np.int64) for i in range(3))
    matrix = standings._rank_rows(player, rank, count, len(counts))
    text = standings._rank_text(player, rank, count, len(counts))
    width = max((sum(ranks.values()) for ranks in counts), default=0)
    pad = max((r for r, _ in (t[1:] for t in pairs)), default=0) + 1
    for p, ranks in enumerate(counts):
        listed = [r for r, c in sorted(ranks.items()) for _ in range(c)]
        assert matrix[p].tolist() == listed + [pad] * (width - len(listed))
        assert text[p] == " ".join(f"{r}:{c}" for r, c in sorted(ranks.items()))


def _matchpointed(case: Path) -> bool:
    from duplicate.rules import load_rules

    rules = case / "rules.toml"
    return not rules.exists() or load_rules(rules).method == "matchpoints"


MATCHPOINTED = [c for c in CASES if _matchpointed(c)]


@pytest.mark.parametrize("case", MATCHPOINTED, ids=[c.name for c in MATCHPOINTED])
def test_rank_rows_counted_in_a_table_are_those_made_from_the_pairs(case: Path) -> None:
    """The sorted table of ranks serves as the rank rows: the same as rebuilt from pairs."""
    from duplicate.scoring.scores import score_rows
    from tests.test_batches import inputs

    results, rules, adjustments = inputs(case)
    scored = score_rows(results, rules, adjustments, player_stats.STATS_NUMBERS)  # type: ignore[arg-type]
    stats = player_stats.player_stats(scored, results)
    assert stats.rank_rows is not None
    pairs = stats.ranks
    player, rank, count = (pairs[c].to_numpy() for c in ("player", "rank", "count"))
    rebuilt = standings._rank_rows(player, rank, count, len(stats.players))
    assert stats.rank_rows.tolist() == rebuilt.tolist()
    assert stats.without_rank_rows().rank_rows is None
