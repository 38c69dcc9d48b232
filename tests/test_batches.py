"""`score` in batches, and Parquet streamed batch by batch, give what the whole table gives."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

import duplicate
from duplicate.cli import app
from tests.golden.regenerate import cases

CASES = cases()


def inputs(case: Path, shuffled: bool = False) -> tuple[duplicate.Results, duplicate.Rules, object]:
    rules_file = case / "rules.toml"
    rules = duplicate.load_rules(rules_file) if rules_file.exists() else duplicate.Rules()
    raw = pd.read_csv(case / "results.csv", dtype=str, keep_default_na=False)
    if shuffled:
        raw = raw.sample(frac=1, random_state=7)
    results = duplicate.parse_results(raw, str(case), deal_scope=rules.deal_scope)
    adjustments_file = case / "adjustments.csv"
    adjustments = (
        duplicate.read_adjustments(adjustments_file) if adjustments_file.exists() else None
    )
    return results, rules, adjustments


def file_bytes(table: object, path: Path, rules: duplicate.Rules) -> bytes:
    """The file write_table writes for `table` (its format from the suffix)."""
    duplicate.write_table(table, path, rules, "scores")  # type: ignore[arg-type]
    return path.read_bytes()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
@pytest.mark.parametrize("batch_rows", [1, 5, 1000])
@pytest.mark.parametrize("shuffled", [False, True])
def test_batches_make_up_the_score_table(
    case: Path, batch_rows: int, shuffled: bool, tmp_path: Path
) -> None:
    whole = duplicate.score(*inputs(case))  # type: ignore[arg-type]
    results, rules, adjustments = inputs(case, shuffled)
    batches = list(score_batches(results, rules, adjustments, batch_rows).tables())
    rules_batches = 1 if rules.method == "standard-points" else -(-len(whole) // batch_rows)
    assert len(batches) == rules_batches
    together = pa.concat_tables(batches)
    assert file_bytes(together, tmp_path / "a.csv", rules) == file_bytes(
        whole, tmp_path / "b.csv", rules
    )


def score_batches(
    results: duplicate.Results, rules: duplicate.Rules, adjustments: object, batch_rows: int
) -> duplicate.ScoreBatches:
    return duplicate.score_batches(results, rules, adjustments, batch_rows)  # type: ignore[arg-type]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_pandas_view_is_the_arrow_table(case: Path, tmp_path: Path) -> None:
    """score()'s frame holds the values of the table written, with one kind of missing."""
    results, rules, adjustments = inputs(case)
    table = duplicate.score_batches(results, rules, adjustments).to_table()  # type: ignore[arg-type]
    frame = duplicate.score(results, rules, adjustments)  # type: ignore[arg-type]
    assert list(frame.columns) == table.column_names
    for suffix in ("csv", "json"):
        assert file_bytes(frame, tmp_path / f"a.{suffix}", rules) == file_bytes(
            table, tmp_path / f"b.{suffix}", rules
        )
    for name in frame.columns:
        missing = frame[name].isna().to_numpy()
        assert missing.sum() == table.column(name).null_count, name


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
@pytest.mark.parametrize("threads", [1, 2])
def test_streamed_parquet_is_the_same_file(case: Path, threads: int, tmp_path: Path) -> None:
    """Batches of 3 rows streamed to Parquet (on `threads`) make the file the whole
    table makes; a column is declared required exactly when no row misses its value."""
    results, rules, adjustments = inputs(case)
    whole = file_bytes(duplicate.score(results, rules, adjustments), tmp_path / "w.parquet", rules)  # type: ignore[arg-type]
    streamed = tmp_path / "streamed.parquet"
    batches = score_batches(results, rules, adjustments, batch_rows=3)
    [written, *_] = duplicate.write_table(batches, streamed, rules, "scores", threads=threads)
    assert written.rows == pq.read_metadata(streamed).num_rows
    assert streamed.read_bytes() == whole
    table = pq.read_table(streamed)
    for field in table.schema:
        assert field.nullable == (table.column(field.name).null_count > 0), field.name


def test_cli_streams_parquet_with_a_manifest(tmp_path: Path) -> None:
    case = next(c for c in CASES if (c / "adjustments.csv").exists())
    out, manifest = tmp_path / "scores.parquet", tmp_path / "run.json"
    args = ["score", str(case / "results.csv"), "--adjustments", str(case / "adjustments.csv")]
    result = CliRunner().invoke(app, [*args, "-o", str(out), "--manifest", str(manifest)])
    assert result.exit_code == 0, result.stderr
    assert f"wrote {pq.read_metadata(out).num_rows} rows to {out}" in result.stderr
    import hashlib
    import json

    record = json.loads(manifest.read_text())["outputs"][0]
    assert record["sha256"] == hashlib.sha256(out.read_bytes()).hexdigest()
    results, rules, adjustments = inputs(case)
    expected = duplicate.score(results, rules, adjustments)  # type: ignore[arg-type]
    assert pq.read_table(out).to_pandas().shape == expected.shape
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.json", "scores.parquet"]


# Runs the command with the files it may write limited to `limit` bytes: a full disk
# as the program meets it (a write fails with EFBIG, not a signal).
FILE_SIZE_LIMIT = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
sys.argv = ["duplicate", *sys.argv[2:]]
from duplicate.cli import main
main()
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_FSIZE and SIGXFSZ")
@pytest.mark.parametrize("suffix", ["parquet", "csv"])
def test_a_write_failing_half_way_leaves_nothing(suffix: str, tmp_path: Path) -> None:
    """The disk filling up half-way through the output: an I/O error, exit 3, and no
    file, finished or not, left behind."""
    case = CASES[0]
    out = tmp_path / f"scores.{suffix}"
    command = ["score", str(case / "results.csv"), "-o", str(out)]
    done = subprocess.run(
        [sys.executable, "-c", FILE_SIZE_LIMIT, "300", *command],
        capture_output=True,
        check=False,
        env={**os.environ, "DUPLICATE_NO_TUNING": ""},
    )
    assert done.returncode == 3, done.stderr
    assert b"File too large" in done.stderr
    assert b"Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []
