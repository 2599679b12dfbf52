"""Analysis of a finished game: the API and its page, and hints in casual bot games."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()
