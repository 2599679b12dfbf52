"""Friends: follows, who is online, direct challenges, blocks."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()
