"""The games the toolkit knows, as objects: their names, the raw columns their scores
come from, their scorer, the scores a deal can give, whether a table sums to zero.

Every other module asks a Game; this is the one list of games.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from duplicate.errors import UsageError

if TYPE_CHECKING:
    import pandas as pd

    from duplicate.model.exact import IntArray
    from duplicate.model.results import Results
    from duplicate.rules import Rules


class Game(NamedTuple):
    """One game: how its scores are made and what a deal of it can give."""

    name: str
    title: str
    # Other names it is known by (Chinese, pinyin).
    aliases: tuple[str, ...] = ()
    # Raw outcome columns -> the header spellings accepted (games/scores.py reads them),
    # compared trimmed and case-folded. (The default is shared, and read only.)
    raw_columns: Mapping[str, tuple[str, ...]] = {}
    # "module:function" computing each row's score from the raw columns.
    scorer: str = ""
    # Every table's scores on a deal add up to zero.
    zero_sum: bool = False
    # The largest score (either way) one deal can give a player, if bounded.
    largest_score: int | None = None
    # Players at a table, as usually played.
    table_size: int | None = None

    @property
    def scores_raw(self) -> bool:
        """Whether its scores can be computed from raw outcomes (`game-score`)."""
        return bool(self.scorer)

    def score(self, results: Results, raw: pd.DataFrame, rules: Rules) -> IntArray:
        """Each row's score from its raw columns."""
        if not self.scorer:
            raise UsageError(
                f"{self.name} scores are not computed from raw outcomes; "
                f"games that are: {', '.join(g.name for g in SCORED)}",
                "game.no-scorer",
            )
        module, function = self.scorer.split(":")
        compute: Any = getattr(importlib.import_module(module), function)
        scores: IntArray = compute(results, raw, rules)
        return scores


BIG2 = Game(
    "big2",
    "Big Two (锄大地)",
    ("锄大地", "chudadi", "bigtwo"),
    {
        "cards_left": ("cards_left", "剩余牌数", "剩牌"),
        "open": ("open", "明牌"),
        "doubled": ("doubled", "加倍"),
    },
    "duplicate.games.scores:big2_from_raw",
    zero_sum=True,
    # 13 cards (52 points) from each of 3 others, each side shown and doubled (6 x 6).
    largest_score=3 * 52 * 36,
    table_size=4,
)
DOUDIZHU = Game(
    "doudizhu",
    "Dou Dizhu (斗地主, 二打一)",
    ("斗地主", "二打一"),
    {
        "role": ("role", "身份"),
        "bid": ("bid", "叫分"),
        "bombs": ("bombs", "炸弹"),
        "rocket": ("rocket", "火箭"),
        "spring": ("spring", "春天"),
        "won": ("won", "获胜", "胜"),
    },
    "duplicate.games.scores:doudizhu_from_raw",
    zero_sum=True,
    # The landlord's cap.
    largest_score=96,
    table_size=3,
)
PAOHUZI = Game(
    "paohuzi",
    "Paohuzi (跑胡子)",
    ("跑胡子",),
    {
        "winner": ("winner", "胡牌", "赢家"),
        "huxi": ("huxi", "胡息"),
        "fan": ("fan", "番数", "番"),
    },
    "duplicate.games.scores:paohuzi_from_raw",
    zero_sum=True,
    table_size=3,
)
# An event folder of another game: no game checks.
OTHER = Game("other", "another game")

SCORED = (BIG2, DOUDIZHU, PAOHUZI)
GAMES = (*SCORED, OTHER)
_BY_NAME = {alias.casefold(): g for g in GAMES for alias in (g.name, *g.aliases)}


def game(name: str | Game) -> Game:
    """The game named `name` (its name or an alias)."""
    if isinstance(name, Game):
        return name
    found = _BY_NAME.get(str(name).strip().casefold())
    if found is None:
        raise UsageError(
            f"unknown game {name!r}; known: {', '.join(g.name for g in GAMES)}", "game.unknown"
        )
    return found


def names(scored_only: bool = False) -> tuple[str, ...]:
    """The games' names, as a choice lists them."""
    return tuple(g.name for g in (SCORED if scored_only else GAMES))
