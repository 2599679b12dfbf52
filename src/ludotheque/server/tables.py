"""The database schema (SQLAlchemy Core); Alembic migrations in ``migrations/`` create it.

>>> from ludotheque.server import (  # on this metadata too
...     analysis_tables, club_tables, friend_tables, lesson_tables, moderation_tables, puzzle_tables,
...     tournament_tables)
>>> sorted(metadata.tables)  # doctest: +NORMALIZE_WHITESPACE
['accounts', 'analyses', 'analysis_jobs', 'api_tokens', 'blocks', 'challenges', 'chat', 'chat_mutes',
 'club_chat', 'club_members', 'clubs', 'follows', 'games', 'hidden_chat', 'hints', 'lesson_progress',
 'login_sessions', 'moderation_log', 'moves', 'presence', 'puzzle_attempts', 'puzzle_ratings',
 'puzzle_scores', 'rating_history', 'ratings', 'reports', 'sanctions', 'seats', 'seeks',
 'tournament_entries', 'tournament_pairings', 'tournaments']
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)

metadata = MetaData()


def _account_id(*, primary_key: bool = False, index: bool = False) -> Column[str]:
    """The column of an account's row in another table (dropped with the account)."""
    return Column("account_id", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False,
                  primary_key=primary_key, index=index)

games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("variant", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    # The seed of new_state: with the moves it replays the game exactly.
    Column("seed", BigInteger, nullable=False),
    Column("rules_version", Integer, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("result", Text),
    Column("clock", Text),  # the clock's settings (JSON), null without a clock
    Column("clock_running", Integer),
    Column("clock_started", Float),  # wall-clock start of the running turn (epoch seconds)
    Column("draw_offer", Text, nullable=False, default="[]"),
    Column("rematch", String(32)),
    Column("rematch_of", String(32)),
    # A digest of the creator's address: the bots' queue is fair between owners.
    Column("owner", String(32)),
    Column("created", String(32), nullable=False),
    Column("started", String(32)),
    Column("ended", String(32)),
    Column("updated", Float, nullable=False, index=True),
    # The seat to move while the game is played (null otherwise): "your turn" lists read it.
    Column("to_move", Integer),
    # Rated games change their players' ratings once over; casual ones do not.
    Column("rated", Boolean, nullable=False, default=False, server_default=false()),
    # Games of guests untouched for a long time leave every list (never deleted if rated).
    Column("archived", Boolean, nullable=False, default=False, server_default=false()),
    # The account that created the game (the lobby names it beside an open game).
    Column("creator", String(32), ForeignKey("accounts.id", ondelete="SET NULL")),
    # Bumped by every stored change: a worker whose copy is older reads the game again.
    Column("version", Integer, nullable=False, default=0, server_default="0"),
    # When the running seat's flag falls (epoch seconds), null when no clock runs: any worker
    # ends an overdue game, so a worker's death never stops a clock.
    Column("deadline", Float, index=True),
    # Until when a worker holds the bot's move to think (epoch seconds); another one takes it after.
    Column("bot_lease", Float),
)

seats = Table(
    "seats",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("name", String(64), nullable=False),
    Column("level", String(32)),
    Column("token_hash", String(64), index=True),
    Column("bot_seed", BigInteger),
    Column("remaining_ms", BigInteger),
    # The hash of an invite seat's code, kept once claimed (a second claim is told so).
    Column("invite_hash", String(64)),
    # The account (player or guest) that holds the seat: from any of its browsers.
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="SET NULL"), index=True),
)

moves = Table(
    "moves",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("text", String(1000), nullable=False),
    Column("played", Float, nullable=False),
)

# People: players (a name and an Argon2 password hash) and guests (a generated name, no password).
accounts = Table(
    "accounts",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(40), nullable=False),
    # The name folded for comparison: two accounts never differ by case only.
    Column("name_key", String(40), nullable=False, unique=True),
    # What the name looks like (its TR39 confusables skeleton): no name passes for another one.
    Column("name_skeleton", String(255), nullable=False),
    Column("password_hash", Text),
    Column("is_guest", Boolean, nullable=False),
    Column("email", String(254)),
    Column("notify_email", Boolean, nullable=False, default=False, server_default=false()),
    # The address is mailed (notifications) only once its owner opened the link sent to it:
    # the hash of that link's single-use token, and until when it works.
    Column("email_verified", Boolean, nullable=False, default=False, server_default=false()),
    Column("email_token_hash", String(64)),
    Column("email_token_expires", Float),
    Column("created", String(32), nullable=False),
    Column("seen", Float, nullable=False, index=True),
    # Moderators see the moderation page and act on reports (``ludotheque moderator NAME``).
    Column("moderator", Boolean, nullable=False, default=False, server_default=false()),
    UniqueConstraint("name_skeleton", name="uq_accounts_name_skeleton"),
    UniqueConstraint("email_token_hash", name="uq_accounts_email_token_hash"),
)

# Signed-in browsers: the hash of each session cookie's token.
login_sessions = Table(
    "login_sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    _account_id(index=True),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
)

# Personal API tokens (Authorization: Bearer lpt_...), created and revoked on the player's page.
api_tokens = Table(
    "api_tokens",
    metadata,
    Column("id", String(16), primary_key=True),
    _account_id(index=True),
    Column("label", String(40), nullable=False),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("created", String(32), nullable=False),
    Column("last_used", Float),
)

# A player's rating in one category (a game and player count, or the same against bots).
ratings = Table(
    "ratings",
    metadata,
    _account_id(primary_key=True),
    Column("category", String(48), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)

# Each rated game's effect on each of its players: the chart over time, and never twice.
rating_history = Table(
    "rating_history",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    _account_id(index=True),
    Column("category", String(48), nullable=False),
    Column("game_id", String(32), nullable=False),
    Column("before", Float, nullable=False),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("at", Float, nullable=False),
    UniqueConstraint("account_id", "game_id", name="uq_rating_history_account_game"),
)

# Chat lines, stored with their game; players and spectators talk in separate rooms.
chat = Table(
    "chat",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("room", String(16), nullable=False),
    Column("seat", Integer),
    Column("author", String(40), nullable=False),
    Column("text", String(500), nullable=False),
    Column("at", Float, nullable=False),
)

# A seat that no longer reads another seat's chat lines.
chat_mutes = Table(
    "chat_mutes",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("muted", Integer, primary_key=True),
)

# Players waiting to be matched: a game, its variant, player count, clock and a rating range.
seeks = Table(
    "seeks",
    metadata,
    Column("id", String(16), primary_key=True),
    _account_id(index=True),
    Column("game", String(32), nullable=False),
    Column("variant", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("clock", Text),
    Column("rated", Boolean, nullable=False),
    Column("rating_min", Integer),
    Column("rating_max", Integer),
    Column("created", Float, nullable=False),
)
