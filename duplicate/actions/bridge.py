"""`import`: a bridge session (PBN or USEBIO) as a results table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from duplicate.output import Table

if TYPE_CHECKING:
    from duplicate.imports import Session


def import_session(
    source: Any,
    round_number: int | None = None,
    winners: Literal["auto", "one", "two"] = "auto",
    session_format: Literal["pbn", "usebio"] | None = None,
    **conventions: Any,
) -> Table:
    """A PBN file with a results table, or USEBIO XML, as the toolkit's results table:
    board -> deal, NS/EW -> seat, pair -> player, the score from each side. `winners`:
    two (North-South and East-West ranked apart, a Mitchell), one (a Howell), or auto.
    The table's rules are the session's (the IMP method it declares, else percentage
    standings), with the rules settings given as `conventions` (sections="one-field",
    place_ties="count-back", ...); `.notes["session"]` says how winners were chosen.

        >>> import duplicate
        >>> duplicate.import_session("club.pbn").frame  # doctest: +SKIP
    """
    from duplicate.event import Event, Part

    session = _read(source, round_number, winners, session_format, conventions)
    where = session.source
    _refuse_artificial(session)
    event = Event(
        where,
        session.rules,
        parts=(Part("session", str(source), len(session.table)),),
        warnings=session.warnings,
    )
    return Table("results", session.rules, session.table, {"session": session.note}, event)


def _read(
    source: Any,
    round_number: int | None,
    winners: Literal["auto", "one", "two"],
    session_format: Literal["pbn", "usebio"] | None,
    conventions: dict[str, Any],
) -> Session:
    """The session, with the rules settings given beside what the file says (sections
    as one field, a percentage convention): what its program did that the file does
    not say."""
    from dataclasses import replace

    from duplicate.imports import read_session

    number = 1 if round_number is None else round_number
    session = read_session(str(source), session_format, number, winners)
    return replace(session, rules=session.rules.with_settings(**conventions))


def _refuse_artificial(session: Session) -> None:
    """A results table has no place for the adjustments a session's artificial scores
    are: without them, their lines would be scored as results of 0 points."""
    from duplicate.errors import InvalidData, Problem

    given = session.adjustments
    if given is None or not len(given):
        return
    lines = sorted({int(n) for n in given["reason"].str.extract(r"line (\d+)", expand=False)})
    count = len(lines)
    raise InvalidData(
        [
            Problem(
                session.source,
                f"has {count} artificial score{'s' if count != 1 else ''} (A5050, A+ ...): "
                "adjustments, which a results table has no place for (their lines would "
                "be scored as 0 points)",
                tuple(lines),
                hint="import the session as an event folder ({opt:event}), or give the "
                "session file itself to score, standings or report",
                position="line",
                code="session.artificial-in-table",
            )
        ]
    )


def import_event(
    source: Any,
    folder: Any,
    round_number: int | None = None,
    winners: Literal["auto", "one", "two"] = "auto",
    session_format: Literal["pbn", "usebio"] | None = None,
    date: str | None = None,
    **conventions: Any,
) -> tuple[Session, list[str]]:
    """A PBN or USEBIO session as an event folder: its title and date (`date` when the
    file gives none), its pairs and their names (players.csv), its rules (percentage
    standings; over several rounds, boards compared across them; with the rules
    settings given as `conventions`), each round, and its
    artificial scores as the event's adjustments. Returns the session and what was
    written, one line each.

        >>> import duplicate
        >>> duplicate.import_event("club.xml", "club")  # doctest: +SKIP
    """
    import tempfile
    from pathlib import Path

    from duplicate.actions.event import event_add, event_adjust, event_init
    from duplicate.errors import UsageError
    from duplicate.imports.session import SESSION_GAME, SESSION_TABLE_SIZE

    session = _read(source, round_number, winners, session_format, conventions)
    when = session.info.date or date or ""
    if not when:
        raise UsageError(
            f"{session.source} gives no date for the event; give {{opt:date}} (YYYY-MM-DD)",
            "event.bad-date",
        )
    title = session.info.title or Path(session.source).stem
    target = Path(folder)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise UsageError(f"{target} exists and is not an empty folder", "event.folder-in-use")
    target.parent.mkdir(parents=True, exist_ok=True)
    said: list[str] = []
    # Made whole beside the target, then moved into place: a session that fails half
    # way (a round refused) leaves no half-made event.
    with tempfile.TemporaryDirectory(prefix=f".{target.name}-", dir=target.parent) as work:
        staged, event = Path(work), Path(work) / "event"
        name = Path(session.source).name
        players = staged / f"{name} players.csv"
        session.players().to_csv(players, index=False)
        event_init(
            event,
            title,
            when,
            SESSION_GAME,
            SESSION_TABLE_SIZE,
            players=players,
            rules=session.rules,
        )
        said.append(f"made event {title!r} ({when}) in {target}")
        for number, rows in session.table.groupby("round", sort=True):
            upload = staged / f"{name} round {number}.csv"
            rows.to_csv(upload, index=False)
            added = event_add(event, upload)
            shown = target / added.path.relative_to(event)
            said.append(f"added round {added.round}: {len(rows)} rows ({shown})")
        adjustments = session.adjustments
        if adjustments is not None and len(adjustments):
            upload = staged / f"{name} artificial scores.csv"
            adjustments.to_csv(upload, index=False)
            event_adjust(event, upload, f"artificial scores in {session.source}")
            said.append(f"the artificial scores are {len(adjustments)} adjustments")
        event.replace(target)
    return session, said
