"""`duplicate validate`: check a results file and list every problem."""

from __future__ import annotations

from typing import Annotated

import typer

from duplicate.cli.common import (
    EncodingOpt,
    ResultsArg,
    max_rows,
    read_table,
    reports_errors,
    stderr,
    warn_if_nothing_compared,
)
from duplicate.cli.rules_options import rules_options
from duplicate.rules import Rules


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
    encoding: EncodingOpt = None,
    *,
    rules: Rules,
) -> None:
    """Check a results file without scoring it; exit 0 when clean, 1 listing every problem.

    With --seating, also check that each round covered by the seating was played at
    the published tables and seats.

    Example: duplicate validate results.csv --seating round3-seating.csv
    """
    from duplicate.errors import InvalidData
    from duplicate.io.read import read_results, source_name
    from duplicate.seating.check import seating_problems

    data = read_results(results, encoding, rules.deal_scope, max_rows=max_rows())
    if seating is not None:
        raw, _ = read_table(seating, encoding)
        problems = seating_problems(data, raw, source_name(seating))
        if problems:
            raise InvalidData(problems)
    warn_if_nothing_compared(data, rules)
    players = data.dense_key("section", "player")[1]
    deals = data.dense_key("section", "round", "deal")[1]
    stderr.print(
        f"{source_name(results)}: {len(data.frame)} results, "
        f"{players} players, {deals} deals: no problems",
    )
