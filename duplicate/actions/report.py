"""`report`: the event as a self-contained web site."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from duplicate.actions.common import event_of
from duplicate.rules import Rules

if TYPE_CHECKING:
    from duplicate.actions.stages import StageTable
    from duplicate.event import Event

Language = Literal["en", "zh"]


@dataclass(frozen=True)
class Site:
    """A web site's pages by their path in the site (index.html, deals/1.html ...)."""

    pages: dict[str, str]
    rules: Rules
    event: Event | None = None

    def files(self) -> dict[str, bytes]:
        return {path: html.encode("utf-8") for path, html in self.pages.items()}


def report(
    source: Any,
    lang: Language = "en",
    rules: Rules | None = None,
    adjustments: Any = None,
    **settings: Any,
) -> Site:
    """The standings (with every tie-break, names and clubs when the players file gives
    them), a page per deal (every result by seat), a page per player (their deals and
    their place after each round), and the rules used with every adjustment. Labels in
    English or Chinese; every text from a file is escaped.

        >>> import duplicate
        >>> site = duplicate.report("sample_data/big2_event.csv", lang="zh")
        >>> sorted(site.pages)[:2]  # doctest: +SKIP
    """
    from dataclasses import replace

    from duplicate.output import with_names
    from duplicate.render.data import report_data
    from duplicate.render.pages import build_site

    event = event_of(source, rules, adjustments=adjustments, **settings)
    results = event.needs_results("report")
    data = report_data(results, event.rules, event.adjustments)
    data = replace(data, scores=with_names(data.scores, event.players))
    people = event.players.frame() if event.players is not None else None
    pages = build_site(data, lang, event.heading(), people)
    return Site(pages, event.rules, event)


def stage_report(stage: StageTable, lang: Language = "en") -> Site:
    """A stage as a web site: its standings, the eliminations hand by hand, and each
    player's chips after every hand."""
    from duplicate.render.stage_pages import stage_site
    from duplicate.stages.elimination import Stage

    pages = stage_site(Stage(stage.frame, stage.ledger, stage.history), lang)
    return Site(pages, stage.rules, stage.event)
