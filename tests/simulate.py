"""Simulate a Swiss event round by round, seating each round with `duplicate seat`'s logic."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

import duplicate


def simulate(
    players: int, k: int, rounds: int, avoid_repeats: bool, window: int | None = None, seed: int = 1
) -> list[Any]:
    """Play `rounds` rounds of 2 deals with random scores; return each round's seating report."""
    rng = np.random.default_rng(seed)
    field = pd.DataFrame({"player": [f"p{i:04d}" for i in range(players)]})
    seating = duplicate.seat(players=field, table_size=k, round_number=1, seed=seed)
    reports = []
    results: list[pd.DataFrame] = []
    for round_no in range(1, rounds + 1):
        seated = seating.frame[~seating.frame["bye"]]
        for deal in (1, 2):
            results.append(
                pd.DataFrame(
                    {
                        "round": round_no,
                        "deal": deal,
                        "table": seated["table"].to_numpy(dtype=np.int64),
                        "seat": seated["seat"].to_numpy(dtype=np.int64),
                        "player": seated["player"].astype(str).to_numpy(),
                        "score": rng.integers(-20, 21, len(seated)),
                    }
                )
            )
        seating = duplicate.seat(
            pd.concat(results, ignore_index=True),
            table_size=k,
            avoid_repeats=avoid_repeats,
            window=window,
        )
        reports.extend(seating.reports)
    return reports
