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


if __name__ == "__main__":
    main()
