"""The shape shared by `score` and `standings`: read results, compute a table, emit it."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from duplicate.cli.common import (
    AdjustmentsOpt,
    EncodingOpt,
    Engine,
    EngineOpt,
    ExcelOpt,
    FormatOpt,
    OutputOpt,
    ResultsArg,
    SchedulerOpt,
    SheetOpt,
    as_excel,
    input_files,
    max_rows,
    read_inputs,
    refuse_overwriting_inputs,
    reports_errors,
    warn_if_nothing_compared,
    working,
)
from duplicate.cli.manifest import (
    ManifestOpt,
    adjustment_records,
    results_records,
    write_manifest,
)
from duplicate.cli.output import emit
from duplicate.cli.rules_options import rules_options
from duplicate.rules import Rules


def result_table_command(
    compute: str, kind: str, doc: str, on_dask: str | None = None
) -> Callable[..., None]:
    """A command computing `compute` ("module:function", imported when run) on results.

    `compute` may give a table in batches (ScoreBatches), written as they come.
    """

    @reports_errors
    @rules_options
    def command(
        results: ResultsArg,
        output: OutputOpt = None,
        fmt: FormatOpt = None,
        excel: ExcelOpt = False,
        encoding: EncodingOpt = None,
        sheet: SheetOpt = None,
        engine: EngineOpt = Engine.local,
        scheduler: SchedulerOpt = None,
        adjustments: AdjustmentsOpt = None,
        manifest: ManifestOpt = None,
        *,
        rules: Rules,
    ) -> None:
        module, function = compute.split(":")
        run = getattr(importlib.import_module(module), function)
        if engine is Engine.dask:
            from duplicate.io.read import read_adjustments

            corrections = (
                read_adjustments(adjustments, encoding, max_rows()) if adjustments else None
            )
            with working(f"computing {kind} on Dask"):
                table = run_on_dask(on_dask, results, encoding, rules, corrections, scheduler)
            # score has a row per result; standings on Dask never hold the results.
            rows = table.rows if kind == "scores" else None
        else:
            with working(f"reading {results}"):
                data, corrections = read_inputs(
                    results, adjustments, encoding, rules.deal_scope, sheet
                )
            with working(f"computing {kind}"):
                table = run(data, rules, corrections)
            warn_if_nothing_compared(data, rules)
            rows = len(data)
        inputs = input_files(results, adjustments, rules=rules)
        refuse_overwriting_inputs(manifest, inputs, "--manifest")
        written = emit(
            table, output=output, fmt=as_excel(fmt, excel), rules=rules, kind=kind, inputs=inputs
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
    from duplicate.io.read import read_raw
    from duplicate.io.source import resolve

    if compute is None:
        raise UsageError("this command runs on the local engine only")
    from duplicate.scoring.methods import method_of

    method_of(rules).require("distributed", "the dask engine")
    if rules.factoring != "none":
        raise UsageError("--factoring runs on the local engine only")
    if corrections is not None and corrections.whole_event_kinds():
        kinds = ", ".join(corrections.whole_event_kinds())
        raise UsageError(f"adjustments of kind {kinds} run on the local engine only")
    module, function = compute.split(":")
    run = getattr(importlib.import_module(module), function)
    source = resolve(results)
    if source.kind != "csv" and not source.is_stdin:
        import dask.dataframe as dd

        # Parquet is read by the workers, never whole on this machine.
        return run(dd.read_parquet(results), source.name, rules, corrections, scheduler)
    raw, first_row = read_raw(source, encoding, max_rows())
    return run(raw, source.name, rules, corrections, scheduler, first_row)
