"""The version of pytest-converge: the one place it is written (pyproject reads it)."""

__version__ = "0.1.0"
"""The installed release of pytest-converge."""
