"""A static, self-contained web report of an event (no network at view time)."""
