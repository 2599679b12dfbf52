/**
 * A club's page: its members (admins manage them: make admin, remove), the ratings table of its
 * members per game, its invite link (admins: renew it), its chat (members: live through
 * `/api/clubs/{id}/ws`). A visitor with the invite link (`?invite=<code>`) or of an open club may
 * join; a member may leave.
 */

import { api, takeFromAddress } from "./api.js";
import { catalogEntry } from "./boards.js";
import { el } from "./dom.js";
import { currentLanguage, errorText, pick, translatePage } from "./i18n.js";
import { loadPerson, showPerson } from "./person.js";
import { loadCatalog, startChallengeAlerts } from "./social-live.js";

const lang = currentLanguage();
const t = translatePage(lang);
const $ = (selector) => document.querySelector(selector);
const clubId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] ?? "");
const path = `/api/clubs/${encodeURIComponent(clubId)}`;
let person = null;
let invite = null;
let chatSocket = null;

init();

async function init() {
  person = await loadPerson();
  showPerson(person, t);
  invite = takeFromAddress("invite");
  await loadCatalog();
  $("#join").addEventListener("click", join);
  $("#leave").addEventListener("click", leave);
  $("#renew").addEventListener("click", renew);
  $("#settings-form").addEventListener("submit", saveSettings);
  $("#chat-form").addEventListener("submit", say);
  await load();
  if (person && !person.guest) startChallengeAlerts();
  document.body.dataset.ready = "true";
}

function show(error) {
  $("#club-message").textContent = error ? errorText(lang, error) : "";
}

async function load() {
  let club;
  try {
    club = await api("GET", invite ? `${path}?invite=${encodeURIComponent(invite)}` : path);
  } catch (error) {
    show(error);
    for (const panel of ["#join-panel", "#members-panel", "#admin-panel", "#ratings-panel", "#chat-panel"]) $(panel).hidden = true;
    if (error.code === "not_member") $("#club-message").textContent = t("club.private");
    return;
  }
  $("#club-name").textContent = club.name;
  document.title = `${club.name} — Ludothèque`;
  $("#club-kind").textContent = t(club.open ? "club.openClub" : "club.inviteOnly");
  $("#club-description").textContent = club.description;
  const member = Boolean(club.role);
  const canJoin = !member && person && !person.guest && (club.open || club.invited);
  $("#join-panel").hidden = !canJoin;
  $("#join-note").textContent = club.invited ? t("club.invited") : "";
  if (!club.members_list) return; // a private club seen through its invite link: its name only
  drawMembers(club);
  drawRatings(club.ratings);
  $("#leave").hidden = !member;
  $("#admin-panel").hidden = club.role !== "admin";
  if (club.role === "admin") {
    $("#invite-link").value = `${location.origin}/clubs/${encodeURIComponent(club.id)}?invite=${encodeURIComponent(club.invite_code)}`;
    $("#settings-description").value = club.description;
    $("#settings-open").checked = club.open;
  }
  $("#chat-panel").hidden = !member;
  if (member) await openChat();
}

function drawMembers(club) {
  $("#members-panel").hidden = false;
  const admin = club.role === "admin";
  for (const cell of document.querySelectorAll(".admin-only")) cell.hidden = !admin;
  $("#members tbody").replaceChildren(...club.members_list.map((member) => {
    const actions = el("td", { hidden: !admin });
    if (admin && member.name !== person?.name) {
      const role = member.role === "admin" ? "member" : "admin";
      actions.append(
        el("button", { type: "button", class: "secondary", onclick: () => change("POST", `${path}/members/${encodeURIComponent(member.name)}/role`, { role }) },
          t(role === "admin" ? "club.makeAdmin" : "club.makeMember")),
        el("button", { type: "button", class: "secondary", onclick: () => change("DELETE", `${path}/members/${encodeURIComponent(member.name)}`) }, t("club.remove")));
    }
    return el("tr", { "data-member": member.name },
      el("th", { scope: "row" }, el("a", { href: `/players/${encodeURIComponent(member.name)}` }, member.name)),
      el("td", {}, t(`clubs.${member.role}`)), actions);
  }));
}

/** "Pylos, 2 players" / "… against the computer", as the player page names a category. */
function categoryWords(category, games) {
  const [game, players, bots] = category.split("/");
  const entry = catalogEntry(games, game);
  const title = entry ? pick(entry.title, lang) : game;
  return t(bots ? "player.categoryBots" : "player.categoryPlayers", { game: title, n: players });
}

async function drawRatings(ratings) {
  const games = await loadCatalog();
  const categories = Object.keys(ratings);
  $("#ratings-panel").hidden = false;
  $("#no-club-ratings").hidden = categories.length > 0;
  $("#club-ratings").replaceChildren(...categories.map((category, number) => {
    const id = `ratings-${number}`;
    return el("div", { class: "club-ratings-block", "data-category": category },
      el("h3", { id }, categoryWords(category, games)),
      el("table", { class: "social-table", "aria-labelledby": id },
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("club.rank")), el("th", { scope: "col" }, t("club.name")),
          el("th", { scope: "col" }, t("player.rating")), el("th", { scope: "col" }, t("player.games")))),
        el("tbody", {}, ...ratings[category].map((row, index) => el("tr", {},
          el("td", {}, String(index + 1)), el("th", { scope: "row" }, row.name),
          el("td", {}, `${row.rating}${row.provisional ? "?" : ""}`), el("td", {}, String(row.games)))))));
  }));
}

async function change(method, url, body) {
  try {
    await api(method, url, body === undefined ? {} : { body });
    show(null);
  } catch (error) {
    show(error);
  }
  await load();
}

async function join() {
  try {
    await api("POST", `${path}/join`, { body: invite ? { invite } : {} });
    invite = null;
    show(null);
  } catch (error) {
    show(error);
  }
  await load();
}

async function leave() {
  try {
    await api("POST", `${path}/leave`);
    location.assign("/clubs");
  } catch (error) {
    show(error);
  }
}

async function renew() {
  await change("POST", `${path}/invite`);
}

async function saveSettings(event) {
  event.preventDefault();
  await change("POST", `${path}/settings`, { description: $("#settings-description").value, open: $("#settings-open").checked });
}

// -- the chat ---------------------------------------------------------------------------------------
function lineItem(line) {
  const at = new Date(line.at * 1000);
  return el("li", { "data-line": line.id },
    el("time", { datetime: at.toISOString() }, at.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" })),
    el("span", { class: "author" }, line.author), el("span", { class: "text" }, line.text));
}

function addLine(line) {
  const log = $("#club-chat");
  if (log.querySelector(`[data-line="${line.id}"]`)) return;
  log.querySelector(".muted")?.remove();
  log.append(lineItem(line));
  $("#club-chat-log").scrollTop = $("#club-chat-log").scrollHeight;
}

async function openChat() {
  try {
    const { lines } = await api("GET", `${path}/chat`);
    $("#club-chat").replaceChildren(...(lines.length ? lines.map(lineItem) : [el("li", { class: "muted" }, t("club.noChat"))]));
  } catch (error) {
    show(error);
    return;
  }
  if (chatSocket) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  chatSocket = new WebSocket(`${scheme}://${location.host}${path}/ws`);
  chatSocket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "club_chat") addLine(message.line);
    else if (message.type === "club_left") {
      $("#club-message").textContent = t("club.left");
      $("#chat-panel").hidden = true;
    }
  };
  chatSocket.onclose = () => {
    chatSocket = null;
  };
}

async function say(event) {
  event.preventDefault();
  const input = $("#chat-text");
  if (!input.value.trim()) return;
  try {
    addLine(await api("POST", `${path}/chat`, { body: { text: input.value } }));
    input.value = "";
    show(null);
  } catch (error) {
    show(error);
  }
}
