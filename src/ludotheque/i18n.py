"""People-facing words in French and English, for the command line.

>>> text("your_turn", "fr", player=1)
'Au tour du joueur 1.'
>>> detect_language({"LANG": "en_GB.UTF-8"})
'en'
"""

from __future__ import annotations

import os
from collections.abc import Mapping

LANGUAGES = ("fr", "en")

MESSAGES: dict[str, dict[str, str]] = {
    "your_turn": {"fr": "Au tour du joueur {player}.", "en": "Player {player} to move."},
    "prompt": {"fr": "Joueur {player} ({name}) — votre coup", "en": "Player {player} ({name}) — your move"},
    "bot_thinking": {"fr": "{name} réfléchit…", "en": "{name} is thinking…"},
    "bot_played": {"fr": "{name} joue {move}.", "en": "{name} plays {move}."},
    "played": {"fr": "Joué : {move}", "en": "Played: {move}"},
    "bad_move": {"fr": "Coup refusé : {reason}", "en": "Move refused: {reason}"},
    "legal_moves": {"fr": "Coups légaux ({count}) :", "en": "Legal moves ({count}):"},
    "undone": {"fr": "Coup annulé.", "en": "Move taken back."},
    "nothing_to_undo": {"fr": "Rien à annuler.", "en": "Nothing to take back."},
    "saved": {"fr": "Partie enregistrée dans {path}", "en": "Game saved to {path}"},
    "save_failed": {"fr": "Impossible d'enregistrer : {reason}", "en": "Cannot save: {reason}"},
    "resigned": {"fr": "Le joueur {player} abandonne.", "en": "Player {player} resigns."},
    "game_over": {"fr": "Partie terminée : {outcome}", "en": "Game over: {outcome}"},
    "winner": {"fr": "victoire de {players}", "en": "won by {players}"},
    "draw": {"fr": "partie nulle", "en": "draw"},
    "scores": {"fr": "scores {scores}", "en": "scores {scores}"},
    "quit": {"fr": "Au revoir.", "en": "Goodbye."},
    "handover": {
        "fr": "Passez le clavier au joueur {player} ({name}), puis appuyez sur Entrée.",
        "en": "Hand the keyboard to player {player} ({name}), then press Enter.",
    },
    "evaluation": {
        "fr": "Évaluation de {name} pour le joueur {player} : {value:+.2f} ; meilleur coup {move}",
        "en": "{name}'s evaluation for player {player}: {value:+.2f}; best move {move}",
    },
    "no_details": {"fr": "Pas d'informations supplémentaires.", "en": "No further details."},
    "replay_position": {"fr": "Coup {ply}/{total} : {move}", "en": "Move {ply}/{total}: {move}"},
    "replay_start": {"fr": "Position de départ (0/{total})", "en": "Start position (0/{total})"},
    "replay_help": {
        "fr": "Entrée ou n : suivant · p : précédent · g N : aller au coup N · q : quitter",
        "en": "Enter or n: next · p: previous · g N: go to move N · q: quit",
    },
    "help": {
        "fr": (
            "Tapez un coup en notation (voir « coups »), ou une commande :\n"
            "  coups · aide · info · annuler · hasard · analyse · sauver [fichier] · abandon · quitter"
        ),
        "en": (
            "Type a move in notation (see 'moves'), or a command:\n"
            "  moves · help · info · undo · random · eval · save [file] · resign · quit"
        ),
    },
}


def text(key: str, lang: str, **values: object) -> str:
    """The message ``key`` in ``lang`` (English when the language is unknown)."""
    entry = MESSAGES[key]
    return entry.get(lang, entry["en"]).format(**values)


def detect_language(environ: Mapping[str, str] | None = None) -> str:
    """``fr`` when ``LANGUAGE``, ``LC_ALL`` or ``LANG`` starts with ``fr``, else ``en``."""
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LANG"):
        value = env.get(name, "")
        if value:
            return "fr" if value.lower().startswith("fr") else "en"
    return "en"
