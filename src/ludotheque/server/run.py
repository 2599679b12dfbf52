"""Run the server with uvicorn (used by ``ludotheque serve`` and ``python -m ludotheque.server``)."""

from __future__ import annotations

import uvicorn

from .app import create_app
from .config import WS_MAX_BYTES


def run_server(host: str = "127.0.0.1", port: int = 8000, db: str | None = None) -> None:
    """Serve until interrupted. The transport reads WebSocket messages up to ``WS_MAX_BYTES``
    (1 MiB), so that the app itself answers one over 64 KiB with an error; beyond that uvicorn
    closes the connection (1009) without reading on."""
    uvicorn.run(
        create_app(db),
        host=host,
        port=port,
        ws_max_size=WS_MAX_BYTES,
        log_level="warning",
    )
