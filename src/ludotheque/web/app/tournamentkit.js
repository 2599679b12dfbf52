/**
 * What the tournament pages (`/tournaments`, `/tournaments/<id>`) and the lobby's "Tournaments"
 * section share: the API's paths, a tournament's one-line description (a Swiss's rounds, an
 * arena's minutes), points written as people write them (½), the entrants' names, and the words
 * of the tournaments (`texts-tournaments.json`, added here so that every page importing this
 * module has them).
 */

import { catalogEntry } from "./boards.js";
import { timeControlText } from "./clock.js";
import { addWords, gameWord, nameOf, pick, plural } from "./i18n.js";
import WORDS from "./texts-tournaments.json" with { type: "json" };

addWords(WORDS);

export const tournamentsPath = "/api/tournaments";
export const tournamentPath = (id) => `${tournamentsPath}/${encodeURIComponent(id)}`;
export const tournamentPage = (id) => `/tournaments/${encodeURIComponent(id)}`;
export const STATUSES = ["running", "upcoming", "finished"];

/** Points as people write them: 1, ½, 2½ (French and English alike). */
export function pointsText(points) {
  const value = Number(points) || 0;
  const whole = Math.floor(value);
  const half = value - whole >= 0.5;
  if (!half) return String(whole);
  return whole === 0 ? "½" : `${whole}½`;
}

/** "3 points", "½ point", "1½ points" in `lang`. */
export function pointsWords(lang, points) {
  return plural(lang, "tournament.points", { n: Number(points) || 0 }).replace(/\d+(?:[.,]\d+)?/, pointsText(points));
}

/** Whether `tournament` (a document or a list's summary) is an arena. */
export const isArena = (tournament) => tournament?.system === "arena";

/**
 * A tournament's facts in one line: the game, its variant, players, rounds (an arena: its
 * minutes), clock, rated or practice, a club's
 * ("Pylos · standard · 2 players · 3 rounds · 10 min + 5 s per move · rated").
 */
export function tournamentLine(tournament, catalog, t, lang) {
  const entry = catalogEntry(catalog, tournament.game);
  return [
    entry ? pick(entry.title, lang) : tournament.game,
    gameWord(entry, "variant", tournament.variant, lang),
    t("lobby.players", { n: tournament.players }),
    isArena(tournament) ? plural(lang, "arena.duration", { n: tournament.duration ?? 0 })
      : plural(lang, "tournament.roundCount", { n: tournament.rounds }),
    timeControlText(tournament.clock, t) ?? t("game.noClock"),
    t(tournament.rated ? "lobby.rated" : "tournaments.practice"),
    tournament.club ? t("arena.club") : null,
  ].filter(Boolean).join(" · ");
}

/** A time left as a clock shows it: "9:05", "1:02:03". */
export function timeLeftText(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

/** An entrant's name as the pages show it: a bot's level, a guest marked, the person marked "you". */
export function entrantName(entrant, t, me = null) {
  let name;
  if (entrant.bot) name = t("game.bot", { level: nameOf(t, "level", entrant.bot) });
  else if (!entrant.player) name = t("account.guestLink", { name: entrant.name });
  else name = entrant.name;
  return isMe(entrant, me) ? t("tournament.youMark", { name }) : name;
}

/** Whether `entrant` is the browser's person (`me`: `GET /api/me`'s account, or null). */
export function isMe(entrant, me) {
  return Boolean(me && !entrant.bot && entrant.name === me.name);
}

/** A date and time in `lang`, as people read it. */
export function when(iso, lang) {
  const moment = new Date(iso);
  if (Number.isNaN(moment.getTime())) return String(iso ?? "");
  return moment.toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
}
