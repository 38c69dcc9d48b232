"""How messages say a number of things."""

from __future__ import annotations


def counted(n: int, thing: str) -> str:
    """'1 table', '12 tables'."""
    return f"{n} {thing}{'' if n == 1 else 's'}"
