/**
 * The friends page: challenges received (accept, decline) and sent (cancel), the players the
 * person follows (online or not, their games in progress), followers and blocked players. The
 * friends socket keeps it live: a challenge arrives, is cancelled, declined or accepted without a
 * reload (an accepted one opens its game); the online states are read again every 30 s.
 */

import { api } from "./api.js";
import { el } from "./dom.js";
import { currentLanguage, errorText, translatePage } from "./i18n.js";
import { loadPerson, showPerson } from "./person.js";
import { notify } from "./turns.js";
import { acceptChallenge, challengeWhat, loadCatalog, watchFriends } from "./social-live.js";

const lang = currentLanguage();
const t = translatePage(lang);
const $ = (selector) => document.querySelector(selector);
const playerLink = (name) => el("a", { href: `/players/${encodeURIComponent(name)}` }, name);

init();

async function init() {
  const person = await loadPerson();
  showPerson(person, t);
  await loadCatalog();
  if (!person || person.guest) {
    $("#friends-message").textContent = t("friends.signIn");
    $("#friends-content").hidden = true;
    document.body.dataset.ready = "true";
    return;
  }
  $("#follow-form").addEventListener("submit", follow);
  await refresh();
  setInterval(refresh, 30000);
  watchFriends(onMessage);
  document.body.dataset.ready = "true";
}

function onMessage(message) {
  if (message.type === "challenge") {
    notify(t("challenge.notifyTitle"), t("challenge.notify", { name: message.challenge.from, game: message.challenge.game }));
    refresh();
  } else if (message.type === "challenge_declined") {
    $("#sent-news").textContent = t("challenge.declined", { name: message.challenge.to });
    refresh();
  } else if (message.type === "challenge_cancelled") {
    refresh();
  } else if (message.type === "challenge_accepted") {
    location.assign(`/play/${encodeURIComponent(message.game)}`);
  }
}

/** Run `action`, then draw the lists again; a refusal is shown in the page's message. */
async function act(action) {
  try {
    await action();
    $("#friends-message").textContent = "";
  } catch (error) {
    $("#friends-message").textContent = errorText(lang, error);
  }
  await refresh();
}

async function refresh() {
  let data;
  try {
    data = await api("GET", "/api/friends");
  } catch (error) {
    $("#friends-message").textContent = errorText(lang, error);
    return;
  }
  fill($("#received"), data.received, (challenge) => [
    el("span", {}, t("challenge.from", { name: challenge.from, what: challengeWhat(challenge, lang) })),
    el("button", { type: "button", class: "accept", onclick: () => act(() => acceptChallenge(challenge.id)) }, t("challenge.accept")),
    el("button", { type: "button", class: "decline", onclick: () => act(() => api("POST", `/api/challenges/${encodeURIComponent(challenge.id)}/decline`)) }, t("challenge.decline")),
  ], { "data-challenge": (challenge) => challenge.id });
  fill($("#sent"), data.sent, (challenge) => [
    el("span", {}, t("challenge.to", { name: challenge.to, what: challengeWhat(challenge, lang) })),
    el("button", { type: "button", class: "cancel", onclick: () => act(() => api("DELETE", `/api/challenges/${encodeURIComponent(challenge.id)}`)) }, t("challenge.cancel")),
  ], { "data-challenge": (challenge) => challenge.id });
  fill($("#follows"), data.follows, (entry) => [
    playerLink(entry.name),
    el("span", { class: `presence ${entry.online ? "online" : "offline"}` }, t(entry.online ? "friends.online" : "friends.offline")),
    el("a", { href: `/players/${encodeURIComponent(entry.name)}#social` }, t("friends.challengeLink")),
    el("button", { type: "button", class: "secondary", onclick: () => act(() => api("DELETE", `/api/players/${encodeURIComponent(entry.name)}/follow`)) }, t("friends.unfollow")),
    gamesOf(entry),
  ], { "data-name": (entry) => entry.name, "data-online": (entry) => String(entry.online) });
  fill($("#followers"), data.followers.map((name) => ({ name })), (entry) => [playerLink(entry.name)]);
  fill($("#blocked"), data.blocked.map((name) => ({ name })), (entry) => [
    playerLink(entry.name),
    el("button", { type: "button", class: "secondary", onclick: () => act(() => api("DELETE", `/api/players/${encodeURIComponent(entry.name)}/block`)) }, t("friends.unblock")),
  ]);
}

function gamesOf(entry) {
  if (entry.games.length === 0) return el("p", { class: "games muted" }, t("friends.noGames"));
  return el("p", { class: "games" }, t("friends.playing"), " ",
    ...entry.games.flatMap((game, index) => [index ? ", " : "",
      el("a", { href: `/play/${encodeURIComponent(game.id)}` }, challengeWhat({ ...game, clock: game.clock }, lang))]));
}

/** Fill `list` with an item per entry (`parts(entry)`), or "Nobody yet." */
function fill(list, entries, parts, data = {}) {
  if (entries.length === 0) {
    list.replaceChildren(el("li", { class: "muted" }, t("friends.none")));
    return;
  }
  list.replaceChildren(...entries.map((entry) => {
    const attributes = Object.fromEntries(Object.entries(data).map(([name, value]) => [name, value(entry)]));
    return el("li", attributes, ...parts(entry));
  }));
}

async function follow(event) {
  event.preventDefault();
  const name = $("#follow-name").value.trim();
  if (!name) return;
  await act(async () => {
    await api("POST", `/api/players/${encodeURIComponent(name)}/follow`);
    $("#follow-name").value = "";
  });
}
