"""How messages say a number of things, and the order people read ids in."""

from __future__ import annotations

import re

_DIGITS = re.compile(r"[0-9]+")


def counted(n: int, thing: str) -> str:
    """'1 table', '12 tables'."""
    return f"{n} {thing}{'' if n == 1 else 's'}"


# A place that players share is written with this after it: 1, 2=, 2=, 4.
SHARED_PLACE = "="


def place_number(place: object) -> int:
    """A place as a number: a shared place written 8= is 8."""
    return int(str(place).rstrip(SHARED_PLACE))


def natural(text: str) -> str:
    """A key that sorts text as people read it, its numbers by value: P9 before P10,
    table 2 before table 10, A15 before B2."""
    return _DIGITS.sub(lambda m: m[0].zfill(12), text)
