"""The --manifest option, and the manifest records a command's inputs make."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from duplicate.io import manifest as manifest_io
from duplicate.io.manifest import adjustment_records, input_record

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


def write_manifest(path: str, **record: Any) -> None:
    """io.manifest.write_manifest, with the command line of this run (so that
    `duplicate manifest check` can run it again)."""
    manifest_io.write_manifest(path, **record, command_line=command_line())


def command_line() -> list[str]:
    """This run's arguments after `duplicate`, as the program was started with them
    (`main` keeps them); empty when a command is called inside another program."""
    from duplicate.cli.common import _state

    words: list[str] = _state.get("command_line", [])
    return list(words)
