"""``ludotheque rules GAME``: a game's rules page, in French or English, from the ``RULES.md`` of
the package that declares it (``GameInfo.package``)."""

from __future__ import annotations

from rich.markdown import Markdown

from ..core import info
from ..core.contract import rules_section
from .common import GameArgument, LangOption, console, language, load_game


def game_rules(game_id: str, lang: str) -> str:
    """The French or English rules of ``game_id`` as Markdown, under the game's title.

    Raises ``ValueError`` for an unknown game, ``FileNotFoundError`` when its package ships no
    ``RULES.md``.

    >>> game_rules("pylos", "en").startswith("# Pylos")
    True
    """
    facts = info(game_id)
    text = facts.rules_text()
    if text is None:
        raise FileNotFoundError(f"{game_id}: its package ships no RULES.md")
    return f"# {facts.title.get(lang, facts.title['en'])}\n\n{rules_section(text, lang).strip()}"


def rules(game_id: GameArgument, lang: LangOption = None) -> None:
    """Print the rules of GAME with every decision taken where the rulebook is silent."""
    words = language(lang)
    load_game(game_id, None, None, words)
    console.print(Markdown(game_rules(game_id, words)))
