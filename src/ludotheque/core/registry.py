"""The registry of games, built from each game package's ``GAME`` declaration.

A package under ``ludotheque.games`` that exports ``GAME`` (a :class:`GameInfo`) is registered
by itself: no list to edit when a game is added.

>>> "pylos" in games()
True
>>> load("pylos").variant
'standard'
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from .contract import Game, GameInfo
from .errors import UnknownGameError


@cache
def _infos() -> dict[str, GameInfo]:
    # Imported by name: the attribute ``ludotheque.games`` is the function, not this package.
    games_package = importlib.import_module("ludotheque.games")
    found: dict[str, GameInfo] = {}
    for module in pkgutil.iter_modules(games_package.__path__):
        if not module.ispkg:
            continue
        package = importlib.import_module(f"{games_package.__name__}.{module.name}")
        info = getattr(package, "GAME", None)
        if isinstance(info, GameInfo):
            found[info.id] = info
    return dict(sorted(found.items()))


def games() -> list[str]:
    """The ids of every registered game, sorted."""
    return list(_infos())


def info(game_id: str) -> GameInfo:
    """The declared facts of ``game_id``; raises ``UnknownGameError`` (a ``ValueError``)."""
    try:
        return _infos()[game_id]
    except (KeyError, TypeError):
        raise UnknownGameError(
            f"unknown game {game_id!r}; known games: {', '.join(_infos())}"
        ) from None


def load(game_id: str, variant: str | None = None, players: int | None = None) -> Game:
    """The game ``game_id`` with the given variant and player count (defaults when ``None``).

    Raises ``UnknownGameError`` (a ``ValueError``) for an unknown game, variant or player count.
    """
    facts = info(game_id)
    chosen_variant = facts.default_variant if variant is None else variant
    if chosen_variant not in facts.variants:
        raise UnknownGameError(
            f"{game_id}: unknown variant {variant!r}; variants: {', '.join(facts.variants)}"
        )
    chosen_players = facts.default_players if players is None else players
    if isinstance(chosen_players, bool) or chosen_players not in facts.player_counts:
        counts = ", ".join(str(n) for n in facts.player_counts)
        raise UnknownGameError(f"{game_id}: cannot be played by {players!r} players; allowed: {counts}")
    return _make(facts.id, chosen_variant, chosen_players)


@cache
def _make(game_id: str, variant: str, players: int) -> Game:
    return _infos()[game_id].make(variant, players)
