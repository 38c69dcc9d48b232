"""What a command gives: a table of a kind (scores, standings, a seating ...), the rules
its numbers were computed with, and the notes that travel with it (a draw's seed).

A Table is held as Arrow where the computation gives Arrow (a big `score` table even as
batches, written as they come), and as pandas where it gives pandas; `.frame` is the
pandas view a library caller asks for, `.arrow()` the Arrow table a writer takes. The
publisher (duplicate.io.publish) writes a Table with its rules beside it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from duplicate.rules import Rules

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

    from duplicate.event import Event, Players
    from duplicate.scoring.score_table import ScoreBatches


# Compared by identity (eq=False): its data has no single truth value to compare by.
@dataclass(eq=False)
class Table:
    """A command's table, and the rules and notes it is published with."""

    # What the rows are: "scores", "standings", "seating", "results", ... (a JSON
    # output's list key, a manifest's command).
    kind: str
    rules: Rules
    data: pa.Table | pd.DataFrame | ScoreBatches
    notes: Mapping[str, str] = field(default_factory=dict)
    event: Event | None = None
    # How the Arrow table is shown in pandas (default: Arrow-backed columns, missing
    # values as <NA>; the standings: the column types they have always had).
    viewed_as: Callable[[pa.Table], pd.DataFrame] | None = None
    # The pandas view, once made (the data stays as it is: what is written).
    _frame: pd.DataFrame | None = field(default=None, init=False, repr=False)

    @property
    def frame(self) -> pd.DataFrame:
        """The table in pandas."""
        import pandas as pd

        if isinstance(self.data, pd.DataFrame):
            return self.data
        if self._frame is None:
            from duplicate.scoring.score_table import frame_view

            self._frame = (self.viewed_as or frame_view)(self.arrow())
        return self._frame

    def arrow(self) -> pa.Table:
        """The whole table in Arrow (batches joined: a big table is held whole)."""
        import pandas as pd
        import pyarrow as pa

        data = self.data
        if isinstance(data, pa.Table):
            return data
        if isinstance(data, pd.DataFrame):
            from duplicate.io.write import to_arrow

            return to_arrow(data)
        table = data.to_table()
        self.data = table
        return table

    def streamed(self) -> ScoreBatches | None:
        """The table's batches, when it is still held as batches not yet read: a writer
        takes them one by one (once)."""
        from duplicate.scoring.score_table import ScoreBatches

        return self.data if isinstance(self.data, ScoreBatches) else None

    @property
    def rows(self) -> int | None:
        """Its rows, when known without reading the batches."""
        import pandas as pd
        import pyarrow as pa

        if isinstance(self.data, pa.Table | pd.DataFrame):
            return len(self.data)
        return self.data.rows

    def __len__(self) -> int:
        return len(self.frame) if self.rows is None else self.rows


def with_names(data: Any, players: Players | None) -> Any:
    """`data` (Arrow, pandas or batches) with each player's `name` after `player`, when
    the players file gives names; as it is otherwise."""
    if players is None or not players.has_names:
        return data
    import pandas as pd

    from duplicate.scoring.score_table import ScoreBatches

    if isinstance(data, pd.DataFrame):
        if "player" not in data.columns or "name" in data.columns:
            return data
        names = [players.name_of(p) for p in data["player"].astype("str")]
        out = data.copy()
        out.insert(list(out.columns).index("player") + 1, "name", pd.Series(names, dtype="str"))
        return out
    if isinstance(data, ScoreBatches):
        batches = data.tables()

        def named() -> Iterator[pa.Table]:
            for batch in batches:
                yield _named_arrow(batch, players)

        return ScoreBatches(named(), data.nullable, data.rows)
    return _named_arrow(data, players)


def _named_arrow(table: pa.Table, players: Players) -> pa.Table:
    """An Arrow table with `name` after `player`: looked up for the whole column at once."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if "player" not in table.column_names or "name" in table.column_names:
        return table
    ids = pa.array([p.id for p in players], pa.string())
    names = pa.array([p.name for p in players], pa.string())
    player = pc.cast(table.column("player"), pa.string())
    found = pc.index_in(player, value_set=ids)
    taken: Any = names.take(found)
    name: Any = pc.fill_null(taken, "")
    at = table.column_names.index("player") + 1
    return table.add_column(at, "name", name.cast(pa.large_string()))
