/**
 * The tournaments (`/tournaments`): running, upcoming and finished ones, Swiss and arenas
 * (`GET /api/tournaments`), refreshed every few seconds, and the form that creates one (a
 * signed-in player's: game, variant, players, a Swiss's rounds or an arena's minutes, entrants at
 * most, clock, rated or practice, start time or none), which then opens the new tournament's page.
 */

import { api } from "./api.js";
import { catalogEntry } from "./boards.js";
import { el } from "./dom.js";
import { currentLanguage, errorText, gameWord, pick, plural, translatePage } from "./i18n.js";
import { loadPerson, showPerson } from "./person.js";
import {
  isArena, STATUSES, tournamentLine, tournamentPage, tournamentsPath, when,
} from "./tournamentkit.js";

const lang = currentLanguage();
const t = translatePage(lang);
const $ = (selector) => document.querySelector(selector);
const drawn = new WeakMap(); // list -> the JSON it shows
const REFRESH_MS = 5000;
let catalog = [];

init();

async function init() {
  const person = await loadPerson();
  showPerson(person, t);
  catalog = (await api("GET", "/api/catalog").catch(() => ({ games: [] })))?.games ?? [];
  const player = Boolean(person && !person.guest);
  $("#tournament-form").hidden = !player;
  $("#sign-in-hint").hidden = player;
  if (player) wireForm();
  await refresh();
  setInterval(refresh, REFRESH_MS);
  document.body.dataset.ready = "true";
}

async function refresh() {
  try {
    const lists = await Promise.all(STATUSES.map((status) => api("GET", `${tournamentsPath}?status=${status}`)));
    STATUSES.forEach((status, index) => fill($(`#${status}`), lists[index]?.tournaments ?? []));
    $("#list-message").textContent = "";
  } catch (error) {
    $("#list-message").textContent = errorText(lang, error);
  }
}

/**
 * Each tournament: its name (a link to its page), its facts, its entrants and when. A list that did
 * not change is left as it is (a link that has the keyboard's focus keeps it).
 */
function fill(list, tournaments) {
  const text = JSON.stringify(tournaments);
  if (drawn.get(list) === text) return;
  drawn.set(list, text);
  if (tournaments.length === 0) {
    list.replaceChildren(el("li", { class: "muted" }, t("lobby.none")));
    return;
  }
  list.replaceChildren(...tournaments.map((tournament) => {
    const entry = catalogEntry(catalog, tournament.game);
    return el("li", { "data-tournament": tournament.id, "data-status": tournament.status,
      "data-system": tournament.system },
      el("img", { src: entry?.picture ?? "/static/img/logo.svg", alt: "", width: 40, height: 30 }),
      el("span", { class: "what" },
        el("a", { href: tournamentPage(tournament.id), class: "tournament-name" }, tournament.name),
        el("span", { class: "tournament-line" }, tournamentLine(tournament, catalog, t, lang))),
      el("span", { class: "muted" }, momentWords(tournament)));
  }));
}

function momentWords(tournament) {
  const entrants = plural(lang, "tournament.entrantCount", { n: tournament.entrants ?? 0 });
  if (tournament.status === "running" && isArena(tournament)) {
    return `${entrants} · ${t("arena.endsAt", { when: when(tournament.ends_at, lang) })}`;
  }
  if (tournament.status === "running") return `${entrants} · ${t("tournament.round", { n: tournament.round })}`;
  if (tournament.status === "finished" && tournament.ended) {
    return `${entrants} · ${t("tournament.finishedOn", { when: when(tournament.ended, lang) })}`;
  }
  if (tournament.starts_at) return `${entrants} · ${t("tournament.startsAt", { when: when(tournament.starts_at, lang) })}`;
  return entrants;
}

// -- the form ----------------------------------------------------------------------------------

function wireForm() {
  const form = $("#tournament-form");
  const select = $("#form-game");
  if (catalog.length > 0) {
    select.replaceChildren(...catalog.map((entry) => el("option", { value: entry.id }, pick(entry.title, lang))));
  }
  // `?game=<id>` chooses the game; else the lobby's default (the server names it), else the first.
  const asked = new URLSearchParams(location.search).get("game") ?? select.dataset.default;
  if ([...select.options].some((option) => option.value === asked)) select.value = asked;
  select.addEventListener("change", fillGameOptions);
  fillGameOptions();
  const showClockDetails = () => {
    const chosen = form.elements.clock.value;
    for (const details of form.querySelectorAll(".clock-details")) details.hidden = details.dataset.for !== chosen;
  };
  for (const radio of form.querySelectorAll('input[name="clock"]')) radio.addEventListener("change", showClockDetails);
  showClockDetails();
  // A Swiss's rounds or an arena's minutes: the other field is hidden and not sent.
  const showSystemDetails = () => {
    const chosen = form.elements.system.value;
    for (const details of form.querySelectorAll(".system-details")) {
      details.hidden = details.dataset.for !== chosen;
      details.querySelector("input").disabled = details.hidden;
    }
  };
  for (const radio of form.querySelectorAll('input[name="system"]')) radio.addEventListener("change", showSystemDetails);
  showSystemDetails();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const created = await api("POST", tournamentsPath, { body: readForm(form) });
      location.assign(tournamentPage(created.id));
    } catch (error) {
      $("#create-message").textContent = errorText(lang, error);
      button.disabled = false;
    }
  });
}

function fillGameOptions() {
  const entry = catalogEntry(catalog, $("#form-game").value);
  const variants = entry?.variants ?? ["standard"];
  const counts = entry?.player_counts ?? [2];
  $("#form-variant").replaceChildren(...variants.map((name) =>
    el("option", { value: name, selected: name === entry?.default_variant }, gameWord(entry, "variant", name, lang))));
  $("#form-players").replaceChildren(...counts.map((count) =>
    el("option", { value: count, selected: count === entry?.default_players }, String(count))));
}

function readClock(form) {
  const kind = form.elements.clock.value;
  if (kind === "fischer") {
    return { type: "fischer", minutes: Number(form.elements.minutes.value), increment: Number(form.elements.increment.value) };
  }
  if (kind === "correspondence") return { type: "correspondence", days: Number(form.elements.days.value) };
  return null;
}

/** The body of `POST /api/tournaments`; the start time is the browser's local time, sent in UTC. */
function readForm(form) {
  const system = form.elements.system.value;
  const body = {
    system,
    game: form.elements.game.value,
    variant: form.elements.variant.value,
    players: Number(form.elements.players.value),
    ...(system === "arena" ? { duration: Number(form.elements.duration.value) }
      : { rounds: Number(form.elements.rounds.value) }),
    max_entries: Number(form.elements.max_entries.value),
    clock: readClock(form),
    rated: form.elements.rated.checked,
  };
  const name = form.elements.name.value.trim();
  if (name) body.name = name;
  const starts = form.elements.starts_at.value;
  if (starts) {
    const moment = new Date(starts);
    if (!Number.isNaN(moment.getTime())) body.starts_at = moment.toISOString();
  }
  return body;
}
