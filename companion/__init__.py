"""Table Companion: a Raspberry Pi at a real game table."""

__version__ = "0.1.0"
