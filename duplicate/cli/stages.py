"""`duplicate elimination` and `duplicate final`: the platform's stage formats."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from duplicate.cli.common import (
    emit,
    input_help,
    load,
    publishing,
    reports_errors,
    say_warnings,
    stderr,
    whole_option,
)
from duplicate.cli.report import Language, LanguageOpt
from duplicate.cli.settings import settings_options
from duplicate.options import settings as declared

HandsArg = Annotated[
    str,
    typer.Argument(
        metavar="HANDS",
        help=input_help(
            "A stage's hand log: hand, table, seat, player, score, minute (or finished_at)"
        ),
    ),
]
ExplainOpt = Annotated[
    str | None,
    typer.Option("--explain", help="Show every hand (and payment) behind this player's line."),
]
# A final counts by the base alone of the stage settings.
NOT_FINAL = tuple(s.name for s in declared("stage") if s.name != "base")


def register(app: typer.Typer) -> None:
    app.command(name="elimination")(elimination)
    app.command(name="final")(final)


@reports_errors
@settings_options("stage", "source", "output", skip=("adjustments",))
def elimination(
    hands: HandsArg,
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
    lang: LanguageOpt = Language.en,
    *,
    settings: dict[str, Any],
) -> None:
    """Stage standings of stack elimination (打立出局) from a hand log.

    Payments are minimized (积分最小化), players below the limit are out, and the
    first --advance places qualify carrying their points.

    Example: duplicate elimination hands.csv --base 0:100,4:200 --advance 16 -o stage.csv
    """
    import duplicate
    from duplicate.actions.report import stage_report
    from duplicate.actions.stages import stage_payments
    from duplicate.output import Table

    event = load(hands, settings, kind="hands")
    stage = duplicate.elimination(event)
    if explain is not None:
        payments = stage_payments(stage, explain)
        if payments.empty:
            stderr.print(f"{explain!r} has no payment or hand in the log")
        emit(Table("rows", stage.rules, payments, event=event), "elimination", _shown(settings))
        return
    if ledger is None and chips is None and report is None:
        emit(stage, "elimination", settings)
        return
    extra = [
        (path, option, Table(kind, stage.rules, frame, event=event))
        for path, option, kind, frame in (
            (ledger, "--ledger", "ledger", stage.ledger),
            (chips, "--chips", "chips", stage.history),
        )
        if path is not None
    ]
    with publishing("elimination", stage.rules, event, settings) as out:
        from duplicate.cli.common import output_format, to_terminal

        if to_terminal(settings):
            from duplicate.cli.output import render_table

            render_table(stage.frame)
        else:
            out.table(stage, settings.get("output") or "-", output_format(settings))
        for path, option, table in extra:
            out.table(table, path, option=option)
        if report is not None:
            out.site(stage_report(stage, lang.value), report, option="--report")


@reports_errors
@settings_options("stage", "source", "output", skip=("adjustments", *NOT_FINAL))
def final(
    hands: HandsArg,
    hand_count: Annotated[int, whole_option("--hands", help="Hands every finalist plays.")],
    carried: Annotated[
        str | None,
        typer.Option("--carried", help="player, carried (the elimination output as it is)."),
    ] = None,
    explain: ExplainOpt = None,
    *,
    settings: dict[str, Any],
) -> None:
    """Standings of a fixed-hand final (定局积分制): carried points plus every hand.

    Players short of --hands get no place; equal totals go by the last hand, then
    registration.

    Example: duplicate final final.csv --hands 6 --carried stage.csv -o final.csv
    """
    import duplicate
    from duplicate.actions.stages import final_hands
    from duplicate.stages.final import check_hands

    check_hands(hand_count)
    event = load(hands, settings, kind="hands")
    if explain is not None:
        shown = final_hands(event, explain)
        if len(shown) == 0:
            stderr.print(f"{explain!r} has no payment or hand in the log")
        emit(shown, "final", _shown(settings))
        return
    table = duplicate.final(event, hand_count, carried, encoding=settings.get("encoding"))
    if table.event is not None:
        say_warnings([w for w in table.event.warnings if w not in event.warnings])
    emit(table, "final", settings)


def _shown(settings: dict[str, Any]) -> dict[str, Any]:
    """Output settings for a player's lines: shown, never written to -o."""
    return {k: v for k, v in settings.items() if k in ("format", "excel")}
