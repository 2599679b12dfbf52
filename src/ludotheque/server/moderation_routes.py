"""Moderation: reports, the moderators' page and their actions."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()
