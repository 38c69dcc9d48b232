"""`verify`: recompute the standings and compare them with a published file."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from duplicate.actions.common import event_of
from duplicate.actions.standings import standings
from duplicate.output import Table, with_names
from duplicate.rules import Rules

if TYPE_CHECKING:
    import pandas as pd

    from duplicate.event import Event


@dataclass(frozen=True)
class Verification:
    """The differences between published and recomputed standings (none: they agree)."""

    differences: Table
    published: str
    # The standings' columns the published file does not show: not compared.
    not_compared: tuple[str, ...] = ()
    # The columns compared at fewer decimals, as published ("percentage compared at 1
    # decimal, as published").
    fewer_decimals: tuple[str, ...] = ()

    @property
    def agrees(self) -> bool:
        return len(self.differences) == 0


def verify(
    source: Any,
    published: Any,
    rules: Rules | None = None,
    adjustments: Any = None,
    encoding: str | None = None,
    **settings: Any,
) -> Verification:
    """Every field in which `published` (a file as `standings` writes it: CSV, Parquet,
    .xlsx or JSON; or a DataFrame) differs from the standings recomputed from
    `source`. Only the columns the published file has are compared; `not_compared`
    names the others. Players are matched by id as written (007 is not 7), or by name when the
    published file names them and the players file gives names.

        >>> import duplicate
        >>> duplicate.verify("results.csv", "published.csv").agrees  # doctest: +SKIP
    """
    from dataclasses import replace

    from duplicate.event import Part
    from duplicate.io.read import read_published, source_name
    from duplicate.model.columns import compared
    from duplicate.scoring.verify import (
        compare,
        not_compared,
        require_players,
        with_player_column,
    )

    event = event_of(source, rules, adjustments=adjustments, encoding=encoding, **settings)
    if isinstance(published, str) or hasattr(published, "__fspath__"):
        name = source_name(str(published))
        table = read_published(str(published), encoding)
        event = replace(event, parts=(*event.parts, Part("published", str(published), len(table))))
    else:
        name, table = "the published standings", published
    table = with_player_column(table)
    require_players(table, name)
    recomputed = standings(event).frame
    if "name" not in {compared(c) for c in table.columns}:
        # Names are compared when the published file shows them.
        recomputed = recomputed.drop(columns="name", errors="ignore")
    by_id = _by_id(table, event)
    found = compare(by_id, recomputed, _exact(event, recomputed), event.rules.percentage_rounding)
    differences = with_names(found.differences, event.players)
    table_out = Table("differences", event.rules, differences, event=event)
    return Verification(
        table_out, name, tuple(not_compared(table, recomputed)), found.fewer_decimals
    )


def _exact(event: Event, recomputed: pd.DataFrame) -> dict[str, Any]:
    """The standings' percentages before rounding, by (section, player), when they
    are by percentage."""
    from fractions import Fraction

    from duplicate.scoring.percentage import exact_percentages

    if "percentage" not in recomputed.columns:
        return {}
    found = exact_percentages(event.needs_results("verify"), event.rules, event.adjustments)
    keys = zip(found["section"].to_pylist(), found["player"], strict=True)
    values = (Fraction(n, d) for n, d in zip(found["num"], found["den"], strict=True))
    return {"percentage": {(str(s), str(p)): v for (s, p), v in zip(keys, values, strict=True)}}


def _by_id(published: pd.DataFrame, event: Event) -> pd.DataFrame:
    """The published table with players named by name given their ids (when the
    players file has names and the cell is not an id of the results)."""
    from duplicate.model.columns import compared

    players = event.players
    if players is None or not players.has_names:
        return published
    columns = {compared(c): c for c in published.columns}
    if "player" not in columns:
        return published
    label = columns["player"]
    known = {p.id for p in players}

    def as_id(cell: object) -> object:
        text = str(cell).strip()
        if text in known:
            return cell
        named = players.ids_named(text)
        return named[0] if len(named) == 1 else cell

    return published.assign(**{str(label): published[label].map(as_id)})
