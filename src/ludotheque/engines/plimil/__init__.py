"""Plimil (2006): secret stems and blocks, captures that transform; rules in ``RULES.md``.

The declaration of the game's facts, from which the registry, the lobby, the rules pages, the
command line, the bots and the arena derive everything they say of Plimil.

>>> GAME.variant_name("setup10", "en")
'setup on 10 stems'
"""

from ...core.contract import GameInfo, ResultWords
from . import evaluate
from .board import VARIANTS
from .notation import Move
from .rules import PlimilGame, PlimilState

GAME = GameInfo(
    id="plimil",
    title={"fr": "Plimil", "en": "Plimil"},
    summary={
        "fr": "Les blocs changent de couleur sur des tiges cachées : capturez, tournez le plateau, "
        "gardez plus de blocs de votre couleur.",
        "en": "Blocks change colour on hidden stems: capture, turn the board, keep more of your colour.",
    },
    player_counts=(2,),
    default_players=2,
    variants=VARIANTS,
    default_variant="standard",
    rules_version=1,
    make=PlimilGame,
    max_plies=5000,
    package=__name__,
    variant_names={
        "standard": {"fr": "standard", "en": "standard"},
        "setup10": {"fr": "préparation sur 10 tiges", "en": "setup on 10 stems"},
        "open": {"fr": "ouverte (rien de caché)", "en": "open (nothing hidden)"},
    },
    phase_names={"setup": {"fr": "préparation", "en": "setup"}},
    reasons={
        "rule_of_7": ResultWords({"fr": "règle des 7", "en": "rule of 7"}),
        "two_passes": ResultWords({"fr": "deux passes de suite", "en": "two passes in a row"}),
        "repetition": ResultWords({"fr": "position répétée", "en": "repeated position"}),
        "hundred_plies": ResultWords(
            {"fr": "100 coups sans changement de couleur", "en": "100 moves without a colour change"}
        ),
    },
    levels=evaluate.LEVELS,
    evaluator=evaluate.evaluate,
    kernel=f"{__name__}.kernel",
    actions=f"{__name__}.actions",
)
PlimilGame.info = GAME

__all__ = ["GAME", "Move", "PlimilGame", "PlimilState"]
