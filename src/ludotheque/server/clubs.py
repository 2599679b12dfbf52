"""Clubs: a named group of players with admins, a page, an invite link, its members' ratings table
and its own chat (the tables of ``club_tables``). Synchronous SQLAlchemy Core on the storage's
threads; ``club_routes`` puts it on HTTP and WebSocket (docs/clubs.md).

Rules kept here, whoever calls:

- a club's name is unique the way players' names are: by its look-alike skeleton
  (``accounts.name_skeleton``), so that no club passes for another;
- its creator is its first admin; a club always keeps an admin while it has members (the last
  admin cannot step down nor be removed; when the last admin leaves, the longest member becomes
  one); the last member leaving ends the club;
- an open club is listed and joined by anyone; any club is joined through its invite link, whose
  code only admins read and renew (renewing ends the old link);
- members only read the members, the ratings table and the chat of a club that is not open.

>>> clean_club_name("  Les   Pylonautes ")
'Les Pylonautes'
>>> clean_club_name("x") is None, clean_club_name("Café ☕") is None
(True, True)
"""

from __future__ import annotations

import re
import secrets
import time
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from . import tables
from .accounts import has_bidi_control, name_key, name_skeleton, normal_name
from .chat import clean_line
from .club_tables import club_chat, club_members, clubs
from .errors import ApiError, quoted
from .friends import blocked_by
from .ratings import PROVISIONAL_DEVIATION

# Letters, digits, spaces and a little punctuation; a letter first; 3 to 40 characters.
_CLUB_NAME = re.compile(r"[^\W\d_][\w .'&-]{2,39}")
ADMIN, MEMBER = "admin", "member"
CHAT_HISTORY = 100
# Clubs one person may create (each one a name taken).
CLUBS_PER_PERSON = 20
CLUBS, MEMBERS, CHAT = clubs.c, club_members.c, club_chat.c
ACCOUNTS, RATINGS = tables.accounts.c, tables.ratings.c

__all__ = ["is_member"]


def clean_club_name(name: str) -> str | None:
    """``name`` normalised (NFKC, single spaces), if a club may bear it; else ``None``."""
    cleaned = " ".join(normal_name(name).split())
    if has_bidi_control(name) or not _CLUB_NAME.fullmatch(cleaned):
        return None
    return cleaned


def new_code() -> str:
    return secrets.token_urlsafe(12)


# -- membership -----------------------------------------------------------------------------------
def is_member(connection: Connection, club_id: str, account_id: str) -> bool:
    """Whether ``account_id`` is a member (admin or not) of club ``club_id``."""
    return role_of(connection, club_id, account_id) is not None


def role_of(connection: Connection, club_id: str, account_id: str | None) -> str | None:
    if account_id is None:
        return None
    role: str | None = connection.execute(select(MEMBERS.role).where(
        MEMBERS.club_id == club_id, MEMBERS.account_id == account_id)).scalar()
    return role


def club_row(connection: Connection, club_id: str) -> Any:
    """The club's row; 404 when there is no such club."""
    row = connection.execute(select(clubs).where(CLUBS.id == club_id)).first()
    if row is None:
        raise ApiError(404, f"no club {quoted(club_id)}", "not_found")
    return row


def require_admin(connection: Connection, club_id: str, account_id: str) -> Any:
    row = club_row(connection, club_id)
    role = role_of(connection, club_id, account_id)
    if role is None:
        raise ApiError(403, "you are not a member of this club", "not_member")
    if role != ADMIN:
        raise ApiError(403, "only the club's admins may do this", "not_admin")
    return row


def require_member(connection: Connection, club_id: str, account_id: str | None) -> Any:
    row = club_row(connection, club_id)
    if role_of(connection, club_id, account_id) is None:
        raise ApiError(403, "only the club's members may do this", "not_member")
    return row


def admins(connection: Connection, club_id: str) -> int:
    return connection.execute(select(func.count()).select_from(club_members).where(
        MEMBERS.club_id == club_id, MEMBERS.role == ADMIN)).scalar() or 0


# -- creating, joining, leaving -----------------------------------------------------------------------
def create(connection: Connection, creator: str, name: str, description: str, is_open: bool) -> str:
    """A new club of ``creator`` (its admin); 400 for a bad name, 409 ``name_taken`` for a name
    that another club has or looks like."""
    cleaned = clean_club_name(name)
    if cleaned is None:
        raise ApiError(400, "a club's name has 3 to 40 letters, digits, spaces or .'&_-, and starts with a "
                       "letter", "bad_request")
    held = connection.execute(select(func.count()).select_from(club_members).where(
        MEMBERS.account_id == creator, MEMBERS.role == ADMIN)).scalar() or 0
    if held >= CLUBS_PER_PERSON:
        raise ApiError(409, f"you are an admin of {CLUBS_PER_PERSON} clubs already", "bad_request")
    club_id = secrets.token_urlsafe(6)
    try:
        with connection.begin_nested():
            connection.execute(insert(clubs).values(
                id=club_id, name=cleaned, name_key=name_key(cleaned)[:40],
                name_skeleton=name_skeleton(cleaned),
                description=(clean_line(description) or "")[:500], open=is_open, invite_code=new_code(),
                created=time.time()))
    except IntegrityError:
        raise ApiError(409, f"a club named {quoted(cleaned)}, or one that looks like it, exists already",
                       "name_taken") from None
    connection.execute(insert(club_members).values(club_id=club_id, account_id=creator, role=ADMIN,
                                                   joined=time.time()))
    return club_id


def describe(connection: Connection, club_id: str, admin: str, description: str | None,
             is_open: bool | None) -> None:
    """An admin changes the club's description or whether it is open."""
    require_admin(connection, club_id, admin)
    values: dict[str, Any] = {}
    if description is not None:
        values["description"] = (clean_line(description) or "")[:500]
    if is_open is not None:
        values["open"] = is_open
    if values:
        connection.execute(update(clubs).where(CLUBS.id == club_id).values(**values))


def join(connection: Connection, club_id: str, account_id: str, code: str | None) -> None:
    """``account_id`` joins: an open club freely, any club with its invite code (403
    ``invite_invalid`` otherwise); 409 ``already_joined`` for a member."""
    row = club_row(connection, club_id)
    if role_of(connection, club_id, account_id) is not None:
        raise ApiError(409, "you are a member of this club already", "already_joined")
    if not row.open and (code is None or not secrets.compare_digest(code, row.invite_code)):
        raise ApiError(403, "this club is joined through its invite link", "invite_invalid")
    try:
        with connection.begin_nested():
            connection.execute(insert(club_members).values(
                club_id=club_id, account_id=account_id, role=MEMBER, joined=time.time()))
    except IntegrityError:
        raise ApiError(409, "you are a member of this club already", "already_joined") from None


def club_by_code(connection: Connection, code: str) -> Any:
    row = connection.execute(select(clubs).where(CLUBS.invite_code == code)).first()
    if row is None:
        raise ApiError(404, "this invite link is unknown or was renewed", "invite_invalid")
    return row


def leave(connection: Connection, club_id: str, account_id: str) -> bool:
    """``account_id`` leaves; the longest member becomes admin when the last admin leaves; the
    club ends with its last member. Whether the club still exists."""
    role = role_of(connection, club_id, account_id)
    if role is None:
        club_row(connection, club_id)
        raise ApiError(403, "you are not a member of this club", "not_member")
    connection.execute(delete(club_members).where(
        MEMBERS.club_id == club_id, MEMBERS.account_id == account_id))
    left = connection.execute(select(MEMBERS.account_id).where(MEMBERS.club_id == club_id)
                              .order_by(MEMBERS.joined, MEMBERS.account_id)).scalars().all()
    if not left:
        connection.execute(delete(clubs).where(CLUBS.id == club_id))
        return False
    if role == ADMIN and admins(connection, club_id) == 0:
        connection.execute(update(club_members).where(
            MEMBERS.club_id == club_id, MEMBERS.account_id == left[0]).values(role=ADMIN))
    return True


def set_role(connection: Connection, club_id: str, admin: str, target: str, role: str) -> None:
    """An admin makes ``target`` (a member) an admin or a member again; 409 ``last_admin``."""
    require_admin(connection, club_id, admin)
    current = role_of(connection, club_id, target)
    if current is None:
        raise ApiError(404, "this player is not a member of the club", "not_found")
    if current == ADMIN and role == MEMBER and admins(connection, club_id) == 1:
        raise ApiError(409, "the club's last admin cannot step down: make another member admin first",
                       "last_admin")
    connection.execute(update(club_members).where(
        MEMBERS.club_id == club_id, MEMBERS.account_id == target).values(role=role))


def remove(connection: Connection, club_id: str, admin: str, target: str) -> None:
    """An admin removes a member (another admin too, never the last one; oneself: leave)."""
    require_admin(connection, club_id, admin)
    if target == admin:
        raise ApiError(400, "to leave the club, use POST /api/clubs/{id}/leave", "bad_request")
    current = role_of(connection, club_id, target)
    if current is None:
        raise ApiError(404, "this player is not a member of the club", "not_found")
    connection.execute(delete(club_members).where(MEMBERS.club_id == club_id, MEMBERS.account_id == target))


def renew_code(connection: Connection, club_id: str, admin: str) -> str:
    require_admin(connection, club_id, admin)
    code = new_code()
    connection.execute(update(clubs).where(CLUBS.id == club_id).values(invite_code=code))
    return code


# -- reading ----------------------------------------------------------------------------------------
def summary(row: Any, members: int, role: str | None) -> dict[str, Any]:
    return {"id": row.id, "name": row.name, "description": row.description, "open": bool(row.open),
            "members": members, "role": role}


def listing(connection: Connection, account_id: str | None) -> dict[str, Any]:
    """``/clubs``: the person's clubs, and the open clubs (most members first)."""
    counts: dict[str, int] = dict(connection.execute(
        select(MEMBERS.club_id, func.count()).group_by(MEMBERS.club_id)).all())
    mine_roles = dict(connection.execute(select(MEMBERS.club_id, MEMBERS.role).where(
        MEMBERS.account_id == account_id)).all()) if account_id else {}
    mine = connection.execute(select(clubs).where(CLUBS.id.in_(list(mine_roles)))
                              .order_by(CLUBS.name_key)).all() if mine_roles else []
    public = connection.execute(select(clubs).where(CLUBS.open.is_(True)).order_by(CLUBS.name_key)).all()
    listed_public = sorted((summary(row, counts.get(row.id, 0), mine_roles.get(row.id)) for row in public),
                           key=lambda club: -club["members"])
    return {"mine": [summary(row, counts.get(row.id, 0), mine_roles[row.id]) for row in mine],
            "open": listed_public}


def members_of(connection: Connection, club_id: str) -> list[Any]:
    return list(connection.execute(
        select(ACCOUNTS.id, ACCOUNTS.name, MEMBERS.role, MEMBERS.joined)
        .join(club_members, MEMBERS.account_id == ACCOUNTS.id)
        .where(MEMBERS.club_id == club_id).order_by(MEMBERS.role, ACCOUNTS.name_key)).all())


def ratings_table(connection: Connection, member_ids: list[str], names: dict[str, str]
                  ) -> dict[str, list[dict[str, Any]]]:
    """Per rating category (``pylos/2``, ``pylos/2/bots``...), the members rated in it, best first."""
    table: dict[str, list[dict[str, Any]]] = {}
    if not member_ids:
        return table
    rows = connection.execute(select(RATINGS.account_id, RATINGS.category, RATINGS.rating, RATINGS.deviation,
                                     RATINGS.games).where(RATINGS.account_id.in_(member_ids))).all()
    for row in sorted(rows, key=lambda found: (found.category, -found.rating)):
        table.setdefault(row.category, []).append({
            "name": names[row.account_id], "rating": round(row.rating), "games": row.games,
            "provisional": row.deviation > PROVISIONAL_DEVIATION})
    return table


def document(connection: Connection, club_id: str, viewer: str | None, code: str | None) -> dict[str, Any]:
    """The club's page: everyone reads an open club's, members any club's; with the club's
    invite code, a non-member reads its name and description (to join it)."""
    row = club_row(connection, club_id)
    role = role_of(connection, club_id, viewer)
    invited = code is not None and secrets.compare_digest(code, row.invite_code)
    members = members_of(connection, club_id)
    base = summary(row, len(members), role)
    if role is None and not row.open:
        if not invited:
            raise ApiError(403, "only the club's members read its page (or someone with its invite link)",
                           "not_member")
        return {**base, "invited": True}
    names = {member.id: member.name for member in members}
    listed = [{"name": member.name, "role": member.role, "joined": member.joined} for member in members]
    found = {**base, "invited": invited, "members_list": listed,
             "admins": [member.name for member in members if member.role == ADMIN],
             "ratings": ratings_table(connection, list(names), names)}
    if role == ADMIN:
        found["invite_code"] = row.invite_code
    return found


def member_id(connection: Connection, club_id: str, name: str) -> str:
    """The account id of the member named ``name``; 404 if no member is."""
    found: str | None = connection.execute(
        select(ACCOUNTS.id).join(club_members, MEMBERS.account_id == ACCOUNTS.id)
        .where(MEMBERS.club_id == club_id, ACCOUNTS.name_key == name_key(name))).scalar()
    if found is None:
        raise ApiError(404, f"no member {quoted(name)} in this club", "not_found")
    return found


# -- the chat ------------------------------------------------------------------------------------------
def line_document(row: Any) -> dict[str, Any]:
    return {"id": row.id, "author": row.author, "text": row.text, "at": row.at}


def chat_lines(connection: Connection, club_id: str, reader: str) -> list[dict[str, Any]]:
    """The last ``CHAT_HISTORY`` lines, oldest first, but those of people ``reader`` blocked."""
    require_member(connection, club_id, reader)
    hidden = blocked_by(connection, reader)
    rows = connection.execute(select(club_chat).where(CHAT.club_id == club_id)
                              .order_by(CHAT.id.desc()).limit(CHAT_HISTORY)).all()
    return [line_document(row) for row in reversed(rows) if row.account_id not in hidden]


def add_line(connection: Connection, club_id: str, writer: str, author: str, text: str) -> dict[str, Any]:
    """A member's new line (control characters removed; 1 to 500 characters)."""
    require_member(connection, club_id, writer)
    cleaned = clean_line(text)
    if cleaned is None or len(cleaned) > 500:
        raise ApiError(400, "a chat line has 1 to 500 characters", "bad_request")
    at = time.time()
    result = connection.execute(insert(club_chat).values(club_id=club_id, account_id=writer, author=author,
                                                         text=cleaned, at=at))
    return {"id": result.inserted_primary_key[0] if result.inserted_primary_key else None, "author": author,
            "text": cleaned, "at": at}
