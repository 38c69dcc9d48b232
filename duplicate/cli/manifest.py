"""The --manifest option, and the manifest records a command's inputs make."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from duplicate.io.manifest import adjustment_records, input_record, write_manifest

__all__ = ["ManifestOpt", "adjustment_records", "input_record", "results_records", "write_manifest"]

ManifestOpt = Annotated[
    str | None,
    typer.Option(
        "--manifest",
        help="Also write a JSON record of this run: version, rules, inputs and outputs "
        "with their sha256 and row counts.",
    ),
]


def results_records(
    results: str, rows: int | None, adjustments: str | None, corrections: Any
) -> list[dict[str, Any]]:
    """The records of a results file and of its corrections file, if any."""
    records = [input_record("results", results, rows)]
    if adjustments and corrections is not None:
        records.append(input_record("adjustments", adjustments, len(corrections.frame)))
    return records
