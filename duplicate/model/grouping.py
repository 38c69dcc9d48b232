"""Codes for combinations of key columns (players, sections, ...)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from duplicate.model.codes import combine, dense_codes, is_pandas
from duplicate.model.exact import IntArray


def group_codes(frame: Any, keys: list[str]) -> tuple[IntArray, int]:
    """A dense int64 code per distinct combination of `keys`, ordered like the keys."""
    key, _ = combine([dense_codes(frame[k]) for k in keys])
    return dense_codes(key)


# The heavenly stems, the order of Chinese section names (甲组, 乙组, 丙组, ...).
STEMS = "甲乙丙丁戊己庚辛壬癸"


def section_key(name: str) -> tuple[int, str]:
    """How sections sort: 甲组 before 乙组 (the stems' order, not their code points),
    other names as text, after them."""
    text = str(name)
    return (STEMS.index(text[0]), text) if text and text[0] in STEMS else (len(STEMS), text)


def section_codes(sections: Any) -> tuple[IntArray, int]:
    """Dense codes of the sections (Arrow text, or pandas) in section_key order."""
    if is_pandas(sections):
        sections = pa.array(sections.astype("str"), pa.large_string())
    encoded: Any = pc.dictionary_encode(sections)
    codes = np.asarray(encoded.indices.to_numpy(zero_copy_only=False), dtype=np.int64)
    uniques = encoded.dictionary
    names = [str(name) for name in uniques.to_pylist()]
    ranked = sorted(range(len(names)), key=lambda i: section_key(names[i]))
    position = np.empty(len(uniques), dtype=np.int64)
    position[ranked] = np.arange(len(uniques))
    return position[codes], len(uniques)
