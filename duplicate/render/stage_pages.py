"""A stage as a web site: standings, the eliminations hand by hand, and each player's
chips after every hand (docs/scoring.md section 8)."""

from __future__ import annotations

from html import escape

from duplicate.render.pages import Pages, line_chart, text
from duplicate.stages.elimination import STANDINGS_COLUMNS, Stage

LEDGER_FIELDS = ["hand", "minute", "base", "payer", "payee", "owed", "paid", "cap"]


class StageSite(Pages):
    """Every page of a stage; file names come from positions, never from names."""

    def __init__(self, stage: Stage, lang: str) -> None:
        super().__init__(lang)
        self.stage = stage
        self.player_page = {
            str(p): f"players/{i + 1}.html" for i, p in enumerate(stage.standings["player"])
        }

    def nav(self) -> list[tuple[str, str]]:
        return [("index.html", self.t["stage"]), ("timeline.html", self.t["timeline"])]

    def pages(self) -> dict[str, str]:
        out = {"index.html": self.index(), "timeline.html": self.timeline()}
        for player, path in self.player_page.items():
            out[path] = self.player(player)
        return out

    def index(self) -> str:
        link = {"player": lambda r: self.player_page[str(r["player"])]}
        body = self.table(self.stage.standings, list(STANDINGS_COLUMNS), "standings", link)
        return self.page(self.t["stage"], body, 0)

    def timeline(self) -> str:
        history = self.stage.history
        out = history[history["out"]]
        items = []
        for (hand, minute), group in out.groupby(["hand", "minute"], sort=False):
            names = ", ".join(
                f'<a href="{escape(self.player_page[str(p)])}">{text(p)}</a>'
                for p in group["player"]
            )
            items.append(
                f"<li>{self.t['hand']} {text(hand)} · {self.t['minute']} {text(minute)}: "
                f"{names}</li>"
            )
        body = f'<ol class="timeline">{"".join(items)}</ol>'
        return self.page(self.t["timeline"], body, 0)

    def player(self, player: str) -> str:
        standings = self.stage.standings
        summary = self.table(
            standings[standings["player"] == player], list(STANDINGS_COLUMNS), "summary"
        )
        history = self.stage.history
        mine = history[history["player"] == player]
        chips = [int(c) for c in mine["chips"]]
        chart = line_chart(
            [str(h) for h in mine["hand"]],
            chips,
            max(chips, default=0),
            0,
            self.t["hand"],
            self.t["chips"],
            "chips-chart",
        )
        ledger = self.stage.ledger
        payments = ledger[(ledger["payer"] == player) | (ledger["payee"] == player)]
        body = (
            f"{summary}<h2>{self.t['chips_by_hand']}</h2>{chart}"
            f"<h2>{self.t['payments']}</h2>"
            f"{self.table(payments, LEDGER_FIELDS, 'payments')}"
        )
        return self.page(f"{self.t['player']} {player}", body, 1)


def stage_site(stage: Stage, lang: str = "en") -> dict[str, str]:
    """Every page of the stage's report, by relative path."""
    return StageSite(stage, lang).pages()
