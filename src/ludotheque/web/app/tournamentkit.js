/**
 * What the tournament pages (`/tournaments`, `/tournaments/<id>`) and the lobby's "Tournaments"
 * section share: the API's paths, a tournament's one-line description, points written as people
 * write them (½), and the entrants' names.
 */

import { timeControlText } from "./clock.js";
import { gameWord, nameOf, pick, plural } from "./i18n.js";

export const tournamentsPath = "/api/tournaments";
export const tournamentPath = (id) => `${tournamentsPath}/${encodeURIComponent(id)}`;
export const tournamentPage = (id) => `/tournaments/${encodeURIComponent(id)}`;
export const STATUSES = ["running", "upcoming", "finished"];

/** The catalog entry of `gameId` in `catalog`, or undefined. */
export function factsOf(catalog, gameId) {
  return catalog.find((entry) => entry.id === gameId);
}

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

/**
 * A tournament's facts in one line: the game, its variant, players, rounds, clock, rated or
 * practice ("Pylos · standard · 2 players · 3 rounds · 10 min + 5 s per move · rated").
 */
export function tournamentLine(tournament, catalog, t, lang) {
  const entry = factsOf(catalog, tournament.game);
  return [
    entry ? pick(entry.title, lang) : tournament.game,
    gameWord(entry, "variant", tournament.variant, lang),
    t("lobby.players", { n: tournament.players }),
    plural(lang, "tournament.roundCount", { n: tournament.rounds }),
    timeControlText(tournament.clock, t) ?? t("game.noClock"),
    t(tournament.rated ? "lobby.rated" : "tournaments.practice"),
  ].join(" · ");
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
