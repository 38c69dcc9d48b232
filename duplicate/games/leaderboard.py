"""Points races (004_*.txt): points per game by a scheme, totals, ties to the first to finish.

One row per player per game played: player, game_id, finished_at, and the game's result
(`outcome`, or the game's own fields). A player's points are summed over their games;
equal totals go to the player whose last game finished first.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from duplicate.errors import InvalidData, Problem, UsageError
from duplicate.games.scores import doudizhu_from_raw
from duplicate.model.columns import header_map
from duplicate.model.exact import IntArray
from duplicate.model.results import parse_results
from duplicate.rules import Rules

OUTCOME_WORDS = {
    "win": "win",
    "won": "win",
    "胜": "win",
    "赢": "win",
    "draw": "draw",
    "和": "draw",
    "平": "draw",
    "loss": "loss",
    "lost": "loss",
    "lose": "loss",
    "负": "loss",
    "输": "loss",
}
LEADERBOARD_COLUMNS = ("place", "player", "points", "games", "last_finished", "decided_by", "tied")


@dataclass(frozen=True)
class Scheme:
    """Points per outcome word, or one of the games whose points come from its own fields."""

    name: str
    points: dict[str, int]
    kind: str = "outcome"  # outcome | guandan | shengji | doudizhu


PRESETS = {
    "xiangqi": Scheme("xiangqi", {"win": 3, "draw": 1, "loss": -2}),
    "go": Scheme("go", {"win": 3, "draw": 1, "loss": -2}),
    "gomoku": Scheme("gomoku", {"win": 3, "loss": 0}),
    # 掼蛋: the winners' finishing places, 1-2 (双下), 1-3 or 1-4 (单下): win / loss points.
    "guandan": Scheme(
        "guandan",
        {"win 1-2": 6, "loss 1-2": 0, "win 1-3": 5, "loss 1-3": 1, "win 1-4": 4, "loss 1-4": 2},
        "guandan",
    ),
    # 80分升级: the dealer's side by the defenders' points; the defenders the opposite.
    "shengji": Scheme("shengji", {}, "shengji"),
    "doudizhu": Scheme("doudizhu", {}, "doudizhu"),
}
# Defenders' points (闲家得分) at most ... : the dealer's points (庄家); defenders get the negative.
SHENGJI_STEPS = ((0, 3), (35, 2), (75, 1), (115, -1), (155, -2))


def load_scheme(name_or_path: str) -> Scheme:
    """A preset by name, or a TOML file with a [points] table of outcome = points."""
    if name_or_path in PRESETS:
        return PRESETS[name_or_path]
    path = Path(name_or_path)
    if not path.exists():
        raise UsageError(
            f"unknown scheme {name_or_path!r}: use {', '.join(PRESETS)}, or a TOML file",
            "scheme.unknown",
        )
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"{path}: cannot read the scheme: {exc}", "scheme.unreadable") from None
    points = data.get("points")
    if (
        not isinstance(points, dict)
        or not points
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in points.values())
    ):
        raise UsageError(
            f"{path}: needs a [points] table of outcome = whole number, such as win = 3",
            "scheme.bad-points",
        )
    return Scheme(path.stem, {str(k).casefold(): int(v) for k, v in points.items()})


def game_points(games: pd.DataFrame, scheme: Scheme, source: str = "<games>") -> IntArray:
    """Each row's points under the scheme; rows that fit no rule are listed as problems."""
    columns = header_map(games)

    def text(name: str) -> pd.Series:
        if name not in columns:
            raise InvalidData(
                [
                    Problem(
                        source,
                        f"missing column {name}",
                        hint=f"the {scheme.name} scheme needs {name}",
                        code="column.missing",
                    )
                ]
            )
        return games[columns[name]].astype("str").str.strip().str.casefold()

    rows = np.arange(2, len(games) + 2)
    if scheme.kind == "doudizhu":
        return _doudizhu_points(games, source)
    if scheme.kind == "shengji":
        role = text("role").map({"dealer": 1, "庄家": 1, "defender": -1, "闲家": -1})
        defended = pd.to_numeric(
            text("defender_points").where(text("defender_points").str.fullmatch(r"[0-9]+")),
            errors="coerce",
        )
        bad = role.isna() | defended.isna() | (defended % 5 != 0)
        _raise(
            bad,
            rows,
            source,
            "role and defender_points",
            "is not a dealer/defender with defender points in fives",
        )
        dealer = np.full(len(games), -3, dtype=np.int64)
        for top, dealer_points in reversed(SHENGJI_STEPS):
            dealer = np.where(defended.to_numpy() <= top, dealer_points, dealer)
        return np.asarray(dealer * role.to_numpy(dtype=np.int64), dtype=np.int64)
    outcome = text("outcome").map(lambda v: OUTCOME_WORDS.get(v, v))
    if scheme.kind == "guandan":
        outcome = outcome + " " + text("finish").str.replace(r"\s", "", regex=True)
    points = outcome.map(scheme.points)
    _raise(
        points.isna(),
        rows,
        source,
        "outcome",
        f"is not an outcome of the {scheme.name} scheme ({', '.join(scheme.points)})",
    )
    return np.asarray(points.to_numpy(dtype=np.int64), dtype=np.int64)


def _raise(bad: pd.Series, rows: np.ndarray, source: str, column: str, message: str) -> None:
    mask = bad.to_numpy(dtype=bool)
    if mask.any():
        raise InvalidData(
            [
                Problem(
                    source,
                    message,
                    (int(r),),
                    column,
                    "see the scheme in the README",
                    code="games.bad-cell",
                )
                for r in rows[mask]
            ]
        )


def _doudizhu_points(games: pd.DataFrame, source: str) -> IntArray:
    """Dou Dizhu points: the game score by multipliers and caps, each game a table."""
    columns = header_map(games)
    game = games[columns["game_id"]].astype("str")
    # Each game is a table of its own: a round of one deal, seats counted within the game.
    ids = pd.DataFrame(
        {
            "round": pd.factorize(game, sort=True)[0] + 1,
            "deal": 1,
            "table": 1,
            "seat": game.groupby(game).cumcount(),
            "player": games[columns["player"]].astype("str"),
        }
    )
    results = parse_results(ids, source, 2, score_required=False)
    return doudizhu_from_raw(results, games, Rules())


def leaderboard(games: pd.DataFrame, scheme: Scheme, source: str = "<games>") -> pd.DataFrame:
    """Players by total points; equal totals: the player whose last game finished first."""
    columns = header_map(games)
    missing = [c for c in ("player", "game_id", "finished_at") if c not in columns]
    if missing:
        raise InvalidData(
            [
                Problem(
                    source,
                    f"missing column {', '.join(missing)}",
                    hint="one row per player per game: player, game_id, finished_at, ...",
                    code="column.missing",
                )
            ]
        )
    games = games.reset_index(drop=True)
    finished = pd.to_datetime(
        games[columns["finished_at"]].astype("str"), errors="coerce", utc=True, format="ISO8601"
    )
    rows = np.arange(2, len(games) + 2)
    _raise(
        finished.isna(),
        rows,
        source,
        "finished_at",
        "is not a date and time (ISO 8601, such as 2025-01-21T20:15:00)",
    )
    player = games[columns["player"]].astype("str")
    twice = pd.DataFrame({"p": player, "g": games[columns["game_id"]].astype("str")}).duplicated(
        keep=False
    )
    _raise(twice, rows, source, "player", "appears twice in one game")
    points = game_points(games, scheme, source)
    per_player = pd.DataFrame({"player": player, "points": points, "finished": finished}).groupby(
        "player"
    )
    # Compared in UTC, shown as written: +08:00 stays +08:00.
    written = games[columns["finished_at"]].astype("str").str.strip()
    table = pd.DataFrame(
        {
            "points": per_player["points"].sum(),
            "games": per_player["points"].size(),
            "last": per_player["finished"].max(),
            "last_written": written.to_numpy()[per_player["finished"].idxmax().to_numpy()],
        }
    ).reset_index()
    return _ranked(table)


def _ranked(table: pd.DataFrame) -> pd.DataFrame:
    """Each player's totals (points, games, last and last_written) in place order, and
    what decided each place."""
    table = table.sort_values(
        ["points", "last", "player"],
        ascending=[False, True, True],
        kind="stable",
        ignore_index=True,
    )
    same_points = table["points"].eq(table["points"].shift())
    same_time = table["last"].eq(table["last"].shift())
    decided = np.where(~same_points, "points", np.where(~same_time, "finished_first", "tied"))
    decided[0] = ""
    new_place = decided != "tied"
    starts = np.maximum.accumulate(np.where(new_place, np.arange(len(table)), 0))
    group = np.cumsum(new_place) - 1
    return pd.DataFrame(
        {
            "place": starts + 1,
            "player": table["player"],
            "points": table["points"].astype("int64"),
            "games": table["games"].astype("int64"),
            "last_finished": pd.Series(table["last_written"], dtype="str"),
            "decided_by": pd.Series(decided, dtype="str"),
            "tied": np.bincount(group)[group] > 1,
        }
    )[list(LEADERBOARD_COLUMNS)]
