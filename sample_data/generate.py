"""Generate the sample event in sample_data/ (run by `make sample`; output is committed).

A Big Two event: 48 players, 3 rounds of 8 deals, tables of 4, with play times.
Round 1 is seated at random; later rounds by the standings so far, in the snake order
of docs/scoring.md section 5. Game scores come from simulated cards left, shown hands and
doubles through the Big Two scoring of section 6. Seeded: every run writes the same files.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

import duplicate
from duplicate.games.big2 import big2_scores

HERE = Path(__file__).parent
PLAYERS = 48
TABLE_SIZE = 4
ROUNDS = 3
DEALS = 8
SEED = 20261130


def snake(order: list[str]) -> list[tuple[int, int, str]]:
    """(table, seat, player) for players in standings order: 1,2,3,4 / 8,7,6,5 / ..."""
    seats = []
    for i, player in enumerate(order):
        table, position = divmod(i, TABLE_SIZE)
        seat = position if table % 2 == 0 else TABLE_SIZE - 1 - position
        seats.append((table + 1, seat, player))
    return seats


def play_round(
    rng: np.random.Generator,
    round_no: int,
    seating: list[tuple[int, int, str]],
    skill: dict[str, float],
) -> pd.DataFrame:
    rows = []
    for deal in range(1, DEALS + 1):
        hand = rng.normal(0, 1, TABLE_SIZE)  # the same cards for every table
        for table in sorted({t for t, _, _ in seating}):
            at_table = [(s, p) for t, s, p in seating if t == table]
            perf = np.array([hand[s] + 0.7 * skill[p] + rng.normal(0, 0.8) for s, p in at_table])
            cards = np.clip(np.round(7 - 2.5 * perf + rng.normal(0, 2, len(perf))), 1, 13)
            cards[np.argmax(perf)] = 0
            for (seat, player), left in zip(at_table, cards, strict=True):
                rows.append(
                    {
                        "round": round_no,
                        "deal": deal,
                        "table": table,
                        "seat": seat,
                        "player": player,
                        "cards_left": int(left),
                        "open": bool(rng.random() < 0.03),
                        "doubled": bool(rng.random() < 0.12),
                        "seconds": int(np.clip(rng.normal(115, 30), 25, 300)),
                    }
                )
    frame = pd.DataFrame(rows)
    frame["score"] = big2_scores(
        frame["deal"].astype(str) + "/" + frame["table"].astype(str),
        frame["cards_left"].to_numpy(),
        frame["open"].to_numpy(),
        frame["doubled"].to_numpy(),
    )
    return frame


def main() -> None:
    rng = np.random.default_rng(SEED)
    players = [f"P{i:02d}" for i in range(1, PLAYERS + 1)]
    skill = {p: float(rng.normal(0, 1)) for p in players}
    order = list(rng.permutation(players))
    rounds = []
    for round_no in range(1, ROUNDS + 1):
        rounds.append(play_round(rng, round_no, snake(order), skill))
        so_far = pd.concat(rounds, ignore_index=True)
        order = list(duplicate.standings(so_far).frame["player"])
    event = pd.concat(rounds, ignore_index=True)
    columns = ["round", "deal", "table", "seat", "player", "score", "seconds"]
    event = event.sort_values(["round", "deal", "table", "seat"])[columns]
    event.to_csv(HERE / "big2_event.csv", index=False)
    event.to_parquet(HERE / "big2_event.parquet", index=False)


if __name__ == "__main__":
    main()
