"""Codes for combinations of key columns (players, sections, ...)."""

from __future__ import annotations

import pandas as pd

from duplicate.model.codes import combine, dense_codes
from duplicate.model.exact import IntArray


def group_codes(frame: pd.DataFrame, keys: list[str]) -> tuple[IntArray, int]:
    """A dense int64 code per distinct combination of `keys`, ordered like the keys."""
    key, _ = combine([dense_codes(frame[k]) for k in keys])
    return dense_codes(key)
