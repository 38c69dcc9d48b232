"""Robot players: reserved ids that fill a table's empty seats.

A robot held the same cards as the humans in its seat, so its results are matchpointed
like any other; but it takes no deal rank, no rank points and no place.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from duplicate.model.codes import is_pandas

# Reserved player ids: robot-1, robot-2, ...
ROBOT_PREFIX = "robot-"


def is_robot(players: Any) -> np.ndarray:
    """True for the reserved robot ids (text; a column of integer ids holds no robot).

    `players`: a numpy array, Arrow text, or a pandas Series."""
    if is_pandas(players):
        import pandas as pd

        if pd.api.types.is_integer_dtype(players.dtype):
            return np.zeros(len(players), dtype=bool)
        return np.asarray(players.astype("str").str.startswith(ROBOT_PREFIX), dtype=bool)
    if isinstance(players, np.ndarray) and players.dtype.kind in "iu":
        return np.zeros(len(players), dtype=bool)
    text: Any = players if isinstance(players, pa.Array | pa.ChunkedArray) else pa.array(players)
    robots = pc.fill_null(pc.starts_with(text, ROBOT_PREFIX), False)
    return np.asarray(robots.to_numpy(zero_copy_only=False), dtype=bool)
