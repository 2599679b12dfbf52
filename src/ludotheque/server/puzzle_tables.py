"""The tables of puzzles (each person's puzzle rating and attempts, each puzzle's own rating); migration 0009.

SQLAlchemy Core, on ``tables.metadata``.
"""

from __future__ import annotations

from .tables import metadata

__all__ = ["metadata"]
