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
    The table's rules are the session's (the IMP method it declares, else percentage
    standings); `.notes["session"]`
    says how winners were chosen.

        >>> import duplicate
        >>> duplicate.import_session("club.pbn").frame  # doctest: +SKIP
    """
    from duplicate.event import Event, Part
    from duplicate.imports import read_session

    session = read_session(
        str(source), session_format, 1 if round_number is None else round_number, winners
    )
    where = session.source
    event = Event(where, session.rules, parts=(Part("session", str(source), len(session.table)),))
    return Table("results", session.rules, session.table, {"session": session.note}, event)
