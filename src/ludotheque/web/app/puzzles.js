/**
 * A game's puzzles (`/puzzles/<game>`): a puzzle near the person's rating from
 * `GET /api/puzzles/<game>/next`, shown on the game's own board module (the game page's), answered
 * by clicks or the keyboard (picker.js, boardnav.js, as on a game page) or typed in notation.
 *
 * The server judges each move (`POST .../answer` with the step): a right move that does not end
 * the puzzle comes back with the line's reply and the next position; a wrong one ends it, with the
 * solution. The person's first try at a puzzle moves their rating and the puzzle's (the first
 * answer of a browser that is nobody yet makes it a guest, `?cookie=1`). `?id=` opens one puzzle.
 * The page only ever has what the solver may see: the server sends the solver's view.
 * Where the game has "win in N" puzzles drawn from its solved tables (`source` "tables", each under
 * its own rule set: Pylos's kids rules), a choice shows them alone (`?source=tables`).
 */

import { catalogEntry, loadBoard } from "./boards.js";
import { api } from "./api.js";
import { setRovingCell } from "./boardnav.js";
import { boardClicks, typedMove } from "./boardclicks.js";
import { el } from "./dom.js";
import { addWords, currentLanguage, errorText, plural, translatePage } from "./i18n.js";
import { loadPerson, showPerson } from "./person.js";
import { MovePicker } from "./picker.js";
import WORDS from "./texts-puzzles.json" with { type: "json" };

addWords(WORDS);
const lang = currentLanguage();
const t = translatePage(lang);
const $ = (selector) => document.querySelector(selector);
const THEMES = { win: "puzzles.themeWin", save: "puzzles.themeSave", gap: "puzzles.themeGap" };
const TASKS = { win: "puzzles.taskWin", save: "puzzles.taskSave", gap: "puzzles.taskGap" };

const page = {
  game: $("#puzzles")?.dataset.game || null,
  board: null,
  picker: null,
  puzzle: null, // the puzzle document (GET .../next or .../<id>)
  view: null, // the position shown
  legal: [], // its legal moves (empty once the puzzle is over)
  step: 0, // the person's next step
  result: null, // the last answer's verdict
  lastMove: null,
  busy: false,
  focusKey: null,
  keepBoardFocus: false,
  person: null,
  facts: null, // the game's catalog entry (its variants' names)
  // "tables": only the "win in N" puzzles drawn from the solved tables (`?source=tables`).
  source: new URLSearchParams(location.search).get("source"),
};
const SOLVED = "tables";
// The board's clicks (declared before any code can draw the board).
const { cancelSelection, fillChoices, wireBoard } = boardClicks(page, {
  t, lang, canClick: () => !page.busy && answering(), submit: (text) => submitAnswer(text),
  redraw: () => { renderBoard(); renderChoices(); },
  focusTargets: ["#choices button.choice", "#choices select", "#board .target"],
});

start().catch((error) => {
  showMessage(errorText(lang, error));
  document.body.dataset.ready = "true";
});

async function start() {
  page.person = await loadPerson();
  showPerson(page.person, t);
  if (!page.game) {
    document.body.dataset.ready = "true";
    return;
  }
  const catalog = await api("GET", "/api/catalog").catch(() => null);
  page.facts = catalogEntry(catalog, page.game) ?? null;
  page.board = await loadBoard(page.game, page.facts);
  page.picker = new MovePicker(page.board);
  document.body.dataset.game = page.game;
  wireControls();
  wireSources();
  const asked = new URLSearchParams(location.search).get("id");
  await open(asked);
  $("#puzzles").setAttribute("aria-busy", "false");
  document.body.dataset.ready = "true";
}

/** Open puzzle `id`, or the next one near the person's rating. */
async function open(id = null) {
  const base = `/api/puzzles/${encodeURIComponent(page.game)}`;
  const only = page.source ? `&source=${encodeURIComponent(page.source)}` : "";
  const path = id ? `${base}/${encodeURIComponent(id)}?lang=${lang}` : `${base}/next?lang=${lang}&cookie=1${only}`;
  let puzzle;
  try {
    puzzle = await api("GET", path);
  } catch (error) {
    if (error?.code === "not_found" && !id) {
      showMessage(t("puzzles.allTried"));
      return;
    }
    throw error;
  }
  if (!page.person) {
    page.person = await loadPerson();
    showPerson(page.person, t);
  }
  page.puzzle = puzzle;
  restart();
  $("#puzzle").hidden = false;
  showSources(puzzle.sources ?? []);
  rememberPuzzle();
}

/** The choice between every puzzle and the "win in N" of the solved tables, where the game has them. */
function showSources(sources) {
  const box = $("#source-choice");
  if (!box || !sources.includes(SOLVED)) return;
  box.hidden = false;
  $("#puzzle-source").value = page.source === SOLVED ? SOLVED : "";
}

function wireSources() {
  $("#puzzle-source")?.addEventListener("change", (event) => {
    page.source = event.target.value || null;
    const url = new URL(location.href);
    if (page.source) url.searchParams.set("source", page.source);
    else url.searchParams.delete("source");
    url.searchParams.delete("id");
    history.replaceState(history.state, "", url.pathname + url.search);
    open().catch((error) => showMessage(errorText(lang, error)));
  });
}

/** What the game calls a variant in the reader's language (the catalog's names), else its id. */
function variantName(variant) {
  return page.facts?.variant_names?.[variant]?.[lang] ?? variant;
}

/** The puzzle from its first position (a new puzzle, or "Try again"). */
function restart() {
  const puzzle = page.puzzle;
  page.view = puzzle.view;
  page.legal = puzzle.legal_moves;
  page.step = 0;
  page.result = null;
  page.lastMove = null;
  page.picker.setLegal(page.legal, page.view);
  showMessage("");
  $("#move-text").value = "";
  render();
}

/** `?id=` in the address: a reload, or the language switch, stays on this puzzle. */
function rememberPuzzle() {
  const url = new URL(location.href);
  url.searchParams.set("id", page.puzzle.id);
  history.replaceState(history.state, "", url.pathname + url.search);
  for (const link of document.querySelectorAll("[data-lang-switch]")) {
    const other = new URL(url);
    other.searchParams.set("lang", lang === "fr" ? "en" : "fr");
    link.href = other.pathname + other.search;
  }
}

// ---------------------------------------------------------------- rendering

function render() {
  renderHeading();
  renderBoard();
  renderChoices();
  renderAnswer();
  renderRatings();
}

function seatWords(seat) {
  const players = page.puzzle.players ?? 2;
  return page.board.seatName?.(seat, players, lang) ?? `${seat + 1}`;
}

function renderHeading() {
  const puzzle = page.puzzle;
  $("#puzzle-name").textContent = t("puzzles.name", { id: puzzle.id });
  const solved = puzzle.source === SOLVED;
  const task = plural(lang, solved ? "puzzles.taskSolved" : TASKS[puzzle.theme] ?? "puzzles.taskGap",
    { who: seatWords(puzzle.solver), steps: puzzle.steps, n: puzzle.steps, plies: puzzle.plies,
      variant: variantName(puzzle.variant) });
  const count = puzzle.steps > 1 ? ` ${t("puzzles.stepOf", { n: Math.min(page.step + 1, puzzle.steps), count: puzzle.steps })}` : "";
  $("#puzzle-task").textContent = task + count;
  document.title = `${$("#puzzle-name").textContent} — ${$("#puzzles-title").textContent} — Ludothèque`;
}

const answering = () => !page.result?.done;

function renderBoard() {
  const container = $("#board");
  const active = answering();
  const tokens = active ? page.picker.chosen : [];
  const next = active ? page.picker.next() : [];
  const marks = {
    tokens,
    targets: new Set(next.map((choice) => choice.key).filter((key) => key !== null)),
    chosenKeys: new Set(tokens.map((token) => page.board.keyOf(token)).filter((key) => key !== null)),
    lastKeys: new Set(moveKeys(page.lastMove)),
    memory: false,
    turn: page.board.readerTurn?.(page.view, page.puzzle.solver) ?? 0,
  };
  const hadFocus = page.keepBoardFocus || container.contains(document.activeElement);
  page.focusKey = document.activeElement?.closest?.("#board [data-key]")?.dataset?.key ?? page.focusKey;
  container.replaceChildren(page.board.render(page.view, marks, lang));
  container.setAttribute("aria-label", t("puzzles.board"));
  const cell = setRovingCell(container, page.focusKey);
  if (hadFocus) (cell ?? container).focus();
  page.keepBoardFocus = false;
}

/** The cells of a move (marked like a game's last move). */
function moveKeys(move) {
  if (!move) return [];
  try {
    return page.board.paths(move, page.view)[0].map((token) => page.board.keyOf(token)).filter((key) => key !== null);
  } catch {
    return [];
  }
}

function renderChoices() {
  const bar = $("#choices");
  bar.replaceChildren();
  if (!answering() || !page.picker.isActive) return;
  fillChoices(page.view);
  if (page.picker.hasSelection) {
    bar.append(el("button", { type: "button", class: "secondary", onclick: cancelSelection }, t("game.cancel")));
  }
}

function verdictText(result) {
  if (!result.right) return t("puzzles.wrong", { move: result.move });
  if (result.done) return t("puzzles.solved");
  return result.replies.length ? t("puzzles.rightGoOn", { replies: result.replies.join(", ") }) : t("puzzles.right");
}

function renderAnswer() {
  const result = page.result;
  const verdict = $("#verdict");
  verdict.className = result ? `verdict ${result.right ? "right" : "wrong"}` : "verdict";
  verdict.replaceChildren(...(result ? [el("strong", {}, verdictText(result))] : []));
  const solution = $("#solution");
  solution.hidden = !result?.solution;
  solution.textContent = result?.solution ? t("puzzles.solution", { line: result.solution.join(" ") }) : "";
  const open = answering();
  $("#move-form").hidden = !open;
  $("#keys-hint").hidden = !open;
  $("#again-button").hidden = open;
  $("#next-button").classList.toggle("primary", !open);
  $("#legal-moves").replaceChildren(...(open ? page.legal : []).slice(0, 500).map((text) => el("option", { value: text })));
}

function ratingWords(rating) {
  if (!rating) return "—";
  return rating.provisional ? t("puzzles.provisional", { rating: rating.rating }) : String(rating.rating);
}

function renderRatings() {
  const puzzle = page.puzzle;
  const result = page.result;
  $("#person-rating").textContent = ratingWords(result?.rating ?? puzzle.rating);
  $("#puzzle-rating").textContent = ratingWords(result?.puzzle_rating ?? puzzle.puzzle_rating);
  $("#puzzle-theme").textContent = puzzle.source === SOLVED ? t("puzzles.themeSolved", { plies: puzzle.plies })
    : t(THEMES[puzzle.theme] ?? "puzzles.themeGap");
  const change = $("#rating-change");
  change.className = "rating-change";
  if (result?.done && result.rated) {
    const sign = result.change > 0 ? "+" : result.change < 0 ? "−" : "±";
    change.textContent = t("puzzles.change", { rating: result.rating.rating, change: `${sign}${Math.abs(result.change)}` });
    change.classList.toggle("up", result.change > 0);
  } else if (result?.done && result.rating) {
    change.textContent = t("puzzles.unrated");
  } else {
    change.textContent = "";
  }
}

// ---------------------------------------------------------------- actions

function wireControls() {
  wireBoard($("#board"));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") cancelSelection();
  });
  $("#move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("#move-text").value.trim();
    if (text) submitAnswer(typedMove(text, page.legal));
  });
  $("#again-button").addEventListener("click", () => {
    page.keepBoardFocus = true;
    restart();
  });
  $("#next-button").addEventListener("click", () => {
    open().then(() => $("#puzzle-name").focus()).catch((error) => showMessage(errorText(lang, error)));
  });
}

async function submitAnswer(text) {
  if (page.busy) return;
  const puzzle = page.puzzle;
  page.busy = true;
  showMessage("");
  try {
    const path = `/api/puzzles/${encodeURIComponent(page.game)}/${encodeURIComponent(puzzle.id)}/answer`;
    const result = await api("POST", `${path}?lang=${lang}&cookie=1`, { body: { move: text, step: page.step } });
    if (page.puzzle !== puzzle) return;
    page.result = result;
    page.view = result.view;
    page.legal = result.legal_moves;
    page.step = result.step;
    page.lastMove = result.replies.at(-1) ?? result.move;
    page.picker.setLegal(page.legal, page.view);
    $("#move-text").value = "";
    render();
    if (result.done) $("#next-button").focus();
  } catch (error) {
    showMessage(errorText(lang, error, { move: text }));
    page.picker.reset();
    render();
  } finally {
    page.busy = false;
  }
}

function showMessage(text) {
  const message = $("#message");
  if (message) message.textContent = text;
}
