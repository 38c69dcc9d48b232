"""Game scores from raw outcomes (docs/scoring.md section 6), checked against each game's rules.

Every function takes the validated identities (Results, from a file without a score
column) and the raw table, and returns one integer score per row. Each table-deal's
scores sum to zero; a raw row that contradicts the game's rules is a data error.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from duplicate.errors import Problem
from duplicate.games import registry
from duplicate.games.big2 import big2_scores
from duplicate.games.raw import RawColumns
from duplicate.games.registry import Game
from duplicate.games.registry import game as game_named
from duplicate.games.tables import differs_within, table_deals
from duplicate.model.codes import sum_by
from duplicate.model.columns import (
    closest_match,
    every_alias,
    header_map,
    unused_columns,
)
from duplicate.model.exact import IntArray
from duplicate.model.results import Results
from duplicate.rules import Rules

BIG2, DOUDIZHU, PAOHUZI = (
    registry.BIG2.raw_columns,
    registry.DOUDIZHU.raw_columns,
    registry.PAOHUZI.raw_columns,
)
# Dou Dizhu (004_*.txt): the multiplier is capped at 48 for a farmer, 96 for the landlord.
FARMER_CAP, LANDLORD_CAP = 48, 96


def big2_from_raw(results: Results, raw: pd.DataFrame, rules: Rules) -> IntArray:
    """Big Two: cards_left (0-13), open (明牌), doubled (加倍); one winner per table-deal."""
    cols = RawColumns(raw, results)
    cards = cols.integers(BIG2["cards_left"], 0, 13)
    opened = cols.flags(BIG2["open"])
    doubled = cols.flags(BIG2["doubled"])
    codes, tables = table_deals(results)
    winners = sum_by(codes, cards == 0, tables)
    cols.group_problem(
        winners != 1,
        codes,
        "needs exactly one player with 0 cards left",
        "the player who went out has cards_left 0; the others have 1 to 13",
    )
    cols.check()
    return big2_scores(codes, cards, opened, doubled)


def doudizhu_from_raw(results: Results, raw: pd.DataFrame, rules: Rules) -> IntArray:
    """Dou Dizhu: role, bid (1-3), bombs, rocket, spring (春天/反春), won; base 1.

    multiplier = bid x 2 per bomb x 2 for the rocket x 2 for a spring. A farmer wins or
    loses base x multiplier (at most 48); the landlord the farmers' sum (at most 96).
    """
    cols = RawColumns(raw, results)
    role = cols.choice(
        DOUDIZHU["role"],
        {"landlord": "landlord", "地主": "landlord", "farmer": "farmer", "农民": "farmer"},
    )
    bid = cols.integers(DOUDIZHU["bid"], 1, 3)
    bombs = cols.integers(DOUDIZHU["bombs"], 0, None)
    rocket = cols.flags(DOUDIZHU["rocket"])
    spring = cols.flags(DOUDIZHU["spring"])
    won = cols.flags(DOUDIZHU["won"], required=True)
    codes, tables = table_deals(results)
    landlord = role == "landlord"
    landlords = sum_by(codes, landlord, tables)
    cols.group_problem(landlords != 1, codes, "needs exactly one landlord", "mark one row landlord")
    cols.group_problem(
        sum_by(codes, ~landlord, tables) != 2,
        codes,
        "needs two farmers",
        "Dou Dizhu is one landlord against two farmers",
    )
    for name, values in (("bid", bid), ("bombs", bombs), ("rocket", rocket), ("spring", spring)):
        cols.group_problem(
            differs_within(codes, values, tables),
            codes,
            f"{name} differs between its players",
            f"{name} is the same for the whole table",
        )
    side_won = np.where(landlord, won, ~won)  # True where the landlord's side won
    cols.group_problem(
        differs_within(codes, side_won, tables),
        codes,
        "won does not agree: one side wins",
        "the landlord wins alone, or both farmers win",
    )
    cols.check()
    multiplier = bid * 2**bombs * np.where(rocket, 2, 1) * np.where(spring, 2, 1)
    farmer_stake = np.minimum(multiplier, FARMER_CAP)
    farmers = sum_by(codes, ~landlord, tables)[codes]
    landlord_stake = np.minimum(farmers * farmer_stake, LANDLORD_CAP)
    sign = np.where(won, 1, -1)
    return np.asarray(sign * np.where(landlord, landlord_stake, farmer_stake), dtype=np.int64)


def paohuzi_from_raw(results: Results, raw: pd.DataFrame, rules: Rules) -> IntArray:
    """Paohuzi: winner (胡牌), huxi and fan on the winner's row; no winner is a drawn hand.

    tun = floor((huxi - minimum huxi) / 3) + 1; the winner gets tun x fan from each loser
    (x 2 at a table of three), a drawn hand (荒庄) gives everyone 0.
    """
    cols = RawColumns(raw, results)
    winner = cols.flags(PAOHUZI["winner"], required=True)
    # Columns only winners fill: a file of drawn hands needs neither.
    someone_won = bool(winner.any())
    huxi = cols.integers(PAOHUZI["huxi"], 0, None, where=winner, required=someone_won)
    fan = cols.integers(PAOHUZI["fan"], 1, None, where=winner, required=someone_won)
    codes, tables = table_deals(results)
    cols.group_problem(
        sum_by(codes, winner, tables) > 1,
        codes,
        "has more than one winner",
        "one player wins a hand, or nobody (a drawn hand)",
    )
    short = winner & (huxi < rules.paohuzi_min_huxi)
    cols.flag(
        short,
        "huxi",
        f"is below the minimum huxi {rules.paohuzi_min_huxi} needed to win",
        "check huxi, or the event's games.paohuzi_min_huxi",
    )
    cols.check()
    tun = np.where(winner, (huxi - rules.paohuzi_min_huxi) // 3 + 1, 0)
    stake = sum_by(codes, tun * np.where(winner, fan, 0), tables)[codes]
    losers = (sum_by(codes, np.ones(len(codes)), tables) - 1)[codes]
    return np.asarray(np.where(winner, stake * losers, -stake), dtype=np.int64)


def game_scores(
    results: Results, raw: pd.DataFrame, game: str | Game, rules: Rules | None = None
) -> IntArray:
    """Each row's score for `game` (its name, or the Game) from its raw columns."""
    return game_named(game).score(results, raw, rules or Rules())


def unknown_raw_columns(raw: pd.DataFrame, game: Game, source: str) -> list[Problem]:
    """A column of a raw file that neither the results nor `game` read: a misspelled
    optional column would silently count as absent (王炸 for 火箭: no rocket)."""
    reads = [name for names in game.raw_columns.values() for name in names]
    problems = []
    for header in unused_columns(raw, tuple(reads)):
        guess = closest_match(header, [*every_alias(), *reads])
        hint = (
            f"did you mean {guess!r}?"
            if guess
            else f"{game.name} reads {', '.join(game.raw_columns)}; a note column may be named 备注"
        )
        problems.append(
            Problem(
                source,
                f"unknown column {header!r}",
                column=header,
                hint=hint,
                code="raw.unknown-column",
            )
        )
    return problems


def scored_raw(
    results: Results, raw: pd.DataFrame, game: str | Game, rules: Rules | None = None
) -> pd.DataFrame:
    """The raw table with its `score` column: computed, or checked when already there.

    A score already in the file must equal the computed one; every difference is an error.
    """
    from duplicate.errors import InvalidData, Problem

    chosen = game_named(game)
    unknown = unknown_raw_columns(raw, chosen, results.source)
    try:
        computed = game_scores(results, raw, chosen, rules)
    except InvalidData as exc:
        raise InvalidData(unknown + exc.problems) from None
    if unknown:
        raise InvalidData(unknown)
    names = header_map(raw)
    score_column = names.get("score", names.get("得分"))
    if score_column is not None:
        given = results.frame["score_units"].to_numpy()
        expected = computed * 10**results.score_scale
        rows = results.frame["row"].to_numpy()
        problems = [
            Problem(
                results.source,
                f"score {raw[score_column].iloc[i]!s} but the raw columns give {computed[i]}",
                (int(rows[i]),),
                "score",
                f"correct the score, or the raw columns, by the {chosen.name} rules",
                code="raw.score-differs",
            )
            for i in np.flatnonzero(given != expected)
        ]
        if problems:
            raise InvalidData(problems)
        return raw.assign(**{str(score_column): computed})
    return raw.assign(score=computed)
