"""`duplicate validate`: check an event and list every problem."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from duplicate.cli.common import (
    SourceArg,
    emit_items,
    load,
    output_format,
    publishing,
    reports_errors,
    say_warnings,
    stderr,
)
from duplicate.cli.settings import flag_named, one_of, settings_options
from duplicate.games.registry import names as game_names

GameChoice = one_of(game_names(scored_only=True))


# A problem's row, as json and csv give it.
PROBLEM_COLUMNS = (
    "level",
    "code",
    "source",
    "rows",
    "position",
    "column",
    "message",
    "hint",
    "count",
)


def register(app: typer.Typer) -> None:
    app.command(name="validate")(validate)


@reports_errors
@settings_options("scoring", "source", "output", skip=("output",))
def validate(
    source: SourceArg,
    seating: Annotated[
        str | None,
        typer.Option("--seating", help="A published seating to check the results against."),
    ] = None,
    game: Annotated[
        GameChoice | None,  # type: ignore[valid-type]
        typer.Option(
            "--game",
            help="Also check that each table sums to zero and each score is one the game "
            "can give (default: an event folder's game).",
        ),
    ] = None,
    strict: Annotated[
        bool,
        typer.Option("--strict", help="Data-entry warnings are errors (exit 1)."),
    ] = False,
    *,
    settings: dict[str, Any],
) -> None:
    """Check an event without scoring it; exit 0 when clean, 1 listing every problem.

    Reads SOURCE as every command does (its adjustments and players too); with
    --seating (or an event folder's published seatings), also checks that each round
    was played at the published tables and seats. Likely data-entry mistakes (a player
    on one deal only, a player with fewer deals than their table, with --game a table
    not summing to zero or a score the game cannot give) are warnings, or errors with
    --strict.

    Without --format (or with table): each problem on standard error, for a person;
    json, csv, ...: every problem as a row (level, code, rows, column, message, hint) on
    standard output.

    Example: duplicate validate results.csv --seating round3-seating.csv
    """
    import duplicate
    from duplicate.errors import InvalidData
    from duplicate.rules import Rules

    text = output_format(settings) in (None, "table")
    event = None
    try:
        event = load(source, settings, say=text)
        found = duplicate.validate(event, seating=seating, game=game or None, strict=strict)
    except InvalidData as exc:
        if text:
            raise
        found = duplicate.Validation(source, tuple(exc.problems), ())
    rules = event.rules if event is not None else Rules()
    if not text:
        document = found.to_json(flag_named)
        problems = [
            {"level": level[:-1], **problem}
            for level in ("errors", "warnings")
            for problem in document.pop(level)
        ]
        emit_items(
            "validate",
            "problems",
            rules,
            event,
            problems,
            document,
            settings,
            lambda: None,
            "json",
            PROBLEM_COLUMNS,
        )
        if not found.ok:
            raise typer.Exit(1)
        return
    assert event is not None
    if not found.ok:
        raise InvalidData(list(found.errors))
    mistakes = [w for w in found.warnings if w not in event.warnings]
    say_warnings(mistakes)
    verdict = (
        f"{len(mistakes)} likely data-entry mistake{'s' if len(mistakes) != 1 else ''} "
        "(--strict: errors)"
        if mistakes
        else "no problems"
    )
    with publishing("validate", rules, event, settings):
        pass  # nothing is written but the manifest, when asked
    from duplicate.games.words import words_of

    stderr.print(
        f"{event.source}: {found.results} results, {found.players} players, "
        f"{found.deals} {words_of(event).deal}s: {verdict}",
    )
