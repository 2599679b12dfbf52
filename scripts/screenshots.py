"""Make the README screenshots: the lobby and a game page of each game, from the real server.

Starts ``python -m ludotheque.server`` on a free loopback port with a throwaway SQLite
database, plays a few moves of each game through the API (random legal moves from a seeded
``random.Random``), and saves ``docs/screenshots/{lobby,<game>}.png`` with Debian's Chromium, and
``dark.png``: a game page in the dark theme (a spectator's, as a browser preferring dark sees it).

Usage: ``python scripts/screenshots.py [--lang en|fr] [--out docs/screenshots]``

>>> sorted(PLIES)
['expion', 'imbrication', 'plimil', 'pylos']
"""

from __future__ import annotations

import argparse
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# How many moves to play before the picture, so that each board shows a game under way.
PLIES = {"pylos": 14, "imbrication": 30, "expion": 16, "plimil": 30}
PLAYERS = {"pylos": 2, "imbrication": 2, "expion": 4, "plimil": 2}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(database: Path, port: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "ludotheque.server", "--host", "127.0.0.1", "--port", str(port),
               "--db", f"sqlite:///{database}"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/catalog", timeout=2).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError("the server did not start")


def prepared_game(client: httpx.Client, game: str, rng: random.Random) -> tuple[str, str]:
    """A game with some moves played by both sides; returns its id and seat 0's token."""
    players = PLAYERS[game]
    created = client.post("/api/games", json={"game": game, "players": players,
                                               "seats": ["human"] * players}).json()
    tokens = {entry["seat"]: entry["token"] for entry in created["seats"]}
    for _ in range(PLIES[game]):
        docs = [client.get(f"/api/games/{created['id']}", headers=_auth(token)).json()
                for token in tokens.values()]
        mover: dict[str, Any] | None = next((doc for doc in docs if doc["legal_moves"]), None)
        if mover is None:
            break
        seat = mover["view"]["viewer"]
        client.post(f"/api/games/{created['id']}/moves", json={"move": rng.choice(mover["legal_moves"])},
                    headers=_auth(tokens[seat]))
    doc = client.get(f"/api/games/{created['id']}").json()
    return created["id"], tokens.get(doc["to_move"], tokens[0]) if doc["to_move"] is not None else tokens[0]


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def shoot(page: Page, url: str, path: Path) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready]")
    page.wait_for_timeout(400)
    page.screenshot(path=str(path), full_page=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lang", choices=["en", "fr"], default="en")
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    parser.add_argument("--seed", type=int, default=3)
    options = parser.parse_args()
    options.out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(options.seed)
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(Path(folder) / "screens.db", port)
        try:
            base = f"http://127.0.0.1:{port}"
            with httpx.Client(base_url=base, timeout=60) as client, sync_playwright() as driver:
                browser = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                games = {game: prepared_game(client, game, rng) for game in PLIES}
                page = browser.new_page(viewport={"width": 1280, "height": 860})
                shoot(page, f"{base}/?lang={options.lang}", options.out / "lobby.png")
                for game, (game_id, token) in games.items():
                    url = f"{base}/play/{game_id}?lang={options.lang}&token={token}"
                    shoot(page, url, options.out / f"{game}.png")
                # The dark theme, as a browser that prefers it gets it.
                dark = browser.new_page(viewport={"width": 1280, "height": 860}, color_scheme="dark")
                game_id, _ = games["imbrication"]
                shoot(dark, f"{base}/play/{game_id}?lang={options.lang}", options.out / "dark.png")
                browser.close()
        finally:
            server.terminate()
            server.wait(15)
    print(f"screenshots written to {options.out}")


if __name__ == "__main__":
    main()
