"""Game scores from what happened at the table (SCORING.md section 6)."""
