"""The shape shared by `score` and `standings`: read results, compute a table, emit it."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from typing import Any

from duplicate.cli.common import (
    AdjustmentsOpt,
    DealScopeOpt,
    EncodingOpt,
    Engine,
    EngineOpt,
    FormatOpt,
    MethodOpt,
    OutputOpt,
    RankBaseOpt,
    RankFactorsOpt,
    ResultsArg,
    RulesOpt,
    SchedulerOpt,
    TieRankingOpt,
    collecting_no_garbage,
    effective_rules,
    read_inputs,
    refuse_overwriting_inputs,
    reports_errors,
    working,
)
from duplicate.cli.manifest import (
    ManifestOpt,
    adjustment_records,
    results_records,
    write_manifest,
)
from duplicate.cli.output import emit
from duplicate.cli.reading import Keeping, keep_after_reading, start_reading


def result_table_command(
    compute: str,
    kind: str,
    doc: str,
    on_dask: str | None = None,
    keeps_freed_memory: Keeping | None = None,
) -> Callable[..., None]:
    """A command computing `compute` ("module:function", imported when run) on results.

    `compute` may give a table in batches (ScoreBatches). The seating checks run
    alongside its computing and writing; nothing is put in place unless they pass.
    With `keeps_freed_memory`, the process reuses the memory its arrays free (see
    reading.Keeping).
    """

    @reports_errors
    def command(
        results: ResultsArg,
        output: OutputOpt = None,
        fmt: FormatOpt = None,
        encoding: EncodingOpt = None,
        rules_file: RulesOpt = None,
        tie_ranking: TieRankingOpt = None,
        deal_scope: DealScopeOpt = None,
        rank_factors: RankFactorsOpt = None,
        rank_base: RankBaseOpt = None,
        method: MethodOpt = None,
        engine: EngineOpt = Engine.local,
        scheduler: SchedulerOpt = None,
        adjustments: AdjustmentsOpt = None,
        manifest: ManifestOpt = None,
    ) -> None:
        rules = effective_rules(
            rules_file, tie_ranking, deal_scope, rank_factors, rank_base, method
        )
        with ExitStack() as stack:
            # The file is read while pandas and the computing are imported (0.3 s, on
            # one core), unless main started it already (reading.read_ahead).
            kept_from_start = engine is Engine.local and start_reading(
                results, keeps_freed_memory, stack
            )
            with collecting_no_garbage():
                from duplicate.core.results import check_results
                from duplicate.io.read import read_adjustments

                module, function = compute.split(":")
                run = getattr(importlib.import_module(module), function)
            check: Callable[[], None] | None = None
            if engine is Engine.dask:
                corrections = read_adjustments(adjustments, encoding) if adjustments else None
                with working(f"computing {kind} on Dask"):
                    table = run_on_dask(on_dask, results, encoding, rules, corrections, scheduler)
                # score has a row per result; standings on Dask never hold the results.
                rows = len(table) if kind == "scores" else None
            else:
                with working(f"reading {results}"):
                    data, corrections = read_inputs(
                        results, adjustments, encoding, rules.deal_scope, check_structure=False
                    )
                keep_after_reading(keeps_freed_memory, kept_from_start)
                # The seating checks run on a thread of their own (numpy lets go of
                # Python's lock in long array operations) while the table is computed
                # and written.
                checking = stack.enter_context(ThreadPoolExecutor(max_workers=1))
                check = checking.submit(check_results, data).result
                with working(f"computing {kind}"):
                    table = computed(run, data, rules, corrections, check)
                rows = len(data.frame)
            inputs = [results] + ([adjustments] if adjustments else [])
            refuse_overwriting_inputs(manifest, inputs)
            written = emit(
                table,
                output=output,
                fmt=fmt,
                rules=rules,
                kind=kind,
                inputs=inputs,
                check=check,
            )
        if manifest is not None:
            write_manifest(
                manifest,
                command=kind,
                rules=rules,
                inputs=results_records(results, rows, adjustments, corrections),
                outputs=written,
                adjustments=adjustment_records(corrections),
            )

    command.__doc__ = doc
    return command


def computed(
    run: Callable[..., Any],
    data: Any,
    rules: Any,
    corrections: Any,
    check: Callable[[], None] | None,
) -> Any:
    """run(data, rules, corrections); on bad data, the seating problems are told first.

    The seating is checked alongside: whatever the computing raises on data whose
    seating is broken (InvalidData, or anything else), the seating problems come first.
    """
    try:
        return run(data, rules, corrections)
    except Exception:
        if check is not None:
            check()
        raise


def run_on_dask(
    compute: str | None,
    results: str,
    encoding: str | None,
    rules: Any,
    corrections: Any,
    scheduler: str | None,
) -> Any:
    """The same table, computed on a Dask cluster."""
    from duplicate.errors import UsageError
    from duplicate.io.parquet_columns import is_parquet
    from duplicate.io.read import read_raw, source_name

    if compute is None:
        raise UsageError("this command runs on the local engine only")
    if rules.method != "matchpoints":
        raise UsageError("the dask engine scores matchpoints; use the local engine")
    module, function = compute.split(":")
    run = getattr(importlib.import_module(module), function)
    source = source_name(results)
    if is_parquet(results):
        import dask.dataframe as dd

        # Parquet is read by the workers, never whole on this machine.
        return run(dd.read_parquet(results), source, rules, corrections, scheduler)
    raw, first_row = read_raw(results, encoding)
    return run(raw, source, rules, corrections, scheduler, first_row)
