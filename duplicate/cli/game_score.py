"""`duplicate game-score`: scores from what happened at the table."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from duplicate.cli.common import (
    EncodingOpt,
    ExcelOpt,
    FormatOpt,
    OutputOpt,
    SheetOpt,
    as_excel,
    input_files,
    read_table,
    refuse_overwriting_inputs,
    reports_errors,
    whole_option,
)
from duplicate.cli.manifest import ManifestOpt, input_record, write_manifest
from duplicate.cli.output import emit
from duplicate.cli.rules_options import RulesFileOpt, effective_rules


class Game(StrEnum):
    big2 = "big2"
    doudizhu = "doudizhu"
    paohuzi = "paohuzi"


def register(app: typer.Typer) -> None:
    app.command(name="game-score")(game_score)


@reports_errors
def game_score(
    raw: Annotated[
        str,
        typer.Argument(
            metavar="RAW", help="Raw outcomes (CSV or Parquet); '-' reads standard input."
        ),
    ],
    game: Annotated[Game, typer.Option("--game", "-g", help="big2, doudizhu or paohuzi.")],
    output: OutputOpt = None,
    fmt: FormatOpt = None,
    excel: ExcelOpt = False,
    min_huxi: Annotated[
        int | None,
        whole_option("--min-huxi", help="Paohuzi: the event's minimum huxi to win. Default 15."),
    ] = None,
    encoding: EncodingOpt = None,
    sheet: SheetOpt = None,
    rules_file: RulesFileOpt = None,
    manifest: ManifestOpt = None,
) -> None:
    """Add the score column computed from raw outcomes, ready for score and standings.

    big2: cards_left, open, doubled.  doudizhu: role, bid, bombs, rocket, spring, won.
    paohuzi: winner, huxi, fan.  With round, deal, table, seat, player on every row.
    A score column already in RAW is checked instead: every difference is listed.

    Example: duplicate game-score --game big2 raw.csv -o results.csv
    """
    from duplicate.games.scores import scored_raw
    from duplicate.io.read import source_name
    from duplicate.model.results import parse_results
    from duplicate.rules import with_overrides

    rules = with_overrides(effective_rules(rules_file), paohuzi_min_huxi=min_huxi)
    table, first_row = read_table(raw, encoding, sheet)
    results = parse_results(
        table, source_name(raw), first_row, rules.deal_scope, score_required=False
    )
    refuse_overwriting_inputs(manifest, input_files(raw, rules=rules), "--manifest")
    written = emit(
        scored_raw(results, table, game.value, rules),
        output=output,
        fmt=as_excel(fmt, excel),
        rules=rules,
        kind="results",
        inputs=input_files(raw, rules=rules),
    )
    if manifest is not None:
        records = [input_record("raw", raw, len(table))]
        write_manifest(
            manifest,
            command=f"game-score {game.value}",
            rules=rules,
            inputs=records,
            outputs=written,
        )
