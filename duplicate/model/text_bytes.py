"""Arrow text as numpy sees its bytes: a string array's offsets and data, and text ids
all of one length (P0012345, a federation's membership numbers) as numpy items of that
many bytes, whose rows are taken and compared the way numbers are, in one step, where
Arrow takes and compares text string by string."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import pyarrow as pa

from duplicate.model.exact import IntArray

# Item sizes numpy takes and compares as unsigned integers; other lengths are taken as
# raw bytes (np.void), which numpy copies but compares byte by byte.
_INTEGER_SIZES = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def bytes_of(text: pa.Array[Any]) -> tuple[IntArray, np.ndarray]:
    """A string array's offsets (positions in its data buffer, as int64) and its cells'
    bytes, both sharing Arrow's memory where they can."""
    buffers: Any = text.buffers()
    _, offsets_buffer, data_buffer = buffers
    width = np.int64 if pa.types.is_large_string(text.type) else np.int32
    stored = np.frombuffer(offsets_buffer, dtype=width)[text.offset : text.offset + len(text) + 1]
    offsets: IntArray = stored.astype(np.int64, copy=False)
    if data_buffer is None:  # every cell empty
        return offsets, np.zeros(0, dtype=np.uint8)
    return offsets, np.frombuffer(data_buffer, dtype=np.uint8)[offsets[0] : offsets[-1]]


def fixed_width_items(text: pa.Array[Any]) -> np.ndarray | None:
    """The values of an Arrow string array as a numpy array of items of their byte
    length, in row order, sharing Arrow's memory: when none is missing and every one is
    as long as the first (and not empty). None otherwise, or for any other array."""
    if not (pa.types.is_string(text.type) or pa.types.is_large_string(text.type)):
        return None
    n = len(text)
    if n == 0 or text.null_count:
        return None
    offsets, data = bytes_of(text)
    width = int(offsets[1] - offsets[0])
    if width <= 0 or len(data) != width * n or not bool((np.diff(offsets) == width).all()):
        return None
    return data.view(_INTEGER_SIZES.get(width, np.dtype((np.void, width))))


def equal_items(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row by row, whether two arrays of items of one size hold the same bytes: compared
    as numbers (items of 1, 2, 4 or 8 bytes), else byte by byte."""
    if a.dtype.kind == "u":
        return np.asarray(a == b)
    width = a.dtype.itemsize
    same = a.view(np.uint8).reshape(-1, width) == b.view(np.uint8).reshape(-1, width)
    return np.asarray(same.all(axis=1))


class TakenRows(NamedTuple):
    """An identifier column whose rows are taken by position (`take`): text of one
    length through its numpy items, anything else by Arrow."""

    values: pa.Array[Any]
    items: np.ndarray | None

    @classmethod
    def of(cls, values: pa.Array[Any]) -> TakenRows:
        return cls(values, fixed_width_items(values))

    def take(self, rows: IntArray | slice) -> pa.Array[Any]:
        """The values at `rows` (positions, or a slice), as values.take(rows) gives."""
        if isinstance(rows, slice):
            return self.values[rows]
        large = pa.types.is_large_string(self.values.type)
        if self.items is None or (not large and self.items.itemsize * len(rows) >= 2**31):
            return self.values.take(rows)
        taken = self.items[rows]
        width = taken.dtype.itemsize
        offset_type = np.int64 if large else np.int32
        offsets = np.arange(0, width * (len(taken) + 1), width, dtype=offset_type)
        buffers = [None, pa.py_buffer(offsets.data), pa.py_buffer(taken.view(np.uint8).data)]
        return pa.Array.from_buffers(self.values.type, len(taken), buffers)
