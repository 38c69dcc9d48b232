"""What `explain` gives: every number behind one player's place, as typed values.

scoring/explain.py derives the numbers again, plainly and exactly (Fractions); this
module holds them, and writes them as JSON (`to_json`) and as text for a reader
(`text`). Numbers stay exact: Decimals as the standings show them, Fractions where a
value has no decimal end (1/3 is shown as "1/3 (= 0.33)").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from duplicate.text import place_number

if TYPE_CHECKING:
    from duplicate.event import Event
    from duplicate.rules import Rules

Number = int | Decimal | Fraction


@dataclass(frozen=True)
class WeightedPart:
    """One part of a weighted assigned score, with its matchpoints against the results
    as played."""

    score: Fraction
    weight: int
    mp: int


@dataclass(frozen=True)
class DealLine:
    """One of the player's deals as an auditor reads it (None: not applicable)."""

    round: int
    deal: object
    table: object | None
    seat: object
    score: Fraction
    seconds: Fraction | None
    n: int | None
    mp: int | Decimal | None
    top: int | None
    mp_pct: Decimal | None
    # Not held by percentage standings (no deal ranks).
    deal_rank: int | None = None
    rank_points: Decimal | None = None
    adjustment: str | None = None
    parts: tuple[WeightedPart, ...] = ()
    ranked: bool = True


@dataclass(frozen=True)
class Beaten:
    """An opponent the player beat at their table in a round (tie-break 1)."""

    round: int
    table: object
    player: str
    round_score: Fraction
    opponent_round_score: Fraction
    opponent_total: Decimal


@dataclass(frozen=True)
class Exact:
    """A value as shown (2 decimals) and exactly (a fraction as text)."""

    value: Decimal
    exact: str


@dataclass(frozen=True)
class Trimmed:
    """The trimmed play time, and the longest and shortest times dropped."""

    value: Decimal
    exact: str
    dropped: tuple[Fraction, ...]


@dataclass(frozen=True)
class ImpComparison:
    """Cross-IMPs: one comparison, with another result of the deal's group."""

    player: str
    score: Fraction
    difference: Fraction
    imps: int


@dataclass(frozen=True)
class ImpDeal:
    """One of the player's deals scored in IMPs: Butler's datum and difference, or the
    cross-IMP comparisons; the IMPs exactly."""

    round: int
    deal: object
    table: object | None
    seat: object
    score: Fraction
    # The results compared (None: an assigned result, compared with nothing).
    n: int | None
    imps: Fraction
    datum: Fraction | None = None
    difference: Fraction | None = None
    comparisons: tuple[ImpComparison, ...] = ()
    adjustment: str | None = None


@dataclass(frozen=True)
class ImpDetail:
    """A player's IMPs: each deal's, their sum, the average per deal, and the total
    ranked (the sum, or scaled to `scaled_to` deals)."""

    deals: tuple[ImpDeal, ...]
    total: Fraction
    summed: Fraction
    average: Fraction
    scaled_to: int | None = None

    def to_json(self) -> dict[str, Any]:
        deals = []
        for d in self.deals:
            deal: dict[str, Any] = {
                "round": d.round,
                "deal": json_number(d.deal),
                "table": json_number(d.table),
                "seat": json_number(d.seat),
                "score": json_number(d.score),
                "n": d.n,
            }
            if d.datum is not None:
                deal["datum"] = json_number(d.datum)
                deal["difference"] = json_number(d.difference)
            elif d.n is not None:
                deal["comparisons"] = [
                    {
                        "player": c.player,
                        "score": json_number(c.score),
                        "difference": json_number(c.difference),
                        "imps": c.imps,
                    }
                    for c in d.comparisons
                ]
            deal["imps"] = json_number(d.imps)
            deal["adjustment"] = d.adjustment
            deals.append(deal)
        out: dict[str, Any] = {
            "deals": deals,
            "imps": json_number(self.summed),
            "average_imps": json_number(self.average),
        }
        if self.scaled_to is not None:
            out["scaled_to_deals"] = self.scaled_to
            out["total"] = json_number(self.total)
        return out


@dataclass(frozen=True)
class Neighbour:
    """How the player compares with the one just above or below: who is ahead, on which
    criterion, and by how much (the fields the criterion has; the others None)."""

    player: str
    place: int
    # Their total (matchpoints) or percentage (percentage standings), as shown.
    shown: Decimal | str
    ahead: str
    criterion: str
    ahead_value: Any = None
    behind_value: Any = None
    by: Any = None
    by_exact: str | None = None
    # rank_counts: the first rank whose counts differ, and each side's count of it.
    rank: int | None = None
    ahead_count: int | None = None
    behind_count: int | None = None
    name: str = ""
    # The place as the standings write it (7, or 7= with shared places written so).
    place_written: int | str = 0

    @property
    def place_shown(self) -> str:
        return str(self.place_written or self.place)


@dataclass(frozen=True)
class Explanation:
    """Everything behind one player's place (duplicate.explain)."""

    player: str
    method: str
    section: str
    place: int
    players: int
    playoff: bool
    deals: tuple[DealLine, ...]
    rules: Rules
    name: str = ""
    # Matchpoints: the rank points summed, the penalty, the total, and each tie-break.
    rank_points: tuple[Decimal, ...] = ()
    penalty: Decimal | None = None
    total: Decimal | None = None
    rank_counts: dict[int, int] = field(default_factory=dict)
    beaten: tuple[Beaten, ...] | None = None
    beaten_avg: Exact | None = None
    total_seconds: Fraction | None = None
    trimmed_seconds: Trimmed | None = None
    # Percentage standings: the session percentage, its matchpoints and deals counted.
    percentage: Exact | None = None
    mp: int | Decimal | None = None
    top: int | None = None
    deals_counted: int | None = None
    above: Neighbour | None = None
    below: Neighbour | None = None
    # IMP scoring (cross-IMPs, Butler): how each deal's IMPs were found.
    imps: ImpDetail | None = None
    # The place as the standings write it (7, or 7= with shared places written so).
    place_written: int | str = 0

    @property
    def by_percentage(self) -> bool:
        return self.percentage is not None

    @property
    def place_shown(self) -> str:
        return str(self.place_written or self.place)

    @classmethod
    def of(cls, found: dict[str, Any], event: Event) -> Explanation:
        """The explanation scoring/explain.py derived (plain data), typed."""
        names = event.players

        def name(player: object) -> str:
            return names.name_of(player) if names is not None else ""

        return cls(
            player=str(found["player"]),
            name=name(found["player"]),
            method=found["method"],
            section=str(found["section"]),
            place=int(found["place"]),
            players=int(found["players"]),
            playoff=bool(found["playoff"]),
            deals=tuple(_deal(d, "percentage" not in found) for d in found["deals"]),
            rules=event.rules,
            rank_points=tuple(found.get("rank_points", ())),
            penalty=found.get("penalty"),
            total=found.get("total"),
            rank_counts=dict(found.get("rank_counts", {})),
            beaten=tuple(Beaten(**b) for b in found["beaten"]) if "beaten" in found else None,
            beaten_avg=Exact(found["beaten_avg"]["value"], found["beaten_avg"]["exact_cents"])
            if "beaten_avg" in found
            else None,
            total_seconds=found.get("total_seconds"),
            trimmed_seconds=Trimmed(
                found["trimmed_seconds"]["value"],
                found["trimmed_seconds"]["exact"],
                tuple(found["trimmed_seconds"]["dropped"]),
            )
            if "trimmed_seconds" in found
            else None,
            percentage=Exact(found["percentage"]["value"], found["percentage"]["exact"])
            if "percentage" in found
            else None,
            mp=found.get("mp"),
            top=found.get("top"),
            deals_counted=found.get("deals_counted"),
            above=_neighbour(found["above"], name) if "above" in found else None,
            below=_neighbour(found["below"], name) if "below" in found else None,
            imps=found.get("imps"),
            place_written=found.get("place_written", int(found["place"])),
        )

    def to_json(self) -> dict[str, Any]:
        """The explanation as JSON data: every number as written (a score 120, an MP%
        72.73: exact, as a Decimal, which duplicate.io.json_text.dumps writes as the
        number), a fraction with no decimal end as text ("1/3 (= 0.33)")."""
        head: dict[str, Any] = {"player": self.player}
        if self.name:
            head["name"] = self.name
        head["deals"] = [_deal_json(d) for d in self.deals]
        if self.imps is not None:
            body: dict[str, Any] = self.imps.to_json()
            head.pop("deals")
        elif self.percentage is not None:
            body = {
                "percentage": {"value": self.percentage.value, "exact": self.percentage.exact},
                "mp": self.mp,
                "top": self.top,
                "deals_counted": self.deals_counted,
            }
            convention = self.rules.percentage_convention(changed_only=True)
            if convention:
                body["percentage_convention"] = convention
        else:
            body = {
                "rank_points": list(self.rank_points),
                "penalty": self.penalty,
                "total": self.total,
                "rank_counts": {str(k): v for k, v in self.rank_counts.items()},
            }
            if self.beaten is not None and self.beaten_avg is not None:
                body["beaten"] = [_beaten_json(b) for b in self.beaten]
                body["beaten_avg"] = {
                    "value": self.beaten_avg.value,
                    "exact_cents": self.beaten_avg.exact,
                }
            if self.total_seconds is not None and self.trimmed_seconds is not None:
                body["total_seconds"] = json_number(self.total_seconds)
                body["trimmed_seconds"] = {
                    "value": self.trimmed_seconds.value,
                    "exact": self.trimmed_seconds.exact,
                    "dropped": [json_number(t) for t in self.trimmed_seconds.dropped],
                }
        tail: dict[str, Any] = {
            "method": self.method,
            "section": self.section,
            "place": self.place_written or self.place,
            "players": self.players,
            "playoff": self.playoff,
        }
        for side in ("above", "below"):
            neighbour = getattr(self, side)
            if neighbour is not None:
                tail[side] = _neighbour_json(neighbour, self.by_percentage)
        return {**head, **body, **tail}


def _deal(found: dict[str, Any], ranked: bool) -> DealLine:
    parts = tuple(WeightedPart(**p) for p in found.get("parts", ()))
    fields = {k: v for k, v in found.items() if k != "parts"}
    return DealLine(**fields, parts=parts, ranked=ranked)


def _neighbour(found: dict[str, Any], name: Any) -> Neighbour:
    by_exact = found.get("by_exact", found.get("by_exact_cents"))
    return Neighbour(
        player=str(found["player"]),
        place=place_number(found["place"]),
        shown=found["percentage"] if "percentage" in found else found["total"],
        ahead=str(found["ahead"]),
        criterion=found["criterion"],
        ahead_value=found.get("ahead_value"),
        behind_value=found.get("behind_value"),
        by=found.get("by"),
        by_exact=None if by_exact is None else str(by_exact),
        rank=found.get("rank"),
        ahead_count=found.get("ahead_count"),
        behind_count=found.get("behind_count"),
        name=name(found["player"]),
        place_written=found.get("place_written", place_number(found["place"])),
    )


def _deal_json(deal: DealLine) -> dict[str, Any]:
    out: dict[str, Any] = {
        "round": deal.round,
        "deal": json_number(deal.deal),
        "table": json_number(deal.table),
        "seat": json_number(deal.seat),
        "score": json_number(deal.score),
        "seconds": json_number(deal.seconds),
        "n": deal.n,
        "mp": deal.mp,
        "top": deal.top,
        "mp_pct": deal.mp_pct,
    }
    if deal.ranked:
        out["deal_rank"] = deal.deal_rank
        out["rank_points"] = deal.rank_points
    out["adjustment"] = deal.adjustment
    if deal.parts:
        out["parts"] = [
            {"score": json_number(p.score), "weight": p.weight, "mp": p.mp} for p in deal.parts
        ]
    return out


def _beaten_json(b: Beaten) -> dict[str, Any]:
    return {
        "round": b.round,
        "table": json_number(b.table),
        "player": b.player,
        "round_score": json_number(b.round_score),
        "opponent_round_score": json_number(b.opponent_round_score),
        "opponent_total": b.opponent_total,
    }


def _neighbour_json(n: Neighbour, by_percentage: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"player": n.player}
    if n.name:
        out["name"] = n.name
    out["place"] = n.place_written or n.place
    out["percentage" if by_percentage else "total"] = n.shown
    out["ahead"] = n.ahead
    if by_percentage:
        out["criterion"] = n.criterion
        out.update(
            ahead_value=n.ahead_value, behind_value=n.behind_value, by=n.by, by_exact=n.by_exact
        )
        return out
    out["criterion"] = n.criterion
    if n.criterion == "rank_counts":
        out.update(rank=n.rank, ahead_count=n.ahead_count, behind_count=n.behind_count)
    elif n.criterion != "tied":
        out.update(
            ahead_value=json_number(n.ahead_value),
            behind_value=json_number(n.behind_value),
            by=json_number(n.by),
        )
        if n.criterion == "beaten_avg":
            out["by_exact_cents"] = n.by_exact
    return out


def number_text(value: object) -> str:
    """A number as an auditor reads it: exact decimals, or a fraction with its rounding."""
    if isinstance(value, Fraction):
        denominator = value.denominator
        for two_or_five in (2, 5):
            while denominator % two_or_five == 0:
                denominator //= two_or_five
        if denominator == 1:
            return str(Decimal(value.numerator) / Decimal(value.denominator))
        rounded = cents(value * 100)
        return f"{value.numerator}/{value.denominator} (= {rounded})"
    return "" if value is None else str(value)


def json_number(value: Any) -> Any:
    """A value for JSON: a fraction with a decimal end as that Decimal, one without as
    its text ("1/3 (= 0.33)"); numpy scalars as Python's."""
    if isinstance(value, Fraction):
        text = number_text(value)
        return text if "/" in text else Decimal(text)
    if hasattr(value, "item") and not isinstance(value, Decimal):
        return value.item()
    return value


def cents(value: int | Fraction) -> Decimal:
    """Cents (an integer, or an exact fraction of cents) as points with 2 decimals,
    rounded half up (the spec's rounding for display)."""
    fraction = abs(Fraction(value))
    whole = (2 * fraction.numerator + fraction.denominator) // (2 * fraction.denominator)
    sign = -1 if value < 0 else 1
    return (Decimal(sign * whole) / 100).quantize(Decimal("0.01"))


Side = Literal["above", "below"]
