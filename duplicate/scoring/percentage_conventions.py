"""The percentage conventions of bridge scoring programs (docs/bridge.md, Percentage
conventions), exactly and vectorised: each board's figure as the convention takes it,
each pair's percentage from those figures, point-a-board count-back between pairs on
equal percentages, and shared places written `8=`.

A board's figure: its MP% exactly (pct_num / pct_den), and its MP: that MP% of the
board's top, exact or rounded to `board_mp` decimals as published. A result with an
assigned MP% takes the top of its comparison group (the largest top of the results
compared there; 0 when none is).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from duplicate.errors import OutOfRange
from duplicate.model.codes import max_by, sum_by
from duplicate.model.exact import CodeArray, FloatArray, IntArray, div_rounded, fraction_sums
from duplicate.model.grouping import section_codes
from duplicate.rules import Rules
from duplicate.scoring.scored_items import ScoredItems
from duplicate.text import SHARED_PLACE

BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class BoardFigures:
    """Per counted result (a row with an MP%, void ones left out): the board as the
    convention counts it."""

    # The board percentage the convention uses, as a fraction of 1: num / den.
    num: IntArray
    den: IntArray
    # MP as shown (in 10**-mp_scale) and top; `compared` marks the results compared
    # at the table (not assigned): the standings' mp and top columns sum those.
    mp: IntArray
    top: IntArray
    compared: BoolArray
    mp_scale: int
    # Total MP over total top: the MP counted (exactly: mp_num / mp_den; rounded:
    # mp_units in 10**-decimals) and the top it counts against.
    mp_num: IntArray
    mp_den: IntArray
    group_top: IntArray


@dataclass(frozen=True)
class PairPercentages:
    """Per player: the percentage published (hundredths), an exact sort key
    (key_num / key_den is the percentage times a factor common to every player) and
    the deals counted; the exact percentage is 100 * key_num / (key_den * common)."""

    centi: IntArray
    key_num: IntArray
    key_den: IntArray
    deals: IntArray
    common: int = 1


def board_figures(
    items: ScoredItems, group: CodeArray | None, rows: IntArray, rules: Rules
) -> BoardFigures:
    """The counted results `rows` as the rules' convention counts them; `group` is
    every result's comparison group (None: results assigned an MP% take no top)."""
    item = items.row_item[rows]
    pct_num, pct_den = items.pct_num[item], items.pct_den[item]
    mp, top = items.mp[item], items.top[item]
    compared = mp >= 0
    group_top = np.where(compared, np.maximum(top, 0), 0)
    if group is not None:
        # Each comparison group's top, for the results assigned an MP% in it.
        codes = np.asarray(group, dtype=np.int64)
        size = int(codes.max(initial=-1)) + 1
        group_tops = max_by(codes, np.maximum(items.top[items.row_item], 0), size)
        group_top = np.where(compared, group_top, group_tops[codes[rows]])
    if rules.board_mp == "exact":
        return BoardFigures(
            num=pct_num,
            den=pct_den,
            mp=mp,
            top=top,
            compared=compared,
            mp_scale=items.mp_scale,
            mp_num=pct_num * group_top,
            mp_den=pct_den,
            group_top=group_top,
        )
    decimals = int(rules.board_mp)
    unit = 10**decimals
    # The board's MP rounded as published; its percentage is that MP over the top.
    units = div_rounded(pct_num * group_top * unit, pct_den, rules.percentage_rounding)
    has_top = group_top > 0
    return BoardFigures(
        num=np.where(has_top, units, pct_num),
        den=np.where(has_top, unit * group_top, pct_den),
        mp=np.where(compared, units, -1),
        top=top,
        compared=compared,
        mp_scale=decimals,
        mp_num=units,
        mp_den=np.full(len(units), unit, dtype=np.int64),
        group_top=group_top,
    )


def pair_percentages(
    figures: BoardFigures, player: IntArray, n_players: int, rules: Rules
) -> PairPercentages:
    """Each player's percentage: the mean of their board percentages, or their total
    MP over their total top (a player without any top: 50%)."""
    deals = np.bincount(player, minlength=n_players).astype(np.int64)
    if rules.percentage_of == "mean":
        total, deals, common = fraction_sums(figures.num, figures.den, player, n_players)
        centi = div_rounded(total * 10000, deals * common, rules.percentage_rounding)
        return PairPercentages(centi, total, deals, deals, common)
    mp, _, common = fraction_sums(figures.mp_num, figures.mp_den, player, n_players)
    top = sum_by(player, figures.group_top, n_players)
    # No top at all (every board alone or assigned without a comparison): 50%.
    mp = np.where(top > 0, mp, common)
    top = np.where(top > 0, top, 2)
    if common * int(top.max(initial=1)) * 10000 >= 2**62:
        raise OutOfRange(
            "this event's total MP over total top cannot be summed exactly; score it "
            "with {opt:percentage_of=mean}",
            "number.out-of-range",
        )
    centi = div_rounded(mp * 10000, top * common, rules.percentage_rounding)
    return PairPercentages(centi, mp, top, deals, common)


# Count-back compares every pair of a tie on every board any of them played: at most
# this many (player, board) cells (about 120 bytes each while compared), far beyond
# any session (a tie of 1,000 pairs over 2,000 boards).
MAX_COUNT_BACK_CELLS = 2_000_000


def count_back_points(
    figures: BoardFigures,
    player: IntArray,
    deal: IntArray,
    section: IntArray,
    whole: IntArray,
    fraction: FloatArray,
) -> IntArray:
    """Point-a-board count-back between players on equal percentages in a section:
    on every board either of two tied players played, the better board percentage
    scores 2, an equal one 1 each (a board a player did not play counts as 50% for
    them). A player's points are added up against every other player of their tie;
    0 for a player not tied. `player`, `deal` are per counted result; `section`,
    `whole`, `fraction` per player.

    Each tie's boards are a table of every tied player by every board one of them
    played (50% where a player did not): a player's points on a board are 2 for each
    other player below them and 1 for each equal one, less the equal ones that did
    not play it either (two players who both missed a board are not compared on it).
    """
    n_players = len(whole)
    order = np.lexsort([fraction, whole, section])
    same = np.zeros(n_players, dtype=bool)
    same[1:] = (
        (section[order][1:] == section[order][:-1])
        & (whole[order][1:] == whole[order][:-1])
        & (fraction[order][1:] == fraction[order][:-1])
    )
    tie_of_sorted = np.cumsum(~same) - 1
    tie_size = np.bincount(tie_of_sorted)
    tie = np.full(n_players, -1, dtype=np.int64)
    tie[order] = np.where(tie_size[tie_of_sorted] > 1, tie_of_sorted, -1)
    mine = tie[player] >= 0
    if not mine.any():
        return np.zeros(n_players, dtype=np.int64)
    # The boards of each tie: (tie, deal) pairs any tied player has a result on.
    n_deals = int(deal.max(initial=0)) + 1
    board, board_of = np.unique(tie[player][mine] * n_deals + deal[mine], return_inverse=True)
    board_tie = board // n_deals
    # Every tied player by every board of their tie.
    members = np.flatnonzero(tie >= 0)
    members = members[np.argsort(tie[members], kind="stable")]
    per_tie = np.bincount(tie[members], minlength=int(tie.max()) + 1)
    boards_per_tie = np.bincount(board_tie, minlength=len(per_tie))
    cells = int((per_tie * boards_per_tie).sum())
    if cells > MAX_COUNT_BACK_CELLS:
        raise OutOfRange(
            f"count-back would compare {cells:,} (pair, board) cells, more than "
            f"{MAX_COUNT_BACK_CELLS:,}: ties this large are not split; score without "
            "{opt:place_ties=count-back}",
            "number.out-of-range",
        )
    member_start = np.cumsum(per_tie) - per_tie
    cell_board = np.repeat(np.arange(len(board)), per_tie[board_tie])
    offset = np.arange(cells) - np.repeat(
        np.cumsum(per_tie[board_tie]) - per_tie[board_tie], per_tie[board_tie]
    )
    cell_player = members[member_start[board_tie[cell_board]] + offset]
    # Each cell's board percentage: the player's, else 50%.
    num = np.ones(cells, dtype=np.int64)
    den = np.full(cells, 2, dtype=np.int64)
    played = np.zeros(cells, dtype=bool)
    key = cell_board * n_players + cell_player
    at = np.searchsorted(key, board_of * n_players + player[mine])
    num[at], den[at], played[at] = figures.num[mine], figures.den[mine], True
    # Within a board, the cells below and equal to each: sorted by board, then by the
    # exact percentage (a float quotient is an exact key below 2**26, exact.py).
    value = num / den
    by_value = np.lexsort([value, cell_board])
    sorted_board, sorted_value = cell_board[by_value], value[by_value]
    new_board = np.ones(cells, dtype=bool)
    new_board[1:] = sorted_board[1:] != sorted_board[:-1]
    new_value = new_board.copy()
    new_value[1:] |= sorted_value[1:] != sorted_value[:-1]
    index = np.arange(cells)
    board_start = np.maximum.accumulate(np.where(new_board, index, 0))
    value_start = np.maximum.accumulate(np.where(new_value, index, 0))
    run = np.cumsum(new_value) - 1
    equal = np.bincount(run)[run]
    below = value_start - board_start
    # Two players who both missed the board are not compared on it.
    missed = np.bincount(cell_board, weights=~played, minlength=len(board)).astype(np.int64)
    absent = ~played[by_value]
    score = 2 * below + (equal - 1) - np.where(absent, missed[sorted_board] - 1, 0)
    return np.bincount(cell_player[by_value], weights=score, minlength=n_players).astype(np.int64)


def place_text(place: IntArray, section: object) -> npt.NDArray[np.object_]:
    """Places as text, a shared one written with `=`: 1, 2=, 2=, 4."""
    codes, _ = section_codes(section)
    key = np.asarray(codes, dtype=np.int64) * (int(place.max(initial=0)) + 1) + place
    _, inverse, counts = np.unique(key, return_inverse=True, return_counts=True)
    shared = counts[inverse] > 1
    text = place.astype(str).astype(object)
    text[shared] = text[shared] + SHARED_PLACE
    return text
