"""Time `score` and `standings` on a generated event (`make bench ROWS=...`).

The event: players in tables of 4, one round of 25 deals, scores from a small range so
that ties are everywhere, play times on every row. The data is generated into
bench-data/ (ignored by git) once per size and reused.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
DEALS = 25
TABLE_SIZE = 4


def generate(rows: int, folder: Path) -> tuple[Path, Path]:
    folder.mkdir(exist_ok=True)
    csv, parquet = folder / f"event_{rows}.csv", folder / f"event_{rows}.parquet"
    if csv.exists() and parquet.exists():
        return csv, parquet
    players = max(TABLE_SIZE, rows // DEALS // TABLE_SIZE * TABLE_SIZE)
    rng = np.random.default_rng(1)
    player = np.tile(np.arange(players), DEALS)
    frame = pd.DataFrame(
        {
            "round": 1,
            "deal": np.repeat(np.arange(1, DEALS + 1), players),
            "table": player // TABLE_SIZE + 1,
            "seat": player % TABLE_SIZE,
            "player": player + 1,
            "score": rng.integers(-30, 31, len(player)),
            "seconds": rng.integers(20, 300, len(player)),
        }
    )
    frame.to_csv(csv, index=False)
    frame.to_parquet(parquet, index=False)
    return csv, parquet


def generate_swiss(players: int, folder: Path, rounds: int = 3) -> Path:
    """An event of `rounds` rounds in tables of 4, later rounds seated by a snake."""
    path = folder / f"swiss_{players}.parquet"
    if path.exists():
        return path
    rng = np.random.default_rng(2)
    players -= players % TABLE_SIZE
    total = np.zeros(players)
    order = rng.permutation(players)
    frames = []
    for round_no in range(1, rounds + 1):
        position = np.empty(players, dtype=np.int64)
        position[order] = np.arange(players)
        table, place = np.divmod(position, TABLE_SIZE)
        seat = np.where(table % 2 == 1, TABLE_SIZE - 1 - place, place)
        for deal in (1, 2):
            score = rng.integers(-30, 31, players)
            total += score
            frames.append(
                pd.DataFrame(
                    {
                        "round": round_no,
                        "deal": deal,
                        "table": table + 1,
                        "seat": seat,
                        "player": np.arange(players) + 1,
                        "score": score,
                    }
                )
            )
        order = np.argsort(-total, kind="stable")
    pd.concat(frames, ignore_index=True).to_parquet(path, index=False)
    return path


def timed(label: str, args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"{label:<44} {seconds:7.2f} s   (peak RSS so far {peak:,.0f} MiB)")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--seat-players", type=int, nargs="*", default=[10_000, 100_000])
    args = parser.parse_args()
    csv, parquet = generate(args.rows, ROOT / "bench-data")
    out = ROOT / "bench-data"
    tool = [sys.executable, "-m", "duplicate"]
    print(f"{args.rows:,} result rows, {DEALS} deals, tables of {TABLE_SIZE}")
    timed("duplicate --help", [*tool, "--help"])
    timed("score, CSV in, Parquet out", [*tool, "score", str(csv), "-o", str(out / "s.parquet")])
    timed(
        "score, Parquet in, Parquet out",
        [*tool, "score", str(parquet), "-o", str(out / "s.parquet")],
    )
    timed("standings, CSV in, CSV out", [*tool, "standings", str(csv), "-o", str(out / "t.csv")])
    timed(
        "standings, Parquet in, Parquet out",
        [*tool, "standings", str(parquet), "-o", str(out / "t.parquet")],
    )
    for players in args.seat_players:
        swiss = generate_swiss(players, ROOT / "bench-data")
        timed(
            f"seat {players:,} players, tables of 4, avoid repeats",
            [*tool, "seat", str(swiss), "-o", str(out / "seat.csv")],
        )


if __name__ == "__main__":
    main()
