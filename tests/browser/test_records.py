"""A record exported from the game page is the server's text as it is, and replays the game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page

from ludotheque.core.contract import Result
from ludotheque.core.records import Record, replay

from .helpers import document, open_seat


def test_an_exported_record_replays_the_same_game(page: Page, api: httpx.Client,
                                                 finished_imbrication: dict[str, Any]) -> None:
    game_id = finished_imbrication["id"]
    doc = document(api, game_id)
    assert doc["status"] == "over"
    open_seat(page, game_id)
    with page.expect_download() as download:
        page.click("#actions [data-action='export']")
    text = Path(download.value.path()).read_text("utf-8")
    # Byte for byte what the server wrote: never decoded and encoded again (seeds would round).
    assert text == api.get(f"/api/games/{game_id}/record").text
    record = Record.from_json(json.loads(text))
    states = replay(record)  # Imbrication's tiles come from the seed: a wrong one breaks the replay
    assert list(record.moves) == doc["moves"]
    assert states[-1].is_over and states[-1].result() == Result.from_json(doc["result"])
