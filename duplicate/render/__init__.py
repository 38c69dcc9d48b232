"""What people see of an event: the web report (pages.py, stage_pages.py) and paper for
the venue (printed.py), rendered from the numbers; no network at view time."""
