"""The Dask engine gives the local engine's bytes, on a LocalCluster of 2 workers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings

import duplicate
from duplicate.engines.dask_engine import score_on_dask, standings_on_dask
from duplicate.io.read import read_adjustments, read_raw
from duplicate.io.write import encode
from duplicate.scoring.score_table import ScoreBatches
from tests.conftest import GOLDEN, SAMPLE
from tests.test_properties import events

distributed = pytest.importorskip("dask.distributed")
META = {"version": "test", "rules": duplicate.Rules().to_toml()}


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    import logging

    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        silence_logs=logging.ERROR,
        dashboard_address=":0",  # a free port: 8787 may be held by anything
    ) as cluster:
        yield cluster.scheduler_address


def same_bytes(local: duplicate.Table, remote: pd.DataFrame | ScoreBatches, kind: str) -> bool:
    """The same files written, in CSV and Parquet (score tables as the CLI writes them)."""

    a = local.arrow()
    b = remote.to_table() if isinstance(remote, ScoreBatches) else remote
    return all(encode(a, f, kind, META) == encode(b, f, kind, META) for f in ("csv", "parquet"))


def assert_engines_agree(raw: pd.DataFrame, scheduler: str) -> None:
    """Scores and standings of `raw`, locally and on Dask, in the same bytes."""
    rules = duplicate.Rules()
    assert same_bytes(
        duplicate.score(raw, rules),
        score_on_dask(raw, "x", rules, None, scheduler),
        "scores",
    )
    assert same_bytes(
        duplicate.standings(raw, rules),
        standings_on_dask(raw, "x", rules, None, scheduler),
        "standings",
    )


@pytest.mark.parametrize(
    "name", ["big2_event.csv", "big2_event.parquet", "spec_example.csv", "doudizhu_example.csv"]
)
def test_sample_events_agree(scheduler: str, name: str) -> None:
    raw, first_row = read_raw(SAMPLE / name)
    event = duplicate.load_event(SAMPLE / name)
    rules = duplicate.Rules()
    assert same_bytes(
        duplicate.score(event, rules),
        score_on_dask(raw, name, rules, None, scheduler, first_row),
        "scores",
    )
    assert same_bytes(
        duplicate.standings(event, rules),
        standings_on_dask(raw, name, rules, None, scheduler, first_row),
        "standings",
    )


def test_adjustments_agree(scheduler: str) -> None:
    case = GOLDEN / "adjustments"
    raw, first_row = read_raw(case / "results.csv")
    adjustments = read_adjustments(case / "adjustments.csv")
    local = duplicate.standings(case / "results.csv", adjustments=case / "adjustments.csv")
    remote = standings_on_dask(raw, "x", duplicate.Rules(), adjustments, scheduler, first_row)
    assert same_bytes(local, remote, "standings")


@pytest.mark.slow
@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(event=events())
def test_random_events_agree(scheduler: str, event: pd.DataFrame) -> None:
    assert_engines_agree(event.astype(str), scheduler)


def test_problems_of_every_partition_are_listed(scheduler: str, tmp_path: Path) -> None:
    rows = ["round,deal,table,seat,player,score"]
    for round_no in (1, 2, 3):
        rows += [f"{round_no},1,1,0,A,1", f"{round_no},1,1,1,B,x{round_no}"]
    path = tmp_path / "bad.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    raw, first_row = read_raw(path)
    with pytest.raises(duplicate.InvalidData) as local:
        duplicate.load_event(path)
    with pytest.raises(duplicate.InvalidData) as remote:
        score_on_dask(raw, str(path), duplicate.Rules(), None, scheduler, first_row)
    assert [str(p) for p in remote.value.problems] == [str(p) for p in local.value.problems]
    assert len(remote.value.problems) == 3


def test_cli_engine_option(scheduler: str) -> None:
    from typer.testing import CliRunner

    from duplicate.cli import app

    runner = CliRunner()
    path = str(SAMPLE / "big2_event.parquet")
    local = runner.invoke(app, ["standings", path, "-o", "-"])
    remote = runner.invoke(
        app, ["standings", path, "-o", "-", "--engine", "dask", "--scheduler", scheduler]
    )
    assert remote.exit_code == 0, remote.stderr
    assert remote.stdout_bytes == local.stdout_bytes
    refused = runner.invoke(app, ["score", path, "--engine", "dask", "--method", "standard-points"])
    assert refused.exit_code == 2
    assert "the dask engine covers matchpoint scoring" in refused.stderr


def test_adjustments_that_need_the_whole_event_stay_local(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from duplicate.cli import app

    adjustments = tmp_path / "adjustments.csv"
    adjustments.write_text("round,deal,player,kind,value,reason\n1,1,P17,avg_plus,,fouled\n")
    path = str(SAMPLE / "big2_event.parquet")
    refused = CliRunner().invoke(
        app, ["score", path, "--engine", "dask", "--adjustments", str(adjustments)]
    )
    assert refused.exit_code == 2
    assert "adjustments of kind avg_plus run on the local engine only" in refused.stderr


def test_a_dask_manifest_does_not_invent_a_row_count(scheduler: str, tmp_path: Path) -> None:
    import json

    from typer.testing import CliRunner

    from duplicate.cli import app

    manifest = tmp_path / "m.json"
    args = [
        "standings",
        str(SAMPLE / "big2_event.parquet"),
        "-o",
        str(tmp_path / "s.csv"),
        "--engine",
        "dask",
        "--scheduler",
        scheduler,
        "--manifest",
        str(manifest),
    ]
    assert CliRunner().invoke(app, args).exit_code == 0
    assert json.loads(manifest.read_text(encoding="utf-8"))["inputs"][0]["rows"] is None


def test_partitions_with_different_decimals_agree(scheduler: str) -> None:
    rows = [
        {"round": 1, "deal": 1, "table": 1, "seat": s, "player": p, "score": v, "seconds": t}
        for s, p, v, t in ((0, "A", "1.5", "10.25"), (1, "B", "-1.5", "12"))
    ] + [
        {"round": 2, "deal": 1, "table": 1, "seat": s, "player": p, "score": v, "seconds": t}
        for s, p, v, t in ((0, "B", "3", "9"), (1, "A", "-3", "11"))
    ]
    assert_engines_agree(pd.DataFrame(rows).astype(str), scheduler)


def test_the_command_leaves_a_parquet_input_to_the_workers(
    scheduler: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`duplicate score --engine dask` never reads the results file in the driver's
    process: the program's own entry, as a shell runs it."""
    import pyarrow.parquet as pq
    from typer.testing import CliRunner

    from duplicate.cli import app, main
    from duplicate.io import read

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("the driver read the input")

    monkeypatch.setattr(read, "read_raw", refused)
    monkeypatch.setattr(read, "read_results", refused)
    monkeypatch.setattr(pq, "read_table", refused)
    monkeypatch.setattr(pq, "ParquetFile", refused)
    source = SAMPLE / "big2_event.parquet"
    out = tmp_path / "scores.csv"
    command = ["score", str(source), "--engine", "dask", "--scheduler", scheduler, "-o", str(out)]
    monkeypatch.setattr("sys.argv", ["duplicate", *command])
    monkeypatch.setenv("DUPLICATE_NO_TUNING", "1")  # this process is the test's too
    with pytest.raises(SystemExit) as ended:
        main()
    assert ended.value.code == 0
    monkeypatch.undo()
    local = CliRunner().invoke(app, ["score", str(source), "-o", "-"])
    assert out.read_bytes() == local.stdout_bytes
