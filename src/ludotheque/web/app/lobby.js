/**
 * The lobby: the registered games (written into the page by the server, in the reader's
 * language, then kept in the page's language from `/api/catalog`), the create-game form, open
 * games to join and games in progress to watch.
 */

import { api, gamePath, inviteHandoff } from "./api.js";
import { catalogEntry, catalogGames } from "./boards.js";
import { el } from "./dom.js";
import { addWords, currentLanguage, errorText, gameWord, nameOf, pick, plural, translatePage } from "./i18n.js";
import { formatDeadline, timeControlText } from "./clock.js";
import { showWarning } from "./moderation-warnings.js";
import { loadPerson, showPerson } from "./person.js";
import { notify, showCount, watchPerson } from "./turns.js";
import { tournamentLine, tournamentPage, tournamentsPath } from "./tournamentkit.js";
import PERFECT_WORDS from "./texts-perfect.json" with { type: "json" };

addWords(PERFECT_WORDS);

const lang = currentLanguage();
const t = translatePage(lang);
const $ = (selector) => document.querySelector(selector);
const drawn = new WeakMap(); // list -> the JSON it shows
let catalog = [];
let person = null;

init();

async function init() {
  person = await loadPerson({ makeGuest: true });
  showPerson(person, t);
  try {
    const answer = await api("GET", "/api/catalog");
    catalog = catalogGames(answer);
  } catch (error) {
    $("#create-message").textContent = errorText(lang, error);
  }
  fillCards();
  fillGameChoice();
  wireForm();
  $("#rated-option").hidden = !person || person.guest;
  $("#refresh").addEventListener("click", refreshLists);
  wireNotifications();
  await refreshLists();
  setInterval(refreshLists, 15000);
  if (person) watchPerson(onPersonMessage);
  document.body.dataset.ready = "true";
}

/** The person's socket: the live "your turn" count, correspondence news, matched seeks. */
function onPersonMessage(message) {
  if (message.type === "turns") {
    showTurnCount(message.count);
    refreshMyGames();
  } else if (message.type === "your_turn") {
    notify(t("notify.yourTurnTitle"), t("notify.yourTurn", { game: gameTitle(message.name) }), message.game);
  } else if (message.type === "game_over") {
    notify(t("notify.overTitle"), t(message.reason === "time" ? "notify.overOnTime" : "notify.over",
      { game: gameTitle(message.name) }), message.game);
  } else if (message.type === "matched") {
    notify(t("notify.matchedTitle"), t("notify.matched", { game: gameTitle(message.name) }), message.game);
    if (waitingForMatch) location.assign(`/play/${encodeURIComponent(message.game)}`);
    refreshLists();
  } else if (message.type === "warning") {
    showWarning(message.warning, lang);
  }
}

function gameTitle(gameId) {
  const entry = facts(gameId);
  return entry ? pick(entry.title, lang) : gameId;
}

function showTurnCount(count) {
  showCount(count);
  $("#turn-count").textContent = count > 0 ? plural(lang, "lobby.yourTurnCount", { n: count }) : "";
}

function wireNotifications() {
  const line = $("#notify-line");
  const show = () => {
    line.hidden = !person || typeof Notification === "undefined" || Notification.permission !== "default";
  };
  $("#allow-notifications").addEventListener("click", async () => {
    await Notification.requestPermission();
    show();
  });
  show();
}

function facts(gameId) {
  return catalogEntry(catalog, gameId);
}

function fillCards() {
  for (const card of document.querySelectorAll(".game-card")) {
    const entry = facts(card.dataset.game);
    if (!entry) continue;
    card.querySelector("h2").textContent = pick(entry.title, lang);
    card.querySelector("[data-summary]").textContent = pick(entry.summary, lang);
    card.querySelector("img").alt = pick(entry.title, lang);
  }
}

function fillGameChoice() {
  const select = $("#form-game");
  if (catalog.length > 0) {
    select.replaceChildren(...catalog.map((entry) => el("option", { value: entry.id }, pick(entry.title, lang))));
  }
  // The form opens on the game a card asked for, else on the one the server names (the lowest
  // "lobby_rank" of the games' presentation.json: the simplest to learn), else on the first game.
  const asked = new URLSearchParams(location.search).get("game") ?? select.dataset.default;
  if ([...select.options].some((option) => option.value === asked)) select.value = asked;
  fillGameOptions();
}

function botLevels(entry) {
  const levels = entry?.bot_levels ?? entry?.bots ?? entry?.levels;
  return Array.isArray(levels) && levels.length > 0 ? levels : ["random", "easy", "medium", "hard"];
}

function fillGameOptions() {
  const entry = facts($("#form-game").value);
  const variants = entry?.variants ?? ["standard"];
  const counts = entry?.player_counts ?? entry?.players ?? [2];
  $("#form-variant").replaceChildren(...variants.map((name) =>
    el("option", { value: name, selected: name === entry?.default_variant }, gameWord(entry, "variant", name, lang))));
  $("#form-players").replaceChildren(...counts.map((count) =>
    el("option", { value: count, selected: count === entry?.default_players }, String(count))));
  fillSeats();
}

/**
 * How the `perfect` level stands for the chosen game and variant on this server (the catalog's
 * `perfect`): "complete" or "partial" (tables built: offered), "missing" (the game is solved but
 * not here: said so), or null (the game has no perfect play at all).
 */
function perfectPlay(entry, variant) {
  if (!entry?.perfect) return null;
  return entry.perfect.variants?.[variant] ?? "missing";
}

function perfectLabel(coverage) {
  return `${t("form.bot")} — ${coverage === "partial" ? t("form.perfectPartial") : nameOf(t, "level", "perfect")}`;
}

/** The line under the seats that says whether perfect play is on offer for this variant here. */
function showPerfectNote(coverage) {
  const note = $("#form-perfect");
  if (!note) return;
  const key = { complete: "form.perfectOffered", partial: "form.perfectPartialNote", missing: "form.perfectMissing" }[coverage];
  note.hidden = !key;
  note.textContent = key ? t(key) : "";
}

function fillSeats() {
  const entry = facts($("#form-game").value);
  const players = Number($("#form-players").value || 2);
  const coverage = perfectPlay(entry, $("#form-variant").value);
  const fieldset = $("#form-seats");
  fieldset.replaceChildren(el("legend", {}, t("form.seats")));
  showPerfectNote(coverage);
  for (let seat = 0; seat < players; seat += 1) {
    const options = [
      el("option", { value: "human" }, t("form.human")),
      el("option", { value: "invite" }, t("form.invite")),
      el("option", { value: "open" }, t("form.open")),
      ...botLevels(entry).map((level) =>
        el("option", { value: `bot:${level}` }, `${t("form.bot")} — ${nameOf(t, "level", level)}`)),
      ...(coverage === "complete" || coverage === "partial"
        ? [el("option", { value: "bot:perfect" }, perfectLabel(coverage))] : []),
    ];
    const select = el("select", { name: `seat${seat}`, "data-seat": seat }, ...options);
    // A sensible default: me against the computer.
    select.value = seat === 0 ? "human" : `bot:${botLevels(entry).includes("easy") ? "easy" : botLevels(entry)[0]}`;
    fieldset.append(el("label", {}, el("span", { "data-seat-name": seat }, seatLabel(seat)), select));
  }
  nameSeats(entry, players);
}

/** A seat's label in the form: "Seat 2", or "Seat 2 — Dark" once its side is known. */
function seatLabel(seat, side = "") {
  return side ? `${t("form.seat")} ${seat + 1} — ${side}` : `${t("form.seat")} ${seat + 1}`;
}

const boards = new Map();

/** The game's board module (the catalog's `board`), loaded once; null where it does not load. */
function boardOf(entry) {
  if (!entry?.board) return Promise.resolve(null);
  if (!boards.has(entry.id)) boards.set(entry.id, import(entry.board).catch(() => null));
  return boards.get(entry.id);
}

/**
 * Each seat of the form by the side it plays (Light, North and South…), from the game's board
 * module, and what the game says of its seating (Ex*Pion with 3 players: one seat is far stronger).
 */
async function nameSeats(entry, players) {
  const board = await boardOf(entry);
  if (facts($("#form-game").value) !== entry || Number($("#form-players").value || 2) !== players) return;
  for (const span of document.querySelectorAll("#form-seats [data-seat-name]")) {
    const seat = Number(span.dataset.seatName);
    const side = board?.seatName?.(seat, players, lang);
    if (side && !side.startsWith("#")) span.textContent = seatLabel(seat, side);
  }
  const note = $("#form-seating");
  const said = board?.seatingNote?.(players, lang) ?? null;
  note.hidden = !said;
  note.textContent = said ?? "";
}

function wireForm() {
  $("#form-game").addEventListener("change", fillGameOptions);
  $("#form-players").addEventListener("change", fillSeats);
  $("#form-variant").addEventListener("change", fillSeats);
  const form = $("#create-form");
  const showClockDetails = () => {
    const chosen = form.elements.clock.value;
    for (const details of form.querySelectorAll(".clock-details")) details.hidden = details.dataset.for !== chosen;
  };
  for (const radio of form.querySelectorAll('input[name="clock"]')) radio.addEventListener("change", showClockDetails);
  showClockDetails();
  $("#seek-button").addEventListener("click", async () => {
    try {
      await seekGame(form);
    } catch (error) {
      $("#create-message").textContent = errorText(lang, error);
    }
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      await createGame(form);
    } catch (error) {
      $("#create-message").textContent = errorText(lang, error);
      button.disabled = false;
    }
  });
}

function readClock(form) {
  const kind = form.elements.clock.value;
  if (kind === "fischer") {
    return { type: "fischer", minutes: Number(form.elements.minutes.value), increment: Number(form.elements.increment.value) };
  }
  if (kind === "correspondence") return { type: "correspondence", days: Number(form.elements.days.value) };
  return null;
}

let waitingForMatch = false;

/** Seek an opponent with the form's game, variant, players, clock, rated-ness and rating range. */
async function seekGame(form) {
  const range = (name) => (form.elements[name].value === "" ? null : Number(form.elements[name].value));
  const answer = await api("POST", "/api/seeks", {
    body: { game: form.elements.game.value, variant: form.elements.variant.value,
      players: Number(form.elements.players.value), clock: readClock(form), rated: form.elements.rated.checked,
      rating_min: range("rating_min"), rating_max: range("rating_max") },
  });
  if (answer.matched) {
    location.assign(`/play/${encodeURIComponent(answer.id)}`);
    return;
  }
  waitingForMatch = true;
  $("#create-message").textContent = t("lobby.seeking");
  await refreshLists();
}

async function createGame(form) {
  const players = Number(form.elements.players.value);
  const seats = [...form.querySelectorAll("#form-seats select")].map((select) => select.value);
  // `?cookie=1`: the server keeps this browser's seat tokens in HttpOnly cookies.
  const created = await api("POST", "/api/games?cookie=1", {
    body: { game: form.elements.game.value, variant: form.elements.variant.value, players, seats,
      clock: readClock(form), rated: form.elements.rated.checked },
  });
  // The invite links of the friends' seats, to hand out from the game page (never stored
  // here). The creator holds no token for them: the first browser that opens one gets it.
  inviteHandoff.give(created.id, (created.seats ?? []).filter((entry) => entry.kind === "invite" && entry.url)
    .map((entry) => ({ seat: entry.seat, url: entry.url })));
  location.assign(`/play/${encodeURIComponent(created.id)}`);
}

function listOf(answer) {
  return Array.isArray(answer) ? answer : answer?.games ?? [];
}

async function refreshLists() {
  const [open, playing, seeks] = await Promise.all([
    api("GET", "/api/games?status=open").catch(() => []),
    api("GET", "/api/games?status=playing").catch(() => []),
    api("GET", "/api/seeks").catch(() => ({ seeks: [] })),
    refreshMyGames(),
    refreshTournaments(),
  ]);
  fillList($("#open-games"), listOf(open), true);
  fillList($("#playing-games"), listOf(playing), false);
  fillSeeks(seeks?.seeks ?? []);
}

/** The lobby's "Tournaments": the running ones, then the upcoming ones, each linked to its page. */
async function refreshTournaments() {
  const read = (status) => api("GET", `${tournamentsPath}?status=${status}`).then((answer) => answer?.tournaments ?? [])
    .catch(() => []);
  const [running, upcoming] = await Promise.all([read("running"), read("upcoming")]);
  const shown = [...running, ...upcoming].slice(0, 8);
  const list = $("#lobby-tournaments");
  const text = JSON.stringify(shown);
  if (drawn.get(list) === text) return; // unchanged: the focus stays where it is
  drawn.set(list, text);
  if (shown.length === 0) {
    list.replaceChildren(el("li", { class: "muted" }, t("lobby.none")));
    return;
  }
  list.replaceChildren(...shown.map((tournament) => el("li", { "data-tournament": tournament.id },
    el("strong", { class: "tournament-state" }, t(`tournament.status.${tournament.status}`)),
    el("span", { class: "what" }, el("a", { href: tournamentPage(tournament.id) }, tournament.name),
      ` · ${tournamentLine(tournament, catalog, t, lang)}`),
    el("span", { class: "muted" }, plural(lang, "tournament.entrantCount", { n: tournament.entrants ?? 0 })))));
}

/** "Your games": opponents, whose turn, the clock or deadline, "your turn" marked first. */
async function refreshMyGames() {
  if (!person) return;
  let answer;
  try {
    answer = await api("GET", "/api/me/games");
  } catch {
    return;
  }
  showTurnCount(answer.your_turn);
  const list = $("#my-games");
  if (answer.games.length === 0) {
    list.replaceChildren(el("li", { class: "muted" }, t("lobby.none")));
    return;
  }
  list.replaceChildren(...answer.games.map((game) => {
    const opponents = game.seats.filter((seat) => !game.my_seats.includes(seat.seat)).map(seatWords).join(", ");
    const whose = game.status === "waiting" ? t("lobby.waitingForPlayers")
      : game.your_turn ? t("lobby.yourTurn")
      : t("lobby.theirTurn", { name: seatWords(game.seats.find((seat) => seat.seat === game.to_move) ?? {}) });
    const clock = game.deadline ? t("lobby.deadline", { when: formatDeadline(new Date(game.deadline), lang) })
      : timeControlText(game.clock, t) ?? t("game.noClock");
    return el("li", { "data-id": game.id, class: game.your_turn ? "your-turn" : "" },
      el("strong", { class: "whose" }, whose),
      el("span", { class: "what" }, `${gameTitle(game.game)} · ${t("lobby.against", { names: opponents || "—" })}`),
      el("span", { class: "muted" }, clock),
      el("a", { href: `/play/${encodeURIComponent(game.id)}`, class: "watch" }, t("lobby.open_game")));
  }));
}

function seatWords(seat) {
  if (seat.kind === "bot") return t("game.bot", { level: nameOf(t, "level", seat.level ?? "?") });
  if (seat.kind === "open" || seat.kind === "invite") return t("game.open");
  return seat.name || t("game.human");
}

function ratingWords(rating) {
  if (!rating) return t("lobby.unrated");
  return `${rating.rating}${rating.provisional ? "?" : ""}`;
}

function fillSeeks(seeks) {
  const list = $("#seeks");
  if (seeks.length === 0) {
    list.replaceChildren(el("li", { class: "muted" }, t("lobby.none")));
    return;
  }
  list.replaceChildren(...seeks.map((seek) => {
    const mine = person && seek.name === person.name;
    const item = el("li", { "data-seek": seek.id },
      el("span", { class: "what" }, `${gameTitle(seek.game)} · ${gameWord(facts(seek.game), "variant", seek.variant, lang)}`
        + ` · ${timeControlText(seek.clock, t) ?? t("game.noClock")} · ${t(seek.rated ? "lobby.rated" : "lobby.casual")}`),
      el("span", {}, `${seek.name} (${seek.rating})`));
    if (mine) {
      item.append(el("button", { type: "button", class: "secondary", onclick: () => cancelSeek(seek.id) }, t("lobby.cancelSeek")));
    }
    return item;
  }));
}

async function cancelSeek(id) {
  await api("DELETE", `/api/seeks/${encodeURIComponent(id)}`).catch(() => null);
  waitingForMatch = false;
  await refreshLists();
}

function openSeatsOf(game) {
  const seats = Array.isArray(game.seats) ? game.seats : [];
  return seats
    .map((entry, index) => (typeof entry === "string" ? { seat: index, kind: entry } : entry))
    .filter((entry) => entry && (entry.kind === "open" || entry.type === "open" || entry.open === true || entry.taken === false))
    .map((entry) => entry.seat);
}

function fillList(list, games, isOpen) {
  if (games.length === 0) {
    list.replaceChildren(el("li", { class: "muted" }, t("lobby.none")));
    return;
  }
  list.replaceChildren(...games.map((game) => {
    const entry = facts(game.game);
    const title = entry ? pick(entry.title, lang) : game.game;
    const control = timeControlText(game.clock, t) ?? t("game.noClock");
    const item = el("li", { "data-id": game.id },
      el("img", { src: entry?.picture ?? "/static/img/logo.svg", alt: "", width: 40, height: 30 }),
      el("span", { class: "what" }, `${title} · ${gameWord(entry, "variant", game.variant ?? "standard", lang)} · ${t("lobby.players", { n: game.players ?? "?" })} · ${control} · ${t(game.rated ? "lobby.rated" : "lobby.casual")}`),
      game.creator ? el("span", { class: "creator" }, game.creator.guest ? game.creator.name
        : el("a", { href: `/players/${encodeURIComponent(game.creator.name)}` }, game.creator.name),
      ` (${ratingWords(game.creator.rating)})`) : null,
      el("a", { href: `/play/${encodeURIComponent(game.id)}`, class: "watch" }, t("lobby.watch")));
    if (isOpen) {
      for (const seat of openSeatsOf(game)) {
        item.append(el("button", { type: "button", class: "join", onclick: () => join(game.id, seat) },
          `${t("lobby.join")} ${seat + 1}`));
      }
    }
    return item;
  }));
}

/** Join an open seat; without a chosen name the server names it "Guest n" (each page translates it). */
async function join(gameId, seat) {
  const name = localStorage.getItem("ludotheque.name");
  try {
    await api("POST", `${gamePath(gameId)}/seats/${seat}/join?cookie=1`, { body: name ? { name } : {} });
    location.assign(`/play/${encodeURIComponent(gameId)}`);
  } catch (error) {
    $("#create-message").textContent = errorText(lang, error);
  }
}
