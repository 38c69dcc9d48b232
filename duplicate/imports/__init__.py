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
from duplicate.imports.scoring import imps_unsaid, other_scoring, scoring_method
from duplicate.imports.session import (
    SessionInfo,
    TravellerLine,
    Winners,
    not_played_warning,
    refuse_mixed_encoding,
    results_table,
)
from duplicate.limits import MAX_IMPORT_BYTES, MAX_ROUND
from duplicate.rules import Rules

if TYPE_CHECKING:
    import pandas as pd

    from duplicate.io.source import Source
    from duplicate.options import Method

SessionFormat = Literal["pbn", "usebio"]


@dataclass(frozen=True)
class Session:
    """A bridge session as a results table, how its winners were chosen, the rules it
    is scored by (the IMP method it declares, else percentage standings and Neuberg's
    factoring, as bridge programs publish; over several rounds, deals compared across
    the event), the adjustments its artificial scores are, and what the file says of
    itself (title, date, names); `warnings`: what reading it noticed (boards not
    played)."""

    table: pd.DataFrame
    note: str
    format: SessionFormat
    source: str
    rules: Rules = field(default_factory=lambda: Rules(method="percentage"))
    adjustments: pd.DataFrame | None = None
    info: SessionInfo = field(default_factory=SessionInfo)
    warnings: tuple[Problem, ...] = ()

    def players(self) -> pd.DataFrame:
        """The players file the session gives: each pair's id and its players' names
        as the file gives them (ids as the results table has them)."""
        import pandas as pd

        from duplicate.imports.session import number_id

        sections = {s for s, _ in self.info.names}
        many = len(sections) > 1
        ids = number_id(pd.Series([p for _, p in self.info.names], dtype="str"))
        given = {
            (section + pair if many else pair): name
            for (section, _), pair, name in zip(
                self.info.names, ids, self.info.names.values(), strict=True
            )
        }
        players = sorted(set(self.table["player"]), key=lambda p: (len(p), p))
        return pd.DataFrame(
            {"player": players, "name": [given.get(p, "") for p in players]}, dtype="str"
        )


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
    score, then the PLAY_COLUMNS the file gives), with a note on how winners were
    chosen. `-` reads standard input.

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
    check_round(round_number)
    _refuse_large(data, source)
    fmt = fmt or session_format(source, data)
    info = SessionInfo()
    try:
        lines = _lines(data, source, fmt, info)
    except InvalidData:
        # A file that says it is no pairs session (an individual event, a teams
        # match) is refused as that, not for lines that name no pairs.
        session_method(info, source)
        raise
    method = session_method(info, source)
    told = winners == "auto" and bool(info.winners)
    if told:
        winners = "one" if info.winners == "one" else "two"
    flat = any(name in info.program.casefold() for name in FLAT_AVERAGES)
    converted = results_table(
        lines, source, round_number, winners, flat, told, one_field=info.one_field
    )
    note = converted.note + method_note(info, method)
    settings: dict[str, str] = {
        # A board played fewer times than the others is factored, as bridge programs do.
        "factoring": "neuberg" if method == "percentage" else "none",
    }
    convention = program_convention(info.program, method)
    if convention:
        settings.update(convention)
        shown = ", ".join(f"{k} = {v}" for k, v in convention.items())
        note += f"; as {info.program.split(' - ')[0]} scores: {shown}"
    rules = Rules(
        method=method,
        deal_scope="event" if converted.rounds > 1 else "round",
        sections="one-field" if info.one_field else "apart",
        **settings,  # type: ignore[arg-type]
    )
    warning = not_played_warning(info, source)
    warnings = (warning,) if warning is not None else ()
    return Session(converted.table, note, fmt, source, rules, converted.adjustments, info, warnings)


def session_lines(
    path: str | Path, fmt: SessionFormat | None = None, info: SessionInfo | None = None
) -> list[TravellerLine]:
    """Every traveller line of a PBN or USEBIO session (board, the two pairs, the
    score), in file order: who met whom on each board; what the file says of itself
    goes into `info`."""
    from duplicate.io.source import read_at_most

    source, data = read_at_most(path, MAX_IMPORT_BYTES)
    _refuse_large(data, source.name)
    found = info if info is not None else SessionInfo()
    return _lines(data, source.name, fmt or session_format(source.name, data), found)


def _refuse_large(data: bytes, source: str) -> None:
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


# Programs that give average plus and minus as a flat 60% and 40%.
FLAT_AVERAGES = ("ruter", "magic contest")

# How each program publishes its numbers (docs/bridge.md: Percentage conventions,
# IMPs), by the start of the name it writes in the file and the method: a session it
# wrote is imported with these settings, so that its numbers come out as published.
PROGRAM_CONVENTIONS: dict[tuple[str, str], dict[str, str]] = {
    ("scorebridge", "percentage"): {"board_mp": "1"},
    ("ebuscore", "percentage"): {"board_mp": "2"},
    ("magic contest", "percentage"): {"board_mp": "1"},
    ("brian", "percentage"): {"percentage_of": "total", "factoring": "none"},
    ("realbridge", "percentage"): {"percentage_rounding": "half-down"},
    ("pianola", "cross-imps"): {"imp_totals": "scaled"},
}


def program_convention(program: str, method: str) -> dict[str, str]:
    """The settings of the program that wrote a session, for its method, if known."""
    name = program.strip().casefold()
    for (start, scored), convention in PROGRAM_CONVENTIONS.items():
        if scored == method and name.startswith(start):
            return convention
    return {}


def session_method(info: SessionInfo, source: str) -> Method:
    """How the session is scored, from what the file says it is: matchpoints
    (percentage standings) or an IMP method; an individual event, a teams match or
    another scoring (aggregate, board-a-match, rubber) is refused, named."""
    kind = info.competition.casefold()
    what = ""
    if "individual" in kind:
        what = "an individual event (each player a side of their own)"
    elif "team" in kind:
        what = "a teams match"
    else:
        scored = other_scoring(info.scoring) or other_scoring(info.competition)
        if scored is not None:
            said = info.scoring or info.competition
            what = f"scored by {scored} (it says {said!r}), neither matchpoints nor IMPs"
    if what:
        raise InvalidData(
            [
                Problem(
                    source,
                    f"is {what}, not a pairs session the toolkit scores",
                    hint="import a pairs session scored by matchpoints or IMPs",
                    code="session.not-pairs",
                )
            ]
        )
    for declared in (info.scoring, info.competition):
        method = scoring_method(declared)
        if method is not None:
            return method
    if imps_unsaid(info.scoring) or imps_unsaid(info.competition):
        return "cross-imps"  # the note says so (never matchpoints)
    return "percentage"


def method_note(info: SessionInfo, method: Method) -> str:
    """What the note says of a method the file did not name exactly."""
    if method == "cross-imps" and (imps_unsaid(info.scoring) or imps_unsaid(info.competition)):
        said = info.scoring or info.competition
        return (
            f"; the file says {said!r}, not cross-IMPs or Butler: scored as cross-IMPs "
            "(a Butler event: score it with the method butler)"
        )
    return ""


def _lines(data: bytes, source: str, fmt: SessionFormat, info: SessionInfo) -> list[TravellerLine]:
    from duplicate.imports.pbn import read_pbn
    from duplicate.imports.usebio import read_usebio

    if fmt == "usebio":
        return read_usebio(data, source, info)
    return read_pbn(_pbn_text(data, source), source, info)


def _pbn_text(data: bytes, source: str) -> str:
    """PBN is ISO-8859-1 by its standard; UTF-8 (with or without a BOM) is read too. One
    file holds one of them: a file that mixes them is refused."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        refuse_mixed_encoding(data, source)
        return data.decode("latin-1")
