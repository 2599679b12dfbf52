"""The HTTP API of docs/design.md against a real app and a real database (SQLite and PostgreSQL)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

import ludotheque
from ludotheque.core.records import Record, replay
from ludotheque.server.hub import Hub

from .helpers import bearer, create, tokens


def document(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    answer = client.get(f"/api/games/{game_id}", headers=bearer(token) if token else {})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def move(client: TestClient, game_id: str, token: str, text: str, **extra: Any) -> Any:
    return client.post(f"/api/games/{game_id}/moves", json={"move": text, **extra}, headers=bearer(token))


def test_create_gives_tokens_only_to_human_seats(client: TestClient) -> None:
    created = create(client, seats=["human", "open"], variant="kids", players=2)
    assert isinstance(created["id"], str) and created["id"]
    human, open_seat = created["seats"]
    assert human["seat"] == 0 and human["token"] in human["url"]
    assert "token" not in open_seat and open_seat["url"].endswith(f"/play/{created['id']}?join=1")
    doc = document(client, created["id"])
    assert (doc["game"], doc["variant"], doc["players"], doc["status"]) == ("pylos", "kids", 2, "waiting")


def test_document_shape_for_each_reader(client: TestClient) -> None:
    created = create(client)
    light, dark = tokens(created)
    expected_view = ludotheque.load("pylos").new_state().view(0)
    for_light = document(client, created["id"], light)
    assert set(for_light) >= {"id", "game", "variant", "players", "to_move", "status", "result", "moves"}
    assert for_light["view"] == expected_view
    assert for_light["legal_moves"] == [str(m) for m in ludotheque.load("pylos").new_state().legal_moves()]
    assert (for_light["status"], for_light["to_move"], for_light["result"]) == ("playing", 0, None)
    assert document(client, created["id"], dark)["legal_moves"] == []
    spectator = document(client, created["id"])
    assert spectator["legal_moves"] == [] and spectator["view"]["viewer"] is None


def test_moves_are_played_and_listed(client: TestClient) -> None:
    created = create(client)
    light, dark = tokens(created)
    answer = move(client, created["id"], light, "1a1", ply=0)
    assert answer.status_code == 200
    assert answer.json()["moves"] == ["1a1"] and answer.json()["to_move"] == 1
    assert move(client, created["id"], dark, "1b1").status_code == 200
    assert document(client, created["id"])["moves"] == ["1a1", "1b1"]


def test_a_whole_game_ends_with_the_engines_result_and_a_replayable_record(client: TestClient) -> None:
    created = create(client, variant="kids")
    seat_tokens = tokens(created)
    doc = document(client, created["id"])
    turn = 0
    while doc["status"] == "playing":
        mover = doc["to_move"]
        legal = document(client, created["id"], seat_tokens[mover])["legal_moves"]
        doc = move(client, created["id"], seat_tokens[mover], legal[(turn * 7) % len(legal)]).json()
        turn += 1
    assert doc["status"] == "over" and doc["to_move"] is None and doc["legal_moves"] == []
    record = Record.from_json(client.get(f"/api/games/{created['id']}/record").json())
    final = replay(record)[-1]
    assert final.is_over and final.result().to_json() == doc["result"]
    assert list(record.moves) == doc["moves"]
    game_id = created["id"]
    for ply in (0, 5, len(record.moves)):
        step = client.get(f"/api/games/{game_id}/replay/{ply}")
        assert step.status_code == 200
        assert step.json()["view"] == replay(record)[ply].view(None)
    assert step.json()["move"] == record.moves[-1]
    for bad in (str(len(record.moves) + 1), "-1", "x"):
        answer = client.get(f"/api/games/{game_id}/replay/{bad}")
        assert answer.status_code == 404 and "no position" in answer.json()["error"]


def test_a_running_game_is_not_replayed_move_by_move(client: TestClient) -> None:
    created = create(client)
    answer = client.get(f"/api/games/{created['id']}/replay/0")
    assert answer.status_code == 409 and "once it is over" in answer.json()["error"]


def test_record_of_a_running_game_has_no_seed(client: TestClient) -> None:
    created = create(client)
    move(client, created["id"], tokens(created)[0], "1a1")
    record = client.get(f"/api/games/{created['id']}/record").json()
    assert record["format"] == 1 and record["seed"] is None and record["moves"] == ["1a1"]
    assert record["result"] is None


def test_join_fills_an_open_seat_and_starts_the_game(client: TestClient) -> None:
    created = create(client, seats=["open", "human"])
    joined = client.post(f"/api/games/{created['id']}/seats/0/join", json={"name": "Zoé"})
    assert joined.status_code == 200 and joined.json()["seat"] == 0
    doc = document(client, created["id"], joined.json()["token"])
    assert doc["status"] == "playing" and doc["seats"][0]["name"] == "Zoé" and doc["legal_moves"]
    again = client.post(f"/api/games/{created['id']}/seats/0/join", json={"name": "Max"})
    assert again.status_code == 409 and "not open" in again.json()["error"]


def test_lobby_lists_games_by_status(client: TestClient) -> None:
    waiting = create(client, seats=["human", "open"])["id"]
    playing = create(client)
    over = create(client)
    client.post(f"/api/games/{over['id']}/seats/0/resign", headers=bearer(tokens(over)[0]))

    def ids(status: str) -> list[str]:
        answer = client.get(f"/api/games?status={status}")
        assert answer.status_code == 200
        return [game["id"] for game in answer.json()["games"]]

    assert ids("open") == [waiting]
    assert ids("playing") == [playing["id"]]
    assert ids("over") == [over["id"]]
    assert client.get("/api/games?status=lost").status_code == 400


def test_resign_ends_the_game_for_the_other_seat(client: TestClient) -> None:
    created = create(client)
    light, dark = tokens(created)
    answer = client.post(f"/api/games/{created['id']}/seats/1/resign", headers=bearer(dark))
    assert answer.status_code == 200
    assert answer.json()["result"] == {"winners": [0], "scores": [1, -1], "reason": "resignation"}
    assert move(client, created["id"], light, "1a1").status_code == 409


def test_draw_is_offered_then_accepted(client: TestClient) -> None:
    created = create(client)
    light, dark = tokens(created)
    url = f"/api/games/{created['id']}/seats/{{}}/draw"
    offered = client.post(url.format(0), headers=bearer(light))
    assert offered.json()["draw_offer"] == [0] and offered.json()["status"] == "playing"
    assert client.post(url.format(0), headers=bearer(light)).status_code == 409
    accepted = client.post(url.format(1), headers=bearer(dark)).json()
    assert accepted["status"] == "over" and accepted["result"]["winners"] == []
    assert accepted["result"]["reason"] == "agreement"


def test_a_move_declines_a_draw_offer(client: TestClient) -> None:
    created = create(client)
    light, dark = tokens(created)
    client.post(f"/api/games/{created['id']}/seats/1/draw", headers=bearer(dark))
    assert move(client, created["id"], light, "1a1").json()["draw_offer"] == []


def test_a_draw_offer_is_declined_for_everyone(client: TestClient) -> None:
    created = create(client)
    light, dark = tokens(created)
    base = f"/api/games/{created['id']}/seats"
    # Nothing to decline yet, and an offer cannot be declined by the seat that made it.
    nothing = client.post(f"{base}/1/draw/decline", headers=bearer(dark))
    assert nothing.status_code == 409 and nothing.json()["code"] == "draw_refused"
    client.post(f"{base}/0/draw", headers=bearer(light))
    assert client.post(f"{base}/0/draw/decline", headers=bearer(light)).status_code == 409
    declined = client.post(f"{base}/1/draw/decline", headers=bearer(dark)).json()
    assert declined["draw_offer"] == [] and declined["status"] == "playing"
    # Light may offer again; the decline did not use up the offer.
    assert client.post(f"{base}/0/draw", headers=bearer(light)).json()["draw_offer"] == [0]


def test_the_document_names_the_mover_of_each_move(client: TestClient) -> None:
    created = create(client)
    light, dark = tokens(created)
    move(client, created["id"], light, "1a1")
    assert move(client, created["id"], dark, "1b1").json()["movers"] == [0, 1]


def test_takeback_needs_a_game_against_bots(client: TestClient) -> None:
    created = create(client)
    light = tokens(created)[0]
    move(client, created["id"], light, "1a1")
    answer = client.post(f"/api/games/{created['id']}/seats/0/takeback", headers=bearer(light))
    assert answer.status_code == 409 and "bots" in answer.json()["error"]


def test_rematch_turns_the_seats_and_each_player_claims_one(client: TestClient) -> None:
    created = create(client)
    light, dark = tokens(created)
    game_id = created["id"]
    early = client.post(f"/api/games/{game_id}/seats/0/rematch", headers=bearer(light))
    assert early.status_code == 409
    client.post(f"/api/games/{game_id}/seats/0/resign", headers=bearer(light))
    first = client.post(f"/api/games/{game_id}/seats/0/rematch", headers=bearer(light))
    assert first.status_code == 201 and first.json()["seat"] == 1
    new_id = first.json()["id"]
    assert document(client, game_id)["rematch"] == new_id
    assert document(client, new_id)["status"] == "waiting"
    second = client.post(f"/api/games/{game_id}/seats/1/rematch", headers=bearer(dark)).json()
    assert (second["id"], second["seat"]) == (new_id, 0)
    doc = document(client, new_id, second["token"])
    assert doc["status"] == "playing" and doc["legal_moves"] and doc["rematch_of"] == game_id
    again = client.post(f"/api/games/{game_id}/seats/1/rematch", headers=bearer(dark))
    assert again.status_code == 409


def test_catalog_names_every_registered_game(client: TestClient) -> None:
    catalog = client.get("/api/catalog").json()
    assert [g["id"] for g in catalog["games"]] == ludotheque.games()
    pylos = next(g for g in catalog["games"] if g["id"] == "pylos")
    assert pylos["variants"] == ["standard", "kids", "advanced"] and pylos["default_players"] == 2
    assert set(pylos["title"]) == {"fr", "en"} and "easy" in pylos["bot_levels"]


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_rules_are_rendered_per_language(client: TestClient, lang: str) -> None:
    answer = client.get(f"/api/rules/pylos?lang={lang}")
    assert answer.status_code == 200
    body = answer.json()
    assert (body["game"], body["lang"]) == ("pylos", lang)
    other = "English" if lang == "fr" else "Français"
    assert "<h" in body["html"] and f">{other}<" not in body["html"]


def test_rules_errors(client: TestClient) -> None:
    assert client.get("/api/rules/chess?lang=fr").status_code == 404
    assert client.get("/api/rules/pylos?lang=de").status_code == 400


def test_pages_are_served(client: TestClient) -> None:
    lobby = client.get("/")
    assert lobby.status_code == 200 and "text/html" in lobby.headers["content-type"]
    for game_id in ludotheque.games():
        title = ludotheque.core.info(game_id).title["fr"]
        assert title.replace("*", "") in lobby.text.replace("*", "")
    assert client.get("/play/abc").status_code == 200
    assert client.get("/rules/pylos").status_code == 200


def test_french_level_names_are_stored_under_the_english_ones(client: TestClient) -> None:
    created = create(client, seats=["human", "bot:difficile"])
    seat = document(client, created["id"])["seats"][1]
    assert (seat["kind"], seat["level"], seat["name"]) == ("bot", "hard", "bot:hard")
    answer = client.post("/api/games", json={"game": "pylos", "seats": ["human", "bot:ardu"]})
    assert answer.status_code == 400 and "'ardu'" in answer.json()["error"]


def test_the_openapi_documents_the_create_body(client: TestClient) -> None:
    operation = client.get("/openapi.json").json()["paths"]["/api/games"]["post"]
    schema = operation["requestBody"]["content"]["application/json"]["schema"]
    assert operation["requestBody"]["required"] and schema["required"] == ["game", "seats"]
    assert {"game", "variant", "players", "seats", "clock", "name", "rated"} == set(schema["properties"])
    assert "invite" in schema["properties"]["seats"]["description"]
    assert "$ref" not in str(schema)
    assert client.get("/api/docs").status_code == 200


def test_new_seeds_stay_below_two_to_the_53(client: TestClient) -> None:
    """docs/design.md: every JSON reader, a browser's included, keeps a seed in [0, 2^53) exact."""
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    for _ in range(20):
        created = create(client, seats=["human", "bot:random"])
        meta, snap = hub.storage.load(created["id"]) or pytest.fail("game not stored")
        assert 0 <= meta.seed < 2**53 and snap.seats[1].bot_seed is not None
        assert 0 <= snap.seats[1].bot_seed < 2**53
