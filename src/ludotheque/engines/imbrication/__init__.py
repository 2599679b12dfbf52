"""Imbrication: place pieces, obey nine action tiles over five rounds, enclose territory;
rules in ``RULES.md``.

The declaration of the game's facts, from which the registry, the lobby, the rules pages, the
command line, the bots and the arena derive everything they say of Imbrication.

>>> GAME.phase_name("act", "fr")
'action de la tuile'
"""

from ...core.contract import GameInfo, ResultWords
from . import evaluate
from .board import OPENING_PLACEMENTS, ROUNDS, TURNS_PER_ROUND
from .notation import Move
from .rules import ImbricationGame, ImbricationState

GAME = GameInfo(
    id="imbrication",
    title={"fr": "Imbrication", "en": "Imbrication"},
    summary={
        "fr": "Posez vos pions, révélez les tuiles d'action et encerclez le plus de territoire "
        "en cinq tours.",
        "en": "Place pieces, reveal action tiles and enclose the most territory in five rounds.",
    },
    player_counts=(2,),
    default_players=2,
    variants=("standard",),
    default_variant="standard",
    rules_version=1,
    make=ImbricationGame,
    # 5 rounds × (4 placements + 9 turns of at most 2 moves): no game is longer.
    max_plies=ROUNDS * (OPENING_PLACEMENTS + 2 * TURNS_PER_ROUND),
    package=__name__,
    kernel=f"{__name__}.kernel",
    actions=f"{__name__}.actions",
    variant_names={"standard": {"fr": "standard", "en": "standard"}},
    phase_names={
        "opening": {"fr": "poses d'ouverture", "en": "opening placements"},
        "place": {"fr": "pose d'un pion", "en": "placing a piece"},
        "act": {"fr": "action de la tuile", "en": "tile action"},
    },
    reasons={
        "territory": ResultWords({"fr": "plus de territoire", "en": "more territory"}),
        "pieces": ResultWords({
            "fr": "territoire égal, plus de pions sur le plateau",
            "en": "equal territory, more pieces on the board",
        }),
        "draw": ResultWords({"fr": "territoire et pions à égalité", "en": "equal territory and pieces"}),
    },
    levels=evaluate.LEVELS,
    evaluator=evaluate.evaluate,
)
ImbricationGame.info = GAME

__all__ = ["GAME", "ImbricationGame", "ImbricationState", "Move"]
