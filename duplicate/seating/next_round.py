"""The next round's seating: the standings so far, then the format's seating
(individual Swiss in seating.py; pairs and play against robots in formats.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import pandas as pd

from duplicate.errors import UsageError
from duplicate.model.adjustments import Adjustments
from duplicate.model.results import Results
from duplicate.model.robots import is_robot
from duplicate.rules import Rules
from duplicate.scoring.methods import standings
from duplicate.scoring.scores import as_results
from duplicate.seating.formats import seat_partners, seat_versus_robots
from duplicate.seating.players import field_order
from duplicate.seating.swiss import (
    PAIR_TABLE,
    Fill,
    History,
    Order,
    SeatingReport,
    byes_from_results,
    history_from_results,
    random_order,
    require_table_size,
    seat_field,
)


@dataclass(frozen=True)
class Seating:
    """A round's seating and, per section, what it did."""

    frame: pd.DataFrame
    reports: list[SeatingReport]
    # Players cut by `keep` (docs/scoring.md 8.7), in standings order: out of the event.
    cut: list[str] = field(default_factory=list)


TieRule = Literal["standings", "registration"]
# The criteria that tell players apart before any tie-break, per scoring method.
PRIMARY = {"total", "average", "placed"}


def by_registration(table: pd.DataFrame, players: pd.DataFrame) -> pd.DataFrame:
    """Standings whose equal results go by registration alone (a Swiss final,
    docs/scoring.md 8.5): players level on the total keep their block, ordered by the
    players file's registration; players it does not list come after, by id."""
    decided = table["decided_by"].astype("str")
    new_section = table["section"].astype("str").ne(table["section"].astype("str").shift())
    block = (new_section | decided.isin(PRIMARY) | (decided == "")).cumsum()
    registered = dict(zip(players["player"].astype("str"), players["registered"], strict=True))
    position = table["player"].astype("str").map(registered).fillna(len(registered) + 1)
    keys = pd.DataFrame({"block": block, "position": position, "player": table["player"]})
    order = keys.sort_values(["block", "position", "player"], kind="stable").index
    return table.loc[order].reset_index(drop=True)


def seat_next_round(
    results: Results | pd.DataFrame | None,
    rules: Rules | None = None,
    *,
    players: pd.DataFrame | None = None,
    table_size: int = 4,
    order: Order = "snake",
    fill: Fill = "robot",
    seed: int | None = None,
    avoid_repeats: bool = True,
    window: int | None = None,
    partners: dict[str, str] | None = None,
    versus_robots: bool = False,
    adjustments: Adjustments | None = None,
    keep: int | None = None,
    tie_rule: TieRule = "standings",
) -> Seating:
    """The seating of the round after the last one in `results` (round 1 when None).

    Later rounds follow the full standings order (ties still unresolved go by player
    id), moved only as far as needed to avoid repeated tablemates when `avoid_repeats`;
    round 1 is a random draw from `seed` over the active players of `players`.
    `tie_rule="registration"` settles equal totals by the players file's registration
    alone, not by the tie-breaks (a Swiss final, docs/scoring.md 8.5).
    `keep` seats only the first `keep` players of each section's standings (Swiss with
    cuts, docs/scoring.md 8.7); the others are listed in `Seating.cut`, never dropped silently.
    `partners` seats pairs opposite each other; `versus_robots` seats each player alone
    with robots (see formats.py).
    """
    rules = rules or Rules()
    require_table_size(table_size)
    if partners is not None and versus_robots:
        raise UsageError(
            "a pairs event has no robot tables; give {opt:partners} or {opt:versus_robots}",
            "seat.partners-and-robots",
        )
    seater = _Seater(table_size, order, fill, avoid_repeats, window, partners, versus_robots)
    if results is None:
        if players is None or seed is None:
            raise UsageError(
                "round 1 is drawn at random: give the players file and a seed", "seat.no-players"
            )
        active = [str(p) for p in players.loc[~players["withdrawn"], "player"]]
        frame, report = seater.seat([str(p) for p in random_order(active, seed)], 1)
        return Seating(frame, [report])
    data = as_results(results, rules)
    table = standings(data, rules, adjustments)
    if tie_rule == "registration":
        if players is None:
            raise UsageError(
                "{opt:tie_rule=registration} needs the players file ({opt:players})",
                "seat.no-players",
            )
        table = by_registration(table, players)
    if players is not None and table["section"].nunique() > 1:
        raise UsageError(
            "a players file seats one section; seat each section's results apart", "seat.sections"
        )
    seating = _seat_sections(data, table, seater, keep, players)
    if players is not None:
        withdrawn = players.loc[players["withdrawn"], "player"].astype(str)
        if seating.frame["player"].astype(str).isin(withdrawn).any():
            raise AssertionError("seating seated a withdrawn player")
    return seating


@dataclass(frozen=True)
class _Seater:
    """How one section's field is seated: the options of seat_next_round."""

    table_size: int
    order: Order
    fill: Fill
    avoid_repeats: bool
    window: int | None
    partners: dict[str, str] | None
    versus_robots: bool

    def seat(
        self,
        field: list[str],
        round_no: int,
        section: str = "",
        byes: dict[object, int] | None = None,
        history: History | None = None,
        newcomers: frozenset[object] = frozenset(),
    ) -> tuple[pd.DataFrame, SeatingReport]:
        if self.versus_robots:
            return seat_versus_robots(field, self.table_size, round_no, section=section)
        options = {
            "section": section,
            "seating_order": self.order,
            "fill": self.fill,
            "byes_so_far": byes,
            "history": history,
            "avoid_repeats": self.avoid_repeats,
            "window": self.window,
            "newcomers": newcomers,
        }
        if self.partners is not None:
            if self.table_size != PAIR_TABLE:
                raise UsageError(
                    f"partners sit opposite each other: tables of 4, not {self.table_size}",
                    "seat.partners-table",
                )
            return seat_partners(field, self.partners, round_no, **options)  # type: ignore[arg-type]
        return seat_field(field, self.table_size, round_no, **options)  # type: ignore[arg-type]


def _seat_sections(
    data: Results,
    table: pd.DataFrame,
    seater: _Seater,
    keep: int | None,
    players: pd.DataFrame | None,
) -> Seating:
    """Each section's field seated in its standings order (`table`), after its results."""
    frame = data.frame[~is_robot(data.frame["player"])]
    next_round = int(data.frame["round"].max()) + 1
    parts, reports, cut = [], [], []
    for section in sorted(table["section"].unique()):
        ranked = table.loc[table["section"] == section, "player"]
        if keep is not None:
            # Swiss with cuts: only the first `keep` places go on; the rest are out.
            cut += [str(p) for p in ranked.iloc[keep:]]
            ranked = ranked.iloc[:keep]
        in_section = frame[frame["section"] == section]
        field = field_order(list(ranked), players)
        have_played = {str(p) for p in ranked}
        part, report = seater.seat(
            field,
            next_round,
            section,
            {str(p): n for p, n in byes_from_results(in_section).items()},
            history_from_results(in_section) if data.has_table else None,
            # Late entries, who have no result yet: they do not sit out their first round.
            frozenset(p for p in field if str(p) not in have_played),
        )
        parts.append(part)
        reports.append(report)
    return Seating(pd.concat(parts, ignore_index=True), reports, cut)
