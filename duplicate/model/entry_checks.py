"""Data-entry checks: the typos scorers make that still leave a well-formed file.

A mistyped score (48 for 480) leaves a zero-sum table not summing to zero; a misspelled
name (郭滔 for 郭涛 on one deal) makes a player who plays one deal, and leaves the real
one short of the deals of their table. `validate` reports these as warnings (errors
with --strict); each names its rows and the likely fix.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from duplicate.errors import Problem
from duplicate.games.registry import Game
from duplicate.limits import MAX_LISTED
from duplicate.model.codes import (
    bounded,
    combine,
    count_per,
    dense_codes,
    sum_by,
    value_per_key,
)
from duplicate.model.results import Results
from duplicate.model.robots import is_robot
from duplicate.model.seated_alike import seated_alike


def entry_problems(results: Results, game: Game | None = None) -> list[Problem]:
    """Every likely data-entry mistake in `results`, whose structure has been checked
    (`game`: its zero-sum table and the scores a deal of it can give)."""
    problems: list[Problem] = []
    if game is not None and game.zero_sum and results.has_table:
        problems += _tables_not_zero(results)
    if game is not None and game.largest_score is not None:
        problems += _scores_beyond(results, game)
    problems += _short_players(results)
    return problems


def _rows_of(results: Results, mask: np.ndarray) -> tuple[int, ...]:
    return tuple(int(r) for r in results.frame["row"].to_numpy()[mask])


def _tables_not_zero(results: Results) -> list[Problem]:
    frame = results.frame
    table, n_tables = dense_codes(
        combine([results.key("section", "round", "deal"), results.codes("table")])[0]
    )
    units = frame["score_units"].to_numpy()
    totals = sum_by(table, units, n_tables)
    scale = results.score_scale
    problems = []
    for code in np.flatnonzero(totals != 0)[:MAX_LISTED]:
        mine = np.flatnonzero(table == code)
        first = frame.iloc[mine[0]]
        where = f"round {first['round']}, deal {first['deal']}, table {first['table']}"
        total = _shown(int(totals[code]), scale)
        likely = _likely_cells(units[mine], int(totals[code]), scale)
        if likely:
            rows = [int(frame["row"].iloc[mine[at]]) for at, _, _ in likely]
            said = [f"{typed}, perhaps {meant}" for _, typed, meant in likely]
            if len(likely) > 1:
                said = [f"{text} (row {row})" for text, row in zip(said, rows, strict=True)]
            problems.append(
                Problem(
                    results.source,
                    f"{where}: scores add up to {total}, not 0; " + ", or ".join(said),
                    tuple(rows),
                    "score",
                    "that correction makes the table add up to 0: check it on the score sheet",
                    code="entry.table-not-zero",
                )
            )
            continue
        problems.append(
            Problem(
                results.source,
                f"{where}: scores add up to {total}, not 0",
                _rows_of(results, table == code),
                "score",
                "a score was mistyped (a digit too many or too few, a sign lost): "
                "correct it from the score sheet",
                code="entry.table-not-zero",
            )
        )
    return problems


def _likely_cells(units: np.ndarray, total: int, scale: int) -> list[tuple[int, str, str]]:
    """The cells of a table whose correction makes it add up to 0 and that look like a
    slip of the hand from it (a digit left out, doubled, changed or swapped with the
    next, a sign lost): (position, as typed, as meant) for each."""
    found = []
    for at, typed in enumerate(units.tolist()):
        shown, meant = _shown(int(typed), scale), _shown(int(typed) - total, scale)
        if _one_slip(shown, meant):
            found.append((at, shown, meant))
    return found


def _shown(units: int, scale: int) -> str:
    """A score as written: its units over 10**scale, no trailing zeros after a point."""
    if scale == 0:
        return str(units)
    sign = "-" if units < 0 else ""
    whole, part = divmod(abs(units), 10**scale)
    fraction = str(part).rjust(scale, "0").rstrip("0")
    return f"{sign}{whole}" + (f".{fraction}" if fraction else "")


def _one_slip(typed: str, meant: str) -> bool:
    """Whether `typed` is `meant` with one character left out, added, changed, or
    swapped with its neighbour."""
    if typed == meant or abs(len(typed) - len(meant)) > 1:
        return False
    if len(typed) == len(meant):
        differ = [i for i, (a, b) in enumerate(zip(typed, meant, strict=True)) if a != b]
        if len(differ) == 1:
            return True
        i = differ[0]
        return differ == [i, i + 1] and typed[i] == meant[i + 1] and typed[i + 1] == meant[i]
    longer, shorter = (typed, meant) if len(typed) > len(meant) else (meant, typed)
    return any(longer[:i] + longer[i + 1 :] == shorter for i in range(len(longer)))


def _scores_beyond(results: Results, game: Game) -> list[Problem]:
    units = results.frame["score_units"].to_numpy()
    unit = 10**results.score_scale
    assert game.largest_score is not None
    largest = game.largest_score * unit
    beyond = (np.abs(units) > largest) | (units % unit != 0)
    if not beyond.any():
        return []
    return [
        Problem(
            results.source,
            f"{int(beyond.sum())} score(s) a {game.name} deal cannot give: whole numbers up "
            f"to {game.largest_score} either way",
            _rows_of(results, beyond)[:MAX_LISTED],
            "score",
            "a mistyped score (an extra digit, a decimal point): correct it",
            code="entry.impossible-score",
        )
    ]


def _short_players(results: Results) -> list[Problem]:
    """Players with fewer deals than the others at their table in a round, and players
    seen on one deal only in an event of more: the marks of a misspelled name."""
    if seated_alike(results, ["section", "round", "deal"]) and not _a_round_of_one_deal(results):
        # Every player plays every deal of their round, at one table.
        return []
    frame = results.frame
    human = ~is_robot(frame["player"])
    player, n_players = results.dense_key("section", "player")
    deals_of = np.bincount(player, minlength=n_players)
    problems: list[Problem] = []
    if deals_of.max(initial=0) > 1:
        once = (deals_of == 1)[player] & human
        for at in np.flatnonzero(once)[:MAX_LISTED]:
            problems.append(
                Problem(
                    results.source,
                    f"player {frame['player'].iloc[at]!s} plays one deal only "
                    f"(others play up to {int(deals_of.max())})",
                    (int(frame["row"].iloc[at]),),
                    "player",
                    "a misspelled name? compare it with the players at the same table",
                    code="entry.one-deal",
                )
            )
    if results.has_table:
        # A player of one deal is reported above: not again as short of their table.
        problems += _fewer_than_table(results, (player, n_players), human & (deals_of > 1)[player])
    return problems


def _a_round_of_one_deal(results: Results) -> bool:
    rounds, n_rounds = results.key("section", "round")
    deals, n_deals = results.dense_key("section", "round", "deal")
    deals_in = np.bincount(value_per_key(deals, n_deals, rounds), minlength=n_rounds)
    return bool((deals_in == 1).any())


def _fewer_than_table(
    results: Results, players: tuple[np.ndarray, int], human: np.ndarray
) -> list[Problem]:
    frame = results.frame
    round_key = results.key("section", "round")
    table_round, n_table_rounds = bounded(*combine([round_key, results.codes("table")]))
    # Deals each player played at their table in the round: their deals in the round,
    # as a player keeps one table for a round (the results' structure is checked).
    pair, n_pairs = bounded(*combine([round_key, players]))
    played = count_per(pair, n_pairs)
    most = np.zeros(n_table_rounds, dtype=np.int64)
    np.maximum.at(most, table_round, played)
    short = (played < most[table_round]) & human
    if not short.any():
        return []
    shown = pd.DataFrame({"table": table_round, "pair": pair, "most": most[table_round]})[short]
    problems = []
    for _, group in list(shown.groupby(["table", "pair"], sort=True))[:MAX_LISTED]:
        rows = frame.loc[group.index]
        first = rows.iloc[0]
        problems.append(
            Problem(
                results.source,
                f"player {first['player']!s} plays {len(rows)} deal(s) at table "
                f"{first['table']} in round {first['round']}, where the table plays "
                f"{int(group['most'].iloc[0])}",
                tuple(int(r) for r in rows["row"]),
                "player",
                "a deal under another name (misspelled)? give each deal its player",
                code="entry.short-player",
            )
        )
    return problems
