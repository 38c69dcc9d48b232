"""Seat players near their snake table while avoiding tablemates they have already met.

The search is exact within a window of S ranks. Tables are filled in rank order. After t
tables the seated players are all ranks below t*K - S, none from t*K + S on, and some
set of exactly S ranks in between: that set, a bitmask of 2S bits, is the state. A table
takes K unseated players from the window extended by the next K ranks, and must take
any unseated rank about to leave the window. These moves ("templates") depend only on
(K, S), so they are built once; a table's cost is then one small matrix-vector product
over the pairs of window positions. The dynamic program keeps, per state, the cheapest
way to reach it, which costs fewest repeated pairs first and least table displacement
second. Its run time is linear in the number of tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, permutations
from math import comb

import numpy as np
import numpy.typing as npt

from duplicate.model.exact import IntArray

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Templates:
    """Every legal way to fill one table from the window, for one (K, S)."""

    k: int
    s: int
    n_states: int
    initial: int  # the state at the start and at the end: first S positions seated
    src: IntArray  # state before the table, per template (templates sorted by dst)
    dst: IntArray  # state after the table
    chosen: npt.NDArray[np.bool_]  # (templates, 2S+K): window positions seated here
    pairs_in: npt.NDArray[np.float64]  # (pairs of positions, templates): both chosen
    displacement: IntArray  # tables between snake table and this table, summed
    group_start: IntArray  # first template of each dst present
    group_dst: IntArray


@lru_cache(maxsize=16)
def templates(k: int, s: int) -> Templates:
    width = 2 * s + k
    states = [m for m in range(1 << (2 * s)) if m.bit_count() == s]
    index = {m: i for i, m in enumerate(states)}
    rows: list[tuple[int, int, tuple[int, ...]]] = []
    for state in states:
        seated = [bool(state >> i & 1) for i in range(2 * s)] + [False] * k
        leaving = [i for i in range(k) if not seated[i]]
        optional = [i for i in range(k, width) if not seated[i]]
        if len(leaving) > k:
            continue
        for extra in combinations(optional, k - len(leaving)):
            chosen = tuple(leaving) + extra
            after = list(seated)
            for i in chosen:
                after[i] = True
            next_state = sum(1 << (i - k) for i in range(k, width) if after[i])
            rows.append((index[state], index[next_state], chosen))
    rows.sort(key=lambda row: (row[1], row[0], row[2]))
    src = np.array([r[0] for r in rows], dtype=np.int64)
    dst = np.array([r[1] for r in rows], dtype=np.int64)
    seated_here = np.zeros((len(rows), width), dtype=bool)
    for n, (_, _, positions) in enumerate(rows):
        seated_here[n, list(positions)] = True
    first, second = np.triu_indices(width, 1)
    pairs_in = (seated_here[:, first] & seated_here[:, second]).T.astype(np.float64)
    # Position i is rank t*K - S + i: its snake table is t + floor((i - S) / K).
    offset = np.abs(np.floor_divide(np.arange(width) - s, k))
    displacement = (seated_here * offset).sum(axis=1).astype(np.int64)
    new_group = np.ones(len(rows), dtype=bool)
    new_group[1:] = dst[1:] != dst[:-1]
    group_start = np.flatnonzero(new_group)
    return Templates(
        k=k,
        s=s,
        n_states=len(states),
        initial=index[(1 << s) - 1],
        src=src,
        dst=dst,
        chosen=seated_here,
        pairs_in=pairs_in,
        displacement=displacement,
        group_start=group_start,
        group_dst=dst[group_start],
    )


def pair_keys(a: npt.ArrayLike, b: npt.ArrayLike, n_codes: int) -> IntArray:
    """One int64 per unordered pair of player codes."""
    return np.asarray(np.minimum(a, b) * n_codes + np.maximum(a, b), dtype=np.int64)


def repeats_in(tables: IntArray, met: IntArray, n_codes: int) -> IntArray:
    """Repeated pairs per table, for tables given as rows of player codes (-1: nobody)."""
    k = tables.shape[1]
    first, second = np.triu_indices(k, 1)
    a, b = tables[:, first], tables[:, second]
    hit = np.isin(pair_keys(a, b, n_codes), met) & (a >= 0) & (b >= 0)
    return np.asarray(hit.sum(axis=1), dtype=np.int64)


MAX_TEMPLATES = 40_000
# Moves evaluated over the whole field: the bound on the search's time (docs/performance.md).
MAX_WORK = 200_000_000


def template_count(k: int, s: int) -> int:
    """len(templates(k, s).src), without building them.

    A state with u unseated among the K ranks about to leave must seat those u and
    K - u of the other S + K - u unseated ranks; C(K, u) x C(2S - K, S - K + u) states
    have that u.
    """
    return sum(
        comb(k, u) * comb(2 * s - k, s - k + u) * comb(s + k - u, k - u) for u in range(k + 1)
    )


# Moves of one table (templates) the search may build: building them, and their pairs,
# take time and memory in proportion (figures by table size: docs/performance.md).
MAX_SEARCH_TEMPLATES = 150_000


def search_fits(k: int, window: int) -> bool:
    """Whether the search over `window` ranks for tables of `k` is bounded in time and
    memory (MAX_SEARCH_TEMPLATES); for tables of 7 or more even the narrowest is not."""
    return template_count(k, window) <= MAX_SEARCH_TEMPLATES


def default_window(k: int, n_tables: int = 1) -> int:
    """The widest window, up to 2K ranks, whose moves stay few enough to be fast."""
    window = k
    for s in range(k + 1, 2 * k + 1):
        moves = template_count(k, s)
        if moves > MAX_TEMPLATES or moves * n_tables > MAX_WORK:
            break
        window = s
    return window


def assign_tables(
    codes: IntArray, k: int, met: IntArray, n_codes: int, window: int | None = None
) -> IntArray:
    """The table (from 0) for each rank position, fewest repeats then least displacement.

    `codes` are the players in rank order (-1 for a robot, who has met nobody); `met`
    holds the pair_keys of pairs who have shared a table before, sorted.
    """
    n = len(codes)
    n_tables = n // k
    window = window or default_window(k, n_tables)
    tpl = templates(k, window)
    width = 2 * window + k
    first, second = np.triu_indices(width, 1)
    # Which window pairs have met, for every table at once: (tables, pairs).
    ranks = (np.arange(n_tables) * k - window)[:, None] + np.arange(width)[None, :]
    exists = (ranks >= 0) & (ranks < n)
    players = np.where(exists, codes[np.clip(ranks, 0, max(n - 1, 0))], -1)
    a, b = players[:, first], players[:, second]
    met_pairs = np.isin(pair_keys(a, b, n_codes), met) & (a >= 0) & (b >= 0)
    # Lexicographic cost in one float: a repeat outweighs any possible displacement.
    repeat_weight = float(n * (window // k + 2) + 1)
    displacement = tpl.displacement.astype(np.float64)
    sizes = np.diff(np.append(tpl.group_start, len(tpl.src)))
    index = np.arange(len(tpl.src))
    value = np.full(tpl.n_states, np.inf)
    value[tpl.initial] = 0.0
    choice = np.empty((n_tables, tpl.n_states), dtype=np.int64)
    for t in range(n_tables):
        cost = displacement
        hits = np.flatnonzero(met_pairs[t])
        if hits.size:
            cost = cost + tpl.pairs_in[hits].sum(axis=0) * repeat_weight
        if not exists[t].all():  # the first and last tables: no ranks beyond the field
            cost = np.where(tpl.chosen[:, ~exists[t]].any(axis=1), np.inf, cost)
        candidate = value[tpl.src] + cost
        best = np.minimum.reduceat(candidate, tpl.group_start)
        is_best = candidate == np.repeat(best, sizes)
        pick = np.minimum.reduceat(np.where(is_best, index, len(index)), tpl.group_start)
        value = np.full(tpl.n_states, np.inf)
        value[tpl.group_dst] = best
        choice[t, tpl.group_dst] = pick
    if n_tables and not np.isfinite(value[tpl.initial]):
        raise AssertionError("no seating within the window, yet the snake order is one")
    table = np.empty(n, dtype=np.int64)
    state = tpl.initial
    for t in range(n_tables - 1, -1, -1):
        move = choice[t, state]
        positions = np.flatnonzero(tpl.chosen[move])
        table[t * k - window + positions] = t
        state = int(tpl.src[move])
    return table


def balance_seats(tables: IntArray, snake_seats: IntArray, seat_counts: FloatArray) -> IntArray:
    """Seats within each table: fewest seats a player has had before, then the snake seats.

    `tables` rows hold player codes (-1: robot), `snake_seats` the seat each would get by
    the snake, `seat_counts[code, seat]` how often a player sat there before.
    """
    k = tables.shape[1]
    if k > 6:  # 7! permutations per table is more than balance is worth
        return snake_seats
    perms = np.array(list(permutations(range(k))), dtype=np.int64)  # (P, k): seat per member
    known = np.where(tables >= 0, tables, 0)
    counts = seat_counts[known]  # (T, k, k): member, seat
    counts = np.where((tables >= 0)[:, :, None], counts, 0.0)
    member = np.arange(k)
    history = counts[:, member[None, :], perms].sum(axis=2)  # (T, P)
    moved = (perms[None, :, :] != snake_seats[:, None, :]).sum(axis=2)  # (T, P)
    best = np.argmin(history * (k + 1) + moved, axis=1)
    return np.asarray(perms[best], dtype=np.int64)
