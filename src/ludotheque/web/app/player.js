/**
 * A player's page: ratings per game (a chart of each over time), current games, and their games
 * filtered by game and result (won, lost, drawn). A signed-in player visiting another one also
 * gets the "between players" panel: online or not, follow, block, a direct challenge (game,
 * variant, players, clock, rated) and a report to the moderators.
 */

import { api } from "./api.js";
import { catalogEntry } from "./boards.js";
import { timeControlText } from "./clock.js";
import { el, svg } from "./dom.js";
import { currentLanguage, errorText, gameWord, pick, plural, translatePage } from "./i18n.js";
import { loadPerson, showPerson } from "./person.js";
import { startChallengeAlerts } from "./social-live.js";

const lang = currentLanguage();
const t = translatePage(lang);
const $ = (selector) => document.querySelector(selector);
const name = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] ?? "");
let catalog = [];

init();

async function init() {
  const personLoaded = loadPerson();
  personLoaded.then((person) => showPerson(person, t));
  const listed = await api("GET", "/api/catalog").catch(() => ({ games: [] }));
  catalog = (Array.isArray(listed) ? listed : listed.games) ?? [];
  for (const entry of catalog) $("#filter-game").append(el("option", { value: entry.id }, pick(entry.title, lang)));
  try {
    const player = await api("GET", `/api/players/${encodeURIComponent(name)}`);
    $("#player-name").textContent = player.name;
    document.title = `${player.name} — Ludothèque`;
    $("#player-since").textContent = t("player.since", { date: new Date(player.created).toLocaleDateString(lang) });
    showRatings(player.ratings);
    fillGames($("#current"), player.current);
    await setupSocial(await personLoaded, player.name);
  } catch (error) {
    $("#player-message").textContent = error.status === 404 ? t("player.unknown") : errorText(lang, error);
  }
  for (const select of document.querySelectorAll("#filters select")) select.addEventListener("change", loadGames);
  await loadGames();
  document.body.dataset.ready = "true";
}

/** "Pylos, 2 players" / "Pylos against the computer". */
function categoryWords(category) {
  const [game, players, bots] = category.split("/");
  const entry = catalogEntry(catalog, game);
  const title = entry ? pick(entry.title, lang) : game;
  return bots ? t("player.categoryBots", { game: title, n: players }) : t("player.categoryPlayers", { game: title, n: players });
}

function showRatings(ratings) {
  $("#no-ratings").hidden = ratings.length > 0;
  $("#ratings").hidden = ratings.length === 0;
  $("#ratings tbody").replaceChildren(...ratings.map((rating) => el("tr", { "data-category": rating.category },
    el("th", { scope: "row" }, categoryWords(rating.category)),
    el("td", { class: "rating-value" }, `${rating.rating}${rating.provisional ? "?" : ""}`),
    el("td", {}, String(rating.games)))));
  $("#charts").replaceChildren(...ratings.map(chart));
}

/** A rating over time: an SVG line through the rating after each game (a label says it all). */
function chart(rating) {
  const points = [{ rating: rating.history[0]?.before ?? rating.rating }, ...rating.history];
  const values = points.map((point) => point.rating);
  const low = Math.min(...values) - 20;
  const high = Math.max(...values) + 20;
  const width = 320;
  const height = 120;
  const x = (index) => 30 + (index * (width - 40)) / Math.max(1, points.length - 1);
  const y = (value) => 10 + ((high - value) * (height - 30)) / (high - low);
  const label = plural(lang, "player.chartLabel", { category: categoryWords(rating.category),
    from: values[0], to: values.at(-1), n: rating.history.length });
  const figure = el("figure", { class: "chart", "data-category": rating.category });
  const drawing = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label, class: "chart-svg" },
    svg("line", { x1: 30, y1: height - 20, x2: width - 10, y2: height - 20, class: "axis" }),
    svg("text", { x: 2, y: y(high - 20) + 4, class: "tick" }, String(high - 20)),
    svg("text", { x: 2, y: y(low + 20) + 4, class: "tick" }, String(low + 20)),
    svg("polyline", { points: points.map((point, index) => `${x(index)},${y(point.rating)}`).join(" "), class: "line" }),
    ...points.map((point, index) => svg("circle", { cx: x(index), cy: y(point.rating), r: 3, class: "dot" })));
  figure.append(drawing, el("figcaption", {}, label));
  return figure;
}

async function loadGames() {
  const query = new URLSearchParams();
  for (const select of document.querySelectorAll("#filters select")) if (select.value) query.set(select.name, select.value);
  try {
    const answer = await api("GET", `/api/players/${encodeURIComponent(name)}/games?${query}`);
    fillGames($("#games"), answer.games);
    const count = (outcome) => answer.games.filter((game) => game.outcome === outcome).length;
    const counted = (outcome) => plural(lang, `player.${outcome}`, { n: count(outcome) });
    $("#tally").textContent = t("player.tally", { won: counted("won"), lost: counted("lost"), drawn: counted("drawn") });
  } catch (error) {
    $("#player-message").textContent = errorText(lang, error);
  }
}

function fillGames(list, games) {
  if (games.length === 0) {
    list.replaceChildren(el("li", { class: "muted" }, t("lobby.none")));
    return;
  }
  list.replaceChildren(...games.map((game) => {
    const entry = catalogEntry(catalog, game.game);
    const others = game.seats.filter((seat) => !game.my_seats.includes(seat.seat))
      .map((seat) => (seat.kind === "bot" ? t("game.bot", { level: t(`level.${seat.level}`) }) : seat.name)).join(", ");
    const outcome = game.outcome ? t(`player.${game.outcome}`) : t("player.playing");
    return el("li", { "data-id": game.id, "data-outcome": game.outcome ?? "playing" },
      el("strong", {}, outcome),
      el("span", { class: "what" }, `${entry ? pick(entry.title, lang) : game.game} · ${gameWord(entry, "variant", game.variant, lang)}`
        + ` · ${timeControlText(game.clock, t) ?? t("game.noClock")} · ${t(game.rated ? "lobby.rated" : "lobby.casual")}`
        + ` · ${t("lobby.against", { names: others || "—" })}`),
      el("a", { href: `/play/${encodeURIComponent(game.id)}` }, t("lobby.open_game")));
  }));
}

// -- between players: follow, block, challenge, report ---------------------------------------------
const playerPath = () => `/api/players/${encodeURIComponent(name)}`;

async function setupSocial(person, shown) {
  if (!person || person.guest) {
    $("#social-signin").hidden = false;
    return;
  }
  if (person.name === shown) return;
  startChallengeAlerts();
  $("#social").hidden = false;
  $("#follow").addEventListener("click", () => toggle("follow"));
  $("#block").addEventListener("click", () => toggle("block"));
  fillChallengeForm();
  $("#challenge-game").addEventListener("change", fillChallengeChoices);
  $("#challenge-form").addEventListener("submit", challenge);
  $("#report-form").addEventListener("submit", report);
  await showRelation();
  if (location.hash === "#social") $("#challenge-box").open = true;
}

let relation = { following: false, blocked: false, online: false };

async function showRelation() {
  try {
    relation = await api("GET", `${playerPath()}/relation`);
  } catch (error) {
    $("#social-message").textContent = errorText(lang, error);
    return;
  }
  const presence = $("#presence");
  presence.className = `presence ${relation.online ? "online" : "offline"}`;
  presence.textContent = t(relation.online ? "player.online" : "player.offline");
  $("#follow").textContent = t(relation.following ? "friends.unfollow" : "friends.follow");
  $("#follow").setAttribute("aria-pressed", String(relation.following));
  $("#follow").disabled = relation.blocked;
  $("#block").textContent = t(relation.blocked ? "friends.unblock" : "friends.block");
  $("#block").setAttribute("aria-pressed", String(relation.blocked));
  $("#social-note").textContent = relation.blocked ? t("player.blockedNote") : "";
  $("#challenge-box").hidden = relation.blocked;
}

async function toggle(what) {
  const on = what === "follow" ? relation.following : relation.blocked;
  try {
    await api(on ? "DELETE" : "POST", `${playerPath()}/${what}`);
    $("#social-message").textContent = "";
  } catch (error) {
    $("#social-message").textContent = errorText(lang, error);
  }
  await showRelation();
}

function fillChallengeForm() {
  $("#challenge-game").replaceChildren(...catalog.map((entry) => el("option", { value: entry.id }, pick(entry.title, lang))));
  // The lobby's default game (the server names it: the simplest to learn), else the first.
  const preferred = $("#challenge-game").dataset.default;
  if (catalog.some((entry) => entry.id === preferred)) $("#challenge-game").value = preferred;
  fillChallengeChoices();
}

function fillChallengeChoices() {
  const entry = catalogEntry(catalog, $("#challenge-game").value);
  const variants = entry?.variants ?? ["standard"];
  $("#challenge-variant").replaceChildren(...variants.map((variant) =>
    el("option", { value: variant, selected: variant === entry?.default_variant }, gameWord(entry, "variant", variant, lang))));
  const counts = entry?.player_counts ?? [2];
  $("#challenge-players").replaceChildren(...counts.map((count) =>
    el("option", { value: count, selected: count === (entry?.default_players ?? 2) }, String(count))));
  $("#challenge-players").closest("label").hidden = counts.length < 2;
}

function challengeClock() {
  const kind = document.querySelector('input[name="challenge-clock"]:checked')?.value;
  if (kind === "fischer") {
    return { type: "fischer", minutes: Number($("#challenge-minutes").value), increment: Number($("#challenge-increment").value) };
  }
  if (kind === "correspondence") return { type: "correspondence", days: Number($("#challenge-days").value) };
  return null;
}

async function challenge(event) {
  event.preventDefault();
  const body = { game: $("#challenge-game").value, variant: $("#challenge-variant").value,
    players: Number($("#challenge-players").value), rated: $("#challenge-rated").checked };
  const clock = challengeClock();
  if (clock) body.clock = clock;
  try {
    const made = await api("POST", `${playerPath()}/challenge`, { body });
    $("#social-message").textContent = t("challenge.sentOk", { name: made.to });
    $("#challenge-box").open = false;
  } catch (error) {
    $("#social-message").textContent = errorText(lang, error);
  }
}

async function report(event) {
  event.preventDefault();
  try {
    await api("POST", "/api/reports", { body: { player: name, reason: $("#report-reason").value } });
    $("#social-message").textContent = t("player.reported");
    $("#report-reason").value = "";
    $("#report-box").open = false;
  } catch (error) {
    $("#social-message").textContent = errorText(lang, error);
  }
}
