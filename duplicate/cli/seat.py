"""`duplicate seat`: the next round's Swiss seating."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from duplicate.cli.common import (
    AdjustmentsOpt,
    EncodingOpt,
    ExcelOpt,
    Fill,
    FormatOpt,
    OutputOpt,
    SeatingOrder,
    SheetOpt,
    as_excel,
    input_files,
    read_inputs,
    read_table,
    refuse_overwriting_inputs,
    reports_errors,
    stderr,
    whole_option,
)
from duplicate.cli.manifest import ManifestOpt, input_record, results_records, write_manifest
from duplicate.cli.output import emit
from duplicate.cli.rules_options import rules_options
from duplicate.errors import UsageError
from duplicate.limits import MAX_TABLE_SIZE
from duplicate.rules import Rules

if TYPE_CHECKING:
    import pandas as pd

    from duplicate.model.adjustments import Adjustments
    from duplicate.model.results import Results
    from duplicate.seating.next_round import Seating


class TieRuleChoice(StrEnum):
    standings = "standings"
    registration = "registration"


def register(app: typer.Typer) -> None:
    app.command(name="seat")(seat)


@reports_errors
@rules_options
def seat(
    results: Annotated[
        str | None,
        typer.Argument(metavar="RESULTS", help="Results so far; omit with --round 1."),
    ] = None,
    players: Annotated[
        Path | None,
        typer.Option("--players", help="Players file: player, name, status, registered."),
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
    round_no: Annotated[
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
        ),
    ] = None,
    versus_robots: Annotated[
        bool,
        typer.Option("--versus-robots", help="Every player in seat 0 at a table of robots."),
    ] = False,
    adjustments: AdjustmentsOpt = None,
    output: OutputOpt = None,
    manifest: ManifestOpt = None,
    fmt: FormatOpt = None,
    excel: ExcelOpt = False,
    encoding: EncodingOpt = None,
    sheet: SheetOpt = None,
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
    *,
    rules: Rules,
) -> None:
    """Seat the round after the last one in RESULTS by the standings, in a snake.

    Example: duplicate seat results.csv --players players.csv -k 4 -o round4.csv

    Round 1: duplicate seat --players players.csv --round 1 --seed 2026
    """
    from duplicate.io.event import is_event, players_file
    from duplicate.seating.next_round import seat_next_round

    _refuse_bad_options(keep, round_no, window, table_size, force)
    event = results if results is not None and is_event(results) else None
    if players is None and event is not None:
        # An event folder's registered players, unless others are given.
        players = players_file(event)
    if round_no == 1 and event is not None:
        results = None  # round 1 of an event is drawn from its players
    side = _SideFiles.read(players, partners, encoding)
    data, corrections = _results_so_far(
        results, round_no, seed, adjustments, encoding, rules, sheet, avoid_repeats
    )
    seating = seat_next_round(
        data,
        rules,
        players=side.field,
        table_size=table_size,
        order=order.value,
        fill=fill.value,
        seed=seed,
        avoid_repeats=avoid_repeats,
        window=window,
        partners=side.pairs,
        versus_robots=versus_robots,
        adjustments=corrections,
        keep=keep,
        tie_rule=tie_rule.value,
    )
    inputs = input_files(results, players, partners, adjustments, rules=rules)
    notes = _reported(seating, seed if round_no == 1 else None, keep)
    refuse_overwriting_inputs(manifest, inputs, "--manifest")
    written = emit(
        seating.frame,
        output=output,
        fmt=as_excel(fmt, excel),
        rules=rules,
        kind="seating",
        inputs=inputs,
        notes=notes,
    )
    if event is not None and written:
        from duplicate.io.event import record_outputs

        record_outputs(event, "seating", [(w.path, w.sha256) for w in written])
    if manifest is not None:
        records = (
            results_records(results, len(data.frame), adjustments, corrections)
            if results is not None and data is not None
            else []
        )
        records += side.records()
        write_manifest(
            manifest, command="seat", rules=rules, inputs=records, outputs=written, notes=notes
        )


def _reported(seating: Seating, seed: int | None, keep: int | None) -> dict[str, str]:
    """Print each section's seating report and the cut; the notes the outputs keep (the
    draw's seed, the players cut)."""
    for report in seating.reports:
        stderr.print(str(report))
    notes = {"seed": str(seed)} if seed is not None else {}
    if keep is not None:
        stderr.print(
            f"cut after {keep} places, {len(seating.cut)} players out: "
            + (", ".join(seating.cut) or "none")
        )
        notes["cut"] = ",".join(seating.cut)
    return notes


def _refuse_bad_options(
    keep: int | None, round_no: int | None, window: int | None, table_size: int, force: bool
) -> None:
    if keep is not None and (keep < 1 or round_no == 1):
        raise UsageError("--keep N seats the first N >= 1 of the standings after a round")
    if window is not None and window < 2:
        raise UsageError(f"--window {window}: a window holds at least 2 ranks")
    if table_size < 2 or (table_size > MAX_TABLE_SIZE and not force):
        raise UsageError(
            f"-k {table_size}: a table seats 2 to {MAX_TABLE_SIZE} players "
            f"(--force for larger tables)"
        )


@dataclass(frozen=True)
class _SideFiles:
    """The players and partners files, parsed, with the rows read from each (for the
    manifest)."""

    field: pd.DataFrame | None
    pairs: dict[str, str] | None
    rows: dict[str, tuple[str, int]]

    @staticmethod
    def read(players: Path | None, partners: Path | None, encoding: str | None) -> _SideFiles:
        from duplicate.io.read import source_name
        from duplicate.seating.formats import parse_partners
        from duplicate.seating.players import parse_players

        rows: dict[str, tuple[str, int]] = {}
        pairs = field = None
        if partners is not None:
            raw, _ = read_table(partners, encoding)
            pairs = parse_partners(raw, source_name(partners))
            rows["partners"] = (str(partners), len(raw))
        if players is not None:
            raw, _ = read_table(players, encoding)
            field = parse_players(raw, source_name(players))
            rows["players"] = (str(players), len(raw))
        return _SideFiles(field, pairs, rows)

    def records(self) -> list[dict[str, Any]]:
        return [
            input_record(role, *self.rows[role])
            for role in ("players", "partners")
            if role in self.rows
        ]


def _results_so_far(
    results: str | None,
    round_no: int | None,
    seed: int | None,
    adjustments: str | None,
    encoding: str | None,
    rules: Rules,
    sheet: str | None,
    avoid_repeats: bool,
) -> tuple[Results | None, Adjustments | None]:
    """The results the round is seated from (none for a drawn round 1), and their
    corrections."""
    from duplicate.io.read import source_name

    if round_no == 1:
        if results is not None:
            raise UsageError("--round 1 draws from the players file; give no RESULTS")
        if seed is None:
            raise UsageError("--round 1 needs --seed, so that the draw can be repeated")
        stderr.print(f"round 1 drawn with seed {seed}")
        return None, None
    if results is None:
        raise UsageError("give the RESULTS so far, or --round 1 with --players and --seed")
    if round_no is not None:
        raise UsageError("--round is only for drawing round 1; later rounds follow RESULTS")
    data, corrections = read_inputs(results, adjustments, encoding, rules.deal_scope, sheet)
    if avoid_repeats and not data.has_table:
        stderr.print(
            f"{source_name(results)} has no table column, so who met whom is unknown: "
            "seated in rule order",
        )
    return data, corrections
