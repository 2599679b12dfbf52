/**
 * The friends socket (`/api/friends/ws`) and the challenges it brings, for every page that has
 * it open: while it is open the person counts as online to the players who follow them.
 *
 * `startChallengeAlerts()` puts a small live box at the top of the page's `<main>`: each challenge
 * received (accept, decline), what became of the person's own (declined, cancelled), and a browser
 * notification when the person allowed them. An accepted challenge opens its game (on a game page
 * it shows a link instead: the person may be playing).
 */

import WORDS from "./texts-social.json" with { type: "json" };
import { api } from "./api.js";
import { catalogEntry, catalogGames } from "./boards.js";
import { el } from "./dom.js";
import { addWords, currentLanguage, errorText, gameWord, pick, translator } from "./i18n.js";
import { timeControlText } from "./clock.js";
import { notify } from "./turns.js";

addWords(WORDS);

/**
 * Watch the friends socket: `onMessage(message)` for each message; reconnects with a back-off.
 * Nobody signed in (close 4401): it stops. Returns a function that stops watching.
 */
export function watchFriends(onMessage) {
  let socket = null;
  let retries = 0;
  let stopped = false;
  const open = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/api/friends/ws`);
    socket.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      onMessage(message);
    };
    socket.onopen = () => {
      retries = 0;
    };
    socket.onclose = (event) => {
      if (stopped || event.code === 4401) return;
      retries += 1;
      setTimeout(open, Math.min(30000, 1000 * 2 ** Math.min(retries, 5)));
    };
  };
  open();
  // A person's pings keep proxies from closing a quiet socket.
  const pinger = setInterval(() => socket?.readyState === WebSocket.OPEN && socket.send('{"type":"ping"}'), 30000);
  return () => {
    stopped = true;
    clearInterval(pinger);
    socket?.close();
  };
}

let catalog = null;

/** The games' catalog (titles, variant names), read once. */
export async function loadCatalog() {
  if (catalog === null) {
    const answer = await api("GET", "/api/catalog").catch(() => []);
    catalog = catalogGames(answer);
  }
  return catalog;
}

/** "Pylos · standard · 5 min + 2 s · rated": what a challenge asks for. */
export function challengeWhat(challenge, lang, games = catalog ?? []) {
  const t = translator(lang);
  const entry = catalogEntry(games, challenge.game);
  const parts = [entry ? pick(entry.title, lang) : challenge.game, gameWord(entry, "variant", challenge.variant, lang)];
  if (challenge.players > 2) parts.push(t("challenge.players", { n: challenge.players }));
  parts.push(timeControlText(challenge.clock, t) ?? t("challenge.noClock"));
  parts.push(t(challenge.rated ? "challenge.rated" : "challenge.casual"));
  return parts.join(" · ");
}

/** Accept a challenge and open its game. */
export async function acceptChallenge(id) {
  const answer = await api("POST", `/api/challenges/${encodeURIComponent(id)}/accept`);
  location.assign(`/play/${encodeURIComponent(answer.id)}`);
}

/** The live box of challenges at the top of `<main>`; returns nothing (it keeps itself). */
export function startChallengeAlerts({ onMessage = () => {} } = {}) {
  const lang = currentLanguage();
  const t = translator(lang);
  const received = new Map();
  const box = el("section", { class: "challenge-alerts", "aria-label": t("challenge.alerts"), hidden: true });
  const list = el("ul", { class: "challenge-list" });
  const news = el("p", { class: "challenge-news", role: "status", "aria-live": "polite" });
  box.append(list, news);
  (document.querySelector("main") ?? document.body).prepend(box);
  const onGamePage = location.pathname.startsWith("/play/") || location.pathname.startsWith("/games/");

  const draw = () => {
    list.replaceChildren(...[...received.values()].map((challenge) => el("li", { "data-challenge": challenge.id },
      el("span", {}, t("challenge.from", { name: challenge.from, what: challengeWhat(challenge, lang) })),
      el("button", { type: "button", class: "accept", onclick: () => answer(challenge, "accept") }, t("challenge.accept")),
      el("button", { type: "button", class: "decline", onclick: () => answer(challenge, "decline") }, t("challenge.decline")))));
    box.hidden = received.size === 0 && !news.textContent;
  };
  const say = (text, gameId = null) => {
    news.replaceChildren(text);
    if (gameId) news.append(" ", el("a", { href: `/play/${encodeURIComponent(gameId)}` }, t("lobby.open_game")));
    draw();
  };
  const answer = async (challenge, verb) => {
    try {
      if (verb === "accept") await acceptChallenge(challenge.id);
      else await api("POST", `/api/challenges/${encodeURIComponent(challenge.id)}/decline`);
      received.delete(challenge.id);
      draw();
    } catch (error) {
      received.delete(challenge.id);
      say(errorText(lang, error));
    }
  };

  loadCatalog().then(draw);
  watchFriends((message) => {
    onMessage(message);
    if (message.type === "challenges") {
      received.clear();
      for (const challenge of message.received ?? []) received.set(challenge.id, challenge);
      draw();
    } else if (message.type === "challenge") {
      const challenge = message.challenge;
      received.set(challenge.id, challenge);
      draw();
      const entry = catalogEntry(catalog, challenge.game);
      notify(t("challenge.notifyTitle"), t("challenge.notify", { name: challenge.from, game: entry ? pick(entry.title, lang) : challenge.game }));
    } else if (message.type === "challenge_cancelled") {
      received.delete(message.challenge.id);
      say(t("challenge.cancelled", { name: message.challenge.from }));
    } else if (message.type === "challenge_declined") {
      say(t("challenge.declined", { name: message.challenge.to }));
    } else if (message.type === "challenge_accepted") {
      say(t("challenge.accepted", { name: message.challenge.to }), message.game);
      if (!onGamePage) location.assign(`/play/${encodeURIComponent(message.game)}`);
    }
  });
}
