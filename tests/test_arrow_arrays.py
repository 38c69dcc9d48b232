"""numpy arrays become the Arrow arrays pa.array makes of them: the same values, nulls
and type, whatever the dtype, mask or memory layout."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from duplicate.model.arrays import arrow_array

DTYPES = st.sampled_from(
    [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32, np.uint64, np.float64]
)


@st.composite
def arrays_and_masks(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray | None]:
    values = draw(hnp.arrays(draw(DTYPES), st.integers(0, 40)))
    if draw(st.booleans()):  # a view over every other item, as a column taken by steps
        values = values[::2]
    mask = draw(st.none() | hnp.arrays(np.bool_, len(values)))
    return values, mask


@given(arrays_and_masks())
def test_arrow_array_is_what_pa_array_gives(case: tuple[np.ndarray, np.ndarray | None]) -> None:
    values, mask = case
    made = arrow_array(values, mask)
    made.validate(full=True)
    expected = pa.array(values, mask=mask)
    assert made.type == expected.type
    assert made.null_count == expected.null_count
    # As text, so that NaN compares with NaN (and -0.0 differs from 0.0).
    assert repr(made.to_pylist()) == repr(expected.to_pylist())


def test_text_and_objects_are_left_to_arrow() -> None:
    assert arrow_array(np.array(["a", "b"])).equals(pa.array(["a", "b"]))
    assert arrow_array(np.array([1, None], dtype=object)).equals(pa.array([1, None]))


@pytest.mark.parametrize(
    ("values", "mask"),
    [
        (np.arange(6).reshape(2, 3), None),
        (np.array(7), None),
        (np.arange(6), np.array([False] * 6 + [True] * 4)),
        (np.arange(6), np.array([True, False])),
        (np.arange(6), np.zeros(6, dtype=np.int8)),
    ],
)
def test_what_pa_array_refuses_is_refused(values: np.ndarray, mask: np.ndarray | None) -> None:
    with pytest.raises((pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError)):
        pa.array(values, mask=mask)
    with pytest.raises((pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError)):
        arrow_array(values, mask)
