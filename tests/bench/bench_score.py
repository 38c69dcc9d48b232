"""Time validate, score, standings and seat on generated events (`make bench ROWS=...`).

Four input shapes (see shapes.py), each generated into bench-data/ (ignored by git)
once per size and reused. Each command runs as a new
process, REPEAT times; the best time is kept, with the process's peak memory.
DuckDB's SQL for the same scores is timed the same way, and its results compared; so
is floor.py, which only reads the results and writes a table as wide as `score`'s.
"""

from __future__ import annotations

import argparse
import compileall
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).parent))

from shapes import DEALS, SHAPES, TABLE_SIZE, generate, path_of  # noqa: E402

FLOOR = Path(__file__).parent / "floor.py"


def generate_swiss(players: int, folder: Path, rounds: int = 3, k: int = TABLE_SIZE) -> Path:
    """An event of `rounds` rounds in tables of `k`, later rounds seated by a snake."""
    path = folder / (
        f"swiss_{players}.parquet" if k == TABLE_SIZE else f"swiss_{players}_k{k}.parquet"
    )
    if path.exists():
        return path
    rng = np.random.default_rng(2)
    players -= players % k
    total = np.zeros(players)
    order = rng.permutation(players)
    frames = []
    for round_no in range(1, rounds + 1):
        position = np.empty(players, dtype=np.int64)
        position[order] = np.arange(players)
        table, place = np.divmod(position, k)
        seat = np.where(table % 2 == 1, k - 1 - place, place)
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


# Seating timed for each table size `seat` takes without --force.
TABLE_SIZES = range(2, 9)
TABLE_SIZE_PLAYERS = 1_000

DUCKDB_SCORE = """
COPY (
  WITH r AS (SELECT * FROM {reader}('{source}')),
  cells AS (
    SELECT round, deal, seat, score, count(*) AS eq,
           coalesce(sum(count(*)) OVER (PARTITION BY round, deal, seat ORDER BY score
                    ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS below,
           sum(count(*)) OVER (PARTITION BY round, deal, seat) AS n
    FROM r GROUP BY round, deal, seat, score),
  pct AS (
    SELECT *, 2 * below + eq - 1 AS mp, 2 * (n - 1) AS top,
           CASE WHEN n > 1 THEN (2 * below + eq - 1)::DOUBLE / (2 * (n - 1)) ELSE 0.5 END AS key
    FROM cells),
  ranked AS (
    SELECT *, 1 + sum(eq) OVER (PARTITION BY round, deal ORDER BY key DESC
                                RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
              - sum(eq) OVER (PARTITION BY round, deal, key) AS deal_rank
    FROM pct)
  SELECT r.*, n, mp, top, round(100.0 * mp / nullif(top, 0), 2) AS mp_pct, deal_rank,
         CASE deal_rank WHEN 1 THEN 10000 WHEN 2 THEN 7000 WHEN 3 THEN 5000 WHEN 4 THEN 3500
              ELSE round(10000.0 / deal_rank, 2) END::DECIMAL(18, 2) AS rank_points
  FROM r JOIN ranked USING (round, deal, seat, score)
) TO '{target}' (FORMAT PARQUET)
"""


DUCKDB_RUN = """
import sys
import duckdb
duckdb.sql(sys.argv[1])
"""


def duckdb_command(source: Path, target: Path) -> list[str] | None:
    """DuckDB's best SQL for the same scores (the same cell idea), as a whole process.

    Timed like `duplicate`: from a cold interpreter to the file written, so that both
    pay for starting up and importing. None if duckdb is not installed.
    """
    try:
        import duckdb  # noqa: F401
    except ImportError:
        print("duckdb is not installed: `make bench` installs it")
        return None
    reader = "read_csv" if source.suffix == ".csv" else "read_parquet"
    sql = DUCKDB_SCORE.format(reader=reader, source=source, target=target)
    return [sys.executable, "-c", DUCKDB_RUN, sql]


def same_scores(ours: Path, theirs: Path) -> bool:
    """DuckDB and duplicate give the same matchpoints and deal ranks for every result."""
    keys = ["round", "deal", "seat", "player"]
    a = pd.read_parquet(ours, columns=[*keys, "mp", "deal_rank"]).sort_values(
        keys, ignore_index=True
    )
    b = pd.read_parquet(theirs, columns=[*keys, "mp", "deal_rank"]).sort_values(
        keys, ignore_index=True
    )
    return bool(
        (a["mp"].to_numpy() == b["mp"].to_numpy()).all()
        and (a["deal_rank"].to_numpy() == b["deal_rank"].to_numpy()).all()
    )


def run_once(args: list[str]) -> tuple[float, float]:
    """(seconds, peak memory in MiB) of one run of a command."""
    with tempfile.TemporaryFile() as messages:
        start = time.perf_counter()
        process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=messages)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) != 0:
            messages.seek(0)
            sys.stderr.buffer.write(messages.read())
            raise SystemExit(f"failed: {' '.join(args[:4])} ...")
    return seconds, usage.ru_maxrss / 1024


def timed(label: str, args: list[str], repeat: int) -> float:
    """The best of `repeat` runs (the machine's noise only ever adds time)."""
    return timed_in_turn([(label, args)], repeat)[0]


def timed_in_turn(jobs: list[tuple[str, list[str]]], repeat: int, peak: bool = True) -> list[float]:
    """Each job's best of `repeat` runs, the jobs taking turns (`peak`: with the
    largest peak memory, which means nothing below this process's own size).

    A virtual machine's speed drifts over minutes (memory, neighbours): jobs compared
    with each other run in turn, so that each meets the same drift.
    """
    runs: list[list[tuple[float, float]]] = [[] for _ in jobs]
    for _ in range(repeat):
        for (_, args), times in zip(jobs, runs, strict=True):
            times.append(run_once(args))
    best = []
    for (label, _), times in zip(jobs, runs, strict=True):
        seconds, most = min(t for t, _ in times), max(m for _, m in times)
        memory = f"   peak {most:,.0f} MiB" if peak else ""
        print(f"{label:<46} {seconds:7.2f} s{memory}", flush=True)
        best.append(seconds)
    return best


def bench_shape(shape: str, source: Path, tool: list[str], here: list[str], n: int) -> None:
    """validate, score (against DuckDB, in turn) and standings on one input shape."""
    out = source.parent
    print(f"-- {shape}: {source.name}")
    timed("validate", [*tool, "validate", str(source)], n)
    score = [*tool, "score", str(source), "-o", str(out / "s.parquet")]
    duckdb = duckdb_command(source, out / "duckdb.parquet")
    if duckdb is None:
        ours = timed("score, Parquet out", score, n)
    else:
        floor = [sys.executable, str(FLOOR), str(source), str(out / "floor.parquet")]
        ours, theirs, least = timed_in_turn(
            [
                ("score, Parquet out", score),
                ("DuckDB SQL, the same scores", duckdb),
                ("only read and write (floor.py)", floor),
            ],
            n,
        )
        compared = [*here, "--compare", str(out / "s.parquet"), str(out / "duckdb.parquet")]
        agree = subprocess.run(compared).returncode == 0
        print(
            f"{'score / DuckDB':<46} {ours / theirs:7.2f}     "
            f"(results {'agree' if agree else 'DIFFER'})"
        )
        print(f"{'floor / DuckDB':<46} {least / theirs:7.2f}")
    ranked = timed(
        "standings, Parquet out",
        [*tool, "standings", str(source), "-o", str(out / "t.parquet")],
        n,
    )
    print(f"{'standings / score':<46} {ranked / ours:7.2f}", flush=True)


# The small event users score every day: the sample's 1,152 rows, where starting the
# process is most of the time. Runs are short, so more of them are timed.
SMALL_EVENT = ROOT / "sample_data" / "big2_event"
SMALL_REPEAT = 21


def bench_small_event(tool: list[str], repeat: int) -> None:
    """score and standings on the sample event (CSV and Parquet), each in turn with
    DuckDB's SQL for the scores, as whole processes."""
    n = max(repeat, SMALL_REPEAT)
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch)
        for suffix in ("csv", "parquet"):
            source = SMALL_EVENT.with_suffix(f".{suffix}")
            print(f"-- small event: {source.name}, best of {n} runs")
            duckdb = duckdb_command(source, out / "duckdb.parquet")
            floor = [sys.executable, str(FLOOR), str(source), str(out / "floor.parquet")]
            jobs = [
                ("score, Parquet out", [*tool, "score", str(source), "-o", str(out / "s.parquet")]),
                (
                    "standings, Parquet out",
                    [*tool, "standings", str(source), "-o", str(out / "t.parquet")],
                ),
                ("only read and write (floor.py)", floor),
            ]
            # (No peak memory: these processes are smaller than this one.)
            if duckdb is None:
                timed_in_turn(jobs, n, peak=False)
                continue
            score, standings, least, theirs = timed_in_turn(
                [*jobs, ("DuckDB SQL, the same scores", duckdb)], n, peak=False
            )
            print(f"{'score / DuckDB':<46} {score / theirs:7.2f}")
            print(f"{'standings / DuckDB':<46} {standings / theirs:7.2f}")
            print(f"{'floor / DuckDB':<46} {least / theirs:7.2f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--shapes", nargs="*", choices=list(SHAPES), default=list(SHAPES))
    parser.add_argument("--seat-players", type=int, nargs="*", default=[10_000, 100_000])
    parser.add_argument("--repeat", type=int, default=3, help="runs per command; the best")
    parser.add_argument("--generate", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--compare", nargs=2, type=Path, help=argparse.SUPPRESS)
    parser.add_argument(
        "--small-only", action="store_true", help="only the small event against DuckDB"
    )
    args = parser.parse_args()
    folder = ROOT / "bench-data"
    if args.generate:
        for shape in args.shapes:
            generate(folder, shape, args.rows)
        for players in args.seat_players:
            generate_swiss(players, folder)
        for k in TABLE_SIZES:
            generate_swiss(TABLE_SIZE_PLAYERS, folder, k=k)
        return
    if args.compare:
        raise SystemExit(0 if same_scores(*args.compare) else 1)
    if args.small_only:
        compileall.compile_dir(ROOT / "duplicate", quiet=1)
        bench_small_event([sys.executable, "-m", "duplicate"], args.repeat)
        return
    # Data is made, and results compared, in child processes: this one stays small, as
    # Linux counts a child's peak memory from the size of the process that started it.
    here = [sys.executable, __file__, "--rows", str(args.rows)]
    seat_sizes = [str(p) for p in args.seat_players]
    made = [*here, "--generate", "--shapes", *args.shapes, "--seat-players", *seat_sizes]
    subprocess.run(made, check=True)
    # An installed package runs from the bytecode its install wrote. Where
    # PYTHONDONTWRITEBYTECODE keeps it from being written (as on the project's
    # machine), every timed run would compile every module of the package again.
    compileall.compile_dir(ROOT / "duplicate", quiet=1)
    tool = [sys.executable, "-m", "duplicate"]
    n = args.repeat
    print(f"{args.rows:,} result rows, {DEALS} deals, tables of {TABLE_SIZE}; best of {n} runs")
    timed("duplicate --help", [*tool, "--help"], n)
    bench_small_event(tool, n)
    for shape in args.shapes:
        bench_shape(shape, path_of(folder, shape, args.rows), tool, here, n)
    for players in args.seat_players:
        swiss = generate_swiss(players, folder)  # made above: only its path
        timed(
            f"seat {players:,} players, tables of 4, avoid repeats",
            [*tool, "seat", str(swiss), "-o", str(folder / "seat.csv")],
            n,
        )
    # The repeat-avoiding search by table size (tables of 7 and 8 keep the snake).
    for k in TABLE_SIZES:
        swiss = generate_swiss(TABLE_SIZE_PLAYERS, folder, k=k)
        timed(
            f"seat {TABLE_SIZE_PLAYERS:,} players, tables of {k}",
            [*tool, "seat", str(swiss), "-k", str(k), "-o", str(folder / "seat.csv")],
            n,
        )


if __name__ == "__main__":
    main()
