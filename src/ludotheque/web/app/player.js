/**
 * A player's page: ratings per game (a chart of each over time), current games, and their games
 * filtered by game and result (won, lost, drawn).
 */

import { api } from "./api.js";
import { timeControlText } from "./clock.js";
import { el, svg } from "./dom.js";
import { currentLanguage, errorText, gameWord, pick, plural, translatePage } from "./i18n.js";
import { loadPerson, showPerson } from "./person.js";

const lang = currentLanguage();
const t = translatePage(lang);
const $ = (selector) => document.querySelector(selector);
const name = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] ?? "");
let catalog = [];

init();

async function init() {
  loadPerson().then((person) => showPerson(person, t));
  catalog = (await api("GET", "/api/catalog").catch(() => ({ games: [] }))).games ?? [];
  for (const entry of catalog) $("#filter-game").append(el("option", { value: entry.id }, pick(entry.title, lang)));
  try {
    const player = await api("GET", `/api/players/${encodeURIComponent(name)}`);
    $("#player-name").textContent = player.name;
    document.title = `${player.name} — Ludothèque`;
    $("#player-since").textContent = t("player.since", { date: new Date(player.created).toLocaleDateString(lang) });
    showRatings(player.ratings);
    fillGames($("#current"), player.current);
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
  const entry = catalog.find((item) => item.id === game);
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
    const entry = catalog.find((item) => item.id === game.game);
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
