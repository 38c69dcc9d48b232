"""USEBIO XML (the EBU's open results format): every BOARD's TRAVELLER_LINEs.

A traveller line gives NS_PAIR_NUMBER, EW_PAIR_NUMBER and SCORE, North-South's score.
A board may sit under EVENT directly or under SESSION and SECTION; a SECTION's
SECTION_ID (an attribute or a child) names the section.

The file is untrusted: lxml parses it without loading a DTD, expanding entities or
touching the network, and refuses documents nested or sized beyond libxml2's limits.
lxml is used for that, and for the line number of every element in messages.
"""

from __future__ import annotations

import re
from typing import Any

from duplicate.errors import InvalidData, Problem
from duplicate.imports.session import TravellerLine

_SCORE = re.compile(r"[+-]?[0-9]{1,6}")


def read_usebio(data: bytes, source: str) -> list[TravellerLine]:
    """Every traveller line of every board, in file order."""
    from lxml import etree

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
    lines: list[TravellerLine] = []
    problems: list[Problem] = []
    for board in root.iter("BOARD"):
        number = _text(board, "BOARD_NUMBER")
        if not number:
            problems.append(_missing(source, board, "BOARD_NUMBER"))
            continue
        section = _section(board)
        for traveller in board.iter("TRAVELLER_LINE"):
            found = _line(traveller, number, section, source, problems)
            if found is not None:
                lines.append(found)
    if problems:
        raise InvalidData(problems)
    return lines


def _line(
    traveller: Any, board: str, section: str, source: str, problems: list[Problem]
) -> TravellerLine | None:
    ns, ew = _text(traveller, "NS_PAIR_NUMBER"), _text(traveller, "EW_PAIR_NUMBER")
    score = _text(traveller, "SCORE")
    for name, value in (("NS_PAIR_NUMBER", ns), ("EW_PAIR_NUMBER", ew), ("SCORE", score)):
        if not value:
            problems.append(_missing(source, traveller, name))
            return None
    if not _SCORE.fullmatch(score):
        problems.append(
            Problem(
                source,
                f"SCORE {score!r} is not a score in points",
                (traveller.sourceline or 1,),
                "SCORE",
                "an artificial score (A60, 60%) is left out here and given as an "
                "adjustment (kind mp_pct or avg_plus)",
                position="line",
                code="cell.not-a-score",
            )
        )
        return None
    return TravellerLine(section, board, ns, ew, int(score), traveller.sourceline or 1)


def _text(element: Any, child: str) -> str:
    found = element.find(child)
    return "" if found is None or found.text is None else str(found.text).strip()


def _section(board: Any) -> str:
    for ancestor in board.iterancestors("SECTION"):
        return str(ancestor.get("SECTION_ID") or _text(ancestor, "SECTION_ID"))
    return ""


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
