"""A stage's hand log (docs/scoring.md section 8): one row per player per hand, checked.

Columns: hand, table, seat, player, score (the hand's game score, in base units; every
hand sums to 0), and minute (since the stage began, when the hand ended) or
finished_at (a timestamp; the stage then begins at the earliest one). Headers in
English or Chinese.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from duplicate.errors import InvalidData, Problem
from duplicate.limits import MAX_LISTED
from duplicate.model.columns import compared
from duplicate.model.numbers import decimal_units, refusal

ALIASES: dict[str, tuple[str, ...]] = {
    "hand": ("hand", "局", "局号", "局號", "牌局"),
    "table": ("table", "桌号", "桌號", "桌"),
    "seat": ("seat", "方位", "座位"),
    "player": ("player", "牌手", "选手", "選手"),
    "score": ("score", "得分"),
    "minute": ("minute", "分钟", "分鐘"),
    "finished_at": ("finished_at", "结束时间", "結束時間"),
}
REQUIRED = ("hand", "table", "seat", "player", "score")
# Compass seats, clockwise from North: the order in which a losing hub pays.
COMPASS = {"N": 0, "E": 1, "S": 2, "W": 3}
_COMPASS_NAMES = {"NORTH": "N", "EAST": "E", "SOUTH": "S", "WEST": "W", **{k: k for k in COMPASS}}
# Units of a second in a timestamp, by the resolution it was parsed at.
_PER_SECOND = {"s": 1, "ms": 10**3, "us": 10**6, "ns": 10**9}
# Game scores of one hand: far below what a chip count could overflow with.
MAX_SCORE = 10**6
_INTEGER = r"-?(?:0|[1-9][0-9]{0,17})"


@dataclass(frozen=True)
class HandLog:
    """The checked log: `frame` holds hand, table, seat, player (text), score (int),
    row, and `minute` (a Fraction per row); `hands` the hand ids in settlement order
    (minute, then hand id)."""

    frame: pd.DataFrame
    hands: list[object]
    source: str


def parse_hand_log(raw: pd.DataFrame, source: str, first_row: int = 2) -> HandLog:
    """Check a hand log and order its hands; InvalidData lists every problem."""
    columns = _columns(raw, source)
    raw = raw.reset_index(drop=True)
    rows = np.arange(first_row, first_row + len(raw))
    problems: list[Problem] = []
    text = {name: _text(raw[columns[name]]) for name in ("hand", "table", "seat", "player")}
    for name, values in text.items():
        empty = values == ""
        _flag(
            problems,
            source,
            rows,
            empty,
            name,
            "empty",
            f"every row needs a {name}",
            code="cell.empty",
        )
    held = decimal_units(raw[columns["score"]])
    bad = held.bad | (held.scale > 0) & (held.units % 10**held.scale != 0)
    scores = held.units // 10**held.scale
    bad |= np.abs(scores) > MAX_SCORE
    whole = f"is not a whole game score from -{MAX_SCORE} to {MAX_SCORE}"
    hint = "write the hand's score"
    cells = raw[columns["score"]]
    _flag(
        problems, source, rows, bad, "score", whole, hint, cells, refusal, code="cell.not-a-score"
    )
    minutes = _minutes(raw, columns, source, rows, problems)
    seats = _compass(text["seat"], source, rows, problems)
    if problems:
        raise InvalidData(problems)
    frame = pd.DataFrame(
        {
            "hand": _identifier(text["hand"]),
            "table": _identifier(text["table"]),
            "seat": _identifier(text["seat"]) if seats is None else seats,
            "player": text["player"],
            "score": scores.astype(np.int64),
            "minute": minutes,
            "row": rows,
        }
    )
    problems = hand_problems(frame, source)
    if problems:
        raise InvalidData(problems)
    first = frame.drop_duplicates("hand")
    order = sorted(zip(first["minute"], first["hand"], strict=True), key=_settlement_key)
    return HandLog(frame, [hand for _, hand in order], source)


def hand_problems(frame: pd.DataFrame, source: str) -> list[Problem]:
    """What makes hands unsettleable: one hand at two tables or minutes, a player or a
    seat twice in a hand, a hand not summing to 0 or with several winners and several
    losers, a player in two hands ending at the same minute."""
    problems: list[Problem] = []

    def each(mask: pd.Series, keys: list[str], message: str, hint: str, *, code: str) -> None:
        for key, group in frame[mask.to_numpy()].groupby(keys, sort=True):
            label = key if isinstance(key, tuple) else (key,)
            shown = message.format(*label)
            rows = tuple(int(r) for r in group["row"])
            problems.append(Problem(source, shown, rows, None, hint, code=code))

    by_hand = frame.groupby("hand", sort=False)
    each(
        by_hand["table"].transform("nunique") > 1,
        ["hand"],
        "hand {0!r} is played at more than one table",
        "a hand is one table's; correct the table or the hand",
        code="hands.two-tables",
    )
    each(
        by_hand["minute"].transform("nunique") > 1,
        ["hand"],
        "hand {0!r} ends at more than one time",
        "every row of a hand has the minute it ended",
        code="hands.two-times",
    )
    each(
        frame.duplicated(["hand", "player"], keep=False),
        ["hand", "player"],
        "player {1!r} appears twice in hand {0!r}",
        "keep one row per player per hand",
        code="hands.player-twice",
    )
    each(
        frame.duplicated(["hand", "seat"], keep=False)
        & ~frame.duplicated(["hand", "player"], keep=False),
        ["hand", "seat"],
        "seat {1!r} holds two players in hand {0!r}",
        "each seat holds one player",
        code="hands.seat-shared",
    )
    total = by_hand["score"].transform("sum")
    each(
        total != 0,
        ["hand"],
        "hand {0!r} does not sum to 0",
        "a hand's scores are what its players win and lose: correct a score",
        code="hands.not-zero",
    )
    winners = (frame["score"] > 0).groupby(frame["hand"], sort=False).transform("sum")
    losers = (frame["score"] < 0).groupby(frame["hand"], sort=False).transform("sum")
    each(
        (winners > 1) & (losers > 1) & (total == 0),
        ["hand"],
        "hand {0!r} has several winners and several losers",
        "payments are settled with one winner or one loser (docs/scoring.md, stage formats)",
        code="hands.many-winners-and-losers",
    )
    return problems + _at_one_minute(frame, source)


def _at_one_minute(frame: pd.DataFrame, source: str) -> list[Problem]:
    """A problem for each player in two hands ending at the same minute."""
    per_minute = frame.drop_duplicates(["hand", "player"])
    twice = per_minute.duplicated(["player", "minute"], keep=False)
    clash = frame.merge(per_minute[twice.to_numpy()][["player", "minute"]].drop_duplicates())
    return [
        Problem(
            source,
            f"player {player!r} is in two hands ending at minute "
            f"{minute_text(group['minute'].iloc[0])}",
            tuple(int(r) for r in group["row"]),
            "player",
            "a player plays one hand at a time; correct the minute or the player",
            code="hands.two-at-once",
        )
        for player, group in clash.groupby("player", sort=True)
    ]


def _compass(
    seats: pd.Series, source: str, rows: np.ndarray, problems: list[Problem]
) -> pd.Series | None:
    """Seats as compass points (N, E, S, W, or North ...: any case), as N, E, S, W; None
    when no seat is one. A log with some compass seats and some others is refused: the
    order of its seats, and so who is paid first, could not be told."""
    named = seats.str.upper().map(_COMPASS_NAMES)
    known = named.notna().to_numpy()
    if not known.any():
        return None
    _flag(
        problems,
        source,
        rows,
        ~known & (seats != "").to_numpy(),
        "seat",
        "is not a compass seat (N, E, S, W), as other seats of the log are",
        "write every seat as a compass point, or every seat as a number from 0",
        seats,
        code="hands.mixed-seats",
    )
    return named.astype("str")


def seat_key(seat: Any) -> tuple[int, Any]:
    """Seats in the order payments go round a table: compass seats clockwise from
    North; else numbers before text, each in its own order."""
    if isinstance(seat, str) and seat in COMPASS:
        return (-1, COMPASS[seat])
    return id_key(seat)


def _settlement_key(pair: tuple[Fraction, object]) -> tuple[Fraction, tuple[int, Any]]:
    minute, hand = pair
    return (minute, id_key(hand))


def id_key(value: Any) -> tuple[int, Any]:
    """Ids in order: integers before text, each in its own order (a log holds one kind)."""
    return (0, value) if isinstance(value, int | np.integer) else (1, str(value))


def minute_text(minute: Fraction) -> str:
    """A minute as a decimal: exact when it ends, else to 2 places, half up."""
    value = Decimal(minute.numerator) / Decimal(minute.denominator)
    if _terminates(minute.denominator):
        return format(value.normalize(), "f") if value else "0"
    return format(value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP), "f")


def _terminates(denominator: int) -> bool:
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    return denominator == 1


def _columns(raw: pd.DataFrame, source: str) -> dict[str, str]:
    lookup = {alias.casefold(): name for name, aliases in ALIASES.items() for alias in aliases}
    found: dict[str, str] = {}
    for header in raw.columns:
        name = lookup.get(compared(header))
        if name is not None:
            if name in found:
                raise InvalidData(
                    [
                        Problem(
                            source,
                            f"columns {found[name]!r} and {header!r} both mean '{name}'",
                            hint="keep one of them",
                            code="column.repeated",
                        )
                    ]
                )
            found[name] = str(header)
    missing = [name for name in REQUIRED if name not in found]
    if "minute" not in found and "finished_at" not in found:
        missing.append("minute (or finished_at)")
    if missing:
        have = ", ".join(repr(str(c)) for c in raw.columns) or "none"
        raise InvalidData(
            [
                Problem(
                    source,
                    f"missing column{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
                    f"(columns found: {have})",
                    hint="a hand log needs hand, table, seat, player, score and minute",
                    code="column.missing",
                )
            ]
        )
    if len(raw) == 0:
        raise InvalidData(
            [
                Problem(
                    source,
                    "has no hands",
                    hint="add one row per player per hand",
                    code="input.empty",
                )
            ]
        )
    return found


def _minutes(
    raw: pd.DataFrame,
    columns: dict[str, str],
    source: str,
    rows: np.ndarray,
    problems: list[Problem],
) -> list[Fraction]:
    """Each row's minute as an exact Fraction (from minute, or from finished_at)."""
    if "minute" in columns:
        held = decimal_units(raw[columns["minute"]])
        bad = held.bad | (held.units < 0)
        _flag(
            problems,
            source,
            rows,
            bad,
            "minute",
            "is not a minute >= 0",
            "give the minute the hand ended",
            raw[columns["minute"]],
            code="cell.not-a-minute",
        )
        return [Fraction(int(u), 10**held.scale) for u in held.units]
    cells = raw[columns["finished_at"]]
    text = cells.astype("str")
    stamps = pd.to_datetime(text, errors="coerce", utc=True, format="ISO8601")
    # Finer than nanoseconds would be cut short: refused, as any value not held exactly.
    finer = text.str.contains(r"[.,][0-9]{10}", regex=True).to_numpy(dtype=bool)
    _flag(
        problems,
        source,
        rows,
        stamps.isna().to_numpy() | finer,
        "finished_at",
        "is not a date and time (to the nanosecond at most; with nanoseconds, from 1677 to 2262)",
        "write it as 2026-05-01T20:15:00+08:00",
        cells,
        code="cell.not-a-time",
    )
    if stamps.isna().any():
        return [Fraction(0)] * len(raw)
    # Held at the resolution the parser chose: one that holds every time given (year
    # 0001 and 2300 in microseconds; nanoseconds only when a time is given to them).
    since = stamps.astype("int64")
    per_minute = 60 * _PER_SECOND[str(stamps.dt.unit)]
    return [Fraction(int(n), per_minute) for n in since - since.min()]


def _flag(
    problems: list[Problem],
    source: str,
    rows: np.ndarray,
    bad: np.ndarray | pd.Series,
    column: str,
    what: str,
    hint: str,
    cells: pd.Series | None = None,
    why: Callable[[object], str | None] = lambda value: None,
    *,
    code: str,
) -> None:
    """A problem for each bad cell (the first MAX_LISTED; then one counting the rest),
    shown as written with `why` it is bad when it says, else `what`."""
    at = np.flatnonzero(np.asarray(bad))
    for i in at[:MAX_LISTED]:
        value = None if cells is None else cells.iloc[i]
        shown = "empty" if cells is None else f"{value!r} {why(value) or what}"
        problems.append(Problem(source, shown, (int(rows[i]),), column, hint, code=code))
    if len(at) > MAX_LISTED:
        rest = len(at) - MAX_LISTED
        problems.append(
            Problem(
                source,
                f"{rest} more cells like these",
                column=column,
                hint=hint,
                count=rest,
                code=code,
            )
        )


def _text(column: pd.Series) -> pd.Series:
    text = column.astype("str").str.strip()
    return text.where(column.notna(), "").reset_index(drop=True)


def _identifier(text: pd.Series) -> pd.Series:
    """Ids as int64 when all are plain integers (hand 10 after hand 9), else text."""
    if bool(text.str.fullmatch(_INTEGER).all()):
        return text.astype("int64")
    return text
