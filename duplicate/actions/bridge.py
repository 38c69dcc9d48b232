"""`import`: a bridge session (PBN or USEBIO) as a results table."""

from __future__ import annotations

from typing import Any, Literal

from duplicate.output import Table


def import_session(
    source: Any,
    round_number: int | None = None,
    winners: Literal["auto", "one", "two"] = "auto",
    session_format: Literal["pbn", "usebio"] | None = None,
) -> Table:
    """A PBN file with a results table, or USEBIO XML, as the toolkit's results table:
    board -> deal, NS/EW -> seat, pair -> player, the score from each side. `winners`:
    two (North-South and East-West ranked apart, a Mitchell), one (a Howell), or auto.
    The table's rules are the session's (percentage standings); `.notes["session"]`
    says how winners were chosen.

        >>> import duplicate
        >>> duplicate.import_session("club.pbn").frame  # doctest: +SKIP
    """
    from duplicate.errors import UsageError
    from duplicate.event import Event, Part
    from duplicate.imports import session_table
    from duplicate.io.source import resolve

    if round_number is not None and round_number < 1:
        raise UsageError(
            f"{{opt:round_number}} {round_number}: rounds count from 1", "import.round"
        )
    where = resolve(str(source))
    session = session_table(
        where.read_bytes(), where.name, session_format, round_number or 1, winners
    )
    event = Event(
        where.name, session.rules, parts=(Part("session", str(source), len(session.table)),)
    )
    return Table("results", session.rules, session.table, {"session": session.note}, event)
