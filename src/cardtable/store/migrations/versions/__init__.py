"""Migration scripts, oldest first; each names the one before it in ``down_revision``."""
