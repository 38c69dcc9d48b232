"""`duplicate explain`: every number behind one player's place, to check with a pencil."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

import typer

from duplicate.cli.common import (
    AdjustmentsOpt,
    EncodingOpt,
    ResultsArg,
    SheetOpt,
    read_inputs,
    reports_errors,
)
from duplicate.cli.rules_options import rules_options
from duplicate.rules import Rules


class ExplainFormat(StrEnum):
    text = "text"
    json = "json"


def register(app: typer.Typer) -> None:
    app.command(name="explain")(explain)


@reports_errors
@rules_options
def explain(
    player: Annotated[str, typer.Argument(metavar="PLAYER", help="The player's id.")],
    results: ResultsArg,
    fmt: Annotated[
        ExplainFormat, typer.Option("--format", "-f", help="text for people, json for tools.")
    ] = ExplainFormat.text,
    section: Annotated[
        str | None, typer.Option("--section", help="The player's section, if ids repeat.")
    ] = None,
    adjustments: AdjustmentsOpt = None,
    encoding: EncodingOpt = None,
    sheet: SheetOpt = None,
    *,
    rules: Rules,
) -> None:
    """Show a player's deals, total, tie-breaks, and what separates them from their neighbours.

    Example: duplicate explain P07 results.csv
    """
    from duplicate.io.json_text import dumps
    from duplicate.scoring.explain import as_json
    from duplicate.scoring.explain import explain as explain_player

    data, corrections = read_inputs(results, adjustments, encoding, rules.deal_scope, sheet)
    explained = explain_player(data, player, rules, corrections, section)
    if fmt is ExplainFormat.json:
        typer.echo(dumps(as_json(explained)))
    else:
        typer.echo(render_text(explained))


def render_text(e: dict[str, Any]) -> str:
    """The explanation as aligned plain text."""
    from duplicate.scoring.explain import number_text as text
    from duplicate.scoring.score_table import PLAYER_DEAL_COLUMNS

    where = f" in section {e['section']}" if e["section"] else ""
    lines = [
        f"Player {e['player']}{where}: place {e['place']} of {e['players']}"
        + (", in a play-off" if e["playoff"] else ""),
        "",
    ]
    # The deal columns the explanation holds (percentage standings have no rank points).
    held = set(e["deals"][0]) if e["deals"] else set(PLAYER_DEAL_COLUMNS)
    keys = [k for k in PLAYER_DEAL_COLUMNS if k in held]
    # Short headings for a table read on paper.
    short = {"mp_pct": "MP%", "deal_rank": "rank", "rank_points": "points"}
    header = [short.get(k, k) for k in keys]
    cells = [[text(d[k]) for k in keys] for d in e["deals"]]
    lines += _aligned([header, *cells])
    for d in e["deals"]:
        if "parts" in d:
            parts = "; ".join(
                f"{p['weight']}% of {text(p['score'])}: {p['mp']} MP" for p in d["parts"]
            )
            lines.append(f"  round {d['round']}, deal {d['deal']}, weighted: {parts}")
    if "percentage" in e:
        return "\n".join(lines + _percentage_lines(e))
    sum_text = " + ".join(str(p) for p in e["rank_points"]) or "0"
    if e["penalty"]:
        sum_text += f" - {e['penalty']} penalty"
    lines += ["", f"Total {e['total']} = {sum_text}", "", "Tie-breaks", *_tie_break_lines(e)]
    for side in ("above", "below"):
        if side in e:
            lines += ["", _neighbour(side, e[side])]
    return "\n".join(lines)


def _tie_break_lines(e: dict[str, Any]) -> list[str]:
    """The player's tie-break values, and how each was found."""
    from duplicate.scoring.explain import number_text as text

    lines: list[str] = []
    if "beaten" in e:
        beaten = e["beaten"]
        lines.append(f"  beaten_avg       {e['beaten_avg']['value']}")
        for b in beaten:
            lines.append(
                f"    beat {b['player']} at table {b['table']} in round {b['round']} "
                f"({text(b['round_score'])} > {text(b['opponent_round_score'])}); "
                f"their total {b['opponent_total']}"
            )
        if beaten:
            lines.append(f"    mean of {len(beaten)} totals = {number_text_cents(e['beaten_avg'])}")
        else:
            lines.append("    beat nobody at the table: 0")
    else:
        lines.append("  beaten_avg       not used (the results have no table column)")
    counts = " ".join(f"{rank}:{n}" for rank, n in e["rank_counts"].items())
    lines.append(f"  rank_counts      {counts} (deal rank:how many)")
    if "total_seconds" in e:
        lines.append(f"  total_seconds    {text(e['total_seconds'])}")
        trimmed = e["trimmed_seconds"]
        dropped = trimmed["dropped"]
        how = (
            f"without the longest {text(dropped[0])} and the shortest {text(dropped[1])}"
            if dropped
            else "mean of all deals (fewer than 3)"
        )
        lines.append(f"  trimmed_seconds  {trimmed['value']} ({how}; exact {trimmed['exact']})")
    else:
        lines.append("  total_seconds    not used (the results have no seconds column)")
    return lines


def _percentage_lines(e: dict[str, Any]) -> list[str]:
    """The session percentage and how it compares with the neighbours'."""
    percentage = e["percentage"]
    count = e["deals_counted"]
    lines = [
        "",
        f"Percentage {percentage['value']} = mean MP% over {count} deal"
        + ("s" if count != 1 else "")
        + f" (exact {percentage['exact']}); MP {e['mp']} of {e['top']}",
    ]
    for side in ("above", "below"):
        if side not in e:
            continue
        n = e[side]
        label = "Above" if side == "above" else "Below"
        who = f"{label}: {n['player']}, place {n['place']}, {n['percentage']}%."
        if n["criterion"] == "shared":
            lines += ["", f"{who} Equal percentages: the place is shared."]
        else:
            lines += [
                "",
                f"{who} {n['ahead']} is ahead: {n['ahead_value']} against "
                f"{n['behind_value']} (by {n['by']}; exactly {n['by_exact']})",
            ]
    return lines


def number_text_cents(beaten_avg: dict[str, Any]) -> str:
    exact = beaten_avg["exact_cents"]
    return (
        f"{beaten_avg['value']} (exact: {exact} cents)"
        if "/" in exact
        else str(beaten_avg["value"])
    )


def _neighbour(side: str, n: dict[str, Any]) -> str:
    from duplicate.scoring.explain import number_text as text

    label = "Above" if side == "above" else "Below"
    who = f"{label}: {n['player']}, place {n['place']}, total {n['total']}."
    criterion = n["criterion"]
    if criterion == "tied":
        return f"{who} Tied on every criterion: a play-off decides."
    ahead = n["ahead"]
    if criterion == "rank_counts":
        return (
            f"{who} {ahead} is ahead on rank_counts: deals ranked {_ordinal(n['rank'])}, "
            f"{n['ahead_count']} against {n['behind_count']}."
        )
    exact = str(n.get("by_exact_cents", ""))
    by = text(n["by"]) + (f", exactly {exact} cents" if "/" in exact else "")
    return (
        f"{who} {ahead} is ahead on {criterion}: {text(n['ahead_value'])} against "
        f"{text(n['behind_value'])} (by {by})."
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
