"""The deal scope: which results hold the same cards (docs/scoring.md section 1).

Online events number deals afresh each round, so a deal is (section, round, deal); an
event whose deal ids are unique across it, or that replays a deal in later rounds (a
bridge movement), names deals across the event: (section, deal). Everything that needs
to know asks the policy object; nothing else tests the setting's text.
"""

from __future__ import annotations

from typing import NamedTuple

from duplicate.errors import UsageError


class DealScope(NamedTuple):
    """How deals are identified, and so which results are compared."""

    name: str
    # The columns that identify one deal.
    deal_keys: tuple[str, ...]
    # Whether one deal may be played in several rounds.
    spans_rounds: bool
    # The columns of a session, in which a deal is played its normal number of times
    # (and which a cluster's part holds whole).
    session_keys: tuple[str, ...]

    def one_field(self) -> DealScope:
        """This scope across sections: the sections that played the same boards are one
        field, each deal compared (and factored) over all of them."""
        keys = tuple(k for k in self.deal_keys if k != "section")
        # A session of the whole field: its seat (a constant within each comparison).
        session = tuple(k for k in self.session_keys if k != "section") or ("seat",)
        return DealScope(f"{self.name}, one field", keys, self.spans_rounds, session)

    @property
    def group_keys(self) -> tuple[str, ...]:
        """The columns of a comparison group: the deal and the seat."""
        return (*self.deal_keys, "seat")


ROUND = DealScope("round", ("section", "round", "deal"), False, ("section", "round"))
EVENT = DealScope("event", ("section", "deal"), True, ("section",))
SCOPES = {scope.name: scope for scope in (ROUND, EVENT)}


def deal_scope(name: str | DealScope) -> DealScope:
    """The scope named `name` ('round' or 'event')."""
    if isinstance(name, DealScope):
        return name
    found = SCOPES.get(name)
    if found is None:
        raise UsageError(
            f"{{opt:deal_scope}} must be 'round' or 'event', not {name!r}", "rules.bad-value"
        )
    return found
