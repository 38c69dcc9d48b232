"""Every limit on what an input may hold, in one place (the README lists them).

Values beyond them are refused with a message, never wrapped, rounded or let run on.
"""

from __future__ import annotations

# Rows read from one input unless `duplicate --max-rows` allows more (the memory a row
# takes: docs/performance.md). Checked before the table is parsed (a Parquet file's
# footer says its rows), so a file that claims billions is refused.
MAX_ROWS = 50_000_000

# Scores and times: decimals held, and the largest value held (as an integer without
# its point): exact through every later step, float64 included.
MAX_DECIMALS = 6
MAX_UNITS = 2**53
# The sum of a column's |units| stays below this: every total of its values (a player's,
# a table's, a comparison group's) is then exact in int64, with room for its hundredfold
# (cents) to be rounded.
MAX_COLUMN_SUM = 2**55

# The most rank points one deal can earn, in cents (base x the largest factor): a
# player's total, and the sum of the totals of the players they beat, stay exact for
# any event of fewer than 90,000 deals a player.
MAX_DEAL_CENTS = 10**9

# Seats at a table for `seat` (--force for more): beyond it a typo is likelier than a game.
MAX_TABLE_SIZE = 8

# Problems listed one by one; the rest are counted by kind.
MAX_LISTED = 50

# Points a finalist carries into a stage's final: a whole number of at most these
# digits (a total of them and the final's hands stays far within int64).
MAX_CARRIED_DIGITS = 15

# A bridge session file to import (PBN, USEBIO): a club's session is kilobytes, a
# congress a few megabytes.
MAX_IMPORT_BYTES = 64 * 1024 * 1024

# Tags in a USEBIO file, counted before it is parsed: its parsed tree takes some 150
# bytes an element, and a congress's session holds a few hundred thousand.
MAX_SESSION_TAGS = 2_000_000

# Results (traveller lines) in a session file: a congress's session holds tens of
# thousands; more is not a session, and reading each line takes its time.
MAX_SESSION_RESULTS = 250_000

# Problems found in a session file before reading stops: a file of millions of bad lines
# is refused as fast as a file of one (the first MAX_LISTED are listed, the rest counted).
MAX_SESSION_PROBLEMS = 1000

# A round given on the command line: rounds count from 1; beyond this a typo is likelier
# than a round.
MAX_ROUND = 1_000_000

# An .xlsx workbook's contents once unpacked (a zip archive can hold far more than its
# size): Excel's own limit of a million rows fits well within it.
MAX_WORKBOOK_BYTES = 1024 * 1024 * 1024

# An .xlsx sheet is held as a grid from its first cell to its last (every cell between
# them, empty or not): Excel's million rows by 16 columns fit.
MAX_WORKBOOK_CELLS = 1_048_576 * 16

# The characters of text a sheet's cells hold once each shared string is copied into
# every cell naming it (a long string named by many cells would otherwise multiply).
MAX_WORKBOOK_TEXT = 256 * 1024 * 1024

# A line of text on standard input longer than this is refused as it is read: no
# results row is that long, and a stream with no line end (/dev/zero) is not read to
# its end.
MAX_LINE_BYTES = 16 * 1024 * 1024
