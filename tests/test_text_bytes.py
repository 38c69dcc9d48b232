"""Text ids of one length, taken and compared through their bytes, give what Arrow's
take and comparison of the text give."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from hypothesis import given, settings
from hypothesis import strategies as st

from duplicate.model.text_bytes import TakenRows, equal_items, fixed_width_items

# Ids as uploads hold them: digits, letters, Chinese names (3 bytes a character),
# spaces and control bytes (which a packing that pads with zeros would confuse).
ALPHABET = st.sampled_from(["0", "7", "P", "z", " ", "\x00", "\x07", "张", "伟", "é"])
TEXT_TYPES = st.sampled_from([pa.string(), pa.large_string()])


@st.composite
def id_arrays(draw: st.DrawFn) -> pa.Array:
    """Arrays of ids, mostly of one length (so that the quick path is taken), sliced."""
    length = draw(st.integers(0, 9))
    one_length = draw(st.booleans())
    ids = draw(
        st.lists(
            st.text(ALPHABET, min_size=length, max_size=length if one_length else 12),
            min_size=1,
            max_size=40,
        )
    )
    array = pa.array(ids, draw(TEXT_TYPES))
    start = draw(st.integers(0, len(ids) - 1))
    return array.slice(start, draw(st.integers(1, len(ids) - start)))


@given(id_arrays(), st.data())
@settings(max_examples=300, deadline=None)
def test_rows_taken_are_arrows(array: pa.Array, data: st.DataObject) -> None:
    rows = np.array(
        data.draw(st.lists(st.integers(0, len(array) - 1), max_size=60)), dtype=np.int64
    )
    taken = TakenRows.of(array).take(rows)
    assert taken.type == array.type
    assert taken.equals(array.take(rows))
    taken.validate(full=True)


@given(id_arrays(), st.data())
@settings(max_examples=300, deadline=None)
def test_ids_compared_by_their_bytes_are_compared_as_text(
    array: pa.Array, data: st.DataObject
) -> None:
    rows = np.array(
        data.draw(
            st.lists(st.integers(0, len(array) - 1), min_size=len(array), max_size=len(array))
        ),
        dtype=np.int64,
    )
    items = fixed_width_items(array)
    if items is None:
        return
    as_text = pc.equal(array.take(rows), array).to_numpy(zero_copy_only=False)
    assert equal_items(items[rows], items).tolist() == as_text.tolist()


def test_only_one_length_without_missing_ids_is_held_as_items() -> None:
    assert fixed_width_items(pa.array(["P001", "P002"])) is not None
    assert fixed_width_items(pa.array(["P001", "P02"])) is None
    # As many bytes in all as one length would make, and the first of that length.
    assert fixed_width_items(pa.array(["ab", "c", "def"])) is None
    assert fixed_width_items(pa.array(["P001", None])) is None
    assert fixed_width_items(pa.array(["", ""])) is None
    assert fixed_width_items(pa.array([1, 2])) is None
    # Items of 3 bytes are held too (as raw bytes).
    assert fixed_width_items(pa.array(["abc", "xyz"])) is not None
