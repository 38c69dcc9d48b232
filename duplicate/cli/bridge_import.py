"""`duplicate import`: a bridge session (PBN or USEBIO) as a results table."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from duplicate.cli.common import (
    ExcelOpt,
    FormatOpt,
    OutputOpt,
    as_excel,
    input_files,
    refuse_overwriting_inputs,
    reports_errors,
    whole_option,
)
from duplicate.cli.manifest import ManifestOpt, input_record, write_manifest
from duplicate.cli.output import emit


class SessionFormat(StrEnum):
    pbn = "pbn"
    usebio = "usebio"


class Winners(StrEnum):
    auto = "auto"
    one = "one"
    two = "two"


def register(app: typer.Typer) -> None:
    app.command(name="import")(import_session)


@reports_errors
def import_session(
    session: Annotated[
        str,
        typer.Argument(
            metavar="SESSION",
            help="A PBN file with a results table, or USEBIO XML; '-' reads standard input.",
        ),
    ],
    output: OutputOpt = None,
    fmt: FormatOpt = None,
    excel: ExcelOpt = False,
    source_format: Annotated[
        SessionFormat | None,
        typer.Option("--from", help="pbn or usebio. Default: by the suffix, then the content."),
    ] = None,
    round_number: Annotated[
        int | None, whole_option("--round", help="The round this session is. Default 1.")
    ] = None,
    winners: Annotated[
        Winners,
        typer.Option(
            "--winners",
            help="two: North-South and East-West ranked apart (a Mitchell); one: every "
            "pair together (a Howell); auto: two unless a pair number sits both ways.",
        ),
    ] = Winners.auto,
    manifest: ManifestOpt = None,
) -> None:
    """Convert a bridge session to a results table: board -> deal, NS/EW -> seat,
    pair -> player, the score from each side.

    Example: duplicate import club.pbn -o results.csv, then
    duplicate standings results.csv --method percentage
    """
    from duplicate.cli.common import stderr
    from duplicate.imports import session_table
    from duplicate.io.source import resolve
    from duplicate.rules import Rules

    source = resolve(session)
    table, how = session_table(
        source.read_bytes(),
        source.name,
        source_format.value if source_format else None,
        round_number or 1,
        winners.value,
    )
    stderr.print(f"{source.name}: {len(table)} results; {how}")
    refuse_overwriting_inputs(manifest, input_files(session), "--manifest")
    rules = Rules()
    written = emit(
        table,
        output=output,
        fmt=as_excel(fmt, excel),
        rules=rules,
        kind="results",
        inputs=input_files(session),
    )
    if manifest is not None:
        write_manifest(
            manifest,
            command="import",
            rules=rules,
            inputs=[input_record("session", session, len(table))],
            outputs=written,
        )
