"""``ludotheque games``: every registered game with its variants and player counts (``--json`` too),
in the words its ``GameInfo`` declares.

>>> [entry["id"] for entry in catalogue()]
['expion', 'imbrication', 'plimil', 'pylos']
>>> pylos = catalogue()[-1]
>>> pylos["variants"], pylos["default_variant"], pylos["players"]
(['standard', 'kids', 'advanced'], 'standard', [2])
>>> pylos["variant_names"]["kids"]
{'fr': 'enfants', 'en': 'kids'}
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.table import Table

from ..core import games as game_ids
from ..core import info
from ..i18n import LANGUAGES
from .common import LangOption, console, language, print_table

WORDS = {
    "fr": {"title": "Jeux", "id": "jeu", "name": "nom", "variants": "variantes", "players": "joueurs",
           "summary": "en bref", "default": "par défaut : {value}"},
    "en": {"title": "Games", "id": "game", "name": "name", "variants": "variants", "players": "players",
           "summary": "summary", "default": "default: {value}"},
}


def catalogue() -> list[dict[str, Any]]:
    """Each game's declared facts, as JSON data (titles and summaries in both languages)."""
    entries = []
    for game_id in game_ids():
        facts = info(game_id)
        entries.append({
            "id": facts.id,
            "title": dict(facts.title),
            "summary": dict(facts.summary),
            "variants": list(facts.variants),
            "variant_names": {
                variant: {lang: facts.variant_name(variant, lang) for lang in LANGUAGES}
                for variant in facts.variants
            },
            "default_variant": facts.default_variant,
            "players": list(facts.player_counts),
            "default_players": facts.default_players,
        })
    return entries


def games(
    as_json: Annotated[bool, typer.Option("--json", help="Print the list as JSON.")] = False,
    lang: LangOption = None,
) -> None:
    """List the games with their variants and player counts (the defaults marked)."""
    chosen = language(lang)
    words = WORDS[chosen]
    entries = catalogue()
    if as_json:
        typer.echo(json.dumps(entries, indent=2, ensure_ascii=False))
        return
    table = Table(title=words["title"])
    for column in ("id", "name", "variants", "players", "summary"):
        table.add_column(words[column])
    for entry in entries:
        names = entry["variant_names"]
        variants = [variant if names[variant][chosen] == variant else f"{variant} — {names[variant][chosen]}"
                    for variant in entry["variants"]]
        table.add_row(
            entry["id"], entry["title"].get(chosen, entry["id"]),
            f"{', '.join(variants)}\n({words['default'].format(value=entry['default_variant'])})",
            f"{', '.join(map(str, entry['players']))}\n"
            f"({words['default'].format(value=entry['default_players'])})",
            entry["summary"].get(chosen, ""),
        )
    print_table(console, table)
