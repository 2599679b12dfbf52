"""Moderation through its JSON API, on SQLite and PostgreSQL: only moderators (granted by
``ludotheque moderator``) read the queue and act; reports; each action's effect (a suspended
player cannot sign in, use a token or move, their sockets close and their seeks go; a muted one
cannot chat; a hidden line is gone from the history and replaced live; a warning reaches the
player) and its audit row."""

from __future__ import annotations

from typing import Any

from ..server.helpers import bearer, tokens
from ..server.test_accounts import sign_in
from ..server.test_people_credentials import read_until_closed
from .conftest import People, grant

REASON = {"reason": "insults in the chat"}


def log_actions(people: People) -> list[tuple[str, str, str]]:
    entries = people.client.get("/api/moderation/log", headers=people.as_("Mod")).json()["entries"]
    return [(entry["moderator"], entry["action"], entry["target"]) for entry in entries]


def act(people: People, name: str, action: str, **body: Any) -> Any:
    return people.client.post(f"/api/moderation/players/{name}/{action}", json={**REASON, **body},
                              headers=people.as_("Mod"))


def test_only_moderators_moderate_and_reports_reach_the_queue(people: People) -> None:
    client = people.client
    assert client.get("/api/me", headers=people.as_("Mod")).json()["account"]["moderator"] is True
    for who, status, code in [(None, 401, "sign_in_required"), ("Ada", 403, "forbidden")]:
        for method, path in [("GET", "/api/moderation/reports"), ("GET", "/api/moderation/log"),
                             ("GET", "/api/moderation/players/Bob"),
                             ("POST", "/api/moderation/players/Bob/suspend"),
                             ("POST", "/api/moderation/chat/1/hide")]:
            answer = client.request(method, path, headers=people.as_(who), json={**REASON, "minutes": 5})
            assert (answer.status_code, answer.json()["code"]) == (status, code), (who, path)
        assert client.get("/admin/", headers=people.as_(who)).status_code == 403
    # Anyone with a session reports; nobody without one.
    assert client.post("/api/reports", json={"player": "Bob", "reason": "x"}).status_code == 401
    refused = client.post("/api/reports", json={"player": "Nobody", "reason": "x"}, headers=people.as_("Ada"))
    assert (refused.status_code, refused.json()["code"]) == (404, "not_found")
    body = {"player": "bob", "reason": "rude", "chat_line": None, "game": None}
    sent = client.post("/api/reports", json=body,
                       headers=people.as_("Ada"))
    assert sent.status_code == 201 and sent.json()["report"]["player_name"] == "Bob"
    queue = client.get("/api/moderation/reports", headers=people.as_("Mod")).json()["reports"]
    assert [(report["reporter_name"], report["player_name"], report["reason"]) for report in queue] == [
        ("Ada", "Bob", "rude")]
    handled = client.post(f"/api/moderation/reports/{queue[0]['id']}/handle", json={"reason": "talked"},
                          headers=people.as_("Mod"))
    assert handled.status_code == 200
    assert client.get("/api/moderation/reports", headers=people.as_("Mod")).json()["reports"] == []
    done = client.get("/api/moderation/reports?status=handled", headers=people.as_("Mod")).json()["reports"]
    assert done[0]["handled_by"] == "Mod" and done[0]["status"] == "handled"
    # A few reports a minute, then 429.
    codes = [client.post("/api/reports", json={"player": "Bob", "reason": "again"},
                         headers=people.as_("Ada")).status_code for _ in range(5)]
    assert codes[-1] == 429 and codes[0] == 201
    assert log_actions(people)[:1] == [("Mod", "handle_report", "Bob")]
    # The role is taken back by the command; the server reads it again within seconds (its
    # resolutions are cached 10 s: the wait is skipped here).
    assert "no longer" in grant(people.db, "Mod", revoke=True)
    client.app.state.people.forget()  # type: ignore[attr-defined]
    assert client.get("/api/moderation/log", headers=people.as_("Mod")).status_code == 403


def test_a_suspended_player_cannot_sign_in_play_or_seek_and_their_sockets_close(people: People) -> None:
    client = people.client
    game = client.post("/api/games", json={"game": "pylos", "seats": ["human", "human"]},
                       headers=people.as_("Bob")).json()
    seat_tokens = tokens(game)
    move = f"/api/games/{game['id']}/moves"
    token = client.post("/api/me/tokens", json={"label": "bot"}, headers=people.as_("Bob")).json()["token"]
    seek = client.post("/api/seeks", json={"game": "pylos"}, headers=people.as_("Bob"))
    assert seek.status_code == 201 and seek.json()["matched"] is False
    client.cookies.clear()
    with client.websocket_connect("/api/me/ws", headers=people.as_("Bob")) as mine, \
            client.websocket_connect(f"/api/me/ws?token={token}") as scripted:
        assert mine.receive_json()["type"] == "turns" and scripted.receive_json()["type"] == "turns"
        answer = act(people, "Bob", "suspend", minutes=60)
        assert answer.status_code == 200 and answer.json()["entry"]["action"] == "suspend"
        assert read_until_closed(mine)[1] == 4401 and read_until_closed(scripted)[1] == 4401
    assert client.get("/api/seeks").json()["seeks"] == []
    refused = sign_in(client, "Bob")
    assert refused.status_code == 403 and refused.json()["code"] == "suspended"
    assert "until 20" in refused.json()["error"] and "UTC" in refused.json()["error"]
    assert client.get("/api/me", headers=bearer(token)).json()["code"] == "token_invalid"  # ended
    assert client.get("/api/me", headers=people.as_("Bob")).json()["account"] is None  # session ended
    moved = client.post(move, json={"move": "1a1"}, headers=bearer(seat_tokens[0]))
    assert (moved.status_code, moved.json()["code"]) == (403, "suspended")
    # Lifted: Bob signs in and plays again.
    assert act(people, "Bob", "unsuspend").status_code == 200
    client.cookies.clear()
    assert sign_in(client, "Bob").status_code == 200
    client.cookies.clear()
    moved = client.post(move, json={"move": "1a1"}, headers=bearer(seat_tokens[0]))
    assert moved.status_code == 200
    assert act(people, "Bob", "unsuspend").status_code == 404  # nothing in force any more
    # Closed for good: the same refusals, with their own code.
    assert act(people, "Bob", "close").status_code == 200
    assert sign_in(client, "Bob").json()["code"] == "account_closed"
    assert log_actions(people)[:3] == [("Mod", "close", "Bob"), ("Mod", "unsuspend", "Bob"),
                                       ("Mod", "suspend", "Bob")]
    assert act(people, "Mod", "suspend", minutes=5).status_code == 400  # not oneself


def test_a_seat_socket_opened_before_a_suspension_plays_no_more(people: People) -> None:
    client = people.client
    game = client.post("/api/games", json={"game": "pylos", "seats": ["human", "human"]},
                       headers=people.as_("Bob")).json()
    with client.websocket_connect(f"/api/games/{game['id']}/ws?token={tokens(game)[0]}") as seat_socket:
        assert seat_socket.receive_json()["seat"] == 0
        assert act(people, "Bob", "suspend", minutes=60).status_code == 200
        seat_socket.send_json({"type": "move", "move": "1a1"})
        refused = seat_socket.receive_json()
        assert (refused.get("type"), refused.get("code")) == ("error", "suspended"), refused
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == []


def test_a_suspension_ends_the_players_challenges(people: People) -> None:
    client = people.client
    client.cookies.clear()
    made = client.post("/api/players/Ada/challenge", json={"game": "pylos"}, headers=people.as_("Bob"))
    assert made.status_code == 201, made.text
    waiting = client.get("/api/friends", headers=people.as_("Ada")).json()["received"]
    assert [entry["id"] for entry in waiting] == [made.json()["id"]]
    assert act(people, "Bob", "suspend", minutes=60).status_code == 200
    assert client.get("/api/friends", headers=people.as_("Ada")).json()["received"] == []
    accepted = client.post(f"/api/challenges/{made.json()['id']}/accept", headers=people.as_("Ada"))
    assert (accepted.status_code, accepted.json()["code"]) == (409, "challenge_closed")


def test_mutes_hidden_lines_and_warnings(people: People) -> None:
    client = people.client
    game = client.post("/api/games", json={"game": "pylos", "seats": ["human", "human"]},
                       headers=people.as_("Bob")).json()
    chat = f"/api/games/{game['id']}/chat"
    seat = bearer(tokens(game)[0])
    line = client.post(chat, json={"room": "players", "text": "you fool"}, headers=seat).json()["line"]
    kept = client.post(chat, json={"room": "players", "text": "good game"}, headers=seat).json()["line"]
    reported = client.post("/api/reports", json={"player": "Bob", "reason": "insult", "chat_line": line["id"],
                                                 "game": game["id"]}, headers=people.as_("Ada"))
    assert reported.json()["report"]["chat_text"] == "you fool"
    client.cookies.clear()
    with client.websocket_connect(f"/api/games/{game['id']}/ws?token={tokens(game)[1]}") as reader, \
            client.websocket_connect("/api/me/ws", headers=people.as_("Bob")) as mine:
        assert reader.receive_json()["seat"] == 1 and mine.receive_json()["type"] == "turns"
        hidden = client.post(f"/api/moderation/chat/{line['id']}/hide", json=REASON,
                             headers=people.as_("Mod"))
        assert hidden.status_code == 200
        message = reader.receive_json()
        assert message["type"] == "chat" and message["line"]["id"] == line["id"]
        assert message["line"]["hidden"] is True and message["line"]["text"] == ""
        assert act(people, "Bob", "warn").status_code == 200
        warning = next(message for message in (mine.receive_json() for _ in range(5))
                       if message["type"] == "warning")
        assert warning["warning"]["reason"] == REASON["reason"]
    history = client.get(f"{chat}?room=players", headers=seat).json()["lines"]
    assert [(entry["id"], entry["text"], entry.get("hidden", False)) for entry in history] == [
        (line["id"], "", True), (kept["id"], "good game", False)]
    # The warning waits on the player's pages until they saw it.
    warnings = client.get("/api/me", headers=people.as_("Bob")).json()["warnings"]
    assert [entry["reason"] for entry in warnings] == [REASON["reason"]]
    seen = client.post("/api/me/warnings/seen", json={"ids": [warnings[0]["id"]]}, headers=people.as_("Bob"))
    assert seen.json() == {"seen": 1}
    assert client.get("/api/me", headers=people.as_("Bob")).json()["warnings"] == []
    # Muted: no chat, with the end date; unmuted: chat again.
    assert act(people, "Bob", "mute").json()["code"] == "bad_request"  # a mute has a duration
    assert act(people, "Bob", "mute", minutes=10).status_code == 200
    refused = client.post(chat, json={"room": "players", "text": "hello"}, headers=seat)
    assert refused.status_code == 403 and refused.json()["code"] == "muted"
    assert "until 20" in refused.json()["error"]
    spectator = client.post(chat, json={"room": "spectators", "text": "hi"}, headers=people.as_("Bob"))
    assert spectator.json()["code"] == "muted"
    assert act(people, "Bob", "unmute").status_code == 200
    assert client.post(chat, json={"room": "players", "text": "sorry"}, headers=seat).status_code == 201
    # The player's file: games, chat (hidden lines with their text, marked), sanctions, reports.
    file = client.get("/api/moderation/players/Bob", headers=people.as_("Mod")).json()
    assert [entry["id"] for entry in file["games"]] == [game["id"], game["id"]]  # both seats are his
    lines = {(entry["text"], entry["hidden"]) for entry in file["chat"]}
    assert lines >= {("you fool", True), ("sorry", False)}
    sanctions = [(entry["kind"], entry["in_force"]) for entry in file["sanctions"]]
    assert sanctions == [("mute", False), ("warn", False)]
    assert file["reports"][0]["chat_text"] == "you fool"
    actions = log_actions(people)
    assert actions[:4] == [("Mod", "unmute", "Bob"), ("Mod", "mute", "Bob"), ("Mod", "warn", "Bob"),
                           ("Mod", "hide_line", "Bob")]
    entry = client.get("/api/moderation/log", headers=people.as_("Mod")).json()["entries"][3]
    assert entry["detail"]["text"] == "you fool" and entry["reason"] == REASON["reason"]
