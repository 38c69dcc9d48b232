"""Compare published standings with standings recomputed from the results."""

from __future__ import annotations

import math
from decimal import Decimal, InvalidOperation

import numpy as np
import pandas as pd

from duplicate.core.adjustments import Adjustments
from duplicate.core.results import Results
from duplicate.core.standings import standings
from duplicate.rules import Rules

DIFFERENCE_COLUMNS = ("section", "player", "field", "published", "recomputed")
KEYS = ("section", "player")
# CSV written for spreadsheets prefixes risky text with an apostrophe (see io/write.py).
_NEUTRALISED = ("'=", "'+", "'-", "'@", "'\t", "'\r")


def canonical(value: object) -> str:
    """A cell as comparable text: numbers by value, booleans and blanks spelled one way."""
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, bool | np.bool_):
        return "true" if value else "false"
    text = str(value).strip()
    if text.startswith(_NEUTRALISED):
        text = text[1:]
    if text.casefold() in ("true", "false"):
        return text.casefold()
    if text.casefold() in ("nan", "<na>", "none"):
        return ""
    try:
        number = Decimal(text)
    except InvalidOperation:
        return text
    return format(number.normalize(), "f") if number.is_finite() else text


def differences(published: pd.DataFrame, recomputed: pd.DataFrame) -> pd.DataFrame:
    """One row per field that differs: section, player, field, published, recomputed."""
    published = published.rename(columns=lambda c: str(c).strip().casefold())
    if "section" not in published.columns:
        published = published.assign(section="")
    rows: list[tuple[str, str, str, str, str]] = []
    columns = [str(c) for c in recomputed.columns]
    missing = [c for c in columns if c not in published.columns]
    for column in missing:
        rows.append(("", "", column, "(no such column)", "(column)"))
    fields = [c for c in columns if c not in KEYS and c not in missing]

    def keyed(frame: pd.DataFrame) -> dict[tuple[str, str], dict[str, str]]:
        out = {}
        for record in frame.to_dict("records"):
            key = (canonical(record["section"]), canonical(record["player"]))
            out[key] = {f: canonical(record.get(f)) for f in fields}
        return out

    have, want = keyed(published), keyed(recomputed)
    for key in sorted(set(have) | set(want)):
        if key not in have:
            rows.append((*key, "player", "(missing)", key[1]))
        elif key not in want:
            rows.append((*key, "player", key[1], "(not in the results)"))
        else:
            rows.extend(
                (*key, f, have[key][f], want[key][f])
                for f in fields
                if have[key][f] != want[key][f]
            )
    return pd.DataFrame(rows, columns=list(DIFFERENCE_COLUMNS), dtype="str")


def verify(
    results: Results,
    published: pd.DataFrame,
    rules: Rules | None = None,
    adjustments: Adjustments | None = None,
) -> pd.DataFrame:
    """Every difference between published standings and the recomputed ones (empty: agree)."""
    return differences(published, standings(results, rules, adjustments))
