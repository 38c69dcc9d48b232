"""The quick yes of the seating check: every deal of a round seated alike.

In the usual file, every deal of a round has the same players at the same (table,
seat) places. That is told by comparing each row with the row at its place on the
first deal of its round, with no hash of every row's player id; and then no seating
rule is broken, no player is short of their table's deals, and every row's player
code follows from the first deals' alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from duplicate.model.arrays import arrow_array
from duplicate.model.codes import (
    arrow_strings,
    code_type,
    combine,
    dense_codes,
    fits_a_table,
    has_repeats,
    looks_sorted,
    one_chunk,
    seen_keys,
    text_codes,
    value_per_key,
)
from duplicate.model.exact import CodeArray, IntArray
from duplicate.model.text_bytes import equal_items, fixed_width_items

if TYPE_CHECKING:
    from duplicate.model.results import Results


def seated_alike(results: Results, deal_key: list[str]) -> bool:
    """Whether, in each round, every deal has the same players at the same (table, seat)
    places and no player sits twice, when that is quick to tell; False when it is not
    so, or not quick to tell. Decided once per deal key.

    Then no seating rule is broken, and no player is short of their table's deals. Quick
    to tell: rows deal by deal (file order), or any order when the players' ids are
    text that a hash table would have to code (elsewhere their codes come cheap, and
    the checks that use them are quicker).
    """

    def decide() -> bool:
        if not results.has_table:
            return False
        chunks = arrow_strings(results.columns["player"])
        text = None if chunks is None else one_chunk(chunks)
        if _deals_alike_in_file_order(results, results.key(*deal_key), text):
            return True
        if text is None or looks_sorted(text):
            return False
        return _every_deal_seated_alike(results, deal_key, text)

    return results.fact(("seated alike", *deal_key), decide)


def _deals_alike_in_file_order(
    results: Results, deal: tuple[CodeArray, int], text: pa.Array[Any] | None
) -> bool:
    """The quickest yes, for the usual file of one round: rows deal by deal, each deal
    the same rows in the same order, which is (table, seat) rising, with the same player at
    each, and no player twice in a deal.

    Then no rule can be broken: each player keeps one place for the round (a player at
    another row in some deal would be there in every deal, so twice in each), no seat
    is shared, and every table has the same players on every deal. Comparisons with the
    first deal, no table per key. False means "look closer", never "broken".
    """
    code = results.codes
    if code("section")[1] != 1 or code("round")[1] != 1:
        return False
    deals, n_deals = deal
    rows = len(deals) // n_deals
    if rows == 0 or rows * n_deals != len(deals):
        return False
    if not bool((deals.reshape(n_deals, rows) == np.arange(n_deals)[:, None]).all()):
        return False
    tables = results.sorting_codes("table")[0]
    seats = code("seat")[0]
    for column in (tables, seats):
        by_deal = column.reshape(n_deals, rows)
        if not bool((by_deal == by_deal[0]).all()):
            return False
    table, seat = tables[:rows], seats[:rows]
    rising = (table[1:] > table[:-1]) | ((table[1:] == table[:-1]) & (seat[1:] > seat[:-1]))
    if not (bool(rising.all()) and _same_players_each_deal(results, n_deals, rows, text)):
        return False
    players, n_players = dense_codes(results.columns["player"][:rows])
    if has_repeats(players, n_players):
        return False
    if text is not None:
        # Every deal's players are the first deal's, row for row: so are their codes.
        _know_player_codes(results, np.tile(players, n_deals), n_players)
    return True


def _every_deal_seated_alike(results: Results, deal_key: list[str], players: pa.Array[Any]) -> bool:
    """A quick yes for the usual file, its rows in any order: in each round, every deal
    has the same players in the same (table, seat) places, and no player sits twice.

    Then no rule can be broken: each player keeps one place for the round, no seat is
    shared, and every table has the same players on every deal. Each row is compared
    with one row of its (round, place) through tables of one entry per place and
    round, which stay in the processor's cache where a table of rows would not; only
    those rows' players are coded, to find one sitting twice, and every row's code
    follows from them. False means "look closer", never "broken".
    """
    # Dense: every deal has rows, and a table of places per deal wastes none.
    deals, n_deals = results.dense_key(*deal_key)
    rounds, n_rounds = results.key("section", "round")
    round_of_deal, first = _first_deals(deals, n_deals, rounds, n_rounds)
    # A deal id played in more than one round (deal scope "event"; a deal key holding
    # the round cannot be): look closer.
    if "round" not in deal_key and bool((round_of_deal[deals] != rounds).any()):
        return False
    place, n_places = _places(results, n_deals)
    if n_places == 0 or not _places_alike(
        deals.astype(np.int64) * n_places + place, n_deals, n_places, first[round_of_deal]
    ):
        return False
    # One row of each (round, place): every row there must have its player.
    round_place = rounds.astype(np.int64) * n_places + place
    row_of = np.full(n_rounds * n_places, -1, dtype=code_type(len(round_place)))
    row_of[round_place] = np.arange(len(round_place))
    if not _same_players(players, round_place, row_of):
        return False
    held = np.flatnonzero(row_of >= 0)
    players_held, n_players = text_codes(players.take(arrow_array(row_of[held])))
    if has_repeats(*combine([(held // n_places, n_rounds), (players_held, n_players)])):
        return False
    # Each row's player is its (round, place)'s, and those hold every player: so each
    # row's code is that row's, as if every id were coded.
    code_of = np.zeros(len(row_of), dtype=np.int64)
    code_of[held] = players_held
    _know_player_codes(results, code_of[round_place], n_players)
    return True


def _places_alike(slot: IntArray, n_deals: int, n_places: int, reference: IntArray) -> bool:
    """Whether no place is taken twice on a deal (`slot`: each row's deal x n_places +
    place), and each deal has the places of its `reference` deal taken, no others."""
    filled = seen_keys(slot, n_deals * n_places)
    if int(np.count_nonzero(filled)) != len(slot):
        return False  # a seat shared on a deal
    by_deal = filled.reshape(n_deals, n_places)
    return bool((by_deal == by_deal[reference]).all())


def _same_players(players: pa.Array[Any], key: IntArray, row_of: IntArray) -> bool:
    """Whether each row's player is that of the row `row_of` gives for its `key`: ids of
    one length compared by their bytes, others as text."""
    items = fixed_width_items(players)
    if items is not None:
        # (a key no row holds reads the last row's player, and no row asks for it)
        return bool(equal_items(items[row_of][key], items).all())
    same: Any = pc.equal(players.take(row_of[key]), players)
    return bool(pc.all(same).as_py())


def _know_player_codes(results: Results, codes: IntArray, n_players: int) -> None:
    """Give `results` the player codes a check found on its way (Results.codes)."""
    results.know_codes("player", codes.astype(code_type(n_players), copy=False), n_players)


def _first_deals(
    deals: CodeArray, n_deals: int, rounds: CodeArray, n_rounds: int
) -> tuple[IntArray, IntArray]:
    """Each deal's round (as one of its rows has it), and each round's first deal
    (n_deals for a round code no row holds)."""
    round_of_deal = value_per_key(deals, n_deals, rounds).astype(np.int64)
    first = np.full(n_rounds, n_deals, dtype=np.int64)
    np.minimum.at(first, round_of_deal, np.arange(n_deals))
    return round_of_deal, first


def _places(results: Results, n_deals: int) -> tuple[IntArray, int]:
    """(table, seat) codes bounded so that a table of every deal's places fits; (_, 0)
    when none does."""
    for tables in (results.sorting_codes("table"), results.codes("table")):
        place, n_places = combine([tables, results.codes("seat")])
        if fits_a_table(n_deals * n_places, len(place)):
            return place.astype(np.int64), n_places
    return place.astype(np.int64), 0


def _same_players_each_deal(
    results: Results, n_deals: int, rows: int, text: pa.Array[Any] | None
) -> bool:
    """Whether row d x rows + i holds the player of row i, for every deal d: the rows
    of a file deal by deal, compared deal with deal (`text`: the ids, when text)."""
    if text is None:
        by_deal = results.sorting_codes("player")[0].reshape(n_deals, rows)
        return bool((by_deal == by_deal[0]).all())
    first = text.slice(0, rows)
    return all(
        pc.all(pc.equal(text.slice(d * rows, rows), first)).as_py() for d in range(1, n_deals)
    )
