"""HTML pages of the report: plain strings, every user-supplied text escaped."""

from __future__ import annotations

from html import escape
from typing import Any

import pandas as pd

from duplicate import __version__
from duplicate.render.data import ReportData
from duplicate.render.labels import LABELS
from duplicate.scoring.score_table import PLAYER_DEAL_COLUMNS

STYLE = """
body{font-family:system-ui,"Noto Sans CJK SC","WenQuanYi Zen Hei","Microsoft YaHei",sans-serif;
margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1d2330}
nav a{margin-right:1rem}h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem}
table{border-collapse:collapse;margin:1rem 0}
th,td{padding:.25rem .6rem;border-bottom:1px solid #d9dde5}
th{text-align:left;background:#f2f4f8;white-space:nowrap}td.num{text-align:right;font-variant-numeric:tabular-nums}
.flag{color:#b3261e;font-weight:600}pre{background:#f2f4f8;padding:1rem;overflow:auto}
footer{margin-top:3rem;color:#6b7280;font-size:.85rem}
"""

# Columns that do not decide standings by session percentage.
RANK_POINT_FIELDS = ("deal_rank", "rank_points")
TRAVELLER_FIELDS = [
    "table",
    "player",
    "score",
    "mp",
    "mp_pct",
    "deal_rank",
    "rank_points",
    "adjustment",
]
PLAYER_DEAL_FIELDS = list(PLAYER_DEAL_COLUMNS)
# IMP scoring's columns of a deal (those the score table has: Butler or cross-IMPs).
IMP_DEAL_FIELDS = ("n", "datum", "difference", "comparisons", "imps")
NUMERIC = {
    "place",
    "total",
    "penalty",
    "deals",
    "beaten_avg",
    "total_seconds",
    "trimmed_seconds",
    "score",
    "seconds",
    "n",
    "mp",
    "top",
    "mp_pct",
    "deal_rank",
    "rank_points",
    "round",
    "percentage",
    "imps",
    "average_imps",
    "datum",
    "difference",
    "comparisons",
}


def text(value: object) -> str:
    """A cell as escaped text; missing values blank."""
    if value is None or value is pd.NA or (isinstance(value, float) and value != value):
        return ""
    return escape(str(value), quote=True)


class Pages:
    """The frame every page shares (navigation, title, footer) and its tables."""

    def __init__(self, lang: str, heading: str = "") -> None:
        self.t = LABELS[lang]
        self.lang = lang
        # The event's title, date and venue, on every page (when known).
        self.heading = heading

    def nav(self) -> list[tuple[str, str]]:
        """(path from the site's root, label) of each link in the navigation."""
        return [
            ("index.html", self.t["standings"]),
            ("deals/index.html", self.t["deals"]),
            ("rules.html", self.t["rules"]),
        ]

    def page(self, title: str, body: str, depth: int) -> str:
        up = "../" * depth
        event = f'<p class="event">{escape(self.heading)}</p>' if self.heading else ""
        nav = "".join(f'<a href="{up}{path}">{label}</a>' for path, label in self.nav())
        return (
            f'<!DOCTYPE html>\n<html lang="{self.t["html_lang"]}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>{STYLE}</style></head>"
            f"<body><nav>{nav}</nav>{event}<h1>{escape(title)}</h1>{body}"
            f"<footer>{self.t['made_with']} {escape(__version__)}</footer></body></html>\n"
        )

    def table(self, frame: pd.DataFrame, fields: list[str], cls: str, link: Any = None) -> str:
        head = "".join(
            f'<th scope="col">{self.t.get(f if f != "deals" else "deal_count", f)}</th>'
            for f in fields
        )
        rows = []
        for record in frame.to_dict("records"):
            cells = []
            for f in fields:
                value = record.get(f)
                if f == "playoff":
                    cell = (
                        f'<span class="flag">{self.t["playoff_flag"]}</span>'
                        if value is True
                        else ""
                    )
                elif f == "decided_by" and value:
                    cell = text(self.t.get(f"by_{value}", value))
                else:
                    cell = text(value)
                if link is not None and f in link:
                    href = link[f](record)
                    if href:
                        cell = f'<a href="{escape(href)}">{cell}</a>'
                cls_attr = ' class="num"' if f in NUMERIC else ""
                cells.append(f"<td{cls_attr}>{cell}</td>")
            rows.append(f"<tr>{''.join(cells)}</tr>")
        body = "".join(rows)
        return f'<table class="{cls}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


class Site(Pages):
    """Builds every page; file names come from positions, never from user text."""

    def __init__(
        self,
        data: ReportData,
        lang: str,
        heading: str = "",
        people: pd.DataFrame | None = None,
    ) -> None:
        super().__init__(lang, heading)
        self.data = data
        self.standings = _with_people(data.standings, people)
        players = data.standings[["section", "player"]].astype(str)
        self.player_page = {
            (s, p): f"players/{i + 1}.html"
            for i, (s, p) in enumerate(players.itertuples(index=False))
        }
        # The standings' own columns, in their order; rank points only where they count.
        self.standings_fields = [c for c in self.standings.columns if c != "section"]
        by_percentage = "percentage" in data.standings.columns
        named = ["player", "name"] if "name" in data.scores.columns else ["player"]
        self.traveller_fields = [
            g
            for f in TRAVELLER_FIELDS
            if not (by_percentage and f in RANK_POINT_FIELDS)
            for g in (named if f == "player" else [f])
        ]
        self.player_deal_fields = [
            f for f in PLAYER_DEAL_FIELDS if not (by_percentage and f in RANK_POINT_FIELDS)
        ]
        if "imps" in data.scores.columns:
            imp = [f for f in IMP_DEAL_FIELDS if f in data.scores.columns]
            self.traveller_fields = [
                g
                for f in ("table", "player", "score", *imp)
                for g in (named if f == "player" else [f])
            ]
            self.player_deal_fields = ["round", "deal", "table", "seat", "score", *imp]
        deals = data.scores[["section", "round", "deal"]].drop_duplicates().astype(str)
        self.deal_page = {
            (s, r, d): f"deals/{i + 1}.html"
            for i, (s, r, d) in enumerate(deals.itertuples(index=False))
        }

    def pages(self) -> dict[str, str]:
        out = {
            "index.html": self.index(),
            "rules.html": self.rules(),
            "deals/index.html": self.deal_list(),
        }
        for deal_key, path in self.deal_page.items():
            out[path] = self.deal(deal_key)
        for player_key, path in self.player_page.items():
            out[path] = self.player(player_key)
        return out

    # -- pages --------------------------------------------------------------------------

    def index(self) -> str:
        parts = []
        # Sections in the standings' order (甲组 before 乙组).
        for section, group in self.standings.groupby("section", sort=False):
            heading = f"<h2>{self.t['section']} {text(section)}</h2>" if section else ""
            link = {"player": lambda r: self.player_page[(str(r["section"]), str(r["player"]))]}
            parts.append(heading + self.table(group, self.standings_fields, "standings", link))
        return self.page(self.t["standings"], "".join(parts), 0)

    def deal_list(self) -> str:
        items = []
        for (section, rnd, deal), path in self.deal_page.items():
            where = f"{self.t['section']} {text(section)} · " if section else ""
            items.append(
                f'<li><a href="../{path}">{where}{self.t["round"]} {text(rnd)} · '
                f"{self.t['deal']} {text(deal)}</a></li>"
            )
        return self.page(self.t["deals"], f'<ul class="deals">{"".join(items)}</ul>', 1)

    def deal(self, key: tuple[str, str, str]) -> str:
        section, rnd, deal = key
        scores = self.data.scores
        rows = scores[
            (scores["section"].astype(str) == section)
            & (scores["round"].astype(str) == rnd)
            & (scores["deal"].astype(str) == deal)
        ]
        link = {
            "player": lambda r: (
                "../" + self.player_page.get((section, str(r["player"])), "")
                if (section, str(r["player"])) in self.player_page
                else None
            )
        }
        parts = [f"<p>{self.t['traveller']}</p>"]
        for seat, group in rows.groupby("seat", sort=True):
            best = "imps" if "imps" in group.columns else "mp"
            group = group.sort_values(
                [best, "player"], ascending=[False, True], na_position="last", key=_orderable
            )
            parts.append(f"<h2>{self.t['seat']} {text(seat)}</h2>")
            parts.append(self.table(group, self.traveller_fields, "traveller", link))
        where = f"{self.t['section']} {section} · " if section else ""
        title = f"{where}{self.t['round']} {rnd} · {self.t['deal']} {deal}"
        return self.page(title, "".join(parts), 1)

    def player(self, key: tuple[str, str]) -> str:
        section, player = key
        st = self.standings
        me = st[(st["section"].astype(str) == section) & (st["player"].astype(str) == player)]
        summary = self.table(me, self.standings_fields, "summary")
        scores = self.data.scores
        mine = scores[
            (scores["section"].astype(str) == section) & (scores["player"].astype(str) == player)
        ]
        link = {
            "deal": lambda r: "../" + self.deal_page[(section, str(r["round"]), str(r["deal"]))]
        }
        deals = self.table(mine, self.player_deal_fields, "player-deals", link)
        places = self.data.places
        history = places[
            (places["section"].astype(str) == section) & (places["player"].astype(str) == player)
        ]
        chart = place_chart(
            list(history["round"]),
            list(history["place"]),
            len(st[st["section"].astype(str) == section]),
            self.t["round"],
            self.t["place"],
        )
        body = (
            f"{summary}<h2>{self.t['place_by_round']}</h2>{chart}<h2>{self.t['deals']}</h2>{deals}"
        )
        name = me["name"].iloc[0] if "name" in me.columns and len(me) else ""
        shown = f"{player} {name}" if name and name != player else player
        return self.page(f"{self.t['player']} {shown}", body, 1)

    def rules(self) -> str:
        rules = self.data.rules
        summary = {
            "rule_method": rules.method,
            "rule_tie_ranking": rules.tie_ranking,
            "rule_deal_scope": rules.deal_scope,
            "rule_factoring": rules.factoring,
            "rule_rank_points": f"{rules.rank_base}; "
            + ", ".join(str(f) for f in rules.rank_factors),
            "rule_tie_breaks": ", ".join(self.t.get(f"by_{b}", b) for b in rules.tie_breaks),
        }
        if rules.method == "percentage":
            summary["rule_percentage"] = rules.percentage_convention()
        rows = "".join(
            f'<tr><th scope="row">{self.t[key]}</th><td>{escape(str(value))}</td></tr>'
            for key, value in summary.items()
        )
        body = f'<h2>{self.t["rules_used"]}</h2><table class="rules">{rows}</table>'
        body += f"<h3>{self.t['rules_in_toml']}</h3><pre>{escape(rules.to_toml())}</pre>"
        body += f"<h2>{self.t['adjustments']}</h2>"
        adjustments = self.data.adjustments
        if adjustments is None or adjustments.frame.empty:
            body += f"<p>{self.t['no_adjustments']}</p>"
        else:
            frame = adjustments.frame.assign(
                value=adjustments.value_text(),
                kind=adjustments.frame["kind"].map(lambda k: self.t.get(f"kind_{k}", k)),
            )
            body += self.table(
                frame, ["round", "deal", "player", "kind", "value", "reason"], "adjustments"
            )
        return self.page(self.t["rules"], body, 0)


def _with_people(standings: pd.DataFrame, people: pd.DataFrame | None) -> pd.DataFrame:
    """The standings with each player's name and club (from a players file) after the
    player, where the file gives any."""
    if people is None or people.empty:
        return standings
    known = people.drop_duplicates("player").set_index("player")
    ids = standings["player"].astype(str)
    out = standings.copy()
    at = list(out.columns).index("player") + 1
    for column in ("club", "name"):
        values = ids.map(known[column]).fillna("")
        if (values != "").any():
            out.insert(at, column, values.to_numpy())
    return out


def _orderable(column: pd.Series) -> pd.Series:
    """A column pandas can sort: fractional MP (Arrow decimals) as floats, for display
    order only (ranks come from the exact values)."""
    if column.name == "mp" and not pd.api.types.is_integer_dtype(column.dtype):
        return column.astype("float64")
    return column


def place_chart(
    rounds: list[int], places: list[int], field: int, x_label: str, y_label: str
) -> str:
    """An inline SVG line of place (1 at the top) after each round."""
    return line_chart(
        [str(r) for r in rounds], places, 1, max(field, 1), x_label, y_label, "place-chart"
    )


def line_chart(
    xs: list[str],
    ys: list[int],
    top: int,
    bottom: int,
    x_label: str,
    y_label: str,
    cls: str,
) -> str:
    """An inline SVG line through (x, y), `top` drawn at the top and `bottom` at the
    bottom; each point labelled with its value, each x below."""
    width, height, pad = 480, 240, 44
    last = max(len(xs) - 1, 1)
    span = (bottom - top) or 1

    def x(i: int) -> float:
        return pad + (width - 2 * pad) * (i / last if len(xs) > 1 else 0.5)

    def y(value: int) -> float:
        return pad + (height - 2 * pad) * ((value - top) / span)

    points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(ys))
    dots = "".join(
        f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="4"/>'
        f'<text x="{x(i):.1f}" y="{y(v) - 8:.1f}" text-anchor="middle">{v}</text>'
        f'<text x="{x(i):.1f}" y="{height - 26}" text-anchor="middle">{escape(label)}</text>'
        for i, (label, v) in enumerate(zip(xs, ys, strict=True))
    )
    # The axes' names: below, and up the left side.
    axes = (
        f'<text class="axis" x="{width / 2:.0f}" y="{height - 6}" '
        f'text-anchor="middle">{escape(x_label)}</text>'
        f'<text class="axis" x="{-height / 2:.0f}" y="14" transform="rotate(-90)" '
        f'text-anchor="middle">{escape(y_label)}</text>'
    )
    return (
        f'<svg class="{cls}" role="img" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" aria-label="{escape(y_label)} / {escape(x_label)}">'
        f'<polyline fill="none" stroke="#2f5db3" stroke-width="2" points="{points}"/>'
        f'<g fill="#2f5db3" font-size="12">{dots}</g>'
        f'<g fill="#333" font-size="12">{axes}</g></svg>'
    )


def build_site(
    data: ReportData, lang: str = "en", heading: str = "", people: pd.DataFrame | None = None
) -> dict[str, str]:
    """Every page of the report, by relative path (`heading`: the event's title, date
    and venue, shown on every page; `people`: player, name, club from a players file)."""
    return Site(data, lang, heading, people).pages()
