"""`duplicate seat`: the next round's Swiss seating."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from duplicate.cli.common import SOURCES, emit, load, reports_errors, stderr, whole_option
from duplicate.cli.settings import settings_options
from duplicate.limits import MAX_TABLE_SIZE


class SeatingOrder(StrEnum):
    snake = "snake"
    straight = "straight"


class Fill(StrEnum):
    robot = "robot"
    bye = "bye"


class TieRuleChoice(StrEnum):
    standings = "standings"
    registration = "registration"


def register(app: typer.Typer) -> None:
    app.command(name="seat")(seat)


@reports_errors
@settings_options("scoring", "source", "output")
def seat(
    source: Annotated[
        str | None,
        typer.Argument(
            metavar="SOURCE", help=f"The results so far: {SOURCES}. Omit with --round 1."
        ),
    ] = None,
    table_size: Annotated[
        int,
        whole_option("--table-size", "-k", help="Seats per table (4 Big Two, 3 Dou Dizhu)."),
    ] = 4,
    order: Annotated[
        SeatingOrder, typer.Option("--order", help="snake 1,2,3/6,5,4 or straight 1,2,3/4,5,6.")
    ] = SeatingOrder.snake,
    fill: Annotated[
        Fill, typer.Option("--fill", help="Complete the last table with robots, or give byes.")
    ] = Fill.robot,
    round_number: Annotated[
        int | None,
        whole_option("--round", help="1 to draw round 1 at random (needs --seed)."),
    ] = None,
    seed: Annotated[int | None, whole_option("--seed", help="Seed of the round-1 draw.")] = None,
    avoid_repeats: Annotated[
        bool,
        typer.Option(
            "--avoid-repeats/--no-avoid-repeats",
            help="Keep players who have met apart when the snake allows it (after round 1).",
        ),
    ] = True,
    window: Annotated[
        int | None,
        whole_option(
            "--window",
            help="Ranks a player may move to avoid a repeat (exact within it). "
            "Default: up to 2K, less for very large fields.",
        ),
    ] = None,
    partners: Annotated[
        Path | None,
        typer.Option(
            "--partners",
            help="Pairs event: file of player, partner; partners sit opposite (seats 0/2, 1/3).",
            metavar="FILE",
        ),
    ] = None,
    versus_robots: Annotated[
        bool,
        typer.Option("--versus-robots", help="Every player in seat 0 at a table of robots."),
    ] = False,
    tie_rule: Annotated[
        TieRuleChoice,
        typer.Option(
            "--tie-rule",
            help="standings (every tie-break) or registration (a Swiss final: equal totals "
            "by the players file's registration).",
        ),
    ] = TieRuleChoice.standings,
    keep: Annotated[
        int | None,
        whole_option(
            "--keep",
            help="Swiss with cuts: seat only the first N of the standings; the rest are out.",
        ),
    ] = None,
    force: Annotated[
        bool,
        typer.Option("--force", help=f"Allow tables of more than {MAX_TABLE_SIZE} seats."),
    ] = False,
    replace: Annotated[
        bool,
        typer.Option(
            "--replace",
            help="An event folder: store this seating over the round's stored one "
            "(kept in DIR/replaced).",
        ),
    ] = False,
    *,
    settings: dict[str, Any],
) -> None:
    """Seat the round after the last one in SOURCE by the standings, in a snake.

    Example: duplicate seat results.csv --players players.csv -k 4 -o round4.csv

    Round 1: duplicate seat --players players.csv --round 1 --seed 2026

    From an event folder, the folder keeps the seating (DIR/seatings/round-NNNN.csv,
    logged): the round's upload is checked against it.
    """
    import duplicate
    from duplicate.cli.settings import of_groups
    from duplicate.text import counted

    drawn = round_number == 1
    # Round 1 is drawn from the players (an event folder's, or --players).
    event: Any = source if drawn or source is None else load(source, settings)
    read = of_groups(settings, "scoring", "source")
    seating = duplicate.seat(
        event,
        table_size=table_size,
        order=order.value,
        fill=fill.value,
        round_number=round_number,
        seed=seed,
        avoid_repeats=avoid_repeats,
        window=window,
        partners=str(partners) if partners is not None else None,
        versus_robots=versus_robots,
        tie_rule=tie_rule.value,
        keep=keep,
        force=force,
        **(read if drawn or source is None else {}),
    )
    folder = seating.event.folder if seating.event is not None else None
    # -o onto the file the event keeps the seating in (as scripts give it): kept once.
    kept_only = folder is not None and _output_kept(folder, seating, settings.get("output"))
    if folder is not None:
        stored = duplicate.event_store_seating(folder, seating, replace)
        stderr.print(f"the event keeps this seating as {stored.path}")
    if drawn:
        stderr.print(f"round 1 drawn with seed {seed}")
    if not drawn and avoid_repeats and seating.event is not None:
        results = seating.event.results
        if results is not None and not results.has_table:
            stderr.print(
                f"{seating.event.source} has no table column, so who met whom is unknown: "
                "seated in rule order",
            )
    for report in seating.reports:
        stderr.print(str(report))
    if keep is not None:
        stderr.print(
            f"cut after {counted(keep, 'place')}, {counted(len(seating.cut), 'player')} out: "
            + (", ".join(seating.cut) or "none")
        )
    if not kept_only:
        emit(seating, "seating", settings)


def _output_kept(folder: str, seating: Any, output: str | None) -> bool:
    """Whether -o names the file the event keeps this seating in (written once, by the
    event); any other file in its seatings/ is refused: it holds only what `seat DIR`
    stores there."""
    from duplicate.errors import UsageError
    from duplicate.io.event_folder import SEATINGS, seating_path

    if output in (None, "-"):
        return False
    seatings = (Path(folder) / SEATINGS).resolve()
    given = Path(str(output)).resolve()
    if not given.is_relative_to(seatings):
        return False
    rounds = seating.frame["round"].astype("str")
    kept = seating_path(folder, int(rounds.iloc[0])).resolve() if len(rounds) else None
    if given != kept:
        raise UsageError(
            f"{output}: `seat {folder}` keeps the seating in {seatings} itself; "
            "leave -o out, or give a file elsewhere",
            "seat.output-in-folder",
        )
    return True
