"""`score` in batches, and Parquet streamed batch by batch, give what the whole table gives."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

import duplicate
from duplicate.cli import app
from duplicate.io import parquet_write, publish
from duplicate.io.parquet_write import parquet_bytes, write_parquet
from duplicate.io.write import encode, to_arrow
from duplicate.model.results import parse_results
from duplicate.scoring import rank_items
from duplicate.scoring.methods import score_batches
from tests.golden.regenerate import cases

CASES = cases()
META = {"version": "test", "rules": ""}


def inputs(case: Path, shuffled: bool = False) -> tuple[duplicate.Results, duplicate.Rules, object]:
    rules_file = case / "rules.toml"
    rules = duplicate.load_rules(rules_file) if rules_file.exists() else duplicate.Rules()
    raw = pd.read_csv(case / "results.csv", dtype=str, keep_default_na=False)
    if shuffled:
        raw = raw.sample(frac=1, random_state=7)
    results = parse_results(raw, str(case), deal_scope=rules.deal_scope)
    adjustments_file = case / "adjustments.csv"
    adjustments = (
        duplicate.read_adjustments(adjustments_file) if adjustments_file.exists() else None
    )
    return results, rules, adjustments


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
@pytest.mark.parametrize("batch_rows", [1, 5, 1000])
@pytest.mark.parametrize("shuffled", [False, True])
def test_batches_make_up_the_score_table(case: Path, batch_rows: int, shuffled: bool) -> None:
    whole = duplicate.score(*inputs(case))  # type: ignore[arg-type]
    results, rules, adjustments = inputs(case, shuffled)
    batches = list(score_batches(results, rules, adjustments, batch_rows).tables())  # type: ignore[arg-type]
    rules_batches = 1 if rules.method == "standard-points" else -(-len(whole) // batch_rows)
    assert len(batches) == rules_batches
    together = pa.concat_tables(batches)
    assert encode(together, "csv", "scores", META) == encode(whole, "csv", "scores", META)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_pandas_view_is_the_arrow_table(case: Path) -> None:
    """score()'s frame holds the values of the table written, with one kind of missing."""
    results, rules, adjustments = inputs(case)
    table = score_batches(results, rules, adjustments).to_table()  # type: ignore[arg-type]
    frame = duplicate.score(results, rules, adjustments)  # type: ignore[arg-type]
    assert list(frame.columns) == table.column_names
    assert encode(frame, "csv", "scores", META) == encode(table, "csv", "scores", META)
    for name in frame.columns:
        missing = frame[name].isna().to_numpy()
        assert missing.sum() == table.column(name).null_count, name


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_streamed_parquet_is_the_same_file(
    case: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Small row groups, so that batches are cut and joined across row groups.
    monkeypatch.setattr(parquet_write, "ROW_GROUP_ROWS", 4)
    results, rules, adjustments = inputs(case)
    whole = parquet_bytes(to_arrow(duplicate.score(results, rules, adjustments)), META)  # type: ignore[arg-type]
    batches = score_batches(results, rules, adjustments, batch_rows=3)  # type: ignore[arg-type]
    streamed = tmp_path / "streamed.parquet"
    rows = write_parquet(str(streamed), batches.tables(), batches.nullable, META)
    assert rows == len(results.frame)
    assert streamed.read_bytes() == whole
    # Each declared column really has no missing value (else the file would lie).
    table = pq.read_table(streamed)
    for field in table.schema:
        assert field.nullable or table.column(field.name).null_count == 0


def test_required_columns_hold_values_and_optional_ones_miss_some(tmp_path: Path) -> None:
    """`nullable` is exact: a column is optional exactly when some row misses a value."""
    for case in CASES:
        results, rules, adjustments = inputs(case)
        batches = score_batches(results, rules, adjustments)  # type: ignore[arg-type]
        table = pa.Table.from_pandas(batches.to_frame(), preserve_index=False)
        missing = {name for name in table.column_names if table.column(name).null_count}
        assert batches.nullable == missing, case.name


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


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_sparse_groups_are_renumbered_with_the_same_scores(
    case: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Groups too sparse for one key are renumbered; nothing else changes."""
    expected = encode(duplicate.score(*inputs(case)), "csv", "scores", META)  # type: ignore[arg-type]
    monkeypatch.setattr(rank_items, "KEY_LIMIT", 1)
    actual = encode(duplicate.score(*inputs(case)), "csv", "scores", META)  # type: ignore[arg-type]
    assert actual == expected


def test_a_failed_streamed_write_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Parquet writer failing half-way (a full disk, say) is an I/O error, exit 3."""
    case = CASES[0]
    original = parquet_write.write_parquet

    def failing(
        sink: str, tables: object, nullable: set[str], meta: dict[str, str], *_: int
    ) -> int:
        original(sink, [], nullable, meta)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(publish, "write_parquet", failing)
    out = tmp_path / "scores.parquet"
    result = CliRunner().invoke(app, ["score", str(case / "results.csv"), "-o", str(out)])
    assert result.exit_code == 3, result.stderr
    assert "No space left on device" in result.stderr
    assert "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []
