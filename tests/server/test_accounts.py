"""Accounts: guests with a generated name kept in a session cookie, sign up (a guest keeps their
games), sign in and out (the cookie rotated), passwords (Argon2), rate limits per account and per
address, seats that belong to the account from any browser, personal API tokens; every error with
its code, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .conftest import serving
from .helpers import bearer, create, tokens

SESSION = "ludotheque_session"


def set_cookies(answer: Any) -> dict[str, dict[str, str]]:
    """The Set-Cookie headers of an answer: name -> {"value": ..., attribute (lower case): value}."""
    found = {}
    for header in answer.headers.get_list("set-cookie"):
        first, *attributes = [part.strip() for part in header.split(";")]
        name, _, value = first.partition("=")
        entry = {"value": value.strip('"')}
        for attribute in attributes:
            key, _, setting = attribute.partition("=")
            entry[key.lower()] = setting or "true"
        found[name] = entry
    return found


def sign_up(client: TestClient, name: str, password: str = "correct horse") -> dict[str, Any]:
    answer = client.post("/api/account/signup", json={"name": name, "password": password})
    assert answer.status_code == 201, answer.text
    account: dict[str, Any] = answer.json()["account"]
    return account


def sign_in(client: TestClient, name: str, password: str = "correct horse") -> Any:
    return client.post("/api/account/signin", json={"name": name, "password": password})


def session(token: str | None) -> dict[str, str]:
    """A request sent with this session cookie only."""
    return {"Cookie": f"{SESSION}={token or ''}"}


def new_browser(client: TestClient) -> None:
    """The same client as another browser: no cookie at all."""
    client.cookies.clear()


def test_a_guest_gets_a_generated_name_in_an_httponly_cookie_and_may_rename(client: TestClient) -> None:
    assert client.get("/api/me").json() == {"account": None}
    answer = client.post("/api/account/guest")
    assert answer.status_code == 201
    guest = answer.json()["account"]
    assert guest["guest"] is True and guest["name"].startswith("guest-")
    cookie = set_cookies(answer)[SESSION]
    assert cookie["httponly"] == "true" and cookie["samesite"].lower() == "lax" and cookie["path"] == "/"
    assert int(cookie["max-age"]) > 300 * 24 * 3600
    assert client.get("/api/me").json()["account"] == guest
    again = client.post("/api/account/guest")  # a browser that has a person keeps it
    assert again.status_code == 200 and again.json()["account"]["id"] == guest["id"]
    renamed = client.post("/api/me/name", json={"name": "Zoé"})
    assert renamed.status_code == 200 and renamed.json()["account"]["name"] == "Zoé"
    for bad in ("x", "9lives", "a b", "guest-123456", "<script>"):
        refused = client.post("/api/me/name", json={"name": bad})
        assert (refused.status_code, refused.json()["code"]) == (400, "bad_request"), bad


def test_a_guest_who_signs_up_keeps_their_games_and_is_renamed_in_them(client: TestClient) -> None:
    created = client.post("/api/games?cookie=1", json={"game": "pylos", "seats": ["human", "open"]}).json()
    guest = client.get("/api/me").json()["account"]
    doc = client.get(f"/api/games/{created['id']}").json()
    assert doc["seats"][0]["name"] == guest["name"]
    before = client.cookies.get(SESSION)
    account = sign_up(client, "Ada")
    assert account["id"] == guest["id"] and account["guest"] is False and account["name"] == "Ada"
    assert client.cookies.get(SESSION) != before  # a new session token at sign-up
    assert client.get(f"/api/games/{created['id']}").json()["seats"][0]["name"] == "Ada"
    # The old token of the session ended: it names nobody now.
    assert client.get("/api/me", headers=session(before or "")).json()["account"] is None


def test_sign_up_refusals(client: TestClient) -> None:
    sign_up(client, "Ada")
    new_browser(client)
    for body, status, code in [
        ({"name": "ada", "password": "another one"}, 409, "name_taken"),  # names differ by more than case
        ({"name": "Bob", "password": "short"}, 400, "bad_request"),
        ({"name": "B", "password": "long enough"}, 400, "bad_request"),
        ({"name": "Bob", "password": "long enough", "admin": True}, 400, "bad_request"),
        ({"name": "Bob"}, 400, "bad_request"),
        ({"name": "Bob", "password": 12345678}, 400, "bad_request"),
    ]:
        answer = client.post("/api/account/signup", json=body)
        assert (answer.status_code, answer.json()["code"]) == (status, code), body
    not_json = client.post("/api/account/signup", content=b"{name",
                           headers={"Content-Type": "application/json"})
    assert (not_json.status_code, not_json.json()["code"]) == (400, "bad_json")
    assert client.get("/api/me").json()["account"] is None  # nothing changed


def test_sign_in_rotates_the_session_and_sign_out_ends_it(client: TestClient) -> None:
    sign_up(client, "Ada")
    first = client.cookies.get(SESSION)
    client.post("/api/account/signout")
    assert client.get("/api/me").json()["account"] is None
    wrong = sign_in(client, "Ada", "not the password")
    assert (wrong.status_code, wrong.json()["code"]) == (401, "bad_credentials")
    unknown = sign_in(client, "Nobody", "whatever123")
    assert (unknown.status_code, unknown.json()["code"]) == (401, "bad_credentials")
    assert unknown.json()["error"] == wrong.json()["error"]  # no hint whether the name exists
    answer = sign_in(client, "ADA")  # the name in any case
    assert answer.status_code == 200 and answer.json()["account"]["name"] == "Ada"
    second = client.cookies.get(SESSION)
    assert second and second != first
    assert client.get("/api/me", headers=session(first or "")).json()["account"] is None
    out = client.post("/api/account/signout")
    assert set_cookies(out)[SESSION]["max-age"] == "0"
    assert client.get("/api/me", headers=session(second)).json()["account"] is None


@pytest.fixture
def strict_client(db_url: str) -> Iterator[TestClient]:
    with serving(db_url, signin_limit="6/minute", signin_account_limit="3/minute") as test_client:
        yield test_client


def test_sign_in_attempts_are_limited_per_account_and_per_address(strict_client: TestClient) -> None:
    client = strict_client
    sign_up(client, "Ada")
    new_browser(client)
    for _ in range(3):
        assert sign_in(client, "Ada", "guessing again").status_code == 401
    limited = sign_in(client, "Ada")  # even the right password, until the window passes
    assert (limited.status_code, limited.json()["code"]) == (429, "rate_limited")
    assert int(limited.headers["Retry-After"]) >= 1 and "for this account" in limited.json()["error"]
    assert client.get("/api/me").json()["account"] is None
    # Other names from this address: three more attempts, then the address is refused too.
    for name in ("Bob", "Carol", "Dan"):
        assert sign_in(client, name, "guessing").status_code == 401
    limited = sign_in(client, "Erin", "guessing")
    assert limited.status_code == 429 and "from this address" in limited.json()["error"]


def test_a_password_change_needs_the_current_one_and_ends_other_sessions(client: TestClient) -> None:
    sign_up(client, "Ada")
    other = client.cookies.get(SESSION)  # "another browser" signed in: a second session
    new_browser(client)
    assert sign_in(client, "Ada").status_code == 200
    mine = client.cookies.get(SESSION)
    wrong = client.post("/api/account/password", json={"password": "nope nope",
                                                       "new_password": "battery staple"})
    assert (wrong.status_code, wrong.json()["code"]) == (401, "bad_credentials")
    short = client.post("/api/account/password", json={"password": "correct horse", "new_password": "short"})
    assert (short.status_code, short.json()["code"]) == (400, "bad_request")
    done = client.post("/api/account/password", json={"password": "correct horse",
                                                      "new_password": "battery staple"})
    assert done.status_code == 200
    assert client.cookies.get(SESSION) not in (mine, other)
    assert client.get("/api/me").json()["account"]["name"] == "Ada"
    for ended in (mine, other):
        assert client.get("/api/me", headers=session(ended or "")).json()["account"] is None
    new_browser(client)
    assert sign_in(client, "Ada").status_code == 401
    assert sign_in(client, "Ada", "battery staple").status_code == 200
    nobody = TestClient(client.app)  # not signed in at all
    refused = nobody.post("/api/account/password", json={"password": "a", "new_password": "bbbbbbbb"})
    assert (refused.status_code, refused.json()["code"]) == (401, "sign_in_required")


def test_a_players_seats_follow_them_to_another_browser(client: TestClient) -> None:
    sign_up(client, "Ada")
    created = client.post("/api/games?cookie=1", json={"game": "pylos", "seats": ["human", "open"]}).json()
    game = f"/api/games/{created['id']}"
    new_browser(client)
    joined = client.post(f"{game}/seats/1/join", json={"name": "Bob"})  # an outside client, no account
    bob = joined.json()["token"]
    doc = client.get(game).json()
    assert doc["seat"] is None and [s["name"] for s in doc["seats"]] == ["Ada", "Bob"]
    assert sign_in(client, "Ada").status_code == 200  # another browser: no seat cookie, only the account
    assert client.get(f"{game}/seats/mine").json()["seats"] == [0]
    assert client.get(game).json()["seat"] == 0
    assert client.post(f"{game}/moves", json={"move": "1a1", "ply": 0}).status_code == 200
    refused = client.post(f"{game}/seats/1/resign")
    assert (refused.status_code, refused.json()["code"]) == (403, "wrong_seat")
    assert client.post(f"{game}/moves", json={"move": "1d4"}, headers=bearer(bob)).status_code == 200


def test_personal_api_tokens(client: TestClient) -> None:
    guest = client.post("/api/account/guest")
    assert guest.status_code == 201
    refused = client.post("/api/me/tokens", json={"label": "bot"})
    assert (refused.status_code, refused.json()["code"]) == (401, "sign_in_required")  # guests have none
    sign_up(client, "Ada")
    answer = client.post("/api/me/tokens", json={"label": "my bot"})
    assert answer.status_code == 201
    entry = answer.json()
    token = entry["token"]
    assert token.startswith("lpt_") and entry["label"] == "my bot"
    listed = client.get("/api/me/tokens").json()["tokens"]
    assert [t["id"] for t in listed] == [entry["id"]] and "token" not in listed[0]
    created = client.post("/api/games?cookie=1", json={"game": "pylos", "seats": ["human", "human"]}).json()
    new_browser(client)  # an API client: the personal token only
    me = client.get("/api/me", headers=bearer(token)).json()["account"]
    assert me["name"] == "Ada"
    game = f"/api/games/{created['id']}"
    assert client.get(game, headers=bearer(token)).json()["seat"] == 0
    assert client.post(f"{game}/moves", json={"move": "1a1"}, headers=bearer(token)).status_code == 200
    # A game where the account holds no seat: read as a spectator, no move.
    other = create(client)
    assert client.get(f"/api/games/{other['id']}", headers=bearer(token)).json()["seat"] is None
    move = client.post(f"/api/games/{other['id']}/moves", json={"move": "1a1"}, headers=bearer(token))
    assert (move.status_code, move.json()["code"]) == (401, "token_required")
    # A token cannot make or list tokens: that is done on the player's page, signed in.
    minted = client.post("/api/me/tokens", json={}, headers=bearer(token))
    assert (minted.status_code, minted.json()["code"]) == (401, "sign_in_required")
    assert sign_in(client, "Ada").status_code == 200
    assert client.delete(f"/api/me/tokens/{entry['id']}").status_code == 204
    missing = client.delete(f"/api/me/tokens/{entry['id']}")
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
    new_browser(client)
    revoked = client.get(game, headers=bearer(token))
    assert (revoked.status_code, revoked.json()["code"]) == (401, "token_invalid")
    # A seat token still works as docs/design.md says.
    assert client.get(game, headers=bearer(tokens(created)[1])).json()["seat"] == 1


def test_rated_games_are_for_signed_in_players(client: TestClient) -> None:
    client.post("/api/account/guest")
    body = {"game": "pylos", "seats": ["human", "open"], "rated": True}
    refused = client.post("/api/games", json=body)
    assert (refused.status_code, refused.json()["code"]) == (401, "sign_in_required")
    sign_up(client, "Ada")
    mixed = client.post("/api/games", json={**body, "seats": ["human", "human"]})
    assert (mixed.status_code, mixed.json()["code"]) == (400, "bad_request")
    not_bool = client.post("/api/games", json={**body, "rated": "yes"})
    assert (not_bool.status_code, not_bool.json()["code"]) == (400, "bad_request")
    created = client.post("/api/games", json=body)
    assert created.status_code == 201
    game = f"/api/games/{created.json()['id']}"
    new_browser(client)
    anonymous = client.post(f"{game}/seats/1/join", json={})
    assert (anonymous.status_code, anonymous.json()["code"]) == (401, "sign_in_required")
    client.post("/api/account/guest")
    as_guest = client.post(f"{game}/seats/1/join", json={})
    assert (as_guest.status_code, as_guest.json()["code"]) == (401, "sign_in_required")
    sign_up(client, "Bob")
    assert client.post(f"{game}/seats/1/join", json={}).status_code == 200
    assert client.get(game).json()["status"] == "playing"


def test_another_sites_page_cannot_use_the_session(client: TestClient) -> None:
    sign_up(client, "Ada")
    evil = {"Origin": "https://evil.example"}
    for path, body in [("/api/account/signout", None), ("/api/me/name", {"name": "Mallory"}),
                       ("/api/me/tokens", {"label": "x"}), ("/api/account/signin", {"name": "a",
                                                                                    "password": "b"})]:
        answer = client.post(path, json=body, headers=evil)
        assert (answer.status_code, answer.json()["code"]) == (403, "origin_refused"), path
    assert client.get("/api/me").json()["account"]["name"] == "Ada"


def test_email_settings(client: TestClient) -> None:
    client.post("/api/account/guest")
    refused = client.post("/api/me/email", json={"email": "a@b.example", "notify": True})
    assert (refused.status_code, refused.json()["code"]) == (401, "sign_in_required")
    sign_up(client, "Ada")
    bad = client.post("/api/me/email", json={"email": "not an address", "notify": True})
    assert (bad.status_code, bad.json()["code"]) == (400, "bad_request")
    done = client.post("/api/me/email", json={"email": "ada@example.org", "notify": True}).json()["account"]
    assert (done["email"], done["notify_email"]) == ("ada@example.org", True)


def test_a_garbage_session_cookie_is_nobody(client: TestClient) -> None:
    assert client.get("/api/me", headers=session("x" * 300)).json() == {"account": None}
    created = create(client)
    doc = client.get(f"/api/games/{created['id']}", headers=session("nonsense"))
    assert doc.status_code == 200 and doc.json()["seat"] is None
