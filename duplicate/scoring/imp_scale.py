"""The WBF IMP scale: a difference in points to International Match Points (0 to 24),
held in one place (docs/bridge.md, "IMPs").

    difference  IMPs      difference  IMPs      difference  IMPs
       0 -   10    0        370 -  420    9       1500 - 1740   17
      20 -   40    1        430 -  490   10       1750 - 1990   18
      50 -   80    2        500 -  590   11       2000 - 2240   19
      90 -  120    3        600 -  740   12       2250 - 2490   20
     130 -  160    4        750 -  890   13       2500 - 2990   21
     170 -  210    5        900 - 1090   14       3000 - 3490   22
     220 -  260    6       1100 - 1290   15       3500 - 3990   23
     270 -  310    7       1300 - 1490   16       4000 and up   24
     320 -  360    8

A difference earns the IMPs of the last band whose lowest value it reaches: a
difference between two bands (15, from an unrounded Butler datum) earns the lower
band's. The sign is kept: -450 is -10 IMPs.
"""

from __future__ import annotations

import numpy as np

from duplicate.model.exact import IntArray

# The lowest difference of each band from 1 IMP up: band k + 1 starts at BAND_STARTS[k].
# fmt: off
BAND_STARTS = np.array(
    [20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600,
     750, 900, 1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000],
    dtype=np.int64,
)
# fmt: on
MAX_IMPS = len(BAND_STARTS)


def imps(num: IntArray, den: IntArray | int = 1) -> IntArray:
    """The IMPs of differences num / den points (den > 0), exactly, sign kept.

    A difference reaches a band's whole-number start exactly when its whole part does.
    """
    num = np.asarray(num, dtype=np.int64)
    whole = np.abs(num) // np.asarray(den, dtype=np.int64)
    count = np.searchsorted(BAND_STARTS, whole, side="right")
    return np.asarray(np.sign(num) * count, dtype=np.int64)
