"""`duplicate validate`: check a results file and list every problem."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from duplicate.cli.common import (
    EncodingOpt,
    ResultsArg,
    SheetOpt,
    note_blank_rows,
    read_results_file,
    read_table,
    reports_errors,
    stderr,
    warn_if_nothing_compared,
)
from duplicate.cli.rules_options import rules_options
from duplicate.rules import Rules


class EntryGame(StrEnum):
    big2 = "big2"
    doudizhu = "doudizhu"
    paohuzi = "paohuzi"


def event_game(results: str) -> str | None:
    """An event folder's game, for its zero-sum checks."""
    from duplicate.io.event import is_event, load_event

    return load_event(results).game if results != "-" and is_event(results) else None


def register(app: typer.Typer) -> None:
    app.command(name="validate")(validate)


@reports_errors
@rules_options
def validate(
    results: ResultsArg,
    seating: Annotated[
        str | None,
        typer.Option("--seating", help="A published seating to check the results against."),
    ] = None,
    game: Annotated[
        EntryGame | None,
        typer.Option(
            "--game",
            help="big2, doudizhu or paohuzi: also check that each table sums to zero and "
            "each score is one the game can give.",
        ),
    ] = None,
    strict: Annotated[
        bool,
        typer.Option("--strict", help="Data-entry warnings are errors (exit 1)."),
    ] = False,
    encoding: EncodingOpt = None,
    sheet: SheetOpt = None,
    *,
    rules: Rules,
) -> None:
    """Check a results file without scoring it; exit 0 when clean, 1 listing every problem.

    With --seating, also check that each round covered by the seating was played at
    the published tables and seats. Likely data-entry mistakes (a player on one deal
    only, a player with fewer deals than their table, with --game a table not summing
    to zero or a score the game cannot give) are warnings, or errors with --strict.

    Example: duplicate validate results.csv --seating round3-seating.csv
    """
    from duplicate.errors import InvalidData, listed_problems
    from duplicate.io.read import source_name
    from duplicate.model.entry_checks import entry_problems
    from duplicate.seating.check import seating_problems

    data = read_results_file(results, encoding, rules.deal_scope, sheet)
    note_blank_rows(data)
    if seating is not None:
        raw, _ = read_table(seating, encoding)
        problems = seating_problems(data, raw, source_name(seating))
        if problems:
            raise InvalidData(problems)
    warn_if_nothing_compared(data, rules)
    mistakes = entry_problems(data, game.value if game else event_game(results))
    if mistakes and strict:
        raise InvalidData(mistakes)
    for line in listed_problems(mistakes):
        stderr.print(f"warning: {line}")
    players = data.dense_key("section", "player")[1]
    deals = data.dense_key("section", "round", "deal")[1]
    verdict = (
        f"{len(mistakes)} likely data-entry mistake{'s' if len(mistakes) != 1 else ''} "
        "(--strict: errors)"
        if mistakes
        else "no problems"
    )
    stderr.print(
        f"{source_name(results)}: {len(data.frame)} results, "
        f"{players} players, {deals} deals: {verdict}",
    )
