"""Game scores from what happened at the table (docs/scoring.md section 6)."""
