"""Stack elimination (打立出局, docs/scoring.md 8.1-8.3 and 8.6): chips hand by hand.

Each hand's payments depend on every player's chips after the hands before it, so
the hands are settled one after another; within a hand, everything is a few numbers.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction
from typing import Any

import pandas as pd

from duplicate.errors import InvalidData, Problem
from duplicate.stages.hand_log import HandLog, minute_text, seat_key
from duplicate.stages.order import Criterion, order_rows
from duplicate.stages.stage_rules import StageRules, base_at
from duplicate.text import counted

STANDINGS_COLUMNS = (
    "place",
    "player",
    "chips",
    "hands",
    "eliminated_in",
    "minute",
    "qualified",
    "carried",
    "decided_by",
)
LEDGER_COLUMNS = (
    "hand",
    "minute",
    "base",
    "payer",
    "payee",
    "owed",
    "paid",
    "cap",
    "payer_chips_after",
    "payee_chips_after",
)


@dataclass
class Seat:
    """One player's row of a hand."""

    player: str
    seat: Any
    score: int
    row: int


@dataclass
class Hand:
    hand: Any
    table: Any
    minute: Fraction
    seats: list[Seat]


@dataclass
class PlayerState:
    player: str
    chips: int
    hands: int = 0
    # The game score of their last hand (the log's `score`): the equal-result rule's.
    last_score: int = 0
    # Settlement position and id of the hand that put the player out.
    out_index: int | None = None
    out_hand: Any = None
    out_minute: Fraction | None = None
    rows: list[int] = field(default_factory=list)


HISTORY_COLUMNS = ("hand", "minute", "player", "chips", "out")


@dataclass(frozen=True)
class Stage:
    """The stage standings, the ledger of every payment, and every player's chips
    after each of their hands (`history`: hand, minute, player, chips, out)."""

    standings: pd.DataFrame
    ledger: pd.DataFrame
    history: pd.DataFrame


def hands_of(log: HandLog) -> list[Hand]:
    """The log's hands in settlement order, each with its rows in seat order."""
    groups: dict[Any, Hand] = {}
    for record in log.frame.to_dict("records"):
        hand = groups.setdefault(
            record["hand"], Hand(record["hand"], record["table"], record["minute"], [])
        )
        seat = Seat(str(record["player"]), record["seat"], int(record["score"]), int(record["row"]))
        hand.seats.append(seat)
    for hand in groups.values():
        hand.seats.sort(key=lambda s: seat_key(s.seat))
    return [groups[h] for h in log.hands]


def settle(hand: Hand, base: int, chips: dict[str, int]) -> list[dict[str, Any]]:
    """The hand's payments (docs/scoring.md 8.1), from chips as they stood before it.

    The hub is the only winner (it receives from each loser) or else the only loser
    (it pays the winners in seat order from the seat after its own, while it has chips).
    Each payment is the smallest of what is owed, the payer's and the payee's chips.
    """
    winners = [s for s in hand.seats if s.score > 0]
    losers = [s for s in hand.seats if s.score < 0]
    payments: list[dict[str, Any]] = []
    if not winners:
        return payments
    if len(winners) == 1:
        hub = winners[0]
        for loser in losers:
            payments.append(_payment(loser, hub, -loser.score * base, chips, None))
        return payments
    hub = losers[0]
    at = hand.seats.index(hub)
    left = chips[hub.player]
    for other in hand.seats[at + 1 :] + hand.seats[:at]:
        if other.score > 0:
            payment = _payment(hub, other, other.score * base, chips, left)
            left -= payment["paid"]
            payments.append(payment)
    return payments


def _payment(
    payer: Seat, payee: Seat, owed: int, chips: dict[str, int], left: int | None
) -> dict[str, Any]:
    limits = [
        ("", owed),
        ("payer_chips", chips[payer.player]),
        ("payee_chips", chips[payee.player]),
    ]
    if left is not None:
        limits.append(("payer_left", left))
    cap, paid = min(limits, key=lambda limit: limit[1])
    return {"payer": payer.player, "payee": payee.player, "owed": owed, "paid": paid, "cap": cap}


def player_payments(ledger: pd.DataFrame, player: str) -> pd.DataFrame:
    """The payments a player made or received, each with its cap and the chips after."""
    return ledger[(ledger["payer"] == player) | (ledger["payee"] == player)].reset_index(drop=True)


def is_out(chips: int, base: int, rules: StageRules) -> bool:
    """Below the limit: a fixed number of chips, or a share of the base in force."""
    if rules.eliminate_below_chips is not None:
        return chips < rules.eliminate_below_chips
    num, den = rules.eliminate_below.as_integer_ratio()
    return chips * den < num * base


def eliminate(log: HandLog, rules: StageRules, registered: dict[str, int] | None = None) -> Stage:
    """Settle every hand in order; the standings (docs/scoring.md 8.2) and the ledger."""
    hands = hands_of(log)
    schedule = rules.elimination_base()
    state: dict[str, PlayerState] = {}
    for hand in hands:
        for seat in hand.seats:
            state.setdefault(seat.player, PlayerState(seat.player, rules.start))
    chips = {p: s.chips for p, s in state.items()}
    problems: list[Problem] = []
    ledger: list[dict[str, Any]] = []
    history: list[tuple[Any, str, str, int, bool]] = []
    for index, hand in enumerate(hands):
        problems += _played_after_out(hand, state, log.source)
        base = base_at(schedule, hand.minute)
        payments = settle(hand, base, chips)
        history += _pay(hand, index, payments, base, chips, state, rules)
        ledger += [
            {
                "hand": hand.hand,
                "minute": minute_text(hand.minute),
                "base": base,
                **payment,
                "payer_chips_after": chips[payment["payer"]],
                "payee_chips_after": chips[payment["payee"]],
            }
            for payment in payments
        ]
    problems += sitting_problems(log, hands, rules.ass_hands)
    if problems:
        raise InvalidData(problems)
    for name, held in chips.items():
        state[name].chips = held
    return Stage(
        standings(list(state.values()), rules, registered),
        pd.DataFrame(ledger, columns=list(LEDGER_COLUMNS)),
        pd.DataFrame(history, columns=list(HISTORY_COLUMNS)),
    )


def _played_after_out(hand: Hand, state: dict[str, PlayerState], source: str) -> list[Problem]:
    """A problem for each player of `hand` already eliminated."""
    return [
        Problem(
            source,
            f"player {seat.player!r} plays hand {hand.hand!r} after being eliminated "
            f"in hand {state[seat.player].out_hand!r}",
            (seat.row,),
            "player",
            "an eliminated player plays no further hand; correct the player or the hand",
            code="stage.played-after-out",
        )
        for seat in hand.seats
        if state[seat.player].out_index is not None
    ]


def _pay(
    hand: Hand,
    index: int,
    payments: list[dict[str, Any]],
    base: int,
    chips: dict[str, int],
    state: dict[str, PlayerState],
    rules: StageRules,
) -> list[tuple[Any, str, str, int, bool]]:
    """Move the chips of a hand's payments, mark who is out, and give each player's
    chips after the hand (a row of the history)."""
    change = Counter[str]()
    for payment in payments:
        change[payment["payer"]] -= payment["paid"]
        change[payment["payee"]] += payment["paid"]
    history = []
    for seat in hand.seats:
        chips[seat.player] += change[seat.player]
        player = state[seat.player]
        player.hands += 1
        player.last_score = seat.score
        player.rows.append(seat.row)
        if player.out_index is None and is_out(chips[seat.player], base, rules):
            player.out_index, player.out_hand, player.out_minute = index, hand.hand, hand.minute
        history.append(
            (
                hand.hand,
                minute_text(hand.minute),
                seat.player,
                chips[seat.player],
                player.out_index == index,
            )
        )
    return history


def standings(
    players: list[PlayerState], rules: StageRules, registered: dict[str, int] | None
) -> pd.DataFrame:
    """Players still in by chips, then the eliminated, the latest hand first; ties by the
    equal-result rule (docs/scoring.md 8.5)."""
    criteria = [
        Criterion(
            "eliminated",
            lambda p: (0, 0) if p.out_index is None else (1, -p.out_index),
        ),
        Criterion("chips", lambda p: -p.chips),
        *equal_result_criteria(lambda p: p.last_score, registered),
    ]
    ordered, places, decided = order_rows(players, criteria, lambda p: p.player)
    qualified = [i < rules.advance for i in range(len(ordered))]
    return pd.DataFrame(
        {
            "place": pd.array(places, dtype="Int64"),
            "player": pd.Series([p.player for p in ordered], dtype="str"),
            "chips": pd.array([p.chips for p in ordered], dtype="Int64"),
            "hands": pd.array([p.hands for p in ordered], dtype="Int64"),
            "eliminated_in": pd.Series(
                ["" if p.out_hand is None else str(p.out_hand) for p in ordered], dtype="str"
            ),
            "minute": pd.Series(
                ["" if p.out_minute is None else minute_text(p.out_minute) for p in ordered],
                dtype="str",
            ),
            "qualified": qualified,
            "carried": pd.array(
                [
                    carried(p.chips, rules) if q else None
                    for p, q in zip(ordered, qualified, strict=True)
                ],
                dtype="Int64",
            ),
            "decided_by": pd.Series(decided, dtype="str"),
        }
    )[list(STANDINGS_COLUMNS)]


def equal_result_criteria(last_hand: Any, registered: dict[str, int] | None) -> list[Criterion]:
    """docs/scoring.md 8.5: the higher game score in the last hand first (the log's
    `score`, not the chips or points it moved), then earlier registration (when a
    players file gives it; without one the tie stands, for a play-off)."""
    criteria = [Criterion("last_hand", lambda p: -last_hand(p))]
    if registered is not None:
        unknown = len(registered) + 1
        criteria.append(Criterion("registration", lambda p: registered.get(p.player, unknown)))
    return criteria


def carried(chips: int, rules: StageRules) -> int:
    """What a qualifier carries into the final (docs/scoring.md 8.3), half up to a point."""
    if rules.carry == "none":
        return 0
    with localcontext() as context:
        context.prec = 60
        value = Decimal(chips) if rules.carry == "ratio" else Decimal(chips).sqrt()
        return int((value * rules.carry_ratio).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def sitting_problems(log: HandLog, hands: list[Hand], ass_hands: int) -> list[Problem]:
    """With ASS (docs/scoring.md 8.6): every sitting longer than `ass_hands` hands."""
    if not ass_hands:
        return []
    problems = []
    runs: dict[Any, tuple[frozenset[str], list[Hand]]] = {}

    def close(table: Any) -> None:
        _, run = runs.pop(table, (frozenset(), []))
        if len(run) > ass_hands:
            rows = tuple(s.row for h in run for s in h.seats)
            problems.append(
                Problem(
                    log.source,
                    f"table {table!r} plays {counted(len(run), 'hand')} in a row with the same "
                    "players "
                    f"(hands {', '.join(repr(h.hand) for h in run)})",
                    rows,
                    "table",
                    f"ASS re-tables after {counted(ass_hands, 'hand')}; check the log or "
                    "{opt:ass_hands}",
                    code="stage.sitting-too-long",
                )
            )

    for hand in hands:
        players = frozenset(s.player for s in hand.seats)
        if hand.table in runs and runs[hand.table][0] != players:
            close(hand.table)
        runs.setdefault(hand.table, (players, []))[1].append(hand)
    for table in list(runs):
        close(table)
    return problems
