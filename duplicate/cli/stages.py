"""`duplicate elimination` and `duplicate final`: the platform's stage formats."""

from __future__ import annotations

import dataclasses
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from duplicate.cli.common import (
    EncodingOpt,
    ExcelOpt,
    FormatOpt,
    OutputOpt,
    as_excel,
    input_files,
    max_rows,
    read_table,
    refuse_overwriting_inputs,
    reports_errors,
    stderr,
    whole_option,
)
from duplicate.cli.manifest import ManifestOpt, input_record, write_manifest
from duplicate.cli.output import emit
from duplicate.cli.report import Language, write_site
from duplicate.cli.rules_options import RulesFileOpt, effective_rules

if TYPE_CHECKING:
    from duplicate.rules import Rules
    from duplicate.stages.hand_log import HandLog


class CarryChoice(StrEnum):
    ratio = "ratio"
    sqrt = "sqrt"
    none = "none"


HandsArg = Annotated[
    str,
    typer.Argument(
        metavar="HANDS",
        help="Hand log: hand, table, seat, player, score, minute (or finished_at); "
        "'-' reads standard input.",
    ),
]
BaseOpt = Annotated[
    str | None,
    typer.Option("--base", help="The base from each minute, such as 0:100,4:200,8:400."),
]
PlayersOpt = Annotated[
    Path | None,
    typer.Option("--players", help="Players file: registration order settles equal results."),
]
ExplainOpt = Annotated[
    str | None,
    typer.Option("--explain", help="Show every hand (and payment) behind this player's line."),
]


def register(app: typer.Typer) -> None:
    app.command(name="elimination")(elimination)
    app.command(name="final")(final)


@reports_errors
def elimination(
    hands: HandsArg,
    start: Annotated[int | None, whole_option("--start", help="Chips at the start.")] = None,
    base: BaseOpt = None,
    eliminate_below: Annotated[
        str | None,
        typer.Option("--eliminate-below", help="Out below this share of the base (0.25)."),
    ] = None,
    eliminate_below_chips: Annotated[
        int | None,
        whole_option("--eliminate-below-chips", help="Out below this many chips."),
    ] = None,
    advance: Annotated[
        int | None,
        whole_option("--advance", help="Places that qualify."),
    ] = None,
    carry: Annotated[
        CarryChoice | None,
        typer.Option("--carry", help="What qualifiers carry: ratio, sqrt or none."),
    ] = None,
    carry_ratio: Annotated[
        str | None, typer.Option("--carry-ratio", help="Chips (or their root) times this.")
    ] = None,
    players: PlayersOpt = None,
    ass: Annotated[
        int | None,
        whole_option("--ass", help="Check that no table sits more than N hands."),
    ] = None,
    ledger: Annotated[
        str | None,
        typer.Option("--ledger", help="Also write every payment, its cap and the chips after."),
    ] = None,
    chips: Annotated[
        str | None,
        typer.Option("--chips", help="Also write every player's chips after each of their hands."),
    ] = None,
    explain: ExplainOpt = None,
    report: Annotated[
        str | None,
        typer.Option("--report", help="Also write the stage as a web site in this folder."),
    ] = None,
    lang: Annotated[Language, typer.Option("--lang", help="Report labels: en or zh.")] = (
        Language.en
    ),
    rules_file: RulesFileOpt = None,
    output: OutputOpt = None,
    fmt: FormatOpt = None,
    excel: ExcelOpt = False,
    encoding: EncodingOpt = None,
    manifest: ManifestOpt = None,
) -> None:
    """Stage standings of stack elimination (打立出局) from a hand log.

    Payments are minimized (积分最小化), players below the limit are out, and the
    first --advance places qualify carrying their points (SCORING.md section 8).

    Example: duplicate elimination hands.csv --base 0:100,4:200 --advance 16 -o stage.csv
    """
    from duplicate.rules import parse_decimal
    from duplicate.stages.elimination import eliminate, player_payments
    from duplicate.stages.stage_rules import parse_schedule

    rules = effective_rules(rules_file)
    changes: dict[str, Any] = {
        "start": start,
        "base": parse_schedule(base) if base is not None else None,
        "eliminate_below": parse_decimal(eliminate_below, "--eliminate-below")
        if eliminate_below is not None
        else None,
        "eliminate_below_chips": eliminate_below_chips,
        "advance": advance,
        "carry": carry.value if carry else None,
        "carry_ratio": parse_decimal(carry_ratio, "--carry-ratio")
        if carry_ratio is not None
        else None,
        "ass_hands": ass,
    }
    stage = dataclasses.replace(rules.stage, **{k: v for k, v in changes.items() if v is not None})
    rules = dataclasses.replace(rules, stage=stage)
    inputs = input_files(hands, players, rules=rules)
    for path in (output, ledger, chips, manifest, report):
        refuse_overwriting_inputs(path, inputs)
    log = _hand_log(hands, encoding)
    result = eliminate(log, stage, _registration(players, encoding))
    if explain is not None:
        _explain(explain, player_payments(result.ledger, explain), fmt)
        return
    written = emit(
        result.standings,
        output=output,
        fmt=as_excel(fmt, excel),
        rules=rules,
        kind="standings",
        inputs=inputs,
    )
    from duplicate.io.publish import write_table

    for path, table, kind, what in (
        (ledger, result.ledger, "ledger", "payments"),
        (chips, result.history, "chips", "chip counts"),
    ):
        if path is not None:
            written += write_table(table, path, rules, kind, inputs=inputs)
            stderr.print(f"wrote {len(table)} {what} to {path}")
    if report is not None:
        from duplicate.report.stage_pages import stage_site

        written.append(write_site(report, stage_site(result, lang.value)))
    if manifest is not None:
        records = [input_record("hands", hands, len(log.frame))]
        write_manifest(
            manifest, command="elimination", rules=rules, inputs=records, outputs=written
        )


@reports_errors
def final(
    hands: HandsArg,
    hand_count: Annotated[
        int,
        whole_option("--hands", help="Hands every finalist plays."),
    ],
    carried: Annotated[
        Path | None,
        typer.Option("--carried", help="player, carried (the elimination output as it is)."),
    ] = None,
    base: BaseOpt = None,
    players: PlayersOpt = None,
    explain: ExplainOpt = None,
    rules_file: RulesFileOpt = None,
    output: OutputOpt = None,
    fmt: FormatOpt = None,
    excel: ExcelOpt = False,
    encoding: EncodingOpt = None,
    manifest: ManifestOpt = None,
) -> None:
    """Standings of a fixed-hand final (定局积分制): carried points plus every hand.

    Players short of --hands get no place; equal totals go by the last hand, then
    registration (SCORING.md 8.4, 8.5).

    Example: duplicate final final.csv --hands 6 --carried stage.csv -o final.csv
    """
    from duplicate.stages.final import carried_points, final_hands, final_standings
    from duplicate.stages.stage_rules import parse_schedule

    if hand_count < 1:
        raise typer.BadParameter("a final has at least 1 hand", param_hint="--hands")
    rules = effective_rules(rules_file)
    inputs = input_files(hands, carried, players, rules=rules)
    for path in (output, manifest):
        refuse_overwriting_inputs(path, inputs)
    log = _hand_log(hands, encoding)
    points = None
    if carried is not None:
        table, _ = read_table(carried, encoding)
        points = carried_points(table, str(carried))
    schedule = parse_schedule(base) if base is not None else None
    table = final_standings(log, hand_count, points, schedule, _registration(players, encoding))
    if explain is not None:
        _explain(explain, final_hands(log, explain, schedule), fmt)
        return
    written = emit(
        table, output=output, fmt=as_excel(fmt, excel), rules=rules, kind="standings", inputs=inputs
    )
    if manifest is not None:
        records = [input_record("hands", hands, len(log.frame))]
        write_manifest(manifest, command="final", rules=rules, inputs=records, outputs=written)


def _hand_log(hands: str, encoding: str | None) -> HandLog:
    from duplicate.io.read import read_hand_log

    return read_hand_log(hands, encoding, max_rows())


def _registration(players: Path | None, encoding: str | None) -> dict[str, int] | None:
    if players is None:
        return None
    from duplicate.seating.players import parse_players

    raw, _ = read_table(players, encoding)
    field = parse_players(raw, str(players))
    return dict(zip(field["player"], (int(r) for r in field["registered"]), strict=True))


def _explain(player: str, table: Any, fmt: Any) -> None:
    """A player's payments or hands, or a word that there are none."""
    if table.empty:
        stderr.print(f"{player!r} has no payment or hand in the log")
    _show(table, fmt)


def _show(table: Any, fmt: Any) -> None:
    from duplicate.rules import Rules

    rules: Rules = Rules()
    emit(table.reset_index(drop=True), output=None, fmt=fmt, rules=rules, kind="rows", inputs=[])
