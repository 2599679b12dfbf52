"""Puzzles: the puzzle pages and API."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()
