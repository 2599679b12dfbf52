"""Run the server with uvicorn (used by ``ludotheque serve`` and ``python -m ludotheque.server``)."""

from __future__ import annotations

import uvicorn

from .app import create_app
from .config import MAX_BODY_BYTES


def run_server(host: str = "127.0.0.1", port: int = 8000, db: str | None = None) -> None:
    """Serve until interrupted; WebSocket messages over 64 KiB close the connection (1009)."""
    uvicorn.run(
        create_app(db),
        host=host,
        port=port,
        ws_max_size=MAX_BODY_BYTES,
        log_level="warning",
    )
