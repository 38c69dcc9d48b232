"""Read the raw outcome columns of a game (cards left, bids, huxi, ...) with row errors."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import pandas as pd

from duplicate.errors import InvalidData, Problem
from duplicate.model.columns import header_map
from duplicate.model.exact import IntArray
from duplicate.model.results import Results

TRUE = {"true", "1", "1.0", "yes", "y", "t", "是", "有"}
FALSE = {"false", "0", "0.0", "no", "n", "f", "否", "无", ""}


def _show(value: object) -> str:
    return repr(value) if isinstance(value, str) else str(value)


@dataclass
class RawColumns:
    """The raw table of a game, its results (identities, rows), and problems so far."""

    raw: pd.DataFrame
    results: Results
    problems: list[Problem] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.raw = self.raw.reset_index(drop=True)
        # Rows with a bad cell, and whether a needed column is missing: a table's checks
        # leave out what cannot be judged, so that every problem is listed at once.
        self._bad_rows = np.zeros(len(self.raw), dtype=bool)
        self._incomplete = False
        self._names = header_map(self.raw)
        # The header each column was found under (say 剩余牌数 for cards_left).
        self._found: dict[str, object] = {}

    def _find(self, names: tuple[str, ...]) -> object | None:
        for name in names:
            if name.casefold() in self._names:
                return self._names[name.casefold()]
        return None

    def _text(self, names: tuple[str, ...], required: bool) -> pd.Series | None:
        column = self._find(names)
        if column is not None:
            self._found[names[0]] = column
        if column is None:
            self._incomplete |= required
            if required:
                self.problems.append(
                    Problem(
                        self.results.source,
                        f"missing column {names[0]}",
                        hint=f"{names[0]} is needed to compute this game's scores",
                        code="column.missing",
                    )
                )
            return None
        return (
            self.raw[column]
            .astype("str")
            .str.strip()
            .str.casefold()
            .fillna("")
            .replace({"nan": "", "none": "", "<na>": ""})
        )

    def flag(self, bad: np.ndarray, name: str, message: str, hint: str) -> None:
        self._bad_rows |= bad
        rows = self.results.frame["row"].to_numpy()
        column = self._found.get(name)
        values = self.raw[column].astype("str").to_numpy() if column is not None else None
        for i in np.flatnonzero(bad):
            shown = repr(values[i]) if values is not None else ""
            self.problems.append(
                Problem(
                    self.results.source,
                    f"{shown} {message}".strip(),
                    (int(rows[i]),),
                    name,
                    hint,
                    code="raw.bad-cell",
                )
            )

    def integers(
        self,
        names: tuple[str, ...],
        low: int,
        high: int | None,
        *,
        required: bool = True,
        where: np.ndarray | None = None,
    ) -> IntArray:
        """Whole numbers from low to high (rows outside `where` may be blank)."""
        text = self._text(names, required)
        n = len(self.raw)
        if text is None:
            return np.zeros(n, dtype=np.int64)
        where = np.ones(n, dtype=bool) if where is None else where
        number = pd.to_numeric(text.where(text.str.fullmatch(r"-?[0-9]+")), errors="coerce")
        bad = number.isna().to_numpy() | (number < low).fillna(False).to_numpy()
        if high is not None:
            bad |= (number > high).fillna(False).to_numpy()
        bad &= where
        span = f"{low} to {high}" if high is not None else f"at least {low}"
        self.flag(
            bad, names[0], f"is not a whole number {span}", f"give {names[0]} on every such row"
        )
        return np.asarray(number.fillna(0).astype("int64").to_numpy(), dtype=np.int64)

    def flags(self, names: tuple[str, ...], *, required: bool = False) -> npt.NDArray[np.bool_]:
        """Yes/no columns (true/false, 1/0, yes/no, 是/否); blank is no."""
        text = self._text(names, required)
        n = len(self.raw)
        if text is None:
            return np.zeros(n, dtype=bool)
        bad = (~text.isin(TRUE | FALSE)).to_numpy()
        self.flag(bad, names[0], "is not yes or no", "write true or false (1 or 0)")
        return np.asarray(text.isin(TRUE).to_numpy(), dtype=bool)

    def choice(self, names: tuple[str, ...], values: dict[str, str]) -> npt.NDArray[np.object_]:
        """One of the given words (any spelling in `values`, mapped to its meaning)."""
        text = self._text(names, True)
        n = len(self.raw)
        if text is None:
            return np.full(n, "", dtype=object)
        meaning = text.map(lambda v: values.get(v, ""))
        bad = (meaning == "").to_numpy()
        allowed = ", ".join(sorted(set(values.values())))
        self.flag(bad, names[0], f"is not one of {allowed}", f"write {allowed}")
        return np.asarray(meaning.to_numpy(), dtype=object)

    def group_problem(
        self, bad_groups: np.ndarray, groups: IntArray, message: str, hint: str
    ) -> None:
        """One problem per table-deal in `bad_groups` (a mask over group codes), naming its
        rows; a table with a bad cell, or any table when a column is missing, is left to
        those problems."""
        if self._incomplete:
            return
        judged = np.bincount(groups[self._bad_rows], minlength=len(bad_groups)) == 0
        bad_groups = bad_groups & judged[: len(bad_groups)]
        frame = self.results.frame
        for g in np.flatnonzero(bad_groups):
            members = frame[groups == g]
            first = members.iloc[0]
            deal, table = _show(first["deal"]), _show(first["table"])
            where = f"round {first['round']}, deal {deal}, table {table}"
            self.problems.append(
                Problem(
                    self.results.source,
                    f"{where}: {message}",
                    tuple(int(r) for r in members["row"]),
                    None,
                    hint,
                    code="raw.table-inconsistent",
                )
            )

    def check(self) -> None:
        if self.problems:
            raise InvalidData(self.problems)
