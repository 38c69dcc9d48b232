"""Importers for what bridge scoring programs export: PBN files with a results table,
and USEBIO XML. Each maps a session to the toolkit's results table (board -> deal,
NS/EW -> seat, pair -> player); `session.py` holds that mapping.

    >>> import duplicate.imports
    >>> session = duplicate.imports.read_session("session.pbn")  # doctest: +SKIP
    >>> session.table, session.note  # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from duplicate.errors import InvalidData, Problem, UsageError
from duplicate.imports.scoring import session_method
from duplicate.imports.session import Winners, refuse_mixed_encoding, results_table
from duplicate.limits import MAX_IMPORT_BYTES, MAX_ROUND
from duplicate.rules import Rules

if TYPE_CHECKING:
    import pandas as pd

    from duplicate.io.source import Source

SessionFormat = Literal["pbn", "usebio"]


@dataclass(frozen=True)
class Session:
    """A bridge session as a results table, how its winners were chosen, and the
    rules it is scored by (the IMP method it declares, else percentage standings, as
    bridge clubs publish)."""

    table: pd.DataFrame
    note: str
    format: SessionFormat
    source: str
    rules: Rules = field(default_factory=lambda: Rules(method="percentage"))


def session_format(path: str | Path, data: bytes) -> SessionFormat:
    """PBN or USEBIO: by the file's suffix, else by its first bytes."""
    suffix = Path(str(path)).suffix.casefold()
    if suffix == ".pbn":
        return "pbn"
    if suffix == ".xml" or data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
        return "usebio"
    return "pbn"


def read_session(
    path: str | Path | Source,
    fmt: SessionFormat | None = None,
    round_number: int = 1,
    winners: Winners = "auto",
) -> Session:
    """A PBN or USEBIO session as a results table (section, round, deal, seat, player,
    score), with a note on how winners were chosen. `-` reads standard input.

    At most MAX_IMPORT_BYTES are read: a longer input is refused unread."""
    from duplicate.io.source import read_at_most

    check_round(round_number)
    source, data = read_at_most(path, MAX_IMPORT_BYTES)
    return session_table(data, source.name, fmt, round_number, winners)


def check_round(round_number: int) -> None:
    """A session's round: from 1 to MAX_ROUND."""
    if not 1 <= round_number <= MAX_ROUND:
        raise UsageError(
            f"{{opt:round_number}} {round_number}: rounds count from 1 to {MAX_ROUND:,}",
            "import.round",
        )


def session_table(
    data: bytes,
    source: str,
    fmt: SessionFormat | None = None,
    round_number: int = 1,
    winners: Winners = "auto",
) -> Session:
    """read_session on the bytes of a file already read."""
    from duplicate.imports.pbn import read_pbn
    from duplicate.imports.usebio import read_usebio

    check_round(round_number)
    if len(data) > MAX_IMPORT_BYTES:
        raise InvalidData(
            [
                Problem(
                    source,
                    f"is more than {MAX_IMPORT_BYTES:,} bytes, the most a session file may "
                    "hold; the rest was not read",
                    hint="split the event into sessions",
                    code="session.too-large",
                )
            ]
        )
    fmt = fmt or session_format(source, data)
    if fmt == "usebio":
        lines = read_usebio(data, source)
    else:
        lines = read_pbn(_pbn_text(data, source), source)
    table, note = results_table(lines, source, round_number, winners)
    return Session(table, note, fmt, source, Rules(method=session_method(data, fmt)))


def _pbn_text(data: bytes, source: str) -> str:
    """PBN is ISO-8859-1 by its standard; UTF-8 (with or without a BOM) is read too. One
    file holds one of them: a file that mixes them is refused."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        refuse_mixed_encoding(data, source)
        return data.decode("latin-1")
