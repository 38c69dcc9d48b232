"""Join Parquet files of whole row groups into one file, by rewriting their footers.

Arrow encodes a Parquet file on one thread. Row groups are independent, so each can be
encoded as a file of its own on its own thread; this module puts such files end to end
as one file. Their bodies (the column chunks) are copied as they are; the footers,
Thrift-encoded FileMetaData, become one footer whose row groups point at the bytes'
new places. That needs a small reader and writer of Thrift's compact protocol, the one
Parquet footers use (https://github.com/apache/thrift/blob/master/doc/specs/
thrift-compact-protocol.md), kept generic so that fields it does not know pass through
unchanged.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass

MAGIC = b"PAR1"

# Compact protocol type codes.
_STOP, _TRUE, _FALSE, _BYTE, _I16, _I32, _I64, _DOUBLE, _BINARY = range(9)
_LIST, _SET, _MAP, _STRUCT = 9, 10, 11, 12
_INTEGERS = (_I16, _I32, _I64)

# Field ids of parquet.thrift (apache/parquet-format) that this module reads or changes.
_FILE_SCHEMA, _FILE_NUM_ROWS, _FILE_ROW_GROUPS, _FILE_KEY_VALUES = 2, 3, 4, 5
_GROUP_COLUMNS, _GROUP_FILE_OFFSET, _GROUP_ORDINAL = 1, 5, 7
_CHUNK_FILE_PATH, _CHUNK_FILE_OFFSET, _CHUNK_META = 1, 2, 3
# Byte offsets from the start of the file, which move when a file's body does.
_CHUNK_OFFSETS = (_CHUNK_FILE_OFFSET, 4, 6)  # file, offset index, column index
_META_OFFSETS = (9, 10, 11, 14)  # data page, index page, dictionary page, bloom filter


@dataclass
class Field:
    """One field of a Thrift struct: its id, compact type code and value."""

    id: int
    type: int
    value: Value


@dataclass
class Container:
    """A list, set or map: element type codes (two for a map) and the elements."""

    types: tuple[int, ...]
    items: list[Value]


Value = int | bool | bytes | list[Field] | Container


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = memoryview(data)
        self.at = 0

    def byte(self) -> int:
        value = self.data[self.at]
        self.at += 1
        return value

    def varint(self) -> int:
        shift = result = 0
        while True:
            byte = self.byte()
            result |= (byte & 0x7F) << shift
            if byte < 0x80:
                return result
            shift += 7

    def zigzag(self) -> int:
        raw = self.varint()
        return (raw >> 1) ^ -(raw & 1)

    def take(self, size: int) -> bytes:
        chunk = bytes(self.data[self.at : self.at + size])
        if len(chunk) != size:
            raise ValueError("the Thrift data ends inside a value")
        self.at += size
        return chunk

    def value(self, kind: int) -> Value:
        if kind in (_TRUE, _FALSE):
            # Inside a container a bool is a byte of its own (1 true, 2 false).
            return self.byte() == _TRUE
        if kind == _BYTE:
            return self.byte()
        if kind in _INTEGERS:
            return self.zigzag()
        if kind == _DOUBLE:
            return self.take(8)
        if kind == _BINARY:
            return self.take(self.varint())
        if kind in (_LIST, _SET):
            header = self.byte()
            size, element = header >> 4, header & 0x0F
            if size == 15:
                size = self.varint()
            return Container((element,), [self.value(element) for _ in range(size)])
        if kind == _MAP:
            size = self.varint()
            if not size:
                return Container((), [])
            types = self.byte()
            key, item = types >> 4, types & 0x0F
            pairs: list[Value] = []
            for _ in range(size):
                pairs += [self.value(key), self.value(item)]
            return Container((key, item), pairs)
        if kind == _STRUCT:
            return self.struct()
        raise ValueError(f"unknown Thrift compact type {kind}")

    def struct(self) -> list[Field]:
        fields: list[Field] = []
        last = 0
        while True:
            header = self.byte()
            kind = header & 0x0F
            if kind == _STOP:
                return fields
            delta = header >> 4
            last = last + delta if delta else self.zigzag()
            if kind in (_TRUE, _FALSE):
                # A bool field's value is its type code.
                fields.append(Field(last, kind, kind == _TRUE))
            else:
                fields.append(Field(last, kind, self.value(kind)))


def _varint(value: int) -> bytes:
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _zigzag(value: int) -> bytes:
    return _varint((value << 1) ^ (value >> 63))


def _encode_value(kind: int, value: Value, out: bytearray) -> None:
    if kind in (_TRUE, _FALSE):
        out.append(_TRUE if value else _FALSE)
    elif kind == _BYTE:
        assert isinstance(value, int)
        out.append(value)
    elif kind in _INTEGERS:
        assert isinstance(value, int)
        out += _zigzag(value)
    elif kind in (_DOUBLE, _BINARY):
        assert isinstance(value, bytes)
        if kind == _BINARY:
            out += _varint(len(value))
        out += value
    elif kind in (_LIST, _SET):
        assert isinstance(value, Container)
        (element,) = value.types
        size = len(value.items)
        if size < 15:
            out.append(size << 4 | element)
        else:
            out.append(0xF0 | element)
            out += _varint(size)
        for item in value.items:
            _encode_value(element, item, out)
    elif kind == _MAP:
        assert isinstance(value, Container)
        out += _varint(len(value.items) // 2)
        if value.items:
            key, item = value.types
            out.append(key << 4 | item)
            for i, part in enumerate(value.items):
                _encode_value(value.types[i % 2], part, out)
    elif kind == _STRUCT:
        assert isinstance(value, list)
        _encode_struct(value, out)
    else:
        raise ValueError(f"unknown Thrift compact type {kind}")


def _encode_struct(fields: list[Field], out: bytearray) -> None:
    last = 0
    for field in fields:
        kind = (_TRUE if field.value else _FALSE) if field.type in (_TRUE, _FALSE) else field.type
        delta = field.id - last
        if 0 < delta <= 15:
            out.append(delta << 4 | kind)
        else:
            out.append(kind)
            out += _zigzag(field.id)
        if field.type not in (_TRUE, _FALSE):
            _encode_value(field.type, field.value, out)
        last = field.id
    out.append(_STOP)


def decode_struct(data: bytes) -> list[Field]:
    """A Thrift struct in the compact protocol, field by field."""
    return _Reader(data).struct()


def encode_struct(fields: list[Field]) -> bytes:
    """The compact-protocol bytes of a struct (the inverse of decode_struct)."""
    out = bytearray()
    _encode_struct(fields, out)
    return bytes(out)


def footer_of(data: bytes | memoryview) -> tuple[int, bytes]:
    """Where a Parquet file's footer starts, and the footer's bytes."""
    view = memoryview(data)
    if bytes(view[:4]) != MAGIC or bytes(view[-4:]) != MAGIC:
        raise ValueError("not a Parquet file")
    (length,) = struct.unpack("<I", view[-8:-4])
    start = len(view) - 8 - length
    return start, bytes(view[start:-8])


def _field(fields: list[Field], id: int) -> Field | None:
    return next((f for f in fields if f.id == id), None)


def _structs(fields: list[Field], id: int) -> list[list[Field]]:
    """The structs in the list field `id` (which a Parquet footer must have)."""
    field = _field(fields, id)
    if field is None or not isinstance(field.value, Container):
        raise ValueError(f"a Parquet footer without its list field {id}")
    return [item for item in field.value.items if isinstance(item, list)]


def _number(fields: list[Field], id: int) -> int:
    field = _field(fields, id)
    if field is None or not isinstance(field.value, int):
        raise ValueError(f"a Parquet footer without its number field {id}")
    return field.value


def _shift(fields: list[Field], ids: Sequence[int], by: int) -> None:
    for field in fields:
        # 0 cannot point into a body (the magic is there): it means "not given", as
        # Arrow writes the deprecated ColumnChunk.file_offset.
        if field.id in ids and isinstance(field.value, int) and field.value > 0:
            field.value += by


def _moved_row_group(group: list[Field], by: int, ordinal: int) -> list[Field]:
    _shift(group, (_GROUP_FILE_OFFSET,), by)
    position = _field(group, _GROUP_ORDINAL)
    if position is not None:
        position.value = ordinal
    for chunk in _structs(group, _GROUP_COLUMNS):
        if _field(chunk, _CHUNK_FILE_PATH) is not None:
            raise ValueError("a column chunk stored in another file cannot be moved")
        _shift(chunk, _CHUNK_OFFSETS, by)
        meta = _field(chunk, _CHUNK_META)
        if meta is not None and isinstance(meta.value, list):
            _shift(meta.value, _META_OFFSETS, by)
    return group


class FileJoiner:
    """Parquet files, given one by one, joined as one file: each body is passed on as
    it comes, and the footer (row groups moved to their new places) comes at the end.

    Every file must have the same schema and metadata; the first one's footer is kept,
    with every file's row groups. Bodies are views of the files, not copies.
    """

    def __init__(self) -> None:
        self._footer: list[Field] | None = None
        self._row_groups: list[Value] = []
        self._rows = 0
        self._position = len(MAGIC)

    def add(self, part: bytes | memoryview) -> list[bytes | memoryview]:
        """The bytes to write next for `part`."""
        start, footer_bytes = footer_of(part)
        meta = decode_struct(footer_bytes)
        pieces: list[bytes | memoryview] = [MAGIC] if self._footer is None else []
        self._footer = self._footer or meta
        for group in _structs(meta, _FILE_ROW_GROUPS):
            self._row_groups.append(
                _moved_row_group(group, self._position - len(MAGIC), len(self._row_groups))
            )
        self._rows += _number(meta, _FILE_NUM_ROWS)
        body = memoryview(part)[len(MAGIC) : start]
        self._position += len(body)
        return [*pieces, body]

    def describe_as(self, reference: bytes | memoryview) -> None:
        """Describe the columns as `reference`, a Parquet file of the same columns,
        does: its schema and key-value metadata (Arrow's schema among them) replace the
        first file's. For files encoded with stand-in types stored alike (an int64 for
        a decimal stored as INT64)."""
        if self._footer is None:
            raise ValueError("no Parquet file was given")
        described = {
            field.id: field
            for field in decode_struct(footer_of(reference)[1])
            if field.id in (_FILE_SCHEMA, _FILE_KEY_VALUES)
        }
        kept = [field for field in self._footer if field.id not in described]
        self._footer = sorted([*kept, *described.values()], key=lambda field: field.id)

    def end(self) -> list[bytes]:
        """The joined footer, its length and the closing magic."""
        if self._footer is None:
            raise ValueError("no Parquet file was given")
        for field in self._footer:
            if field.id == _FILE_NUM_ROWS:
                field.value = self._rows
            elif field.id == _FILE_ROW_GROUPS:
                assert isinstance(field.value, Container)
                field.value = Container(field.value.types, self._row_groups)
        joined = encode_struct(self._footer)
        return [joined, struct.pack("<I", len(joined)), MAGIC]
