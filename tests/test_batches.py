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
from duplicate.scoring.methods import score_batches
from duplicate.scoring.score_table import ScoreBatches
from tests.conftest import codes, line_of
from tests.golden.regenerate import cases

CASES = cases()


def event_of(case: Path, shuffled: bool = False) -> duplicate.Event:
    """The golden case's results (rows shuffled when asked) with its rules and
    corrections."""
    raw = pd.read_csv(case / "results.csv", dtype=str, keep_default_na=False)
    if shuffled:
        raw = raw.sample(frac=1, random_state=7)
    settings = {}
    if (case / "rules.toml").exists():
        settings["rules_file"] = str(case / "rules.toml")
    if (case / "adjustments.csv").exists():
        settings["adjustments"] = str(case / "adjustments.csv")
    return duplicate.load_event(raw, **settings)


def batches_of(event: duplicate.Event, batch_rows: int | None = 1 << 20) -> ScoreBatches:
    """The event's score table, `batch_rows` rows at a time."""
    return score_batches(event.needs_results("score"), event.rules, event.adjustments, batch_rows)


def file_bytes(table: object, path: Path, rules: duplicate.Rules) -> bytes:
    """The file publish writes for a score table (Arrow, pandas or batches), its format
    from the suffix."""
    duplicate.publish(duplicate.Table("scores", rules, table), str(path))  # type: ignore[arg-type]
    return path.read_bytes()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
@pytest.mark.parametrize("batch_rows", [1, 5, 1000])
@pytest.mark.parametrize("shuffled", [False, True])
def test_batches_make_up_the_score_table(
    case: Path, batch_rows: int, shuffled: bool, tmp_path: Path
) -> None:
    whole = duplicate.score(event_of(case))
    event = event_of(case, shuffled)
    rules = event.rules
    batches = list(batches_of(event, batch_rows).tables())
    rules_batches = 1 if rules.method == "standard-points" else -(-len(whole) // batch_rows)
    assert len(batches) == rules_batches
    together = pa.concat_tables(batches)
    assert file_bytes(together, tmp_path / "a.csv", rules) == file_bytes(
        whole.arrow(), tmp_path / "b.csv", rules
    )


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_pandas_view_is_the_arrow_table(case: Path, tmp_path: Path) -> None:
    """score()'s frame holds the values of the table written, with one kind of missing."""
    event = event_of(case)
    rules = event.rules
    table = batches_of(event).to_table()
    frame = duplicate.score(event).frame
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
    event = event_of(case)
    rules = event.rules
    whole = file_bytes(duplicate.score(event).arrow(), tmp_path / "w.parquet", rules)
    streamed = tmp_path / "streamed.parquet"
    batches = duplicate.Table("scores", rules, batches_of(event, batch_rows=3))
    [written, *_] = duplicate.publish(batches, str(streamed), threads=threads)
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
    expected = duplicate.score(event_of(case)).frame
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
    err = done.stderr.decode()
    assert codes(err) == ["io.unwritable"]
    assert "File too large" in line_of("io.unwritable", err)
    assert "Traceback" not in err
    assert list(tmp_path.iterdir()) == []
