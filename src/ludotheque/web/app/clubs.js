/**
 * The clubs: the person's own, the open ones (joined with a click), and the form that creates a
 * club (a signed-in player's; the new club's page opens).
 */

import { api } from "./api.js";
import { el } from "./dom.js";
import { currentLanguage, errorText, plural, translatePage } from "./i18n.js";
import { loadPerson, showPerson } from "./person.js";
import { startChallengeAlerts } from "./social-live.js";

const lang = currentLanguage();
const t = translatePage(lang);
const $ = (selector) => document.querySelector(selector);
let person = null;

init();

async function init() {
  person = await loadPerson();
  showPerson(person, t);
  const player = person && !person.guest;
  if (!player) $("#clubs-message").textContent = t("clubs.signIn");
  $("#club-form").hidden = !player;
  $("#club-form").addEventListener("submit", create);
  await refresh();
  if (player) startChallengeAlerts();
  document.body.dataset.ready = "true";
}

const clubPath = (club) => `/clubs/${encodeURIComponent(club.id)}`;

function item(club, joinable) {
  const parts = [
    el("a", { href: clubPath(club) }, club.name),
    el("span", { class: "muted" }, plural(lang, "clubs.members", { n: club.members })),
  ];
  if (club.role) parts.push(el("span", { class: "muted" }, t(`clubs.${club.role}`)));
  if (joinable && !club.role && person && !person.guest) {
    parts.push(el("button", { type: "button", onclick: () => join(club) }, t("clubs.join")));
  }
  if (club.description) parts.push(el("p", { class: "games muted" }, club.description));
  return el("li", { "data-club": club.id }, ...parts);
}

async function refresh() {
  try {
    const listed = await api("GET", "/api/clubs");
    fill($("#my-clubs"), listed.mine.map((club) => item(club, false)));
    fill($("#open-clubs"), listed.open.map((club) => item(club, true)));
  } catch (error) {
    $("#clubs-message").textContent = errorText(lang, error);
  }
}

function fill(list, items) {
  list.replaceChildren(...(items.length ? items : [el("li", { class: "muted" }, t("friends.none"))]));
}

async function join(club) {
  try {
    await api("POST", `/api/clubs/${encodeURIComponent(club.id)}/join`);
    location.assign(clubPath(club));
  } catch (error) {
    $("#clubs-message").textContent = errorText(lang, error);
  }
}

async function create(event) {
  event.preventDefault();
  try {
    const club = await api("POST", "/api/clubs", { body: {
      name: $("#club-name").value, description: $("#club-description").value, open: $("#club-open").checked } });
    location.assign(clubPath(club));
  } catch (error) {
    $("#clubs-message").textContent = errorText(lang, error);
  }
}
