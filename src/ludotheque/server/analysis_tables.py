"""The tables of analyses of finished games (one per game and reader's view, shared); migration 0010.

SQLAlchemy Core, on ``tables.metadata``.
"""

from __future__ import annotations

from .tables import metadata

__all__ = ["metadata"]
