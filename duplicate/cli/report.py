"""`duplicate report`: the event as a static web site."""

from __future__ import annotations

import hashlib
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from duplicate.cli.common import (
    AdjustmentsOpt,
    EncodingOpt,
    ResultsArg,
    SheetOpt,
    input_files,
    read_inputs,
    refuse_overwriting_inputs,
    reports_errors,
    stderr,
    working,
)
from duplicate.cli.manifest import (
    ManifestOpt,
    adjustment_records,
    results_records,
    write_manifest,
)
from duplicate.cli.rules_options import rules_options
from duplicate.rules import Rules

if TYPE_CHECKING:
    from duplicate.io.publish import Written


class Language(StrEnum):
    en = "en"
    zh = "zh"


def register(app: typer.Typer) -> None:
    app.command(name="report")(report)


@reports_errors
@rules_options
def report(
    results: ResultsArg,
    output: Annotated[
        str, typer.Option("--output", "-o", help="The folder to write the site into.")
    ],
    lang: Annotated[Language, typer.Option("--lang", help="Labels in en or zh.")] = Language.en,
    adjustments: AdjustmentsOpt = None,
    encoding: EncodingOpt = None,
    sheet: SheetOpt = None,
    manifest: ManifestOpt = None,
    players: Annotated[
        Path | None,
        typer.Option(
            "--players",
            help="A players file whose name and club columns the standings show "
            "(default: an event folder's).",
        ),
    ] = None,
    *,
    rules: Rules,
) -> None:
    """Write a self-contained web site: standings, a page per deal and per player, the rules.

    Example: duplicate report results.csv -o site --lang zh
    """
    from duplicate.io.event import is_event, record_outputs
    from duplicate.report.data import report_data
    from duplicate.report.pages import build_site

    inputs = input_files(results, adjustments, rules=rules)
    refuse_overwriting_inputs(output, inputs)
    refuse_overwriting_inputs(manifest, inputs, "--manifest")
    with working(f"reading {results}"):
        data, corrections = read_inputs(results, adjustments, encoding, rules.deal_scope, sheet)
    with working("building the report"):
        people = _people(results, players, encoding)
        site = report_data(data, rules, corrections)
        pages = build_site(site, lang.value, heading(results), people)
    written = write_site(output, pages)
    if results != "-" and is_event(results):
        record_outputs(results, "report", [(written.path, written.sha256)])
    if manifest is not None:
        write_manifest(
            manifest,
            command="report",
            rules=rules,
            inputs=results_records(results, len(data.frame), adjustments, corrections),
            outputs=[written],
            adjustments=adjustment_records(corrections),
        )


def _people(results: str, players: Path | None, encoding: str | None) -> Any:
    """Names and clubs from the players file (given, or an event folder's), or None."""
    from duplicate.io.event import players_file
    from duplicate.io.read import read_player_details

    if players is None and results != "-":
        players = players_file(results)
    return None if players is None else read_player_details(players, encoding)


def heading(results: str) -> str:
    """An event folder's title, date and venue, for every page; nothing otherwise."""
    from duplicate.io.event import is_event, load_event

    if results == "-" or not is_event(results):
        return ""
    return load_event(results).heading()


def write_site(output: str, pages: dict[str, str]) -> Written:
    """Write a site's pages into the folder `output` at once; the site as one output
    for a manifest (the listing of its pages' paths and hashes)."""
    from duplicate.io.publish import Written
    from duplicate.io.source import file_listing
    from duplicate.io.write import write_directory

    files = {path: html.encode("utf-8") for path, html in pages.items()}
    write_directory(output, files)
    stderr.print(f"wrote {len(pages)} pages to {output}/ (open {output}/index.html)")
    site = file_listing({path: hashlib.sha256(page).hexdigest() for path, page in files.items()})
    return Written.of(output, "site", site, len(files))
