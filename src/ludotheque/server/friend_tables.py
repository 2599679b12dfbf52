"""The tables of friends (follows, blocks, challenges); migration 0012.

SQLAlchemy Core, on ``tables.metadata``.
"""

from __future__ import annotations

from .tables import metadata

__all__ = ["metadata"]
