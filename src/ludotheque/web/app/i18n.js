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
    "form.game": "Jeu",
    "form.variant": "Variante",
    "form.players": "Joueurs",
    "form.seat": "Place",
    "form.human": "Moi (ce navigateur)",
    "form.open": "Ouverte (invité)",
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
    "game.badInvite": "Ce lien d'invitation ne donne aucune place de cette partie : vous la regardez.",
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
    "game.winner": "Victoire : {who}",
    "game.draw": "Match nul",
    "game.score": "Score : {score}",
    "game.reason": "({reason})",
    "reason.top": "une bille au sommet",
    "reason.empty_reserve": "réserve épuisée",
    "reason.repetition": "répétition de position",
    "reason.territory": "au territoire",
    "reason.pieces": "au nombre de pions",
    "reason.draw": "égalité parfaite",
    "reason.rule_of_7": "règle des 7",
    "reason.two_passes": "deux passes de suite",
    "reason.hundred_plies": "cent coups sans changement de couleur",
    "reason.expion_in_camp": "l'EX*PION dans un camp",
    "reason.no_marbles": "plus de billes",
    "reason.no_progress": "partie sans progrès",
    "reason.blocked": "plus de coup possible",
    "reason.resignation": "abandon",
    "reason.time": "temps écoulé",
    "reason.agreement": "nulle acceptée",
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
    "form.game": "Game",
    "form.variant": "Variant",
    "form.players": "Players",
    "form.seat": "Seat",
    "form.human": "Me (this browser)",
    "form.open": "Open (invite)",
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
    "game.badInvite": "This invite link holds no seat of this game: you are watching it.",
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
    "game.winner": "Winner: {who}",
    "game.draw": "Draw",
    "game.score": "Score: {score}",
    "game.reason": "({reason})",
    "reason.top": "a ball on the top",
    "reason.empty_reserve": "reserve exhausted",
    "reason.repetition": "repeated position",
    "reason.territory": "on territory",
    "reason.pieces": "on pieces",
    "reason.draw": "a perfect tie",
    "reason.rule_of_7": "rule of 7",
    "reason.two_passes": "two passes in a row",
    "reason.hundred_plies": "a hundred moves without a colour change",
    "reason.expion_in_camp": "the EX*PION in a camp",
    "reason.no_marbles": "no marbles left",
    "reason.no_progress": "no progress",
    "reason.blocked": "no move left",
    "reason.resignation": "resignation",
    "reason.time": "time ran out",
    "reason.agreement": "draw agreed",
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
