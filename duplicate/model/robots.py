"""Robot players: reserved ids that fill a table's empty seats.

A robot held the same cards as the humans in its seat, so its results are matchpointed
like any other; but it takes no deal rank, no rank points and no place.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

# Reserved player ids: robot-1, robot-2, ...
ROBOT_PREFIX = "robot-"


def is_robot(players: pd.Series) -> np.ndarray:
    """True for the reserved robot ids (text; a column of integer ids holds no robot)."""
    if pd.api.types.is_integer_dtype(players.dtype):
        return np.zeros(len(players), dtype=bool)
    return np.asarray(players.astype("str").str.startswith(ROBOT_PREFIX), dtype=bool)
