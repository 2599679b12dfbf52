"""Nim, the fifth game: declared here as an installed distribution would declare it, and
registered only through the ``ludotheque.games`` entry-point group (see ``test_fifth_game.py``).
It ships its ``RULES.md`` and nothing for the pages or the terminal: the generic boards draw it.

>>> GAME.reason_text("last_match_misere", "en", loser="Player A")
'Player A had to take the last match'
"""

from ludotheque.core.contract import GameInfo, ResultWords

from .rules import VARIANTS, Move, NimGame, NimState, evaluate

GAME = GameInfo(
    id="nim",
    title={"fr": "Nim", "en": "Nim"},
    summary={
        "fr": "Trois tas d'allumettes : prenez-en autant que vous voulez dans un tas, la dernière décide.",
        "en": "Three heaps of matches: take as many as you like from one heap; the last one decides.",
    },
    player_counts=(2, 3),
    default_players=2,
    variants=VARIANTS,
    default_variant="standard",
    rules_version=1,
    make=NimGame,
    max_plies=3 * 7,
    package=__name__,
    variant_names={
        "standard": {"fr": "standard", "en": "standard"},
        "misere": {"fr": "misère (la dernière perd)", "en": "misère (the last one loses)"},
    },
    reasons={
        "last_match": ResultWords({"fr": "dernière allumette prise", "en": "took the last match"}),
        "last_match_misere": ResultWords(
            {"fr": "la dernière allumette a perdu", "en": "the last match lost"},
            {"fr": "{loser} a dû prendre la dernière allumette", "en": "{loser} had to take the last match"},
        ),
    },
    evaluator=evaluate,
)
NimGame.info = GAME

__all__ = ["GAME", "Move", "NimGame", "NimState"]
