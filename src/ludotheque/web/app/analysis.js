/**
 * The analysis page of a finished game (`/games/<id>/analysis`): asks `GET
 * /api/games/<id>/analysis` (which starts the analysis on the server the first time) and shows its
 * progress until it is done; then the evaluation chart (the server's SVG, each point a ply), a
 * summary per player, the list of moves with their marks, and for the chosen ply the board before
 * the move with the best move found and the move played, and the better line. Where the game is
 * solved on the server (`exact`, `exact_played`, `exact_best` of a ply), each move's exact value
 * ("wins in 12") beside the evaluation, and a note where the move played changed the result.
 *
 * The positions come from `/api/games/<id>/replay/<n>` (a finished game's spectator views): the
 * game is over, so nothing it shows is a secret any more.
 */

import { catalogEntry, loadBoard } from "./boards.js";
import { api, ApiError, gamePath } from "./api.js";
import { el } from "./dom.js";
import { addWords, currentLanguage, errorText, pick, plural, translatePage } from "./i18n.js";
import { loadPerson, showPerson } from "./person.js";
import WORDS from "./texts-analysis.json" with { type: "json" };

addWords(WORDS);
const lang = currentLanguage();
const t = translatePage(lang);
const $ = (selector) => document.querySelector(selector);
const POLL_MS = 700;

const page = {
  id: $("#analysis").dataset.gameId,
  doc: null, // the game's spectator document
  board: null,
  analysis: null,
  ply: null, // the chosen ply (0-based), or null
  views: new Map(), // ply -> the view before that move
  view: new URLSearchParams(location.search).get("as") ?? "spectator",
  timer: null,
};

start().catch((error) => showStatus(errorText(lang, error)));

async function start() {
  loadPerson().then((person) => showPerson(person, t)).catch(() => {});
  const [doc, catalog] = await Promise.all([
    api("GET", gamePath(page.id)),
    api("GET", "/api/catalog").catch(() => null),
  ]);
  page.doc = doc;
  const facts = catalogEntry(catalog, doc.game);
  page.board = await loadBoard(doc.game, facts);
  const title = facts ? pick(facts.title, lang) : doc.game;
  $("#analysis-title").textContent = `${t("analysis.title")} — ${title}`;
  document.title = `${t("analysis.title")} — ${title} — Ludothèque`;
  fillViews(doc);
  showExactNote(facts?.perfect, doc.variant);
  wire();
  await ask();
}

/** Whether exact values can show: the game is solved and this variant's tables are built here. */
function showExactNote(perfect, variant) {
  const note = $("#analysis-exact-note");
  if (!perfect) return;
  const coverage = perfect.variants?.[variant];
  note.textContent = t(coverage === "complete" ? "analysis.exactAll"
    : coverage === "partial" ? "analysis.exactSome" : "analysis.exactMissing");
  note.hidden = false;
}

function seatName(seat) {
  return page.board.seatName?.(seat, page.doc.players, lang, page.doc.view) ?? String(seat + 1);
}

/** The points of view: spectator, each move by its player's knowledge, each seat alone. */
function fillViews(doc) {
  const select = $("#analysis-view");
  const options = [el("option", { value: "spectator" }, t("analysis.viewSpectator")),
    el("option", { value: "players" }, t("analysis.viewPlayers"))];
  for (let seat = 0; seat < doc.players; seat += 1) {
    options.push(el("option", { value: String(seat) }, t("analysis.viewSeat", { who: seatName(seat) })));
  }
  select.replaceChildren(...options);
  select.value = page.view;
  if (select.value !== page.view) page.view = select.value = "spectator";
}

function wire() {
  $("#analysis-view").addEventListener("change", (event) => {
    page.view = event.target.value;
    const url = new URL(location.href);
    url.searchParams.set("as", page.view);
    history.replaceState(null, "", url.pathname + url.search);
    page.analysis = null;
    page.ply = null;
    renderEmpty();
    ask();
  });
  $("#analysis-again").addEventListener("click", () => ask());
  $("#analysis-chart").addEventListener("click", (event) => {
    const point = event.target.closest?.("[data-ply]");
    if (point) choosePly(Number(point.dataset.ply));
  });
  document.addEventListener("keydown", (event) => {
    if (!page.analysis || event.target.closest?.("input, select, textarea")) return;
    const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
    if (!step) return;
    event.preventDefault();
    const last = page.analysis.plies.length - 1;
    choosePly(Math.max(0, Math.min(last, (page.ply ?? -1) + step)), { focus: true });
  });
}

/** Ask the server where the analysis stands; ask again while it is being made. */
async function ask() {
  clearTimeout(page.timer);
  const asked = page.view;
  $("#analysis-again").hidden = true;
  let answer;
  try {
    answer = await api("GET", `${gamePath(page.id)}/analysis?as=${encodeURIComponent(asked)}&lang=${lang}`);
  } catch (error) {
    if (error instanceof ApiError && error.code === "game_not_over") showStatus(t("analysis.notOver"));
    else showStatus(errorText(lang, error));
    if (error instanceof ApiError && error.code === "rate_limited") {
      page.timer = setTimeout(ask, 5000);
    }
    ready();
    return;
  }
  if (asked !== page.view) return; // the reader chose another view meanwhile
  if (answer.status === "done") {
    showProgress(null);
    showStatus(plural(lang, "analysis.done", { total: answer.total }));
    page.analysis = answer.analysis;
    renderAnalysis(answer);
    ready();
    return;
  }
  if (answer.status === "failed") {
    showProgress(null);
    showStatus(t("analysis.failed", { detail: answer.error ?? "" }));
    $("#analysis-again").hidden = false;
    ready();
    return;
  }
  showStatus(answer.status === "queued" ? t("analysis.queued")
    : plural(lang, "analysis.running", { done: answer.done, total: answer.total }));
  showProgress(answer);
  ready();
  page.timer = setTimeout(ask, POLL_MS);
}

function ready() {
  $("#analysis").setAttribute("aria-busy", "false");
  document.body.dataset.ready = "true";
}

function showStatus(text) {
  $("#analysis-status").textContent = text;
}

function showProgress(answer) {
  const bar = $("#analysis-progress");
  bar.hidden = !answer;
  if (!answer) return;
  bar.max = Math.max(1, answer.total);
  bar.value = answer.done;
}

function renderEmpty() {
  $("#analysis-chart").replaceChildren();
  $("#analysis-plies").replaceChildren();
  $("#analysis-summary").replaceChildren();
  $("#analysis-board").replaceChildren();
  $("#analysis-board").hidden = true;
  $("#analysis-legend").hidden = true;
  $("#analysis-thresholds").textContent = "";
  $("#ply-detail").replaceChildren(el("p", {}, t("analysis.chooseAPly")));
}

function renderAnalysis(answer) {
  const chart = new DOMParser().parseFromString(answer.chart, "image/svg+xml").documentElement;
  $("#analysis-chart").replaceChildren(document.importNode(chart, true));
  const thresholds = answer.analysis.thresholds;
  $("#analysis-thresholds").textContent = t("analysis.thresholds", thresholds);
  renderSummary(answer.analysis);
  renderPlies(answer.analysis);
  if (page.ply !== null) choosePly(page.ply);
}

function markWord(mark) {
  return t(`analysis.mark.${mark}`);
}

function renderSummary(analysis) {
  const items = Object.entries(analysis.summary).map(([seat, row]) => el("li", { "data-seat": seat },
    t("analysis.summaryLine", { who: seatName(Number(seat)), ...counted(row),
      loss: Number(row.average_loss).toFixed(3) })));
  $("#analysis-summary").replaceChildren(...items);
}

/** A summary row's counts in words, each agreeing with its number ("1 gaffe", "0 erreur"). */
function counted(row) {
  const words = {};
  for (const name of ["moves", "inaccuracy", "mistake", "blunder"]) {
    words[name] = plural(lang, `analysis.count.${name}`, { n: row[name] });
  }
  return words;
}

const SYMBOLS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

function renderPlies(analysis) {
  const items = analysis.plies.map((entry) => {
    const label = [`${entry.ply + 1}. ${entry.move}`];
    if (entry.mark) label.push(` ${SYMBOLS[entry.mark]}`);
    const button = el("button", { type: "button", class: `ply-button${entry.mark ? ` ${entry.mark}` : ""}`,
      "data-ply": entry.ply, "aria-pressed": "false", onclick: () => choosePly(entry.ply) },
    el("span", { class: `mover seat-${entry.mover}` }, seatName(entry.mover)), " ", label.join(""),
    entry.mark ? el("span", { class: "mark-word" }, ` (${markWord(entry.mark)})`) : null,
    entry.exact_played ? el("span", { class: `exact-word${flipped(entry) ? " exact-flip" : ""}` },
      ` — ${exactWords(entry.exact_played)}`) : null);
    return el("li", { class: entry.analysed ? "analysed" : "not-analysed" }, button);
  });
  $("#analysis-plies").replaceChildren(...items);
}

/** Show ply `ply` (0-based): the board before it, the best move and the move played, the line. */
async function choosePly(ply, { focus = false } = {}) {
  const entry = page.analysis?.plies?.[ply];
  if (!entry) return;
  page.ply = ply;
  for (const button of document.querySelectorAll("#analysis-plies [data-ply]")) {
    const chosen = Number(button.dataset.ply) === ply;
    button.setAttribute("aria-pressed", String(chosen));
    button.classList.toggle("current", chosen);
    if (chosen && focus) button.focus();
    if (chosen) button.scrollIntoView({ block: "nearest" });
  }
  for (const point of document.querySelectorAll("#analysis-chart [data-ply]")) {
    point.classList.toggle("chosen", Number(point.dataset.ply) === ply);
  }
  renderDetail(entry);
  const view = await viewBefore(ply);
  if (page.ply !== ply || !view) return;
  renderBoard(view, entry);
}

async function viewBefore(ply) {
  if (!page.views.has(ply)) {
    try {
      const answer = await api("GET", `${gamePath(page.id)}/replay/${ply}`);
      page.views.set(ply, answer.view);
    } catch (error) {
      showStatus(errorText(lang, error));
      return null;
    }
  }
  return page.views.get(ply);
}

function renderDetail(entry) {
  const who = seatName(entry.mover);
  const parts = [el("h3", { id: "ply-heading" }, t("analysis.plyHeading", { n: entry.ply + 1, move: entry.move, who }))];
  if (!entry.analysed) {
    parts.push(el("p", {}, t("analysis.notAnalysed")));
  } else {
    parts.push(el("p", {}, t("analysis.value", { who, value: signed(entry.value) })));
    if (entry.best === entry.move) {
      parts.push(el("p", { class: "best-move" }, t("analysis.isBest")));
    } else {
      parts.push(el("p", { class: "best-move" }, t("analysis.best", { move: entry.best })));
      parts.push(el("p", {}, entry.loss ? t("analysis.loss", { loss: entry.loss.toFixed(2) }) : t("analysis.asGood"),
        entry.mark ? el("strong", { class: `mark ${entry.mark}` }, ` — ${markWord(entry.mark)}`) : null));
    }
    if (entry.line?.length) {
      parts.push(el("p", { class: "better-line" }, t("analysis.line", { line: entry.line.join(" ") })));
    }
    parts.push(...exactDetail(entry, who));
  }
  $("#ply-detail").replaceChildren(...parts);
}

/** "wins in 12", "loses in 9", "draw": an exact value (`{result, plies}`) in words. */
function exactWords(value) {
  return value ? t(`analysis.exact.${value.result}`, { n: value.plies }) : "";
}

/** Whether the move played changed the exact result (a won position thrown away, say). */
function flipped(entry) {
  return Boolean(entry.exact && entry.exact_played && entry.exact.result !== entry.exact_played.result);
}

/** Where the position is solved: its exact value with a perfect move, and the move played's. */
function exactDetail(entry, who) {
  if (!entry.exact) return [];
  const parts = [el("p", { class: "exact" }, t("analysis.exactValue",
    { who, value: exactWords(entry.exact), move: entry.exact_best ?? "?" }))];
  parts.push(el("p", { class: "exact" }, entry.exact_played
    ? t("analysis.exactPlayed", { who, value: exactWords(entry.exact_played) })
    : t("analysis.exactUnknown"),
  flipped(entry) ? el("strong", { class: "exact-flip" }, ` — ${t("analysis.exactFlip")}`) : null));
  return parts;
}

function signed(value) {
  return `${value > 0 ? "+" : value < 0 ? "−" : ""}${Math.abs(value).toFixed(2)}`;
}

/** The keys of the board elements a move's first path goes through. */
function keysOf(move, view) {
  if (!move || move.includes("?")) return [];
  try {
    return page.board.paths(move, view)[0].map((token) => page.board.keyOf(token)).filter((key) => key !== null);
  } catch {
    return [];
  }
}

function renderBoard(view, entry) {
  const best = entry.analysed ? keysOf(entry.best, view) : [];
  const marks = {
    tokens: [],
    targets: new Set(),
    chosenKeys: new Set(best),
    lastKeys: new Set(keysOf(entry.move, view).filter((key) => !best.includes(key))),
    memory: false,
    turn: page.board.readerTurn?.(view, null) ?? 0,
  };
  $("#analysis-board").replaceChildren(page.board.render(view, marks, lang));
  $("#analysis-board").hidden = false;
  $("#analysis-legend").hidden = false;
}
