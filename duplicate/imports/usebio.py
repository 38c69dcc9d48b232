"""USEBIO XML (the EBU's open results format): every BOARD's TRAVELLER_LINEs.

A traveller line gives NS_PAIR_NUMBER, EW_PAIR_NUMBER and SCORE, North-South's score;
TABLE_NUMBER, CONTRACT, PLAYED_BY, LEAD and TRICKS, when given, are kept as written, to
be shown, never scored.
A board may sit under EVENT directly or under SESSION and SECTION; a SECTION's
SECTION_ID (an attribute or a child) names the section.

The file is untrusted: lxml parses it without loading a DTD, expanding entities or
touching the network, and refuses documents nested or sized beyond libxml2's limits.
lxml is used for that, and for the line number of every element in messages.

What is read is read whole or refused, never guessed: a field's text is all its text
(CDATA included, a processing instruction inside it skipped); an entity left
unexpanded, an element inside a field, a field given twice, a BOARD inside a BOARD
or a traveller line outside one is refused.
"""

from __future__ import annotations

import codecs
import re
from decimal import Decimal
from typing import Any

from duplicate.errors import InvalidData, Problem
from duplicate.imports.session import (
    Findings,
    SessionInfo,
    TravellerLine,
    artificial,
    not_a_score,
    not_played,
    play_of,
    points,
    refuse_mixed_encoding,
)
from duplicate.limits import MAX_SESSION_TAGS

_LINE_FIELDS = ("NS_PAIR_NUMBER", "EW_PAIR_NUMBER", "SCORE")
# A traveller line's fields that say what was played, by the name the toolkit gives
# them (duplicate.model.columns.PLAY_COLUMNS): kept as written, never scored. The
# published files read here give no table; TABLE_NUMBER is read when a file has one.
_PLAY = {"TABLE_NUMBER": "at_table", "CONTRACT": "contract", "PLAYED_BY": "declarer"}
_PLAY |= {"LEAD": "lead", "TRICKS": "result"}
# Elements that hold others and cannot hold themselves.
_NOT_NESTED = ("BOARD", "TRAVELLER_LINE", "SECTION")


def read_usebio(data: bytes, source: str, info: SessionInfo | None = None) -> list[TravellerLine]:
    """Every traveller line of every board, in file order; what the file says of the
    session goes into `info`."""
    from lxml import etree

    tags = data.count(b"<")
    if tags > MAX_SESSION_TAGS:
        raise InvalidData(
            [
                Problem(
                    source,
                    f"holds {tags:,} tags, more than the {MAX_SESSION_TAGS:,} a session file "
                    "is read with",
                    hint="split the event into sessions",
                    code="session.too-large",
                )
            ]
        )
    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, remove_comments=True
    )
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as error:
        line = error.lineno or 1
        raise InvalidData(
            [
                Problem(
                    source,
                    f"not well-formed XML: {error.msg}",
                    (line,),
                    hint="export the USEBIO file again; an edited file must keep every "
                    "tag closed and every & written &amp;",
                    position="line",
                    code="session.not-xml",
                )
            ]
        ) from None
    if root.tag != "USEBIO":
        raise InvalidData(
            [
                Problem(
                    source,
                    f"the document is <{root.tag}>, not <USEBIO>",
                    (root.sourceline or 1,),
                    hint="give a USEBIO results file",
                    position="line",
                    code="session.not-usebio",
                )
            ]
        )
    if _single_byte(root.getroottree().docinfo.encoding):
        refuse_mixed_encoding(data, source)
    found = Findings(source)
    lines: list[TravellerLine] = []
    said = info if info is not None else SessionInfo()
    _info(root, said)
    _nesting(root, found)
    boards: dict[Any, tuple[str, str] | None] = {}
    for traveller in root.iter("TRAVELLER_LINE"):
        if found.full:
            found.stopped(traveller.sourceline or 1, data.count(b"\n") + 1)
            break
        board = next(traveller.iterancestors("BOARD"), None)
        if board is None:
            continue  # refused by _nesting
        if board not in boards:
            number = _field(board, "BOARD_NUMBER", found)
            if number == "":
                found.add(_missing(source, board, "BOARD_NUMBER"))
            boards[board] = (number, _section(board, found)) if number else None
        held = boards[board]
        if held is not None:
            line = _line(traveller, *held, found, said)
            if line is not None:
                lines.append(line)
                found.count(lines, line.line)
    for board in root.iter("BOARD"):
        if board not in boards and not found.full and _field(board, "BOARD_NUMBER", found) == "":
            found.add(_missing(source, board, "BOARD_NUMBER"))
    found.raise_any()
    return lines


def _text(element: Any, path: str) -> str:
    found = element.find(path)
    return str(found.text or "").strip() if found is not None and len(found) == 0 else ""


def _info(root: Any, info: SessionInfo) -> None:
    """The event's title, date, winners, scoring and kind, and the players' names."""
    event = root.find("EVENT")
    if event is None:
        return
    info.title = _text(event, "TITLE") or _text(event, "EVENT_DESCRIPTION")
    date = re.fullmatch(r"([0-9]{2})[-/.]([0-9]{2})[-/.]([0-9]{4})", _text(event, "DATE"))
    iso = re.fullmatch(r"([0-9]{4})-([0-9]{2})-([0-9]{2})", _text(event, "DATE"))
    if date is not None:
        info.date = f"{date.group(3)}-{date.group(2)}-{date.group(1)}"
    elif iso is not None:
        info.date = iso.group(0)
    info.winners = {"1": "one", "2": "two"}.get(_text(event, "WINNER_TYPE"), "")
    info.competition = str(event.get("EVENT_TYPE") or "").strip()
    # What the participants are says it too: teams, or players who are no pair's.
    participants = event.find("PARTICIPANTS")
    if participants is not None and participants.find("TEAM") is not None:
        info.competition = info.competition or "teams"
    elif participants is not None and participants.find("PLAYER") is not None:
        info.competition = info.competition or "individual"
    info.scoring = _text(event, "BOARD_SCORING_METHOD") or next(
        (_text(s, "BOARD_SCORING_METHOD") for s in event.iter("SESSION", "SECTION")), ""
    )
    info.program = _text(event, "PROGRAM_NAME") or _text(root, "PROGRAM_NAME")
    for pair in root.iter("PAIR"):
        number = _text(pair, "PAIR_NUMBER")
        names = [_text(p, "PLAYER_NAME") for p in pair.iter("PLAYER")]
        sections = pair.iterancestors("SECTION")
        section = next((str(s.get("SECTION_ID") or _text(s, "SECTION_ID")) for s in sections), "")
        if number and any(names):
            info.names.setdefault((section.strip(), number), " & ".join(n for n in names if n))
    info.one_field = _one_field(root)


def _one_field(root: Any) -> bool:
    """Whether the file's sections were matchpointed as one field: a board whose
    published top (a line's matchpoints for both sides) is more than twice its
    section's most results less one, the most any section alone gives, even factored."""
    most: dict[str, int] = {}
    tops: dict[str, Decimal] = {}
    for board in root.iter("BOARD"):
        section = next(board.iterancestors("SECTION"), None)
        if section is None:
            continue
        name = str(section.get("SECTION_ID") or _text(section, "SECTION_ID")).strip()
        lines = list(board.iter("TRAVELLER_LINE"))
        most[name] = max(most.get(name, 0), len(lines))
        for line in lines:
            try:
                top = Decimal(_text(line, "NS_MATCH_POINTS")) + Decimal(
                    _text(line, "EW_MATCH_POINTS")
                )
            except ArithmeticError:
                continue
            if top.is_finite():
                tops[name] = max(tops.get(name, top), top)
    # Published matchpoints are rounded to at most 2 decimals.
    rounding = Decimal("0.02")
    return len(most) > 1 and any(
        top > 2 * (most[name] - 1) + rounding for name, top in tops.items()
    )


def _nesting(root: Any, found: Findings) -> None:
    """A BOARD, TRAVELLER_LINE or SECTION inside another of its kind, and a traveller
    line outside any BOARD: the format has none, and reading one would credit its
    lines twice or to no board."""
    for name in _NOT_NESTED:
        for element in root.iter(name):
            if found.full:
                return
            outer = next(element.iterancestors(name), None)
            if outer is not None:
                found.add(
                    _misplaced(
                        found.source,
                        element,
                        f"a <{name}> inside the <{name}> of line {outer.sourceline or 1}",
                    )
                )
            elif name == "TRAVELLER_LINE" and next(element.iterancestors("BOARD"), None) is None:
                found.add(
                    _misplaced(found.source, element, "a <TRAVELLER_LINE> outside any <BOARD>")
                )


def _line(
    traveller: Any, board: str, section: str, found: Findings, info: SessionInfo
) -> TravellerLine | None:
    values = [_field(traveller, name, found) for name in _LINE_FIELDS]
    if None in values:
        return None
    for name, value in zip(_LINE_FIELDS, values, strict=True):
        if not value:
            found.add(_missing(found.source, traveller, name))
            return None
    ns, ew, score = (str(v) for v in values)
    if not_played(score):
        info.not_played.append((board, traveller.sourceline or 1))
        return None  # not played at this table: no result for either pair
    in_points = points(score)
    given = artificial(score, "-") if in_points is None else None
    if in_points is None and given is None:
        found.add(
            not_a_score(
                found.source,
                f"SCORE {score!r}",
                (score,),
                traveller.sourceline or 1,
                "SCORE",
                "is not a score in points",
                "give a score in points, or an artificial score (A5050, A60, 60%, A+, A-)",
            )
        )
        return None
    round_number = _field(traveller, "ROUND_NUMBER", found) or ""
    play = {name: _field(traveller, field, found) or "" for field, name in _PLAY.items()}
    return TravellerLine(
        section,
        board,
        ns,
        ew,
        in_points or 0,
        traveller.sourceline or 1,
        round=round_number,
        artificial=given,
        play=play_of(play),
    )


def _field(element: Any, name: str, found: Findings) -> str | None:
    """The whole text of `element`'s child `name` ("" when it has none), or None when
    it cannot be read as given (a problem says why)."""
    children = element.findall(name)
    if not children:
        return ""
    if len(children) > 1:
        lines = tuple(sorted({c.sourceline or 1 for c in children}))
        found.add(
            Problem(
                found.source,
                f"<{element.tag}> gives {name} {len(children)} times",
                lines,
                name,
                f"keep one {name} in each {element.tag}",
                position="line",
                code="session.repeated-element",
            )
        )
        return None
    return _whole_text(children[0], found)


def _whole_text(field: Any, found: Findings) -> str | None:
    """All of a field's text; None (with a problem) when part of it is an entity or an
    element. Comments are gone at parsing; a processing instruction holds no text."""
    if len(field) == 0:
        return str(field.text or "").strip()
    from lxml import etree

    parts = [field.text or ""]
    for child in field:
        if isinstance(child, etree._Entity):
            found.add(
                Problem(
                    found.source,
                    f"{field.tag} holds the entity {child.text}, which is never expanded",
                    (field.sourceline or 1,),
                    str(field.tag),
                    f"write the value itself, or {'&amp;'} for a literal &",
                    position="line",
                    code="session.entity",
                )
            )
            return None
        if isinstance(child, etree._ProcessingInstruction):
            parts.append(child.tail or "")
            continue
        found.add(
            _misplaced(found.source, child, f"a <{child.tag}> inside {field.tag}, a plain value")
        )
        return None
    return "".join(parts).strip()


def _section(board: Any, found: Findings) -> str:
    for ancestor in board.iterancestors("SECTION"):
        attribute = ancestor.get("SECTION_ID")
        child = _field(ancestor, "SECTION_ID", found)
        if attribute is not None and child and attribute.strip() != child:
            found.add(
                Problem(
                    found.source,
                    f"<SECTION> is named {attribute.strip()!r} by its attribute and "
                    f"{child!r} by its element",
                    (ancestor.sourceline or 1,),
                    "SECTION_ID",
                    "keep one SECTION_ID",
                    position="line",
                    code="session.repeated-element",
                )
            )
        return str(attribute.strip() if attribute is not None else (child or ""))
    return ""


def _single_byte(encoding: str | None) -> bool:
    """An encoding in which any byte is a character (ISO-8859-1, windows-1252 ...):
    UTF-8 written into such a file reads without an error, as other characters."""
    try:
        name = codecs.lookup(encoding or "utf-8").name
    except LookupError:
        return False
    return name in ("latin-1", "iso8859-1", "ascii") or name.startswith(("iso8859", "cp125"))


def _missing(source: str, element: Any, child: str) -> Problem:
    return Problem(
        source,
        f"<{element.tag}> has no {child}",
        (element.sourceline or 1,),
        child,
        f"give every {element.tag} its {child}",
        position="line",
        code="session.missing-element",
    )


def _misplaced(source: str, element: Any, what: str) -> Problem:
    return Problem(
        source,
        f"{what}: the format has none there",
        (element.sourceline or 1,),
        hint="export the USEBIO file again; an edited file keeps each element where the "
        "format puts it",
        position="line",
        code="session.misplaced-element",
    )
