/**
 * French and English texts of the pages, and the chosen language.
 *
 * The language comes from `?lang=fr|en` (then remembered in the `lang` cookie), else from the
 * cookie, else from the browser. Static markup names its texts with `data-i18n="key"`
 * (`data-i18n-attr="aria-label:key"` for attributes); `translatePage()` fills them in.
 */

export const LANGUAGES = ["fr", "en"];

const TEXTS = {
  fr: {
    "site.title": "Ludothèque",
    "site.tagline": "Quatre jeux de stratégie, entre amis ou contre l'ordinateur",
    "nav.lobby": "Salon",
    "nav.rules": "Règles",
    "lang.switch": "English",
    "lang.switchLabel": "Switch to English",
    "lobby.games": "Les jeux",
    "lobby.rules": "Règles",
    "lobby.newGame": "Nouvelle partie",
    "lobby.open": "Parties ouvertes",
    "lobby.playing": "Parties en cours",
    "lobby.none": "Aucune pour l'instant.",
    "lobby.join": "Rejoindre la place",
    "lobby.watch": "Regarder",
    "lobby.refresh": "Actualiser",
    "lobby.players": "{n} joueurs",
    "form.game": "Jeu",
    "form.variant": "Variante",
    "form.players": "Joueurs",
    "form.seat": "Place",
    "form.human": "Moi (ce navigateur)",
    "form.open": "Ouverte (à qui la prend)",
    "form.bot": "Ordinateur",
    "form.clock": "Pendule",
    "form.clockNone": "Sans pendule",
    "form.clockFischer": "Fischer (minutes + incrément)",
    "form.clockCorrespondence": "Par correspondance (jours par coup)",
    "form.minutes": "Minutes",
    "form.increment": "Incrément (s)",
    "form.days": "Jours",
    "form.create": "Créer la partie",
    "form.playWhat": "Choisissez un jeu",
    "game.toMove": "À jouer : {who}",
    "game.yourTurn": "À vous de jouer ({who})",
    "game.waiting": "En attente de joueurs",
    "game.spectator": "Vous regardez cette partie.",
    "game.youAre": "Vous jouez : {who}",
    "game.moves": "Coups",
    "game.noMoves": "Aucun coup joué.",
    "game.typeMove": "Jouer un coup en notation",
    "game.play": "Jouer",
    "game.cancel": "Annuler la sélection",
    "game.finish": "Terminer ici",
    "game.legalList": "Coups légaux",
    "game.choose": "Choisir…",
    "game.resign": "Abandonner",
    "game.offerDraw": "Proposer nulle",
    "game.acceptDraw": "Accepter la nulle",
    "game.drawOffered": "{who} propose la nulle.",
    "game.takeback": "Reprendre un coup",
    "game.rematch": "Revanche",
    "game.joinRematch": "Rejoindre la revanche",
    "game.export": "Exporter la partie",
    "game.invite": "Invitations",
    "game.inviteSeat": "Lien pour {who}",
    "game.copy": "Copier",
    "game.copied": "Copié !",
    "game.joinSeat": "Prendre la place : {who}",
    "game.bot": "ordinateur ({level})",
    "game.open": "place libre",
    "game.human": "joueur",
    "game.over": "Partie terminée",
    "game.draw": "Match nul",
    "game.replay": "Revoir la partie",
    "game.replayFirst": "Début",
    "game.replayPrev": "Coup précédent",
    "game.replayNext": "Coup suivant",
    "game.replayLast": "Fin",
    "game.replayAt": "Position après {n} coup(s) sur {total}",
    "game.replayOnly": "La revue montre la liste des coups ; le plateau suit la position actuelle.",
    "game.memory": "Mode mémoire (cacher ce qui n'est pas visible sur le plateau)",
    "game.chooseNext": "Choisissez la suite :",
    "game.selectHint": "Cliquez une case ou une pièce en surbrillance, ou tapez le coup.",
    "game.notYourTurn": "Ce n'est pas votre tour.",
    "game.randomSetup": "Préparation au hasard",
    "game.connection": "Connexion perdue, nouvelle tentative…",
    "game.notFound": "Partie introuvable.",
    "game.rulesLink": "Règles de ce jeu",
    "game.board": "Plateau",
    "game.clock": "Pendule",
    "game.seats": "Joueurs",
    "game.info": "État",
    "game.ply": "Coup n° {n}",
    "game.phase": "Phase",
    "form.invite": "Ami (lien d'invitation)",
    "level.random": "hasard",
    "level.easy": "facile",
    "level.medium": "moyen",
    "level.hard": "difficile",
    "variant.standard": "standard",
    "variant.kids": "enfants",
    "variant.advanced": "avancée",
    "variant.setup10": "préparation sur 10 tiges",
    "variant.open": "ouverte (rien de caché)",
    "phase.play": "jeu",
    "phase.opening": "poses d'ouverture",
    "phase.place": "pose d'un pion",
    "phase.act": "action de la tuile",
    "phase.setup": "préparation",
    "phase.over": "terminée",
    "game.guest": "Invité",
    "game.invitePending": "ami (lien d'invitation pas encore ouvert)",
    "game.reserved": "place gardée pour la revanche",
    "game.inviteClaimed": "Ce lien d'invitation a déjà servi : la place est prise. Vous regardez la partie.",
    "game.inviteInvalid": "Ce lien d'invitation ne correspond à aucune place de cette partie : vous la regardez.",
    "game.inviteHint": "Envoyez ce lien à votre ami : la place est à lui dès qu'il l'ouvre.",
    "game.resignConfirm": "Abandonner la partie ?",
    "game.resignYes": "Oui, abandonner",
    "game.resignNo": "Non, continuer",
    "game.declineDraw": "Refuser",
    "game.drawPending": "Vous proposez la nulle ; l'adversaire peut l'accepter ou la refuser.",
    "game.moveList": "Liste des coups",
    "game.boardKeys": "Flèches : se déplacer de case en case ; Entrée : choisir.",
    "game.replayKeys": "Flèches gauche et droite : coup précédent ou suivant.",
    "game.timeControl": "Cadence",
    "game.fischer": "{minutes} min + {increment} s par coup",
    "game.correspondence": "{days} j par coup",
    "game.deadline": "{who} doit jouer avant",
    "game.noClock": "sans pendule",
    "result.youWon": "Vous avez gagné — {reason}",
    "result.youLost": "Vous avez perdu — {reason}",
    "result.wins": "{who} gagne — {reason}",
    "result.winMany": "{who} gagnent — {reason}",
    "result.draw": "Partie nulle — {reason}",
    "result.and": " et ",
    "reason.top": "sommet de la pyramide",
    "reason.empty_reserve": "plus de réserve",
    "reason.empty_reserve.one": "réserve de {loser} épuisée",
    "reason.repetition": "position répétée",
    "reason.territory": "plus de territoire",
    "reason.pieces": "territoire égal, plus de pions sur le plateau",
    "reason.draw": "territoire et pions à égalité",
    "reason.rule_of_7": "règle des 7",
    "reason.two_passes": "deux passes de suite",
    "reason.hundred_plies": "100 coups sans changement de couleur",
    "reason.expion_in_camp": "l'EX*PION est entré dans un camp adverse",
    "reason.no_marbles": "plus de billes",
    "reason.no_marbles.one": "{loser} n'a plus de billes",
    "reason.no_progress": "200 coups sans prise ni poussée",
    "reason.blocked": "plus aucun coup possible",
    "reason.resignation": "abandon",
    "reason.resignation.one": "{loser} abandonne",
    "reason.time": "temps écoulé",
    "reason.time.one": "temps écoulé pour {loser}",
    "reason.agreement": "d'un commun accord",
    "error.bad_json": "La requête n'est pas du JSON valide.",
    "error.bad_request": "Requête refusée : {detail}",
    "error.not_notation": "« {move} » n'est pas un coup en notation.",
    "error.unknown_game": "Jeu, variante ou nombre de joueurs inconnu.",
    "error.token_required": "Cette action demande une place dans la partie.",
    "error.token_invalid": "Ce navigateur ne tient plus cette place (lien ou cookie périmé).",
    "error.wrong_seat": "Cette place n'est pas la vôtre.",
    "error.spectator": "Vous regardez la partie : vous ne pouvez pas jouer.",
    "error.not_found": "Partie introuvable.",
    "error.illegal_move": "« {move} » n'est pas un coup légal ici.",
    "error.not_your_turn": "Ce n'est pas votre tour.",
    "error.stale_ply": "La partie a avancé entre-temps : la position est mise à jour.",
    "error.game_over": "La partie est terminée.",
    "error.game_not_over": "La partie n'est pas terminée.",
    "error.seat_taken": "Cette place est déjà prise.",
    "error.invite_claimed": "Ce lien d'invitation a déjà servi.",
    "error.invite_invalid": "Ce lien d'invitation n'est pas valable.",
    "error.takeback_refused": "Impossible de reprendre ce coup.",
    "error.too_large": "La requête est trop grande.",
    "error.rate_limited": "Trop de demandes : réessayez dans un moment.",
    "error.origin_refused": "Requête refusée : elle ne vient pas de ce site.",
    "error.unavailable": "Le serveur ne peut pas enregistrer pour l'instant : réessayez plus tard.",
    "error.internal": "Erreur interne du serveur.",
    "error.method_not_allowed": "Cette action n'existe pas à cette adresse.",
    "error.not_started": "La partie n'a pas encore commencé : toutes les places ne sont pas prises.",
    "error.draw_refused": "Pas de nulle possible ici (contre l'ordinateur, déjà proposée, ou aucune proposition).",
    "rules.title": "Règles",
    "rules.loading": "Chargement des règles…",
    "error.generic": "Erreur : {message}",
  },
  en: {
    "site.title": "Ludothèque",
    "site.tagline": "Four strategy games, with friends or against the computer",
    "nav.lobby": "Lobby",
    "nav.rules": "Rules",
    "lang.switch": "Français",
    "lang.switchLabel": "Passer en français",
    "lobby.games": "The games",
    "lobby.rules": "Rules",
    "lobby.newGame": "New game",
    "lobby.open": "Open games",
    "lobby.playing": "Games in progress",
    "lobby.none": "None yet.",
    "lobby.join": "Join seat",
    "lobby.watch": "Watch",
    "lobby.refresh": "Refresh",
    "lobby.players": "{n} players",
    "form.game": "Game",
    "form.variant": "Variant",
    "form.players": "Players",
    "form.seat": "Seat",
    "form.human": "Me (this browser)",
    "form.open": "Open (anyone may take it)",
    "form.bot": "Computer",
    "form.clock": "Clock",
    "form.clockNone": "No clock",
    "form.clockFischer": "Fischer (minutes + increment)",
    "form.clockCorrespondence": "Correspondence (days per move)",
    "form.minutes": "Minutes",
    "form.increment": "Increment (s)",
    "form.days": "Days",
    "form.create": "Create game",
    "form.playWhat": "Choose a game",
    "game.toMove": "To move: {who}",
    "game.yourTurn": "Your move ({who})",
    "game.waiting": "Waiting for players",
    "game.spectator": "You are watching this game.",
    "game.youAre": "You play: {who}",
    "game.moves": "Moves",
    "game.noMoves": "No move yet.",
    "game.typeMove": "Play a move in notation",
    "game.play": "Play",
    "game.cancel": "Cancel selection",
    "game.finish": "Stop here",
    "game.legalList": "Legal moves",
    "game.choose": "Choose…",
    "game.resign": "Resign",
    "game.offerDraw": "Offer a draw",
    "game.acceptDraw": "Accept the draw",
    "game.drawOffered": "{who} offers a draw.",
    "game.takeback": "Take back",
    "game.rematch": "Rematch",
    "game.joinRematch": "Join the rematch",
    "game.export": "Export the record",
    "game.invite": "Invitations",
    "game.inviteSeat": "Link for {who}",
    "game.copy": "Copy",
    "game.copied": "Copied!",
    "game.joinSeat": "Take the seat: {who}",
    "game.bot": "computer ({level})",
    "game.open": "open seat",
    "game.human": "player",
    "game.over": "Game over",
    "game.draw": "Draw",
    "game.replay": "Replay the game",
    "game.replayFirst": "Start",
    "game.replayPrev": "Previous move",
    "game.replayNext": "Next move",
    "game.replayLast": "End",
    "game.replayAt": "Position after {n} of {total} move(s)",
    "game.replayOnly": "The replay walks the move list; the board shows the current position.",
    "game.memory": "Memory mode (hide what the board does not show right now)",
    "game.chooseNext": "Choose the follow-up:",
    "game.selectHint": "Click a highlighted cell or piece, or type the move.",
    "game.notYourTurn": "It is not your turn.",
    "game.randomSetup": "Random setup",
    "game.connection": "Connection lost, retrying…",
    "game.notFound": "Game not found.",
    "game.rulesLink": "Rules of this game",
    "game.board": "Board",
    "game.clock": "Clock",
    "game.seats": "Players",
    "game.info": "Status",
    "game.ply": "Move {n}",
    "game.phase": "Phase",
    "form.invite": "Friend (invite link)",
    "level.random": "random",
    "level.easy": "easy",
    "level.medium": "medium",
    "level.hard": "hard",
    "variant.standard": "standard",
    "variant.kids": "kids",
    "variant.advanced": "advanced",
    "variant.setup10": "setup on 10 stems",
    "variant.open": "open (nothing hidden)",
    "phase.play": "play",
    "phase.opening": "opening placements",
    "phase.place": "placing a piece",
    "phase.act": "tile action",
    "phase.setup": "setup",
    "phase.over": "over",
    "game.guest": "Guest",
    "game.invitePending": "friend (invite link not opened yet)",
    "game.reserved": "seat kept for the rematch",
    "game.inviteClaimed": "This invite link has already been used: the seat is taken. You are watching the game.",
    "game.inviteInvalid": "This invite link matches no seat of this game: you are watching it.",
    "game.inviteHint": "Send this link to your friend: the seat is theirs as soon as they open it.",
    "game.resignConfirm": "Resign this game?",
    "game.resignYes": "Yes, resign",
    "game.resignNo": "No, play on",
    "game.declineDraw": "Decline",
    "game.drawPending": "You offer a draw; your opponent may accept or decline it.",
    "game.moveList": "Move list",
    "game.boardKeys": "Arrow keys: move from cell to cell; Enter: choose.",
    "game.replayKeys": "Left and right arrow keys: previous or next move.",
    "game.timeControl": "Time control",
    "game.fischer": "{minutes} min + {increment} s per move",
    "game.correspondence": "{days} d per move",
    "game.deadline": "{who} must move by",
    "game.noClock": "no clock",
    "result.youWon": "You won — {reason}",
    "result.youLost": "You lost — {reason}",
    "result.wins": "{who} wins — {reason}",
    "result.winMany": "{who} win — {reason}",
    "result.draw": "Draw — {reason}",
    "result.and": " and ",
    "reason.top": "top of the pyramid",
    "reason.empty_reserve": "a reserve is empty",
    "reason.empty_reserve.one": "{loser}'s reserve is empty",
    "reason.repetition": "repeated position",
    "reason.territory": "more territory",
    "reason.pieces": "equal territory, more pieces on the board",
    "reason.draw": "equal territory and pieces",
    "reason.rule_of_7": "rule of 7",
    "reason.two_passes": "two passes in a row",
    "reason.hundred_plies": "100 moves without a colour change",
    "reason.expion_in_camp": "the EX*PION entered an enemy camp",
    "reason.no_marbles": "no marbles left",
    "reason.no_marbles.one": "{loser} has no marbles left",
    "reason.no_progress": "200 moves without a capture or push",
    "reason.blocked": "no move left",
    "reason.resignation": "resignation",
    "reason.resignation.one": "{loser} resigned",
    "reason.time": "time ran out",
    "reason.time.one": "{loser} ran out of time",
    "reason.agreement": "by agreement",
    "error.bad_json": "The request is not valid JSON.",
    "error.bad_request": "Request refused: {detail}",
    "error.not_notation": "“{move}” is not a move in notation.",
    "error.unknown_game": "Unknown game, variant or player count.",
    "error.token_required": "This needs a seat in the game.",
    "error.token_invalid": "This browser no longer holds that seat (stale link or cookie).",
    "error.wrong_seat": "That seat is not yours.",
    "error.spectator": "You are watching this game: you cannot play.",
    "error.not_found": "Game not found.",
    "error.illegal_move": "“{move}” is not a legal move here.",
    "error.not_your_turn": "It is not your turn.",
    "error.stale_ply": "The game moved on meanwhile: the position is brought up to date.",
    "error.game_over": "The game is over.",
    "error.game_not_over": "The game is not over yet.",
    "error.seat_taken": "That seat is already taken.",
    "error.invite_claimed": "This invite link has already been used.",
    "error.invite_invalid": "This invite link is not valid.",
    "error.takeback_refused": "That move cannot be taken back.",
    "error.too_large": "The request is too large.",
    "error.rate_limited": "Too many requests: try again in a moment.",
    "error.origin_refused": "Request refused: it does not come from this site.",
    "error.unavailable": "The server cannot save right now: try again later.",
    "error.internal": "Internal server error.",
    "error.method_not_allowed": "That action does not exist at this address.",
    "error.not_started": "The game has not started yet: not every seat is taken.",
    "error.draw_refused": "No draw here (against the computer, already offered, or no offer to decline).",
    "rules.title": "Rules",
    "rules.loading": "Loading the rules…",
    "error.generic": "Error: {message}",
  },
};

const COOKIE = "lang";

function readCookie(name) {
  const entry = document.cookie.split("; ").find((part) => part.startsWith(`${name}=`));
  return entry ? decodeURIComponent(entry.slice(name.length + 1)) : null;
}

/** The page language; a `?lang=` in the address wins and is remembered for a year. */
export function currentLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (LANGUAGES.includes(asked)) {
    document.cookie = `${COOKIE}=${asked}; path=/; max-age=31536000; SameSite=Lax`;
    return asked;
  }
  const remembered = readCookie(COOKIE);
  if (LANGUAGES.includes(remembered)) return remembered;
  return (navigator.language || "en").toLowerCase().startsWith("fr") ? "fr" : "en";
}

/** A translator for `lang`: `t("game.toMove", {who: "Blue"})`. Unknown keys show themselves. */
export function translator(lang) {
  const table = TEXTS[lang] || TEXTS.en;
  return (key, values = {}) =>
    (table[key] ?? TEXTS.en[key] ?? key).replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

/** The translation of `prefix.value` (a level, variant or phase name), or `value` itself. */
export function nameOf(t, prefix, value) {
  const key = `${prefix}.${value}`;
  const text = t(key);
  return text === key ? String(value) : text;
}

// English pages show the server's own text for these: it is English already and says why.
const SERVER_WORDS_IN_ENGLISH = new Set(["illegal_move", "not_notation"]);

/**
 * What to tell a person about a failed call: the translation of the server's error `code`
 * (`values` fill it: `{move}`), else the server's English text (an unknown code, a network error).
 */
export function errorText(lang, error, values = {}) {
  const t = translator(lang);
  const code = error?.code;
  if (!code || (lang === "en" && SERVER_WORDS_IN_ENGLISH.has(code))) return error?.message ?? String(error);
  const key = `error.${code}`;
  const text = t(key, { detail: error.message, ...values });
  return text === key ? error.message : text;
}

/** Pick the `lang` entry of a `{fr, en}` object (catalog titles and summaries). */
export function pick(texts, lang) {
  if (texts == null || typeof texts === "string") return texts ?? "";
  return texts[lang] ?? texts.en ?? Object.values(texts)[0] ?? "";
}

/** Fill every `data-i18n` element, set `<html lang>` and wire the language switch links. */
export function translatePage(lang) {
  const t = translator(lang);
  document.documentElement.lang = lang;
  for (const element of document.querySelectorAll("[data-i18n]")) {
    element.textContent = t(element.dataset.i18n);
  }
  for (const element of document.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of element.dataset.i18nAttr.split(";")) {
      const [attribute, key] = pair.split(":");
      element.setAttribute(attribute.trim(), t(key.trim()));
    }
  }
  for (const link of document.querySelectorAll("[data-lang-switch]")) {
    const other = lang === "fr" ? "en" : "fr";
    const url = new URL(location.href);
    url.searchParams.set("lang", other);
    link.href = url.pathname + url.search;
    link.hreflang = other;
    link.lang = other;
  }
  return t;
}
