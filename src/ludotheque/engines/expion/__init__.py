"""Ex*Pion (As d'Or 1990): two teams push the EX*PION and capture by flanking; rules in ``RULES.md``.

The declaration of the game's facts, from which the registry, the lobby, the rules pages, the
command line, the bots and the arena derive everything they say of Ex*Pion.

>>> GAME.id, GAME.player_counts, GAME.default_players
('expion', (2, 3, 4), 4)
"""

from ...core.contract import GameInfo, ResultWords
from . import evaluate
from .notation import Move
from .rules import VARIANTS, ExpionGame, ExpionState

GAME = GameInfo(
    id="expion",
    title={"fr": "Ex*Pion", "en": "Ex*Pion"},
    summary={
        "fr": "Quatre camps, deux équipes : capturez en encadrant et poussez l'EX*PION dans un camp adverse.",
        "en": "Four camps, two teams: capture by flanking and push the EX*PION into an enemy camp.",
    },
    player_counts=(2, 3, 4),
    default_players=4,
    variants=VARIANTS,
    default_variant="standard",
    rules_version=1,
    make=ExpionGame,
    max_plies=5000,
    package=__name__,
    variant_names={"standard": {"fr": "standard", "en": "standard"}},
    reasons={
        "expion_in_camp": ResultWords(
            {"fr": "l'EX*PION est entré dans un camp adverse", "en": "the EX*PION entered an enemy camp"}
        ),
        "no_marbles": ResultWords(
            {"fr": "plus de billes", "en": "no marbles left"},
            {"fr": "{loser} n'a plus de billes", "en": "{loser} has no marbles left"},
        ),
        "no_progress": ResultWords(
            {"fr": "200 coups sans prise ni poussée", "en": "200 moves without a capture or push"}
        ),
        "blocked": ResultWords({"fr": "plus aucun coup possible", "en": "no move left"}),
        "repetition": ResultWords({"fr": "position répétée", "en": "repeated position"}),
    },
    levels=evaluate.LEVELS,
    evaluator=evaluate.evaluate,
    kernel=f"{__name__}.kernel",
    actions=f"{__name__}.actions",
)
ExpionGame.info = GAME

__all__ = ["GAME", "ExpionGame", "ExpionState", "Move"]
