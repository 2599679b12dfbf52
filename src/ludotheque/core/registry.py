"""The registry of games, built from each game package's ``GAME`` declaration.

A package under ``ludotheque.engines`` that exports ``GAME`` (a :class:`GameInfo`) is registered
by itself: no list to edit when a game is added. An installed distribution adds a game through the
``ludotheque.games`` entry-point group, naming its package (or its ``GameInfo``)::

    [project.entry-points."ludotheque.games"]
    nim = "nim_for_ludotheque"

>>> "pylos" in games()
True
>>> load("pylos").variant
'standard'
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from importlib.metadata import entry_points
from types import ModuleType

from .contract import Game, GameInfo
from .errors import UnknownGameError

ENTRY_POINT_GROUP = "ludotheque.games"


@cache
def _infos() -> dict[str, GameInfo]:
    found: dict[str, GameInfo] = {}
    for info in [*_builtin_infos(), *_installed_infos()]:
        if info.id in found:
            raise UnknownGameError(f"two games declare the id {info.id!r}")
        found[info.id] = info
    return dict(sorted(found.items()))


def _builtin_infos() -> list[GameInfo]:
    engines = importlib.import_module("ludotheque.engines")
    infos = []
    for module in pkgutil.iter_modules(engines.__path__):
        if module.ispkg:
            info = _declared(importlib.import_module(f"{engines.__name__}.{module.name}"))
            if info is not None:
                infos.append(info)
    return infos


def _installed_infos() -> list[GameInfo]:
    """The games that installed distributions add through the ``ludotheque.games`` group."""
    infos = []
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        info = _declared(entry.load())
        if info is None:
            raise UnknownGameError(f"entry point {entry.name!r} ({entry.value}) declares no GameInfo")
        infos.append(info)
    return infos


def _declared(target: object) -> GameInfo | None:
    """A package's ``GAME``, or the ``GameInfo`` itself."""
    if isinstance(target, ModuleType):
        target = getattr(target, "GAME", None)
    return target if isinstance(target, GameInfo) else None


def refresh() -> None:
    """Read the declarations again (after a distribution adding a game was installed)."""
    _infos.cache_clear()
    _make.cache_clear()


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
