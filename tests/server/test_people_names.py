"""Look-alike names: names are NFKC-normalised and compared by their confusables skeleton, so that
"Аlice" (Cyrillic А) or "Ａlice" (fullwidth) cannot sign up beside "Alice"; bidirectional controls
are refused in seat names and stripped from chat; a seat of no account cannot bear a player's
name. On SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from ludotheque.server.errors import ApiError

from .helpers import bearer, create, tokens
from .test_accounts import new_browser, sign_in, sign_up

CYRILLIC_A = "\u0410lice"
FULLWIDTH_A = "\uff21lice"
RTL_OVERRIDE = "\u202e"


def test_look_alike_names_are_taken(client: TestClient) -> None:
    sign_up(client, "Alice")
    for name in (CYRILLIC_A, FULLWIDTH_A, "ALICE", "Alic\u0435"):  # the last: a Cyrillic е
        new_browser(client)
        answer = client.post("/api/account/signup", json={"name": name, "password": "correct horse"})
        assert (answer.status_code, answer.json()["code"]) == (409, "name_taken"), name
    new_browser(client)
    bob = sign_up(client, "\uff22ob")  # fullwidth: stored in its NFKC form
    assert bob["name"] == "Bob"
    renamed = client.post("/api/me/name", json={"name": "\u0410lice"})
    assert (renamed.status_code, renamed.json()["code"]) == (409, "name_taken")
    assert client.post("/api/me/name", json={"name": "Bobby"}).json()["account"]["name"] == "Bobby"
    new_browser(client)
    assert sign_in(client, "\uff22obby").json()["account"]["name"] == "Bobby"
    refused = client.post("/api/account/signup",
                          json={"name": f"Ev{RTL_OVERRIDE}e", "password": "correct horse"})
    assert (refused.status_code, refused.json()["code"]) == (400, "bad_request")


def test_seat_names_refuse_bidirectional_controls_and_chat_strips_them(client: TestClient) -> None:
    answer = client.post("/api/games", json={"game": "pylos", "seats": ["human", "open"],
                                             "name": f"Ada{RTL_OVERRIDE}dA"})
    assert (answer.status_code, answer.json()["code"]) == (400, "bad_request")
    created = create(client, seats=["human", "open"], name="\uff21da")
    game = f"/api/games/{created['id']}"
    assert client.get(game).json()["seats"][0]["name"] == "Ada"
    join = client.post(f"{game}/seats/1/join", json={"name": f"{RTL_OVERRIDE}Grace"})
    assert (join.status_code, join.json()["code"]) == (400, "bad_request")
    said = client.post(f"{game}/chat", json={"room": "players", "text": f"gg{RTL_OVERRIDE} wp"},
                       headers=bearer(tokens(created)[0]))
    assert said.status_code == 201 and said.json()["line"]["text"] == "gg wp"


def test_a_seat_of_no_account_cannot_bear_a_players_name(client: TestClient) -> None:
    sign_up(client, "Alice")
    people = client.app.state.people  # type: ignore[attr-defined]
    for name in ("Alice", CYRILLIC_A, FULLWIDTH_A, "alice"):
        with pytest.raises(ApiError) as refused:
            client.portal.call(people.guest_seat_name, name, "")  # type: ignore[union-attr]
        assert refused.value.code == "name_taken"
    assert client.portal.call(people.guest_seat_name, "Grace", "") == "Grace"  # type: ignore[union-attr]
    assert client.portal.call(people.guest_seat_name, None, "Guest 2") == "Guest 2"  # type: ignore[union-attr]
    new_browser(client)
    guest = client.post("/api/account/guest").json()["account"]["name"]
    # A guest's generated name is nobody's to guard.
    assert client.portal.call(people.guest_seat_name, guest, "") == guest  # type: ignore[union-attr]


def test_the_api_refuses_a_players_name_on_a_seat_of_no_account(client: TestClient) -> None:
    sign_up(client, "Alice")
    new_browser(client)  # an API client without an account
    created = client.post("/api/games",
                          json={"game": "pylos", "seats": ["human", "open"], "name": CYRILLIC_A})
    assert (created.status_code, created.json()["code"]) == (409, "name_taken")
    game = f"/api/games/{create(client, seats=['human', 'open'])['id']}"
    join = client.post(f"{game}/seats/1/join", json={"name": "alice"})
    assert (join.status_code, join.json()["code"]) == (409, "name_taken")
