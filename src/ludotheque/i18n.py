"""People-facing words in French and English, for the command line.

French puts a space before ``:`` and ``;``, quotes with « » and writes a decimal comma; numbers
never read ``-0`` and a negative number has a true minus sign (U+2212).

>>> text("prompt", "fr", side="Clair", player=0)
'Clair (joueur 0) au trait > '
>>> detect_language({"LANG": "en_GB.UTF-8"})
'en'
>>> signed(-0.001), signed(0.25), signed(-3.0, digits=0), signed(float("-inf"), digits=0)
('0.00', '+0.25', '−3', '−∞')
>>> signed(-0.25, lang="fr"), number(12345.678, 1, "fr"), number(12345.678, 1, "en"), number(0.5, 3, "fr")
('−0,25', '12\u202f345,7', '12,345.7', '0,500')
>>> quote("1e9", "fr"), quote("1e9", "en")
('« 1e9 »', "'1e9'")
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping

from .core.errors import IllegalMoveError, InvalidMoveError

LANGUAGES = ("fr", "en")

MESSAGES: dict[str, dict[str, str]] = {
    # -- the game loop ------------------------------------------------------------------------------
    "prompt": {"fr": "{side} (joueur {player}) au trait > ", "en": "{side} (player {player}) to move > "},
    "start": {"fr": "{title} ({variant}, {players} joueurs) — {seats}",
              "en": "{title} ({variant}, {players} players) — {seats}"},
    "hint": {
        "fr": "Tapez un coup (par ex. {example}) ou « aide » pour les commandes.",
        "en": "Type a move (e.g. {example}) or 'help' for the commands.",
    },
    "seat": {"fr": "{side} : {who}", "en": "{side}: {who}"},
    "human": {"fr": "humain", "en": "human"},
    "bot_thinking": {"fr": "{side} ({level}) réfléchit…", "en": "{side} ({level}) is thinking…"},
    "bot_played": {"fr": "{side} ({level}) joue {move}.", "en": "{side} ({level}) plays {move}."},
    "bot_played_unsolved": {
        "fr": "{side} ({level}) joue {move} : position hors des tables ici, coup du niveau {fallback}.",
        "en": "{side} ({level}) plays {move}: a position outside the tables here, the {fallback} "
              "level's move.",
    },
    "played": {"fr": "Joué : {move}", "en": "Played: {move}"},
    "bad_move": {"fr": "Coup refusé : {reason}", "en": "Move refused: {reason}"},
    "legal_moves": {"fr": "Coups légaux ({count}) :", "en": "Legal moves ({count}):"},
    "undone": {"fr": "Coup annulé.", "en": "Move taken back."},
    "nothing_to_undo": {"fr": "Rien à annuler.", "en": "Nothing to take back."},
    "saved": {"fr": "Partie enregistrée dans {path}", "en": "Game saved to {path}"},
    "save_failed": {"fr": "Impossible d'enregistrer : {reason}", "en": "Cannot save: {reason}"},
    "resigned": {"fr": "{side} (joueur {player}) abandonne.", "en": "{side} (player {player}) resigns."},
    "confirm_resign": {
        "fr": "Abandonner la partie ? Tapez « oui » pour confirmer (autre chose : on continue) > ",
        "en": "Resign the game? Type 'yes' to confirm (anything else: play on) > ",
    },
    "not_resigned": {"fr": "Pas d'abandon : la partie continue.", "en": "No resignation: the game goes on."},
    "offer_save": {
        "fr": "Enregistrer la partie ? « oui » : {path} · ou un nom de fichier .json · Entrée : non > ",
        "en": "Save this game? 'yes': {path} · or a file name ending in .json · Enter: no > ",
    },
    "not_saved": {"fr": "Partie non enregistrée.", "en": "Game not saved."},
    "game_over": {"fr": "Partie terminée — {outcome}.", "en": "Game over — {outcome}."},
    "quit": {"fr": "Au revoir.", "en": "Goodbye."},
    "handover": {
        "fr": "Passez le clavier à {side} (joueur {player}), puis appuyez sur Entrée.",
        "en": "Hand the keyboard to {side} (player {player}), then press Enter.",
    },
    "evaluation": {
        "fr": "Évaluation au niveau {level} pour {side} : {value} ; meilleur coup {move}",
        "en": "{level}'s evaluation for {side}: {value}; best move {move}",
    },
    "expected_line": {"fr": "Suite attendue : {moves}", "en": "Expected line of play: {moves}"},
    "no_details": {"fr": "Pas d'informations supplémentaires.", "en": "No further details."},
    "last_moves": {"fr": "Derniers coups : {moves}", "en": "Last moves: {moves}"},
    "history": {"fr": "Coups joués ({count}) :", "en": "Moves played ({count}):"},
    "no_history": {"fr": "Aucun coup joué.", "en": "No move yet."},
    "takes_no_argument": {
        "fr": "La commande « {command} » ne prend pas d'argument.",
        "en": "The command '{command}' takes no argument.",
    },
    "unknown_level": {
        "fr": "Niveau inconnu {level} : choisissez {levels}.",
        "en": "Unknown level {level}: choose {levels}.",
    },
    "help": {
        "fr": (
            "Tapez un coup en notation, ou une commande :\n"
            "  coups · historique · info · regles · annuler · hasard · analyse [niveau] · "
            "sauver [fichier] · abandon · quitter · aide\n"
            "Notation :\n{notation}"
        ),
        "en": (
            "Type a move in notation, or a command:\n"
            "  moves · history · info · rules · undo · random · eval [level] · save [file] · "
            "resign · quit · help\n"
            "Notation:\n{notation}"
        ),
    },
    # -- results: who won, and the reasons every game shares (a game words its own, GameInfo) -------
    "wins": {"fr": "{side} gagne : {why}", "en": "{side} wins: {why}"},
    "draw": {"fr": "Partie nulle : {why}", "en": "Draw: {why}"},
    "reason_resign": {"fr": "abandon", "en": "resignation"},
    "reason_resign_loser": {"fr": "{side} abandonne", "en": "{side} resigned"},
    "reason_time": {"fr": "temps écoulé", "en": "time ran out"},
    "reason_time_loser": {"fr": "temps écoulé pour {side}", "en": "{side} ran out of time"},
    "reason_agreement": {"fr": "d'un commun accord", "en": "by agreement"},
    "reason_abandoned": {"fr": "partie abandonnée", "en": "abandoned"},
    "reason_abandoned_loser": {"fr": "{side} ne jouait plus", "en": "{side} stopped playing"},
    # -- move errors --------------------------------------------------------------------------------
    "invalid_move": {"fr": "{text} n'est pas un coup : {reason}", "en": "{text} is not a move: {reason}"},
    "illegal_move": {"fr": "{text} n'est pas permis : {reason}", "en": "{text} is not legal: {reason}"},
    "illegal_here": {"fr": "{text} n'est pas permis ici", "en": "{text} is not legal here"},
    # -- replay -------------------------------------------------------------------------------------
    "replay_position": {"fr": "Coup {ply}/{total} : {move}", "en": "Move {ply}/{total}: {move}"},
    "replay_start": {"fr": "Position de départ (0/{total})", "en": "Start position (0/{total})"},
    "replay_help": {
        "fr": "Entrée ou n : suivant · p : précédent · g N : aller au coup N · q : quitter",
        "en": "Enter or n: next · p: previous · g N: go to move N · q: quit",
    },
    "replay_unknown": {"fr": "Commande inconnue {command}.", "en": "Unknown command {command}."},
    "replay_outcome": {"fr": "Résultat : {outcome}.", "en": "Result: {outcome}."},
    "to_move": {"fr": "{side} au trait", "en": "{side} to move"},
    # -- boards -------------------------------------------------------------------------------------
    "board_to_move": {"fr": "au trait : {side}", "en": "to move: {side}"},
    "board_over": {"fr": "partie finie", "en": "game over"},
}


# The answers that say yes (to resign, to save), in either language.
YES = ("y", "yes", "o", "oui")


def text(key: str, lang: str, **values: object) -> str:
    """The message ``key`` in ``lang`` (English when the language is unknown)."""
    entry = MESSAGES[key]
    return entry.get(lang, entry["en"]).format(**values)


# The reasons of results that no game declares: a resignation (``Game.resignation``, or the
# server's ``resignation``), and the server's time out, draw by agreement and abandoned game.
SHARED_REASONS = {"resign": "resign", "resignation": "resign", "time": "time", "agreement": "agreement",
                  "abandoned": "abandoned"}


def shared_reason(reason: str, lang: str, *, loser: str | None = None) -> str | None:
    """How a reason every game shares reads, naming ``loser`` when given; ``None`` for another.

    >>> shared_reason("resign", "fr", loser="Clair"), shared_reason("time", "en"), shared_reason("top", "en")
    ('Clair abandonne', 'time ran out', None)
    """
    key = SHARED_REASONS.get(reason)
    if key is None:
        return None
    if loser is not None and f"reason_{key}_loser" in MESSAGES:
        return text(f"reason_{key}_loser", lang, side=loser)
    return text(f"reason_{key}", lang)


def detect_language(environ: Mapping[str, str] | None = None) -> str:
    """``fr`` when ``LANGUAGE``, ``LC_ALL`` or ``LANG`` starts with ``fr``, else ``en``."""
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LANG"):
        value = env.get(name, "")
        if value:
            return "fr" if value.lower().startswith("fr") else "en"
    return "en"


def quote(value: str, lang: str, *, limit: int = 40) -> str:
    """``value`` quoted for people (« » in French), cut short when longer than ``limit``."""
    shown = value if len(value) <= limit else value[: limit - 1] + "…"
    return f"« {shown} »" if lang == "fr" else f"'{shown}'"


MINUS = "\u2212"
# French groups thousands with a narrow no-break space (never a line break inside a number).
THOUSANDS = {"fr": "\u202f", "en": ","}


def number(value: float, digits: int = 0, lang: str = "en", *, grouped: bool = True) -> str:
    """``value`` with ``digits`` decimals as ``lang`` writes it: a decimal comma and thin
    thousands in French, a point and commas in English; a minus sign (U+2212), never ``-0``."""
    rounded = round(value, digits)
    if rounded == 0:
        rounded = 0.0
    text = f"{abs(rounded):,.{digits}f}" if grouped else f"{abs(rounded):.{digits}f}"
    text = text.replace(",", "\0").replace(".", "," if lang == "fr" else ".")
    text = text.replace("\0", THOUSANDS.get(lang, ","))
    return f"{MINUS}{text}" if rounded < 0 else text


def signed(value: float, *, digits: int = 2, lang: str = "en") -> str:
    """``value`` with its sign (``+0.25``, ``−3``: a true minus sign, U+2212), zero without one
    (never ``-0.00``), a decimal comma in French, and an unbounded value as ``+∞``/``−∞``."""
    if math.isinf(value):
        return "+∞" if value > 0 else f"{MINUS}∞"
    if round(value, digits) == 0:
        return number(0.0, digits, lang)
    shown = number(value, digits, lang)
    return shown if shown.startswith(MINUS) else f"+{shown}"


def interval(low: float, high: float, *, digits: int = 0, lang: str = "en") -> str:
    """A confidence interval with signed bounds, open where a bound is infinite:
    ``[−12, +83]``, ``[+83, +∞)``, ``(−∞, −40]`` (a semicolon between them in French, whose
    numbers have a decimal comma).

    >>> interval(83.4, float("inf")), interval(float("-inf"), -40.2, lang="fr")
    ('[+83, +∞)', '(−∞ ; −40]')
    """
    left = "(" if math.isinf(low) else "["
    right = ")" if math.isinf(high) else "]"
    separator = " ; " if lang == "fr" else ", "
    bounds = (signed(bound, digits=digits, lang=lang) for bound in (low, high))
    return f"{left}{separator.join(bounds)}{right}"


def move_error(error: ValueError, lang: str) -> str:
    """A refused move in ``lang``, from the error's key and parameters (its English message when
    it has none)."""
    if isinstance(error, InvalidMoveError | IllegalMoveError) and error.reason is not None:
        key = "invalid_move" if isinstance(error, InvalidMoveError) else "illegal_move"
        return text(key, lang, text=quote(error.text.strip(), lang), reason=error.reason.text(lang))
    if isinstance(error, IllegalMoveError):
        return text("illegal_here", lang, text=quote(error.text.strip(), lang))
    return str(error)
