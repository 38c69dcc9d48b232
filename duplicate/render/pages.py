"""HTML pages of the report: plain strings, every user-supplied text escaped."""

from __future__ import annotations

from html import escape
from typing import Any

import numpy as np
import pandas as pd

from duplicate import __version__
from duplicate.deal_scope import deal_scope
from duplicate.render.data import ReportData
from duplicate.render.labels import words
from duplicate.render.rounds import (
    field_section,
    field_section_of,
    has_tables,
    headline,
    is_bridge,
    round_results,
)
from duplicate.render.travellers import (
    PLAY_FIELDS,
    bridge_scores,
    table_column,
    traveller_lines,
)
from duplicate.scoring.methods import method_of
from duplicate.scoring.score_table import PLAYER_DEAL_COLUMNS
from duplicate.text import place_number

STYLE = """
body{font-family:system-ui,"Noto Sans CJK SC","WenQuanYi Zen Hei","Microsoft YaHei",sans-serif;
margin:1.5rem auto;max-width:80rem;padding:0 1rem;color:#1d2330;line-height:1.4}
nav{display:flex;flex-wrap:wrap;gap:.25rem 1rem}h1{font-size:1.5rem;overflow-wrap:anywhere}
h2{font-size:1.15rem;margin-top:2rem}.event{color:#4b5563}
.scroll{overflow-x:auto;max-width:100%;margin:1rem 0}
table{border-collapse:collapse;font-size:.9rem}
th,td{padding:.25rem .45rem;border-bottom:1px solid #d9dde5;white-space:nowrap;text-align:left}
th{background:#f2f4f8;vertical-align:bottom;white-space:normal;word-break:keep-all}td.num{text-align:right;font-variant-numeric:tabular-nums}
td.wrap{white-space:normal;word-break:keep-all;min-width:8rem;max-width:24rem}
table.traveller td.wrap{min-width:20rem}
.flag{color:#b3261e;font-weight:600}pre{background:#f2f4f8;padding:1rem;overflow:auto}
.pick{display:flex;flex-wrap:wrap;gap:.25rem .75rem;align-items:baseline}
.pick strong{padding:0 .25rem;border-bottom:2px solid #2f5db3}
svg{max-width:100%;height:auto}
footer{margin-top:3rem;color:#6b7280;font-size:.85rem}
.phone{display:none}
@media (max-width:40rem){body{margin:.75rem auto;padding:0 .5rem}h1{font-size:1.25rem}
th,td{padding:.2rem .4rem}.low{display:none}.phone{display:block;color:#4b5563}}
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
    "average_imps",
    "datum",
    "difference",
    "comparisons",
    "result",
    "imps",
    # A stage's numbers.
    "chips",
    "hands",
    "hand",
    "eliminated_in",
    "minute",
    "carried",
    "base",
    "owed",
    "paid",
}
# The club and the tie-breaks' details: the standings leave them out on a phone (each
# player's page shows them).
LOW_PRIORITY = frozenset(
    {"club", "penalty", "deals", "beaten_avg", "rank_counts", "total_seconds", "trimmed_seconds"}
)
# Free text that may wrap between its words (never inside one).
WRAPPED = {"adjustment", "reason", "rank_counts"}


def text(value: object) -> str:
    """A cell as escaped text; missing values blank."""
    if value is None or value is pd.NA or (isinstance(value, float) and value != value):
        return ""
    return escape(str(value), quote=True)


Cell = tuple[str, str]  # (HTML, class)


class Pages:
    """The frame every page shares (navigation, title, footer) and its tables."""

    def __init__(self, lang: str, heading: str = "", bridge: bool = False) -> None:
        self.t = words(lang, bridge)
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

    def cell(self, field: str, value: object) -> str:
        """One value as the page shows it: yes/no in the page's language, a play-off
        flag, a tie-break's name."""
        if field == "playoff":
            return f'<span class="flag">{self.t["playoff_flag"]}</span>' if value is True else ""
        if isinstance(value, bool | np.bool_):
            return self.t["yes"] if value else self.t["no"]
        if field == "seat" and str(value) in ("NS", "EW"):
            return self.t[str(value).lower()]
        if field == "decided_by" and value:
            return text(self.t.get(f"by_{value}", value))
        if field == "cap" and value:
            return text(self.t.get(f"cap_{value}", value))
        return text(value)

    def grid(
        self, head: list[str], rows: list[list[Cell]], cls: str, low: frozenset[int] = frozenset()
    ) -> str:
        """A table in a box of its own that scrolls sideways when the page is narrower;
        the columns numbered in `low` are left out on a phone's screen."""
        header = "".join(
            f'<th scope="col" class="low">{h}</th>' if i in low else f'<th scope="col">{h}</th>'
            for i, h in enumerate(head)
        )
        rows = [
            [(h, f"{c} low".strip()) if i in low else (h, c) for i, (h, c) in enumerate(row)]
            for row in rows
        ]
        body = "".join(
            "<tr>"
            + "".join(f'<td class="{c}">{h}</td>' if c else f"<td>{h}</td>" for h, c in row)
            + "</tr>"
            for row in rows
        )
        return (
            f'<div class="scroll"><table class="{cls}"><thead><tr>{header}</tr></thead>'
            f"<tbody>{body}</tbody></table></div>"
        )

    def table(
        self,
        frame: pd.DataFrame,
        fields: list[str],
        cls: str,
        link: Any = None,
        low: frozenset[str] = frozenset(),
    ) -> str:
        """`frame`'s `fields` as a table (`link`: field -> the href of its cell, from the
        row; `low`: fields left out on a phone)."""
        head = [self.t.get(f if f != "deals" else "deal_count", f) for f in fields]
        rows = []
        for record in frame.to_dict("records"):
            cells = []
            for f in fields:
                cell = self.cell(f, record.get(f))
                if link is not None and f in link:
                    href = link[f](record)
                    if href:
                        cell = f'<a href="{escape(href)}">{cell}</a>'
                cells.append((cell, _class_of(f)))
            rows.append(cells)
        return self.grid(head, rows, cls, frozenset(i for i, f in enumerate(fields) if f in low))


def _class_of(field: str) -> str:
    return "num" if field in NUMERIC else "wrap" if field in WRAPPED else ""


class Site(Pages):
    """Builds every page; file names come from positions, never from user text."""

    def __init__(
        self,
        data: ReportData,
        lang: str,
        heading: str = "",
        people: pd.DataFrame | None = None,
    ) -> None:
        self.bridge = is_bridge(data.scores)
        super().__init__(lang, heading, self.bridge)
        self.data = data
        self.people = people
        self.standings = _with_people(data.standings, people)
        players = data.standings[["section", "player"]].astype(str)
        self.player_page = {
            (s, p): f"players/{i + 1}.html"
            for i, (s, p) in enumerate(players.itertuples(index=False))
        }
        # The standings' own columns, in their order; rank points only where they count.
        self.standings_fields = [c for c in self.standings.columns if c != "section"]
        by_percentage = "percentage" in data.standings.columns
        self.named = "name" in data.scores.columns
        named = ["player", "name"] if self.named else ["player"]
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
        # A deal's page holds every result of its cards: in a bridge session both
        # directions of a board (and every round it was played in, in a movement).
        scope = deal_scope(data.rules.deal_scope)
        self.deal_keys = list(scope.deal_keys)
        keys = self._deal_key_frame(data.scores)
        deals = keys.drop_duplicates()
        self.deal_page: dict[tuple[str, ...], str] = {
            tuple(key): f"deals/{i + 1}.html"
            for i, key in enumerate(deals.itertuples(index=False, name=None))
        }
        # Each deal's rows of the scores, found once.
        self.deal_rows = {
            tuple(key) if isinstance(key, tuple) else (key,): rows
            for key, rows in keys.groupby(list(keys.columns), sort=False).indices.items()
        }
        self.rounds = sorted(data.after_round)
        self.by_round = round_results(data)
        self.swiss = has_tables(data.scores) and len(self.rounds) > 1

    def _deal_key_frame(self, scores: pd.DataFrame) -> pd.DataFrame:
        """Each result's deal page key: (field section, [round,] deal) as text."""
        frame = pd.DataFrame({"section": field_section(scores["section"], self.bridge)})
        for key in self.deal_keys[1:]:
            frame[key] = scores[key].astype(str)
        return frame

    def deal_of(self, record: dict[str, Any]) -> tuple[str, ...]:
        section = field_section_of(str(record["section"]), self.bridge)
        return (section, *(str(record[k]) for k in self.deal_keys[1:]))

    def nav(self) -> list[tuple[str, str]]:
        links = [
            ("index.html", self.t["standings"]),
            ("deals/index.html", self.t["deals"]),
        ]
        if self.swiss:
            links.append(("crosstable.html", self.t["crosstable"]))
        return [*links, ("rules.html", self.t["rules"])]

    def pages(self) -> dict[str, str]:
        out = {
            "index.html": self.index(),
            "rules.html": self.rules(),
            "deals/index.html": self.deal_list(),
        }
        if len(self.rounds) > 1:
            for rnd in self.rounds:
                out[f"rounds/{rnd}.html"] = self.after_round(rnd)
        if self.swiss:
            out["crosstable.html"] = self.crosstable()
        for deal_key, path in self.deal_page.items():
            out[path] = self.deal(deal_key)
        for player_key, path in self.player_page.items():
            out[path] = self.player(player_key)
        return out

    # -- pages --------------------------------------------------------------------------

    def round_picker(self, shown: int | None, depth: int) -> str:
        """Links to the standings after each round (`shown`: the one on this page)."""
        if len(self.rounds) <= 1:
            return ""
        up = "../" * depth
        items = []
        for rnd in self.rounds:
            label = self.t["round_n"].format(n=rnd)
            if rnd == shown:
                items.append(f'<strong aria-current="page">{label}</strong>')
            else:
                items.append(f'<a href="{up}rounds/{rnd}.html">{label}</a>')
        return (
            f'<nav class="pick" aria-label="{self.t["after_round"]}">'
            f"<span>{self.t['after_round']}:</span>{''.join(items)}</nav>"
        )

    def standings_tables(self, table: pd.DataFrame, depth: int) -> str:
        parts = []
        # Sections in the standings' order (甲组 before 乙组).
        for section, group in table.groupby("section", sort=False):
            heading = f"<h2>{self.t['section']} {text(section)}</h2>" if section else ""
            link = {
                "player": lambda r: self.player_link(str(r["section"]), str(r["player"]), depth)
            }
            fields = [c for c in self.standings_fields if c in table.columns]
            parts.append(heading + self.table(group, fields, "standings", link, LOW_PRIORITY))
        if LOW_PRIORITY & set(table.columns):
            parts.append(f'<p class="phone">{self.t["narrow_note"]}</p>')
        return "".join(parts)

    def index(self) -> str:
        body = self.round_picker(None, 0) + self.standings_tables(self.standings, 0)
        return self.page(self.t["standings"], body, 0)

    def after_round(self, rnd: int) -> str:
        table = _with_people(self.data.after_round[rnd], self.people)
        body = self.round_picker(rnd, 1) + self.standings_tables(table, 1)
        return self.page(self.t["standings_after"].format(n=rnd), body, 1)

    def deal_title(self, key: tuple[str, ...]) -> str:
        section, *rest = key
        where = f"{self.t['section']} {section} · " if section else ""
        parts = [f"{self.t[k]} {v}" for k, v in zip(self.deal_keys[1:], rest, strict=True)]
        return where + " · ".join(parts)

    def deal_list(self) -> str:
        items = [
            f'<li><a href="../{path}">{escape(self.deal_title(key))}</a></li>'
            for key, path in self.deal_page.items()
        ]
        return self.page(self.t["deals"], f'<ul class="deals">{"".join(items)}</ul>', 1)

    def results_of(self, key: tuple[str, ...]) -> pd.DataFrame:
        return self.data.scores.iloc[self.deal_rows[key]]

    def player_link(self, section: str, player: str, depth: int = 1) -> str | None:
        """The href of a player's page from a page `depth` folders down; None when the
        player has none."""
        path = self.player_page.get((section, player))
        return "../" * depth + path if path else None

    def deal(self, key: tuple[str, ...]) -> str:
        rows = self.results_of(key)
        if self.bridge:
            body = f"<p>{self.t['traveller_tables']}</p>" + self.datum(rows) + self.traveller(rows)
            return self.page(self.deal_title(key), body, 1)
        link = {"player": lambda r: self.player_link(str(r["section"]), str(r["player"]))}
        parts = [f"<p>{self.t['traveller']}</p>"]
        for seat, group in rows.groupby("seat", sort=True):
            best = "imps" if "imps" in group.columns else "mp"
            group = group.sort_values(
                [best, "player"], ascending=[False, True], na_position="last", key=_orderable
            )
            parts.append(f"<h2>{self.t['seat']} {self.cell('seat', seat)}</h2>")
            parts.append(self.table(group, self.traveller_fields, "traveller", link))
        return self.page(self.deal_title(key), "".join(parts), 1)

    def datum(self, rows: pd.DataFrame) -> str:
        """A Butler board's datum for each direction; nothing for another method."""
        if "datum" not in rows.columns or not rows["datum"].notna().any():
            return ""
        data = rows.dropna(subset=["datum"]).drop_duplicates("seat")
        data = data.sort_values("seat", ascending=False)  # NS, then EW
        body = [
            [(self.t[str(seat).lower()], ""), (text(value), "num")]
            for seat, value in zip(data["seat"], data["datum"], strict=True)
        ]
        return self.grid([self.t["seat"], self.t["datum"]], body, "datum")

    def traveller(self, rows: pd.DataFrame) -> str:
        """A bridge board: one line per table, North-South beside East-West."""
        lines = traveller_lines(rows, self.deal_keys)
        extra = [c for c in PLAY_FIELDS if c in rows.columns and rows[c].notna().any()]
        marks = [c for c in ("mp", "mp_pct", "imps") if c in rows.columns]
        spans = "round" not in self.deal_keys and rows["round"].nunique() > 1
        table = table_column(rows)
        head: list[str] = []
        if spans:
            head.append(self.t["round"])
        if table:
            head.append(self.t["table"])
        pair_head = [self.t["ns_pair"], *([self.t["name"]] if self.named else [])]
        pair_head += [self.t["ew_pair"], *([self.t["name"]] if self.named else [])]
        head += pair_head + [self.t[c] for c in extra]
        head += [self.t["score_ns"], self.t["score_ew"]]
        head += [f"{self.t[m]} {self.t[side]}" for side in ("ns", "ew") for m in marks]
        adjusted = "adjustment" in rows.columns and rows["adjustment"].notna().any()
        if adjusted:
            head.append(self.t["adjustment"])
        out = []
        for ns, ew in lines:
            row: list[Cell] = []
            either = ns if ns is not None else ew
            assert either is not None
            if spans:
                row.append((text(either["round"]), "num"))
            if table:
                row.append((text(either.get(table)), "num"))
            for side in (ns, ew):
                row.append(self._pair_cell(side))
                if self.named:
                    row.append((text(side["name"]) if side is not None else "", ""))
            for c in extra:
                row.append((text(either.get(c)), ""))
            row += [(text(v), "num") for v in bridge_scores(ns, ew)]
            for side in (ns, ew):
                row += [(text(side[m]) if side is not None else "", "num") for m in marks]
            if adjusted:
                said = [
                    f"{self.t[name]}: {text(side['adjustment'])}"
                    for name, side in (("ns", ns), ("ew", ew))
                    if side is not None and text(side["adjustment"])
                ]
                row.append(("; ".join(said), "wrap"))
            out.append(row)
        return self.grid(head, out, "traveller")

    def _pair_cell(self, side: dict[str, Any] | None) -> Cell:
        if side is None:
            return ("", "")
        shown = text(side["player"])
        href = self.player_link(str(side["section"]), str(side["player"]))
        return (f'<a href="{escape(href)}">{shown}</a>' if href else shown, "")

    def crosstable(self) -> str:
        """Who met whom in each round (at which table), with the result of the round."""
        parts = [f"<p>{self.t['crosstable_note']}</p>"]
        by = self.by_round
        for section, group in self.standings.groupby("section", sort=False):
            heading = f"<h2>{self.t['section']} {text(section)}</h2>" if section else ""
            head = [self.t["place"], self.t["player"]]
            head += [f"{self.t['round']} {r}" for r in self.rounds]
            ranked_on = headline(group.columns)
            head.append(self.t["result_total" if ranked_on == "total" else ranked_on])
            rows = []
            mine = by[by["section"] == str(section)]
            cells = {(p, r): g for (p, r), g in mine.groupby(["player", "round"], sort=False)}
            for record in group.to_dict("records"):
                player = str(record["player"])
                href = self.player_page[(str(section), player)]
                row: list[Cell] = [
                    (text(record["place"]), "num"),
                    (f'<a href="{escape(href)}">{text(player)}</a>', ""),
                ]
                for rnd in self.rounds:
                    row.append((self.meeting_cell(cells.get((player, rnd))), ""))
                row.append((text(record[ranked_on]), "num"))
                rows.append(row)
            parts.append(heading + self.grid(head, rows, "crosstable"))
        return self.page(self.t["crosstable"], "".join(parts), 0)

    def meeting_cell(self, group: pd.DataFrame | None) -> str:
        """The table, the opponents and the result of one player's round."""
        if group is None or group.empty:
            return ""
        first = group.iloc[0]
        tables = " ".join(f"{self.t['table_short']}{text(t)}" for t in group["table"])
        opponents = ", ".join(
            self.opponent(o) for ops in group["opponents"] if isinstance(ops, list) for o in ops
        )
        return (
            f'<span class="at">{tables}</span> {opponents} '
            f'<strong class="result">{text(first["result"])}</strong>'
        )

    def opponent(self, who: tuple[str, str], depth: int = 0) -> str:
        """An opponent's id, linked to their page."""
        href = self.player_link(*who, depth)
        shown = text(who[1])
        return f'<a href="{escape(href)}">{shown}</a>' if href else shown

    def player(self, key: tuple[str, str]) -> str:
        section, player = key
        st = self.standings
        me = st[(st["section"].astype(str) == section) & (st["player"].astype(str) == player)]
        summary = self.table(me, self.standings_fields, "summary")
        scores = self.data.scores
        mine = scores[
            (scores["section"].astype(str) == section) & (scores["player"].astype(str) == player)
        ]
        link = {"deal": lambda r: "../" + self.deal_page[self.deal_of(r)]}
        deals = self.table(mine, self.player_deal_fields, "player-deals", link)
        by = self.by_round
        rounds = by[(by["section"] == section) & (by["player"] == player)]
        chart = place_chart(
            [int(r) for r in rounds["round"]],
            [place_number(p) for p in rounds["place"]],
            len(st[st["section"].astype(str) == section]),
            self.t["round"],
            self.t["place"],
        )
        body = (
            f"{summary}<h2>{self.t['place_by_round']}</h2>{chart}"
            f"{self.round_table(rounds)}<h2>{self.t['deals']}</h2>{deals}"
        )
        name = me["name"].iloc[0] if "name" in me.columns and len(me) else ""
        shown = f"{player} {name}" if name and name != player else player
        return self.page(f"{self.t['player']} {shown}", body, 1)

    def round_table(self, rounds: pd.DataFrame) -> str:
        """The player's rounds: table, opponents, the round's result, total and place."""
        fields = ["round", "table", "opponents", "result", "total", "place"]
        if rounds["table"].isna().all():
            fields = ["round", "result", "total", "place"]
        head_of = {"result": "round_result"}
        head = [self.t[head_of.get(f, f)] for f in fields]
        rows = [
            [
                (
                    ", ".join(self.opponent(o, 1) for o in record[f])
                    if f == "opponents" and isinstance(record[f], list)
                    else self.cell(f, record[f]),
                    _class_of(f),
                )
                for f in fields
            ]
            for record in rounds.to_dict("records")
        ]
        return self.grid(head, rows, "rounds")

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
        # A setting the method does not read is left out here (the file below has all).
        reads = method_of(rules).reads
        summary = {
            k: v for k, v in summary.items() if k not in _RULE_SETTING or _RULE_SETTING[k] in reads
        }
        rows = "".join(
            f'<tr><th scope="row">{self.t[key]}</th><td class="wrap">{escape(str(value))}</td></tr>'
            for key, value in summary.items()
        )
        body = (
            f"<h2>{self.t['rules_used']}</h2>"
            f'<div class="scroll"><table class="rules">{rows}</table></div>'
        )
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


# The setting behind each line of the rules page that belongs to some methods only.
_RULE_SETTING = {
    "rule_tie_ranking": "tie_ranking",
    "rule_factoring": "factoring",
    "rule_rank_points": "rank_base",
    "rule_tie_breaks": "tie_breaks",
}


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
    bottom (both marked on the left); each point labelled with its value, each x below.
    Its title says every point in words, for a reader that does not see it."""
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
    # The scale: a faint line at the top and the bottom values, each marked on the left.
    scale = "".join(
        f'<line x1="{pad - 6}" x2="{width - pad + 6}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
        f'stroke="#d9dde5"/>'
        f'<text class="scale" x="{pad - 10}" y="{y(v) + 4:.1f}" text-anchor="end">{v}</text>'
        for v in sorted({top, bottom})
    )
    # The axes' names: below, and up the left side.
    axes = (
        f'<text class="axis" x="{width / 2:.0f}" y="{height - 6}" '
        f'text-anchor="middle">{escape(x_label)}</text>'
        f'<text class="axis" x="{-height / 2:.0f}" y="14" transform="rotate(-90)" '
        f'text-anchor="middle">{escape(y_label)}</text>'
    )
    said = "; ".join(f"{x_label} {label}: {y_label} {v}" for label, v in zip(xs, ys, strict=True))
    return (
        f'<svg class="{cls}" role="img" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}"><title>{escape(said)}</title>'
        f'<g fill="#6b7280" font-size="12">{scale}</g>'
        f'<polyline fill="none" stroke="#2f5db3" stroke-width="2" points="{points}"/>'
        f'<g fill="#2f5db3" font-size="13">{dots}</g>'
        f'<g fill="#333" font-size="13">{axes}</g></svg>'
    )


def build_site(
    data: ReportData, lang: str = "en", heading: str = "", people: pd.DataFrame | None = None
) -> dict[str, str]:
    """Every page of the report, by relative path (`heading`: the event's title, date
    and venue, shown on every page; `people`: player, name, club from a players file)."""
    return Site(data, lang, heading, people).pages()
