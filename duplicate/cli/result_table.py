"""The shape shared by `score` and `standings`: read results, compute a table, emit it."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from duplicate.cli.common import (
    AdjustmentsOpt,
    DealScopeOpt,
    EncodingOpt,
    FormatOpt,
    MethodOpt,
    OutputOpt,
    RankBaseOpt,
    RankFactorsOpt,
    ResultsArg,
    RulesOpt,
    TieRankingOpt,
    effective_rules,
    refuse_overwriting_inputs,
    reports_errors,
    working,
)
from duplicate.cli.manifest import ManifestOpt, adjustment_records, input_record, write_manifest
from duplicate.cli.output import emit


def result_table_command(compute: str, kind: str, doc: str) -> Callable[..., None]:
    """A command computing `compute` ("module:function", imported when run) on results."""

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
        adjustments: AdjustmentsOpt = None,
        manifest: ManifestOpt = None,
    ) -> None:
        from duplicate.io.read import read_adjustments, read_results

        module, function = compute.split(":")
        run = getattr(importlib.import_module(module), function)
        rules = effective_rules(
            rules_file, tie_ranking, deal_scope, rank_factors, rank_base, method
        )
        with working(f"reading {results}"):
            data = read_results(results, encoding, rules.deal_scope)
            corrections = read_adjustments(adjustments, encoding) if adjustments else None
        with working(f"computing {kind}"):
            table = run(data, rules, corrections)
        inputs = [results] + ([adjustments] if adjustments else [])
        refuse_overwriting_inputs(manifest, inputs)
        written = emit(
            table,
            output=output,
            fmt=fmt,
            rules=rules,
            kind=kind,
            inputs=inputs,
        )
        if manifest is not None:
            records = [input_record("results", results, len(data.frame))]
            if adjustments and corrections is not None:
                records.append(input_record("adjustments", adjustments, len(corrections.frame)))
            write_manifest(
                manifest,
                command=kind,
                rules=rules,
                inputs=records,
                outputs=written,
                adjustments=adjustment_records(corrections),
            )

    command.__doc__ = doc
    return command
