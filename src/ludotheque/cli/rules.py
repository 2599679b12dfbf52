"""``ludotheque rules GAME``: a game's rules page, in French or English, from its RULES.md."""

from __future__ import annotations

from importlib import resources
from typing import Annotated

import typer
from rich.markdown import Markdown

from ..core import info
from .common import LangOption, console, language, load_game


def rules_section(game_id: str, lang: str) -> str:
    """The ``## Français`` or ``## English`` section of a game's RULES.md.

    Raises ``ValueError`` for an unknown game.

    >>> rules_section("pylos", "en").startswith("## English")
    True
    """
    info(game_id)
    text = resources.files(f"ludotheque.games.{game_id}").joinpath("RULES.md").read_text("utf-8")
    heading = "## Français" if lang == "fr" else "## English"
    start = text.index(heading)
    following = text.find("\n## ", start + len(heading))
    return text[start : following if following != -1 else len(text)].strip()


def rules(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="pylos, imbrication, expion or plimil.")],
    lang: LangOption = None,
) -> None:
    """Print the rules of GAME with every decision taken where the rulebook is silent."""
    words = language(lang)
    load_game(game_id, None, None, words)
    console.print(Markdown(rules_section(game_id, words)))
