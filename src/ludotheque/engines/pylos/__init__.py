"""Pylos (Gigamic): four-level pyramid of balls; rules in ``RULES.md``.

The declaration of the game's facts, from which the registry, the lobby, the rules pages, the
command line, the bots and the arena derive everything they say of Pylos.

>>> GAME.reason_text("empty_reserve", "en", loser="Light")
"Light's reserve is empty"
"""

from ...core.contract import GameInfo, ResultWords
from . import evaluate
from .notation import Move
from .rules import VARIANTS, PylosGame, PylosState

GAME = GameInfo(
    id="pylos",
    title={"fr": "Pylos", "en": "Pylos"},
    summary={
        "fr": "Empilez vos billes en pyramide : qui pose la dernière au sommet gagne.",
        "en": "Stack your balls into a pyramid: whoever places the last one on top wins.",
    },
    player_counts=(2,),
    default_players=2,
    variants=VARIANTS,
    default_variant="standard",
    rules_version=1,
    make=PylosGame,
    max_plies=3000,
    package=__name__,
    variant_names={
        "standard": {"fr": "standard", "en": "standard"},
        "kids": {"fr": "enfants", "en": "kids"},
        "advanced": {"fr": "avancée", "en": "advanced"},
    },
    reasons={
        "top": ResultWords({"fr": "sommet de la pyramide", "en": "top of the pyramid"}),
        "empty_reserve": ResultWords(
            {"fr": "plus de réserve", "en": "a reserve is empty"},
            {"fr": "réserve de {loser} épuisée", "en": "{loser}'s reserve is empty"},
        ),
        "repetition": ResultWords({"fr": "position répétée", "en": "repeated position"}),
    },
    levels=evaluate.LEVELS,
    evaluator=evaluate.evaluate,
    gain_detector=evaluate.immediate_gain,
    kernel=f"{__name__}.kernel",
    actions=f"{__name__}.actions",
)
PylosGame.info = GAME

__all__ = ["GAME", "Move", "PylosGame", "PylosState"]
