"""The input shapes `make bench` measures: the files users upload, not only the friendliest.

- file order: rows deal by deal, table by table; integer ids and play times (Parquet);
- random order: rows shuffled, text ids such as P0012345, play times with one decimal
  (Parquet);
- Chinese names: ids are Chinese names, rows sorted by player (Parquet);
- CSV: the random-order event as a CSV file.

Every shape is one round of DEALS deals in tables of TABLE_SIZE, scores from a small
range so that ties are everywhere.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

DEALS = 25
TABLE_SIZE = 4
# Common surnames and given-name characters: ids like 张伟01234.
SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗"
GIVEN = "伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超霞平刚桂"


def _event(rows: int, seed: int) -> pd.DataFrame:
    players = max(TABLE_SIZE, rows // DEALS // TABLE_SIZE * TABLE_SIZE)
    rng = np.random.default_rng(seed)
    player = np.tile(np.arange(players), DEALS)
    return pd.DataFrame(
        {
            "round": 1,
            "deal": np.repeat(np.arange(1, DEALS + 1), players),
            "table": player // TABLE_SIZE + 1,
            "seat": player % TABLE_SIZE,
            "player": player + 1,
            "score": rng.integers(-30, 31, len(player)),
            "seconds": rng.integers(20, 300, len(player)),
        }
    )


def file_order(rows: int) -> pd.DataFrame:
    return _event(rows, 1)


def random_order(rows: int) -> pd.DataFrame:
    frame = _event(rows, 1)
    rng = np.random.default_rng(3)
    frame = frame.iloc[rng.permutation(len(frame))].reset_index(drop=True)
    frame["player"] = "P" + frame["player"].astype("str").str.zfill(7)
    tenths = rng.integers(0, 10, len(frame))
    frame["seconds"] = frame["seconds"] + tenths / 10
    return frame


def chinese_names(rows: int) -> pd.DataFrame:
    frame = _event(rows, 1)
    number = frame["player"].to_numpy()
    surname = np.array(list(SURNAMES))[number % len(SURNAMES)]
    given = np.array(list(GIVEN))[(number // len(SURNAMES)) % len(GIVEN)]
    suffix = pd.Series(number // (len(SURNAMES) * len(GIVEN))).astype("str").str.zfill(5)
    frame["player"] = pd.Series(surname).str.cat([pd.Series(given), suffix])
    return frame.sort_values(["player", "deal"], kind="stable", ignore_index=True)


# name -> (how the rows are made, file suffix)
SHAPES: dict[str, tuple[Callable[[int], pd.DataFrame], str]] = {
    "file order": (file_order, "parquet"),
    "random order": (random_order, "parquet"),
    "Chinese names": (chinese_names, "parquet"),
    "CSV": (random_order, "csv"),
}


def path_of(folder: Path, shape: str, rows: int) -> Path:
    suffix = SHAPES[shape][1]
    return folder / f"{shape.lower().replace(' ', '_')}_{rows}.{suffix}"


def generate(folder: Path, shape: str, rows: int) -> Path:
    """The shape's file of `rows` rows in `folder`, made once and reused."""
    folder.mkdir(exist_ok=True)
    path = path_of(folder, shape, rows)
    if not path.exists():
        make, suffix = SHAPES[shape]
        frame = make(rows)
        partial = path.with_suffix(".partial")
        if suffix == "csv":
            frame.to_csv(partial, index=False)
        else:
            frame.to_parquet(partial, index=False)
        partial.rename(path)
    return path
