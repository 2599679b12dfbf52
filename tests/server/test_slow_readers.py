"""No reader can slow a game (docs/design.md), on the real server: a spectator's WebSocket that never
reads, quietly or while sending junk, fills its own buffers and is dropped; meanwhile every move
is answered, the clocks run and fall, and a spectator that reads gets every document.

The server runs with a 4 KiB kernel send buffer per connection (a slow link), and the
non-reader opens its socket with a 4 KiB receive buffer, so that its documents pile up after
a few kilobytes instead of megabytes. Before the fix the first broadcast that could not be
delivered held the game's lock (and the close that followed waited forever): the next move's
POST never came back.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets.sync.client

from tests.support.rawsocket import RawSocket
from tests.support.server import ServerProcess

MOVES = 70
# No answer may take this long; a game held by a reader never answers at all.
ANSWER_WITHIN_S = 15.0
CLOCK = {"type": "fischer", "minutes": 0.2, "increment": 0}


@pytest.fixture
def server(db_url: str) -> Iterator[ServerProcess]:
    quick_clocks = {"LUDOTHEQUE_MIN_CLOCK_MINUTES": "0", "LUDOTHEQUE_WS_PING_INTERVAL": "600"}
    with ServerProcess(db_url, launcher="uvicorn", send_buffer=4096, env=quick_clocks) as running:
        yield running


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Watcher(threading.Thread):
    """A spectator that reads every document, in a thread of its own."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.plies: list[int] = []
        self.statuses: list[str] = []

    def run(self) -> None:
        with websockets.sync.client.connect(self.url, max_size=None) as socket:
            for raw in socket:
                doc = json.loads(raw)
                self.plies.append(doc["ply"])
                self.statuses.append(doc["status"])
                if doc["status"] == "over":
                    return


def flood(client: RawSocket, stop: threading.Event) -> None:
    """Send junk the server must answer (an unknown type, long), never reading the answers."""
    junk = json.dumps({"type": "x" * 60_000})
    while not stop.is_set():
        try:
            client.send_text(junk)
        except OSError:  # dropped: the server closed the connection
            return


def play_random_moves(http: httpx.Client, game_id: str, seat_tokens: list[str], count: int) -> int:
    """Play up to ``count`` random legal moves (fewer if the game ends); returns the ply reached."""
    rng = random.Random(7)
    ply = 0
    for _ in range(count):
        doc = http.get(f"/api/games/{game_id}").json()
        if doc["status"] != "playing":
            break
        token = seat_tokens[doc["to_move"]]
        legal = http.get(f"/api/games/{game_id}", headers=bearer(token)).json()["legal_moves"]
        answer = http.post(f"/api/games/{game_id}/moves", json={"move": rng.choice(legal), "ply": doc["ply"]},
                           headers=bearer(token))
        assert answer.status_code == 200, answer.text
        ply = answer.json()["ply"]
    return ply


def wait_until_over(http: httpx.Client, game_id: str, timeout: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        doc: dict[str, Any] = http.get(f"/api/games/{game_id}").json()
        if doc["status"] == "over":
            return doc
        time.sleep(0.2)
    raise AssertionError(f"game {game_id} did not end: its clock stopped")


@pytest.mark.parametrize("junk", [False, True], ids=["quiet", "junk"])
def test_a_reader_that_never_reads_never_holds_a_game(server: ServerProcess, junk: bool) -> None:
    with httpx.Client(base_url=server.url, timeout=ANSWER_WITHIN_S) as http:
        created = http.post("/api/games", json={"game": "imbrication", "seats": ["human", "human"],
                                                "clock": CLOCK}).json()
        game_id, seat_tokens = created["id"], [seat["token"] for seat in created["seats"]]
        path = f"/api/games/{game_id}/ws"
        stuck = RawSocket.connect(server.host, server.port, path, receive_buffer=4096)
        watcher = Watcher(f"{server.ws_url}{path}")
        watcher.start()
        stop = threading.Event()
        flooder = threading.Thread(target=flood, args=(stuck, stop), daemon=True)
        if junk:
            flooder.start()
        try:
            reached = play_random_moves(http, game_id, seat_tokens, MOVES)
        finally:
            stop.set()
        assert reached == MOVES
        # The clock goes on: nobody moves now, and the flag of the seat to move falls.
        over = wait_until_over(http, game_id)
        assert over["result"]["reason"] == "time" and over["ply"] == reached
        watcher.join(ANSWER_WITHIN_S)
        # The reader that reads got every change, in order, up to the end.
        assert watcher.plies == sorted(watcher.plies) and watcher.plies[-1] == over["ply"]
        assert watcher.statuses[-1] == "over"
        # The one that did not read was dropped long before: it got a few documents, then the
        # end of the connection.
        received = stuck.read_messages(timeout=ANSWER_WITHIN_S)
        stuck.close()
        documents = [json.loads(text) for text in received.texts if '"ply"' in text]
        assert received.closed, "the non-reader is still connected"
        assert documents and max(doc["ply"] for doc in documents) < reached
        assert all(doc["status"] == "playing" for doc in documents)
        if junk:
            errors = [json.loads(text) for text in received.texts if '"error"' in text]
            assert errors and all(len(json.dumps(error)) < 300 for error in errors)
            assert errors[0]["code"] == "bad_request" and "(60000 characters)" in errors[0]["error"]
