"""Parquet files joined by their footers are the bytes one writer would write."""

from __future__ import annotations

import itertools
import struct
from decimal import Decimal

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duplicate.io import parquet_write
from duplicate.io.parquet_footer import (
    Container,
    Field,
    FileJoiner,
    decode_struct,
    encode_struct,
    footer_of,
)

META = {"version": "test", "rules": "x = 1\n"}
# The columns of table_of that miss values.
NULLABLE = {"note", "mp_pct"}


def table_of(n: int) -> pa.Table:
    """Result-like columns: identifiers, repeated scores, decimals, text with nulls."""
    return pa.table(
        {
            "section": pa.array(
                ["A", "B"] * (n // 2) + ["A"] * (n % 2), pa.string()
            ).dictionary_encode(),
            "round": pa.array([1 + i // 50 for i in range(n)], pa.int64()),
            "player": pa.array(range(n), pa.int64()),
            "score": pa.array([Decimal(i % 7) / 2 for i in range(n)], pa.decimal64(18, 1)),
            "mp": pa.array([i % 13 for i in range(n)], pa.int64()),
            "mp_pct": pa.array(
                [None if i % 4 == 3 else Decimal(i % 9) / 4 for i in range(n)], pa.decimal64(18, 2)
            ),
            "short": pa.array([Decimal(i % 5) for i in range(n)], pa.decimal64(9, 0)),
            "note": pa.array([None if i % 3 else f"n{i}" for i in range(n)], pa.large_string()),
        }
    )


def one_writer(table: pa.Table, nullable: set[str]) -> bytes:
    """What a single Arrow writer writes with the same schema and options."""
    schema = parquet_write._parquet_schema(table, nullable, META)
    sink = pa.BufferOutputStream()
    with pq.ParquetWriter(sink, schema, **parquet_write._parquet_options(schema)) as writer:
        writer.write_table(
            pa.Table.from_arrays(table.columns, schema=schema),
            row_group_size=parquet_write.ROW_GROUP_ROWS,
        )
    return bytes(sink.getvalue().to_pybytes())


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(0, 60),
    cuts=st.lists(st.integers(0, 60), max_size=4),
    group_rows=st.integers(1, 25),
    threads=st.integers(1, 3),
)
def test_joined_file_is_what_one_writer_writes(
    n: int, cuts: list[int], group_rows: int, threads: int
) -> None:
    table = table_of(n)
    bounds = sorted({0, n, *(c for c in cuts if c < n)})
    parts = [table.slice(a, b - a) for a, b in itertools.pairwise(bounds)] or [table]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(parquet_write, "ROW_GROUP_ROWS", group_rows)
        sink = pa.BufferOutputStream()
        rows = parquet_write.write_parquet(sink, parts, NULLABLE, META, threads)
        expected = one_writer(table, NULLABLE)
    joined = bytes(sink.getvalue().to_pybytes())
    assert rows == n
    assert joined == expected
    back = pq.read_table(pa.BufferReader(joined))
    assert back.num_rows == n
    assert back.column("player").to_pylist() == list(range(n))
    if n:
        groups = pq.ParquetFile(pa.BufferReader(joined)).metadata.num_row_groups
        assert groups == -(-n // group_rows)


@pytest.mark.parametrize("threads", [1, 2])
def test_no_tables_write_nothing(threads: int) -> None:
    sink = pa.BufferOutputStream()
    assert parquet_write.write_parquet(sink, [], set(), META, threads) == 0
    assert sink.getvalue().size == 0


def test_footers_read_and_write_back_unchanged() -> None:
    data = one_writer(table_of(40), NULLABLE)
    _, footer = footer_of(data)
    assert encode_struct(decode_struct(footer)) == footer


# Every compact-protocol value kind, nested: ids far apart (long field headers),
# negative integers, long lists, maps, bools as fields and inside lists.
_scalars = st.one_of(
    st.tuples(st.just(3), st.integers(0, 255)),
    st.tuples(st.just(4), st.integers(-(2**15), 2**15 - 1)),
    st.tuples(st.just(5), st.integers(-(2**31), 2**31 - 1)),
    st.tuples(st.just(6), st.integers(-(2**63), 2**63 - 1)),
    st.tuples(st.just(7), st.binary(min_size=8, max_size=8)),
    st.tuples(st.just(8), st.binary(max_size=40)),
)


def _containers(
    values: st.SearchStrategy[tuple[int, object]],
) -> st.SearchStrategy[tuple[int, object]]:
    def as_list(kind: int, items: list[object]) -> tuple[int, object]:
        return (9, Container((kind,), items))

    integer_list = st.lists(st.integers(-1000, 1000), max_size=20).map(lambda v: as_list(5, v))
    bool_list = st.lists(st.booleans(), max_size=17).map(lambda v: as_list(1, v))
    pairs = st.lists(st.tuples(st.binary(max_size=5), st.integers(-9, 9)), max_size=4)
    as_map = pairs.map(lambda p: (11, Container((8, 5) if p else (), [x for kv in p for x in kv])))
    structs = st.lists(values, max_size=4).map(lambda v: (12, _fields(v)))
    return st.one_of(integer_list, bool_list, as_map, structs)


def _fields(values: list[tuple[int, object]]) -> list[Field]:
    fields, field_id = [], 0
    for i, (kind, value) in enumerate(values):
        field_id += 1 + (i * 7) % 20  # some gaps over 15
        fields.append(Field(field_id, kind, value))  # type: ignore[arg-type]
    return fields


_values = st.recursive(_scalars, _containers, max_leaves=20)
_bools = st.booleans().map(lambda b: (1 if b else 2, b))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(_values, _bools), max_size=8))
def test_compact_protocol_round_trip(values: list[tuple[int, object]]) -> None:
    fields = _fields(values)
    data = encode_struct(fields)
    assert decode_struct(data) == fields
    assert encode_struct(decode_struct(data)) == data


def test_a_column_chunk_in_another_file_is_refused() -> None:
    data = one_writer(table_of(3), NULLABLE)
    start, footer = footer_of(data)
    meta = decode_struct(footer)
    row_group = meta[3].value.items[0]  # type: ignore[union-attr]
    chunk = row_group[0].value.items[0]
    chunk.insert(0, Field(1, 8, b"elsewhere.parquet"))
    changed = encode_struct(meta)
    moved = data[:start] + changed + struct.pack("<I", len(changed)) + b"PAR1"
    with pytest.raises(ValueError, match="another file"):
        FileJoiner().add(moved)


def test_not_parquet_is_refused() -> None:
    with pytest.raises(ValueError, match="not a Parquet file"):
        FileJoiner().add(b"PAR1 but not really")
    with pytest.raises(ValueError, match="no Parquet file"):
        FileJoiner().end()


def test_field_headers_are_short_up_to_a_gap_of_fifteen() -> None:
    # (delta << 4 | type), else type then the zigzag id; i32 1 is zigzag 2; 0 ends.
    assert encode_struct([Field(15, 5, 1)]) == bytes([0xF5, 0x02, 0x00])
    assert encode_struct([Field(16, 5, 1)]) == bytes([0x05, 0x20, 0x02, 0x00])
    assert encode_struct([Field(1, 1, True), Field(2, 2, False)]) == bytes([0x11, 0x12, 0x00])


def test_row_group_ordinals_are_renumbered() -> None:
    def with_ordinal(data: bytes) -> bytes:
        start, footer = footer_of(data)
        meta = decode_struct(footer)
        for group in meta[3].value.items:  # type: ignore[union-attr]
            group.append(Field(7, 4, 0))
        changed = encode_struct(meta)
        return data[:start] + changed + struct.pack("<I", len(changed)) + b"PAR1"

    joiner = FileJoiner()
    pieces = [
        p
        for part in (table_of(3), table_of(5))
        for p in joiner.add(with_ordinal(one_writer(part, NULLABLE)))
    ]
    joined = b"".join(bytes(p) for p in [*pieces, *joiner.end()])
    meta = decode_struct(footer_of(joined)[1])
    ordinals = [group[-1].value for group in meta[3].value.items]  # type: ignore[union-attr]
    assert ordinals == [0, 1]
    assert pq.read_table(pa.BufferReader(joined)).num_rows == 8
