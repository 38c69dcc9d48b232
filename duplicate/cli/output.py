"""A result table for a person at a terminal: a rich table that fits the terminal's
width (files and pipes get CSV, Parquet or JSON from the publisher, whatever the width).

A table wider than the terminal first loses its low-priority columns (the tie-break
details, times, counts a person rarely reads), said on standard error; then its text
columns wrap within their cells. Numbers are never squeezed into ellipses or wrapped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from duplicate.games.words import CARD_GAMES, Words

if TYPE_CHECKING:
    import pandas as pd

RIGHT_ALIGNED = ("int", "decimal", "double", "float", "bool")
# Dropped first, in this order, when a table is wider than the terminal.
LOW_PRIORITY = (
    "trimmed_seconds",
    "total_seconds",
    "rank_counts",
    "beaten_avg",
    "seconds",
    "sha256",
    "top",
    "n",
    "deal_rank",
    "board_rank",
    "adjustment",
    "minute",
    "hands",
    "deals",
    "boards",
    "bye",
    "section",
    "decided_by",
)
# Never dropped: what a row is about and its result.
KEPT = (
    "place",
    "player",
    "name",
    "total",
    "percentage",
    "mp_pct",
    "score",
    "chips",
    "round",
    "deal",
    "board",
    "table",
    "seat",
    "field",
    "published",
    "recomputed",
)
# The narrowest a wrapped text column becomes.
NARROWEST = 8
GAP = 3  # " │ " between two columns


def render_table(frame: pd.DataFrame, words: Words = CARD_GAMES) -> None:
    """A rich table of `frame` on standard output, numbers right-aligned, missing values
    blank, as wide as the terminal (COLUMNS when set); the columns it leaves out are
    named on standard error. Headings and seats are in the game's `words` (a board and
    N, E, S, W in bridge)."""
    from rich.cells import cell_len
    from rich.console import Console
    from rich.table import Table

    from duplicate.cli.common import stderr

    console = Console(highlight=False)
    rows = [
        ["" if _missing(v) else _text(v) for v in row]
        for row in frame.astype("object").itertuples(index=False)
    ]
    names = [words.heading(str(name)) for name in frame.columns]
    if "seat" in names:
        at = names.index("seat")
        for row in rows:
            row[at] = words.seat(row[at])
    right = [any(word in str(dtype).lower() for word in RIGHT_ALIGNED) for dtype in frame.dtypes]
    widths = [
        max([cell_len(name)] + [cell_len(row[i]) for row in rows]) for i, name in enumerate(names)
    ]
    blank = [all(not row[i] for row in rows) for i in range(len(names))]
    # Sections tell the rows apart (a Mitchell's North-South and East-West both have a
    # place 1): a section column of several values is kept.
    kept = [name == "section" and len({row[i] for row in rows}) > 1 for i, name in enumerate(names)]
    shown = fitting(names, widths, right, console.width, blank, kept)
    left_out = [name for i, name in enumerate(names) if i not in shown]
    if left_out:
        stderr.print(
            f"not shown in {console.width} columns: {', '.join(left_out)} "
            "(a wider terminal or --format csv shows them)"
        )
    table = Table(show_edge=False, header_style="bold", pad_edge=False)
    for i in shown:
        if right[i]:
            table.add_column(names[i], justify="right", min_width=widths[i], no_wrap=True)
        else:
            table.add_column(
                names[i], min_width=min(widths[i], NARROWEST), max_width=widths[i], overflow="fold"
            )
    for row in rows:
        table.add_row(*(row[i] for i in shown))
    needed = sum(widths[i] if right[i] else min(widths[i], NARROWEST) for i in shown)
    needed += GAP * (len(shown) - 1)
    if needed > console.width:
        # Even at their narrowest the columns kept do not fit: the lines wrap instead.
        console = Console(highlight=False, width=needed, force_terminal=console.is_terminal)
    with console.capture() as captured:
        console.print(table)
    # Each line as wide as its text: the last column is not padded out to the width.
    lines = captured.get().split("\n")
    console.file.write("\n".join(line.rstrip(" ") for line in lines))
    console.file.flush()


def fitting(
    names: list[str],
    widths: list[int],
    right: list[bool],
    width: int,
    blank: list[bool],
    kept: list[bool] | None = None,
) -> list[int]:
    """The columns (by position) shown in `width`: all when they fit; else without the
    `blank` ones (no value in any row), then the low-priority ones, fewest first; then,
    if still too wide, with the text columns wrapped (to half their width at most), and
    the other columns not kept (KEPT, or `kept` for this table) dropped from the right
    until that fits."""
    kept = kept or [False] * len(names)
    shown = list(range(len(names)))

    def whole(columns: list[int]) -> int:
        return sum(widths[i] for i in columns) + GAP * (len(columns) - 1)

    def wrapped(columns: list[int]) -> int:
        text = sum(
            max(min(widths[i], NARROWEST), (widths[i] + 1) // 2) for i in columns if not right[i]
        )
        return text + sum(widths[i] for i in columns if right[i]) + GAP * (len(columns) - 1)

    first = [i for i in range(len(names)) if blank[i]]
    first += [
        names.index(n)
        for n in LOW_PRIORITY
        if n in names and not blank[names.index(n)] and not kept[names.index(n)]
    ]
    for i in first:
        if whole(shown) <= width:
            return shown
        shown.remove(i)
    for i in reversed(range(len(names))):
        if wrapped(shown) <= width:
            break
        if i in shown and names[i] not in KEPT and not kept[i]:
            shown.remove(i)
    return shown


def _missing(value: object) -> bool:
    return value is None or (isinstance(value, float) and value != value) or str(value) == "<NA>"


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else ""
    return str(value)
