"""The Dask engine gives the local engine's bytes, on a LocalCluster of 2 workers."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from typer.testing import CliRunner

import duplicate
from duplicate.cli import app
from tests.conftest import GOLDEN, SAMPLE, codes, line_of, run_main
from tests.test_properties import events

distributed = pytest.importorskip("dask.distributed")
runner = CliRunner()


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


def outputs(command: str, path: Path, *options: str) -> dict[str, object]:
    """What `duplicate COMMAND PATH OPTIONS` writes to a Parquet file (every value,
    type and missing value, and the rules), or its exit status and message."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "out.parquet"
        done = runner.invoke(app, [command, str(path), *options, "-o", str(out)])
        if done.exit_code != 0:
            return {"exit": done.exit_code, "said": done.stderr}
        return {"parquet": out.read_bytes()}


def assert_engines_agree(path: Path, scheduler: str, *options: str) -> None:
    """Scores and standings of the results in `path`, locally and on Dask, in the same
    bytes."""
    dask = ["--engine", "dask", "--scheduler", scheduler]
    for command in ("score", "standings"):
        local = outputs(command, path, *options)
        assert "exit" not in local, local
        assert outputs(command, path, *options, *dask) == local, command


@pytest.mark.parametrize(
    "name", ["big2_event.csv", "big2_event.parquet", "spec_example.csv", "doudizhu_example.csv"]
)
def test_sample_events_agree(scheduler: str, name: str) -> None:
    assert_engines_agree(SAMPLE / name, scheduler)


def test_adjustments_agree(scheduler: str) -> None:
    case = GOLDEN / "adjustments"
    assert_engines_agree(
        case / "results.csv", scheduler, "--adjustments", str(case / "adjustments.csv")
    )


@pytest.mark.slow
@settings(
    max_examples=7,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(event=events())
def test_random_events_agree(scheduler: str, event: pd.DataFrame) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "event.csv"
        event.to_csv(path, index=False)
        assert_engines_agree(path, scheduler)


def test_problems_of_every_partition_are_listed(scheduler: str, tmp_path: Path) -> None:
    rows = ["round,deal,table,seat,player,score"]
    for round_no in (1, 2, 3):
        rows += [f"{round_no},1,1,0,A,1", f"{round_no},1,1,1,B,x{round_no}"]
    path = tmp_path / "bad.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    with pytest.raises(duplicate.InvalidData) as local:
        duplicate.load_event(path)
    assert len(local.value.problems) == 3
    dask = ["--engine", "dask", "--scheduler", scheduler]
    remote = runner.invoke(app, ["score", str(path), *dask, "-o", str(tmp_path / "s.csv")])
    assert remote.exit_code == 1
    assert [line for line in remote.stderr.splitlines() if line.startswith("error")] == [
        f"error[{p.code}]: {p}" for p in local.value.problems
    ]


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
    assert codes(refused.stderr) == ["scoring.method-unsupported"]


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
    assert codes(refused.stderr) == ["dask.local-only"]
    assert "avg_plus" in line_of("dask.local-only", refused.stderr)


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


def test_partitions_with_different_decimals_agree(scheduler: str, tmp_path: Path) -> None:
    rows = [
        {"round": 1, "deal": 1, "table": 1, "seat": s, "player": p, "score": v, "seconds": t}
        for s, p, v, t in ((0, "A", "1.5", "10.25"), (1, "B", "-1.5", "12"))
    ] + [
        {"round": 2, "deal": 1, "table": 1, "seat": s, "player": p, "score": v, "seconds": t}
        for s, p, v, t in ((0, "B", "3", "9"), (1, "A", "-3", "11"))
    ]
    path = tmp_path / "event.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    assert_engines_agree(path, scheduler)


def test_the_command_leaves_a_parquet_input_to_the_workers(
    scheduler: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`duplicate score --engine dask` never reads the results file in the driver's
    process (Dask plans the partitions from its metadata): the program's own entry, as
    a shell runs it, with Arrow's readers of a Parquet file's data refused in this
    process (the workers' are their own)."""
    import pyarrow.parquet as pq

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("the driver read the input")

    source = SAMPLE / "big2_event.parquet"
    out = tmp_path / "scores.csv"
    command = ["score", str(source), "--engine", "dask", "--scheduler", scheduler, "-o", str(out)]
    with monkeypatch.context() as reading:
        reading.setattr(pq, "read_table", refused)
        reading.setattr(pq, "ParquetFile", refused)
        assert run_main(command, monkeypatch) == 0
    local = runner.invoke(app, ["score", str(source), "-o", "-"])
    assert out.read_bytes() == local.stdout_bytes


def test_a_cluster_of_threads_agrees() -> None:
    """Workers as threads of one process (a cluster on one machine) give the same bytes."""
    import logging

    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=False,
        silence_logs=logging.ERROR,
        dashboard_address=":0",
    ) as cluster:
        assert_engines_agree(
            GOLDEN / "rank_counts_playoff" / "results.csv", cluster.scheduler_address
        )


def test_a_setting_of_another_method_is_named_on_dask_too(scheduler: str) -> None:
    path = str(SAMPLE / "spec_example.csv")
    dask = ["--engine", "dask", "--scheduler", scheduler]
    plain = runner.invoke(app, ["standings", path, *dask])
    given = runner.invoke(app, ["standings", path, *dask, "--percentage-of", "total"])
    assert given.exit_code == plain.exit_code == 0, given.stderr
    assert given.stdout == plain.stdout
    assert codes(given.stderr) == ["option.not-used"]


def test_a_cluster_started_for_the_work_stops_before_the_output() -> None:
    """Without a scheduler the engine starts a cluster of its own, and stops its
    workers when the work is done: a reader that stops early (`| head`) ends the
    process, and workers still running would fill standard error with lost heartbeats."""
    import multiprocessing

    from duplicate.actions.distributed import on_dask

    before = set(multiprocessing.active_children())  # a test's own cluster, if any
    table = on_dask("standings", SAMPLE / "spec_example.csv")
    assert len(table.frame) == 3
    assert set(multiprocessing.active_children()) == before
