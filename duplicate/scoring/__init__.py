"""Scoring: the methods, the matchpoint kernel, standings with every tie-break,
explain and verify. Pure computation: no files, no printing, no exit."""
