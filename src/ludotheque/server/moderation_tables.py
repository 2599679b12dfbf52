"""The tables of moderation (reports, actions, the audit log); migration 0011.

SQLAlchemy Core, on ``tables.metadata``.
"""

from __future__ import annotations

from .tables import metadata

__all__ = ["metadata"]
