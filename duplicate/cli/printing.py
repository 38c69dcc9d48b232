"""`duplicate print`: table cards, a seating list and score cards as PDF for the venue."""

from __future__ import annotations

import hashlib
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from duplicate.cli.common import refuse_overwriting_inputs, reports_errors, stderr, whole_option


class Printed(StrEnum):
    table_cards = "table-cards"
    seating_list = "seating-list"
    score_cards = "score-cards"


def register(app: typer.Typer) -> None:
    app.command(name="print")(print_event)


@reports_errors
def print_event(
    folder: Annotated[Path, typer.Argument(metavar="DIR", help="The event folder.")],
    what: Annotated[
        Printed, typer.Option("--what", help="table-cards, seating-list or score-cards.")
    ],
    output: Annotated[str, typer.Option("--output", "-o", help="The PDF file to write.")],
    round_number: Annotated[
        int | None,
        whole_option("--round", help="The seating's round. Default: the latest published."),
    ] = None,
) -> None:
    """Print for the venue (A4 PDF, every page headed by the event's title, date and
    venue): table cards and a seating list from a published seating in DIR/seatings,
    or every player's score card from the event's results.

    Example: duplicate print spring --what table-cards -o round3-tables.pdf
    """
    from duplicate.errors import UsageError
    from duplicate.io.event import event_rules, is_event, load_event, record_outputs
    from duplicate.io.read import read_raw, read_results
    from duplicate.io.write import write_atomic
    from duplicate.report import printed
    from duplicate.scoring.methods import score, standings

    if not is_event(folder):
        raise UsageError(f"{folder} is not an event folder (see `duplicate event init`)")
    if Path(output).suffix.casefold() != ".pdf":
        raise UsageError(f"{output}: give a .pdf file")
    heading = load_event(folder).heading()
    names = player_names(folder)
    inputs = [str(p) for p in folder.rglob("*") if p.is_file()]
    refuse_overwriting_inputs(output, inputs)
    if what is Printed.score_cards:
        rules = event_rules(folder)
        results = read_results(folder, deal_scope=rules.deal_scope)
        data = printed.score_cards(score(results, rules), standings(results, rules), heading, names)
    else:
        seating_file = published_seating(folder, round_number)
        seating, _ = read_raw(seating_file)
        draw = printed.table_cards if what is Printed.table_cards else printed.seating_list
        data = draw(seating.fillna(""), heading, names)
    write_atomic(output, data)
    record_outputs(folder, f"print {what.value}", [(output, hashlib.sha256(data).hexdigest())])
    stderr.print(f"wrote {what.value} to {output}")


def published_seating(folder: Path, round_number: int | None) -> Path:
    from duplicate.errors import UsageError

    published = sorted((folder / "seatings").glob("round-*.csv"))
    if round_number is not None:
        published = [p for p in published if p.stem == f"round-{round_number:04d}"]
    if not published:
        which = f"round {round_number}" if round_number else "any round"
        raise UsageError(
            f"{folder}/seatings holds no seating of {which}: "
            f"publish one with `duplicate seat {folder} -o {folder}/seatings/round-NNNN.csv`"
        )
    return published[-1]


def player_names(folder: Path) -> dict[str, str]:
    """Player id -> name from the event's players file."""
    from duplicate.io.event import players_file
    from duplicate.io.read import read_player_details

    path = players_file(folder)
    if path is None:
        return {}
    details = read_player_details(path)
    return dict(zip(details["player"], details["name"], strict=True))
