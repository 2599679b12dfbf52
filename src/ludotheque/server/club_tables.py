"""The tables of clubs (clubs, members, invite links, club chat); migration 0012.

SQLAlchemy Core, on ``tables.metadata``.
"""

from __future__ import annotations

from .tables import metadata

__all__ = ["metadata"]
