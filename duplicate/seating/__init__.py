"""The next round's seating: Swiss, pairs and robots, repeats avoided; the check of a
published seating. Pure computation: no files, no printing, no exit."""
