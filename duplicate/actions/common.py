"""What every command function does first: its event, from any source."""

from __future__ import annotations

from typing import Any

from duplicate.event import Event
from duplicate.load import SourceKind, load_event
from duplicate.rules import Rules


def event_of(
    source: Any, rules: Rules | None = None, kind: SourceKind = "auto", **settings: Any
) -> Event:
    """`source` as an Event: an Event as it is (under `rules` and `settings` when given),
    anything else loaded (duplicate.load.load_event)."""
    given = {k: v for k, v in settings.items() if v is not None}
    if isinstance(source, Event) and rules is None and not given:
        return source
    return load_event(source, kind=kind, rules=rules, **given)
