"""numpy arrays as Arrow arrays, sharing their memory.

`pa.array(values, mask=mask)` gives the same array; its first numpy argument also loads
`numpy.ma` (to ask whether the array is masked), a twentieth of a small event's run.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa


def arrow_array(values: np.ndarray, mask: npt.NDArray[np.bool_] | None = None) -> pa.Array[Any]:
    """`values` as an Arrow array, null where `mask` is true, as `pa.array(values,
    mask=mask)` gives it: numbers share the array's memory, booleans become bits."""
    plain = values.ndim == 1 and (
        mask is None or (mask.dtype == np.bool_ and mask.shape == values.shape)
    )
    if not plain:  # what pa.array does with it, or refuses
        refused: pa.Array[Any] = pa.array(values, mask=mask)
        return refused
    values = np.ascontiguousarray(values)
    kind: pa.DataType
    if values.dtype == np.bool_:
        kind, data = pa.bool_(), pa.py_buffer(np.packbits(values, bitorder="little").data)
    elif values.dtype.kind in "iuf" and values.dtype.isnative:
        kind, data = pa.from_numpy_dtype(values.dtype), pa.py_buffer(values.data)
    else:
        array: pa.Array[Any] = pa.array(values, mask=mask)
        return array
    if mask is None:
        return pa.Array.from_buffers(kind, len(values), [None, data], null_count=0)
    nulls = int(np.count_nonzero(mask))
    valid = pa.py_buffer(np.packbits(~np.asarray(mask, dtype=np.bool_), bitorder="little").data)
    return pa.Array.from_buffers(kind, len(values), [valid if nulls else None, data], nulls)
