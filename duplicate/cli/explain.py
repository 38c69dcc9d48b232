"""`duplicate explain`: every number behind one player's place, to check with a pencil."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any

import typer

from duplicate.cli.common import (
    PlayerArg,
    SourceArg,
    emit_items,
    load,
    reports_errors,
)
from duplicate.cli.settings import settings_options
from duplicate.games.words import CARD_GAMES, Words

if TYPE_CHECKING:
    from duplicate.scoring.explanation import Explanation, Neighbour


def register(app: typer.Typer) -> None:
    app.command(name="explain")(explain)


@reports_errors
@settings_options("scoring", "source", "output", skip=("output",))
def explain(
    player: PlayerArg,
    source: SourceArg,
    section: Annotated[
        str | None, typer.Option("--section", help="The player's section, if ids repeat.")
    ] = None,
    *,
    settings: dict[str, Any],
) -> None:
    """Show a player's deals, total, tie-breaks, and what separates them from their neighbours.

    Without --format: as text, for a person (--format table); json gives the deals as
    `items`, the total, tie-breaks and neighbours beside them; csv, the deals.

    Example: duplicate explain P07 results.csv
    """
    import duplicate
    from duplicate.games.words import words_of

    event = load(source, settings)
    explained = duplicate.explain(event, player, section=section)
    document = explained.to_json()
    deals = document.pop("deals")

    def shown() -> bytes:
        return (render_text(explained, words_of(event)) + "\n").encode("utf-8")

    emit_items(
        "explain", "deals", explained.rules, event, deals, document, settings, shown, "table"
    )


def render_text(e: Explanation, words: Words = CARD_GAMES) -> str:
    """The explanation as aligned plain text, in the game's `words` (bridge: board, and
    seats N, E, S, W)."""
    from duplicate.scoring.explanation import number_text as text

    where = f" in section {e.section}" if e.section else ""
    named = f" ({e.name})" if e.name else ""
    lines = [
        f"Player {e.player}{named}{where}: place {e.place_shown} of {e.players}"
        + (", in a play-off" if e.playoff else ""),
        "",
    ]
    if e.imps is not None:
        return "\n".join(lines + _imp_lines(e, words))
    keys = ["round", "deal", "table", "seat", "score", "seconds", "n", "mp", "top", "mp_pct"]
    if not e.by_percentage:
        keys += ["deal_rank", "rank_points"]
    keys.append("adjustment")
    # Short headings for a table read on paper.
    short = {"mp_pct": "MP%", "deal_rank": "rank", "rank_points": "points"}
    header = [short.get(k, words.heading(k)) for k in keys]
    lines += _aligned([header, *_cells(e.deals, keys, words)])
    for d in e.deals:
        if d.parts:
            parts = "; ".join(f"{p.weight}% of {text(p.score)}: {p.mp} MP" for p in d.parts)
            lines.append(f"  round {d.round}, {words.deal} {d.deal}, weighted: {parts}")
    if e.by_percentage:
        return "\n".join(lines + _percentage_lines(e, words))
    sum_text = " + ".join(str(p) for p in e.rank_points) or "0"
    if e.penalty:
        sum_text += f" - {e.penalty} penalty"
    lines += ["", f"Total {e.total} = {sum_text}", "", "Tie-breaks", *_tie_break_lines(e)]
    for side, neighbour in (("above", e.above), ("below", e.below)):
        if neighbour is not None:
            lines += ["", _neighbour(side, neighbour)]
    return "\n".join(lines)


def _tie_break_lines(e: Explanation) -> list[str]:
    """The player's tie-break values, and how each was found."""
    from duplicate.scoring.explanation import number_text as text

    lines: list[str] = []
    if e.beaten is not None and e.beaten_avg is not None:
        lines.append(f"  beaten_avg       {e.beaten_avg.value}")
        for b in e.beaten:
            lines.append(
                f"    beat {b.player} at table {b.table} in round {b.round} "
                f"({text(b.round_score)} > {text(b.opponent_round_score)}); "
                f"their total {b.opponent_total}"
            )
        if e.beaten:
            exact = e.beaten_avg.exact
            mean = (
                f"{e.beaten_avg.value} (exact: {exact} cents)"
                if "/" in exact
                else str(e.beaten_avg.value)
            )
            lines.append(f"    mean of {len(e.beaten)} totals = {mean}")
        else:
            lines.append("    beat nobody at the table: 0")
    else:
        lines.append("  beaten_avg       not used (the results have no table column)")
    counts = " ".join(f"{rank}:{n}" for rank, n in e.rank_counts.items())
    lines.append(f"  rank_counts      {counts} (deal rank:how many)")
    if e.total_seconds is not None and e.trimmed_seconds is not None:
        lines.append(f"  total_seconds    {text(e.total_seconds)}")
        trimmed = e.trimmed_seconds
        dropped = trimmed.dropped
        how = (
            f"without the longest {text(dropped[0])} and the shortest {text(dropped[1])}"
            if dropped
            else "mean of all deals (fewer than 3)"
        )
        lines.append(f"  trimmed_seconds  {trimmed.value} ({how}; exact {trimmed.exact})")
    else:
        lines.append("  total_seconds    not used (the results have no seconds column)")
    return lines


def _percentage_lines(e: Explanation, words: Words) -> list[str]:
    """The session percentage and how it compares with the neighbours'."""
    assert e.percentage is not None
    count = e.deals_counted or 0
    how = (
        "total MP over total top"
        if e.rules.percentage_of == "total"
        else f"mean MP% over {count} {words.deal}" + ("s" if count != 1 else "")
    )
    lines = [
        "",
        f"Percentage {e.percentage.value} = {how} (exact {e.percentage.exact}); "
        f"MP {e.mp} of {e.top}",
    ]
    convention = e.rules.percentage_convention(changed_only=True)
    if convention:
        lines.append(f"Percentage convention: {convention}")
    return lines + _equal_or_ahead(e, "%", "Equal percentages")


def _imp_lines(e: Explanation, words: Words) -> list[str]:
    """The player's IMPs deal by deal (Butler: datum and difference; cross-IMPs: every
    comparison), their total, and how it compares with the neighbours', in the game's
    `words` (bridge: board, and seats N, E, S, W)."""
    from duplicate.scoring.explanation import number_text as text

    assert e.imps is not None
    butler = e.rules.method == "butler"
    keys = ["round", "deal", "table", "seat", "score", "n"]
    keys += ["datum", "difference", "imps"] if butler else ["imps"]
    if any(d.adjustment for d in e.imps.deals):
        keys.append("adjustment")
    lines = _aligned([[words.heading(k) for k in keys], *_cells(e.imps.deals, keys, words)])
    if not butler:
        how = "average over the comparisons" if e.rules.cross_imps == "average" else "sum"
        for d in e.imps.deals:
            if d.n is None:
                continue  # assigned: compared with nothing
            compared = "; ".join(
                f"{c.player} {text(c.score)}: {text(c.difference)} = {c.imps:+d}"
                for c in d.comparisons
            )
            lines.append(f"  round {d.round}, {words.deal} {d.deal} ({how}): {compared or 'none'}")
    count = len(e.imps.deals)
    lines += [
        "",
        f"IMPs {text(e.imps.summed)} over {count} {words.deal}{'s' if count != 1 else ''}"
        f" (average {text(e.imps.average)} a {words.deal})",
    ]
    if e.imps.scaled_to is not None and e.imps.scaled_to != count:
        lines.append(
            f"Total {text(e.imps.total)} = {text(e.imps.summed)} x {e.imps.scaled_to} / {count}"
        )
    return lines + _equal_or_ahead(e, " IMPs", "Equal totals")


def _cells(deals: Sequence[Any], keys: list[str], words: Words) -> list[list[str]]:
    """Each deal's `keys` as text, its seat in the game's words."""
    from duplicate.scoring.explanation import number_text as text

    return [
        [words.seat(text(d.seat)) if k == "seat" else text(getattr(d, k)) for k in keys]
        for d in deals
    ]


def _equal_or_ahead(e: Explanation, unit: str, equal: str) -> list[str]:
    """How the player's figure (a percentage, IMPs) compares with each neighbour's: a
    shared place, count-back, or who is ahead and by how much."""
    lines: list[str] = []
    for side, n in (("above", e.above), ("below", e.below)):
        if n is None:
            continue
        label = "Above" if side == "above" else "Below"
        who = f"{label}: {_who(n)}, place {n.place_shown}, {n.shown}{unit}."
        if n.criterion == "shared":
            lines += ["", f"{who} {equal}: the place is shared."]
        elif n.criterion == "count_back":
            lines += [
                "",
                f"{who} {equal}; {n.ahead} is ahead on point-a-board count-back: "
                f"{n.ahead_value} points against {n.behind_value}",
            ]
        else:
            lines += [
                "",
                f"{who} {n.ahead} is ahead: {n.ahead_value} against "
                f"{n.behind_value} (by {n.by}; exactly {n.by_exact})",
            ]
    return lines


def _who(n: Neighbour) -> str:
    return f"{n.player} ({n.name})" if n.name else n.player


def _neighbour(side: str, n: Neighbour) -> str:
    from duplicate.scoring.explanation import number_text as text

    label = "Above" if side == "above" else "Below"
    who = f"{label}: {_who(n)}, place {n.place_shown}, total {n.shown}."
    if n.criterion == "tied":
        return f"{who} Tied on every criterion: a play-off decides."
    if n.criterion == "rank_counts":
        assert n.rank is not None
        return (
            f"{who} {n.ahead} is ahead on rank_counts: deals ranked {_ordinal(n.rank)}, "
            f"{n.ahead_count} against {n.behind_count}."
        )
    exact = str(n.by_exact or "")
    by = text(n.by) + (f", exactly {exact} cents" if "/" in exact else "")
    return (
        f"{who} {n.ahead} is ahead on {n.criterion}: {text(n.ahead_value)} against "
        f"{text(n.behind_value)} (by {by})."
    )


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _aligned(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(cell.rjust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]
