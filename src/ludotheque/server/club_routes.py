"""Clubs: their pages, members, invite links, ratings tables and chat."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()
