"""`print`: paper for the venue (table cards, a seating list, score cards, blank score
sheets and travellers) as PDF."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from duplicate.actions.common import event_of
from duplicate.errors import Problem, UsageError
from duplicate.event import Event
from duplicate.rules import Rules

if TYPE_CHECKING:
    from duplicate.render.fonts import Font

Printable = Literal["table-cards", "seating-list", "score-cards", "score-sheets", "travellers"]
# Score cards to an A4 page.
CARDS_PER_PAGE = (1, 2, 4)


@dataclass(frozen=True)
class Printed:
    """A PDF document, and what it was printed from."""

    what: Printable
    pdf: bytes
    rules: Rules
    event: Event
    # Names with characters the font cannot print (printed as a white square).
    warnings: tuple[Problem, ...] = ()
    # The font file embedded.
    font: str = ""


def print_event(
    source: Any,
    what: Printable,
    round_number: int | None = None,
    rules: Rules | None = None,
    adjustments: Any = None,
    *,
    cards_per_page: int = 2,
    deals: int | None = None,
    font: str | None = None,
    **settings: Any,
) -> Printed:
    """A4 pages, each headed by the event's title, date and venue: table cards, a
    seating list, blank score sheets (one per table) and blank travellers (one per deal)
    from a published seating of the event folder `source` (the latest, or round
    `round_number`), or every player's score card from its results (with every
    adjustment, as the standings apply them), `cards_per_page` to a page (1, 2 or 4).
    For a bridge session's file (PBN or USEBIO) as `source`, blank bridge travellers:
    one per board, a line per table with its pairs, for the same movement.

    Score sheets and travellers have `deals` lines or pages (default: as many deals as
    the latest round played). The pages are set in a Chinese TrueType font embedded in
    the PDF: the file `font`, else the one found on the machine
    (duplicate.render.fonts); `.warnings` names each name with characters the font
    lacks (printed as a white square).

        >>> import duplicate
        >>> duplicate.print_event("spring", "score-cards").pdf[:4]  # doctest: +SKIP
        b'%PDF'
    """
    from duplicate.actions.score import score
    from duplicate.actions.standings import standings
    from duplicate.io.event_folder import is_event
    from duplicate.io.read import read_raw
    from duplicate.render import printed
    from duplicate.render.fonts import cjk_font

    folder = source.folder if isinstance(source, Event) else source
    session = _session_path(source) if what == "travellers" else None
    if session is not None:
        return _bridge_travellers(source, session, font)
    if not isinstance(folder, str | Path) or not is_event(folder):
        raise UsageError(
            f"{source} is not an event folder (see `duplicate event init`)", "print.no-event"
        )
    if cards_per_page not in CARDS_PER_PAGE:
        raise UsageError(
            f"{{opt:cards_per_page}} {cards_per_page}: give 1, 2 or 4 (score cards to an A4 page)",
            "print.bad-cards-per-page",
        )
    event = event_of(source, rules, adjustments=adjustments, **settings)
    names = _names(event)
    face = cjk_font(font)
    heading = event.heading()
    if what == "score-cards":
        pdf = printed.score_cards(
            score(event).frame, standings(event).frame, heading, names, face, cards_per_page
        )
        return _printed(what, pdf, event, face, names, heading)
    seating, _ = read_raw(_published(event, round_number), settings.get("encoding"))
    seating = seating.fillna("")
    if what in ("score-sheets", "travellers"):
        draw_blank = printed.score_sheets if what == "score-sheets" else printed.travellers
        pdf = draw_blank(seating, heading, names, face, _deal_numbers(event, deals))
    else:
        draw = printed.table_cards if what == "table-cards" else printed.seating_list
        pdf = draw(seating, heading, names, face)
    return _printed(what, pdf, event, face, names, heading)


def _printed(
    what: Printable, pdf: bytes, event: Event, face: Font, names: dict[str, str], heading: str
) -> Printed:
    """The document, with a warning for each name (and the heading) the font cannot
    print whole."""
    warnings = []
    for player, name in [("", heading), *names.items()]:
        lacking = face.lacks(name)
        if lacking:
            whose = f"player {player}'s name" if player else "the event's title"
            warnings.append(
                Problem(
                    event.source,
                    f"{whose} {name!r} has characters the font cannot print "
                    f"({' '.join(lacking)}): printed as \u25a1",
                    hint="write the name without them in the players file, or give a font "
                    "that has them with {opt:font}",
                    code="print.unprintable",
                )
            )
    return Printed(what, pdf, event.rules, event, tuple(warnings), face.path)


def _session_path(source: Any) -> str | None:
    """The bridge session's file (PBN or USEBIO XML) `source` is, or an event was read
    from; None for anything else."""
    from duplicate.load import looks_like_session

    path = source.parts[0].path if isinstance(source, Event) and source.parts else source
    return str(path) if isinstance(path, str | Path) and looks_like_session(str(path)) else None


def _bridge_travellers(source: Any, path: str, font: str | None) -> Printed:
    """A blank traveller per board of the bridge session `path` (which `source` is, or
    was read from), for the same movement: who meets whom on each board (at which
    table, when the session says), from the session's traveller lines."""
    from duplicate.imports import session_lines
    from duplicate.imports.session import SessionInfo
    from duplicate.render import printed
    from duplicate.render.fonts import cjk_font

    said = SessionInfo()
    lines = session_lines(path, info=said)
    meetings = [
        (line.section, line.board, line.play.get("at_table", ""), line.ns_pair, line.ew_pair)
        for line in lines
    ]
    face = cjk_font(font)
    # Headed as the session's report and the event folder it imports as are.
    info = said.event_info()
    heading = info.heading() if info is not None else Path(path).name
    pdf = printed.bridge_travellers(meetings, heading, face)
    event = source if isinstance(source, Event) else Event(path, Rules(method="percentage"))
    return Printed("travellers", pdf, event.rules, event, (), face.path)


def _deal_numbers(event: Event, deals: int | None) -> list[int]:
    """The deals of the seated round: `deals` of them, else as many as the latest round
    played; numbered from 1, or on from the last deal played when deals are numbered
    through the event."""
    played = event.results.frame if event.results is not None else None
    last: dict[str, int] = {}
    if played is not None and len(played):
        latest = played[played["round"] == played["round"].max()]
        last = {"count": int(latest["deal"].nunique()), "deal": int(played["deal"].max())}
    count = deals if deals is not None else last.get("count")
    if count is None or count < 1:
        why = "no round has been played to count the deals of" if count is None else "no deals"
        raise UsageError(
            f"{why}: give the number of deals of the round (1 or more) with {{opt:deals}}",
            "print.no-deals",
        )
    start = last.get("deal", 0) + 1 if event.rules.deal_scope == "event" else 1
    return list(range(start, start + count))


def _names(event: Event) -> dict[str, str]:
    players = event.players
    return {p.id: p.name for p in players} if players is not None else {}


def _published(event: Event, round_number: int | None) -> str:
    seatings = event.seatings
    if round_number is not None:
        seatings = {r: p for r, p in seatings.items() if r == round_number}
    if not seatings:
        from duplicate.games.words import BRIDGE, words_of

        which = f"round {round_number}" if round_number else "any round"
        fix = f"publish one with `duplicate seat {event.source}`"
        if words_of(event) is BRIDGE:
            # A bridge movement is not seated by `seat`: its session file says who met.
            fix = (
                "a bridge event's travellers are printed from its session file "
                "(`duplicate print SESSION --what travellers`)"
            )
        raise UsageError(
            f"{event.source}/seatings holds no seating of {which}: {fix}",
            "print.no-seating",
        )
    return seatings[max(seatings)]
