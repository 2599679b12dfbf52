/**
 * A game's lessons (`/learn/<game>`): the course from `GET /api/lessons/<game>`, a step at a time.
 *
 * Each step shows its explanation, its task and its position, drawn by the game's own board module
 * (the one the game page uses, from the catalog). The answer is a move, chosen on the board by
 * clicks or the keyboard (picker.js, boardnav.js, as on a game page) or typed in notation; the
 * server judges it (`POST .../answer`) and says right or wrong with the step's explanation, and
 * keeps a right answer in the person's progress (a guest's too: the first answer of a browser that
 * is nobody yet makes it a guest, `?cookie=1`). The page opens at the first step not done.
 *
 * The last step is a whole game against a bot: the page starts it through the game API
 * (`POST /api/games`) and sends the person to it; the game's id is remembered in this browser
 * (localStorage), and back here the page asks the server whether that game was won
 * (`POST .../game`), which makes the step done.
 */

import { catalogEntry, loadBoard } from "./boards.js";
import { api, ApiError } from "./api.js";
import { setRovingCell } from "./boardnav.js";
import { boardClicks, typedMove } from "./boardclicks.js";
import { el, pathId } from "./dom.js";
import { currentLanguage, errorText, nameOf, translatePage } from "./i18n.js";
import { loadPerson, showPerson } from "./person.js";
import { MovePicker } from "./picker.js";

const lang = currentLanguage();
const t = translatePage(lang);
const $ = (selector) => document.querySelector(selector);
// localStorage: the lesson game started from this page, per game (`{id, step}`); game.js reads it too.
const LESSON_GAME = "ludotheque.lessonGame.";

const page = {
  game: $("#learn")?.dataset.game || null,
  steps: [],
  progress: null,
  index: 0,
  board: null,
  picker: null,
  answered: null, // the server's verdict on the answer shown, until "Try again" or another step
  busy: false,
  hintShown: false,
  focusKey: null,
  keepBoardFocus: false,
  gameCheck: null, // the last step: {playing, id} or {right, explanation} of the lesson game
  person: null, // the browser's person (`GET /api/me`), null until its first answer makes it a guest
};
// The board's clicks (declared before any code can draw the board).
const { cancelSelection, fillChoices, wireBoard } = boardClicks(page, {
  t, lang, canClick: () => !page.busy && !page.answered && !step().game, submit: (text) => submitAnswer(text),
  redraw: () => { renderBoard(); renderChoices(); },
  focusTargets: ["#choices button.choice", "#choices select", "#board .target"],
});

start().catch((error) => {
  showMessage(errorText(lang, error));
  document.body.dataset.ready = "true";
});

async function start() {
  // Nobody yet: the first answer makes this browser a guest (`?cookie=1`), whose progress is kept.
  page.person = await loadPerson();
  showPerson(page.person, t);
  if (!page.game) {
    document.body.dataset.ready = "true";
    return;
  }
  const path = `/api/lessons/${encodeURIComponent(page.game)}?lang=${lang}`;
  const [catalog, course] = await Promise.all([api("GET", "/api/catalog").catch(() => null), api("GET", path)]);
  page.steps = course.steps;
  page.progress = course.progress;
  page.board = await loadBoard(page.game, catalogEntry(catalog, page.game));
  page.picker = new MovePicker(page.board);
  document.body.dataset.game = page.game;
  wireControls();
  await checkLessonGame();
  const asked = Number(new URLSearchParams(location.search).get("step"));
  // Back from the lesson game (its result, or still played): its step; else the first step not done.
  const resume = page.gameCheck ? page.steps.length - 1 : Math.min(page.progress.next, page.steps.length - 1);
  show(Number.isInteger(asked) && asked >= 1 && asked <= page.steps.length ? asked - 1 : resume);
  $("#step").hidden = false;
  $("#learn").setAttribute("aria-busy", "false");
  document.body.dataset.ready = "true";
}

const step = () => page.steps[page.index];
const isDone = (entry) => page.progress.done.includes(entry.id);

/** Open step `index` (its position, nothing chosen); `focus`: move the focus to its title. */
function show(index, { focus = false } = {}) {
  page.index = Math.max(0, Math.min(page.steps.length - 1, index));
  page.answered = null;
  page.hintShown = false;
  page.focusKey = null;
  const current = step();
  page.picker.setLegal(current.game ? [] : current.legal_moves, current.view);
  showMessage("");
  $("#move-text").value = "";
  rememberStep();
  render();
  if (focus) $("#step-title").focus();
}

/** `?step=n` in the address (a reload, or the language switch, stays on this step). */
function rememberStep() {
  const url = new URL(location.href);
  url.searchParams.set("step", String(page.index + 1));
  history.replaceState(history.state, "", url.pathname + url.search);
  for (const link of document.querySelectorAll("[data-lang-switch]")) {
    const other = new URL(url);
    other.searchParams.set("lang", lang === "fr" ? "en" : "fr");
    link.href = other.pathname + other.search;
  }
}

// ---------------------------------------------------------------- rendering

function render() {
  renderCourse();
  renderStep();
  renderBoard();
  renderChoices();
  renderAnswer();
}

function renderCourse() {
  const done = new Set(page.progress.done);
  $("#course-progress").textContent = t("learn.progress", { done: done.size, count: page.steps.length });
  $("#not-kept").hidden = page.progress.kept || !page.answered; // a browser that keeps no cookie
  $("#course-steps").replaceChildren(...page.steps.map((entry, index) => {
    const isCurrent = index === page.index;
    const state = done.has(entry.id) ? "done" : isCurrent ? "current" : "todo";
    const mark = { done: "✓", current: "▸", todo: "○" }[state];
    const button = el("button", { type: "button", class: "step-link", "data-step": entry.id,
      "aria-current": isCurrent ? "step" : null, onclick: () => show(index, { focus: true }) },
    el("span", { class: "step-mark", "aria-hidden": "true" }, mark),
    el("span", { class: "step-name" }, `${index + 1}. ${entry.title}`),
    el("span", { class: "step-state" }, t(`learn.${state}`)));
    return el("li", { class: `course-step ${state}` }, button);
  }));
  const finished = page.progress.finished;
  $("#finished").hidden = !finished;
  $("#finished").textContent = finished ? t("learn.finished") : "";
}

function renderStep() {
  const current = step();
  $("#step-count").textContent = t("learn.stepOf", { n: page.index + 1, count: page.steps.length });
  $("#step-title").textContent = current.title;
  $("#step-text").replaceChildren(...current.text.split(/\n\s*\n/).map((paragraph) => el("p", {}, paragraph)));
  $("#task-text").textContent = current.task;
  const hint = $("#hint-text");
  hint.hidden = !page.hintShown;
  hint.replaceChildren(...(page.hintShown
    ? [el("strong", {}, t("learn.hintLabel")), " ", current.hint || current.task] : []));
  $("#hint-button").setAttribute("aria-expanded", String(page.hintShown));
  $("#prev-button").disabled = page.index === 0;
  $("#next-button").disabled = page.index === page.steps.length - 1;
  document.title = `${current.title} — ${$("#learn-title").textContent} — Ludothèque`;
  renderGameStep(current);
}

/** The view drawn: the position after the answer while its verdict is shown, else the step's. */
function shownView() {
  return page.answered?.view ?? step().view;
}

function renderBoard() {
  const container = $("#board");
  const current = step();
  const active = !page.answered && !current.game;
  const tokens = active ? page.picker.chosen : [];
  const next = active ? page.picker.next() : [];
  const marks = {
    tokens,
    targets: new Set(next.map((choice) => choice.key).filter((key) => key !== null)),
    chosenKeys: new Set(tokens.map((token) => page.board.keyOf(token)).filter((key) => key !== null)),
    lastKeys: new Set(answerKeys()),
    memory: false,
    turn: page.board.readerTurn?.(shownView(), current.learner) ?? 0,
  };
  const hadFocus = page.keepBoardFocus || container.contains(document.activeElement);
  page.focusKey = document.activeElement?.closest?.("#board [data-key]")?.dataset?.key ?? page.focusKey;
  container.replaceChildren(page.board.render(shownView(), marks, lang));
  container.setAttribute("aria-label", t("learn.board"));
  const cell = setRovingCell(container, page.focusKey);
  if (hadFocus) (cell ?? container).focus();
  page.keepBoardFocus = false;
}

/** The cells of the move answered (marked like a game's last move). */
function answerKeys() {
  const move = page.answered?.move;
  if (!move) return [];
  try {
    return page.board.paths(move, step().view)[0].map((token) => page.board.keyOf(token)).filter((key) => key !== null);
  } catch {
    return [];
  }
}

function renderChoices() {
  const bar = $("#choices");
  bar.replaceChildren();
  if (page.answered || step().game || !page.picker.isActive) return;
  fillChoices(step().view);
  if (page.picker.hasSelection) {
    bar.append(el("button", { type: "button", class: "secondary", onclick: cancelSelection }, t("game.cancel")));
  }
}

/** "✓ Right! Your move: 1b2. <why>" (a game's verdict names no move). */
function verdictWords(result) {
  return [el("strong", {}, t(result.right ? "learn.right" : "learn.wrong")), " ",
    result.move ? `${t("learn.yourMove", { move: result.move })} ` : "", result.explanation];
}

/** The verdict, the form and the "Try again" button. */
function renderAnswer() {
  const current = step();
  const verdict = $("#verdict");
  const result = page.answered;
  verdict.className = result ? `verdict ${result.right ? "right" : "wrong"}` : "verdict";
  verdict.replaceChildren(...(result ? verdictWords(result) : []));
  const answering = !current.game && !page.answered;
  $("#move-form").hidden = !answering;
  $("#keys-hint").hidden = !answering;
  $("#again-button").hidden = !page.answered;
  $("#next-button").classList.toggle("primary", Boolean(page.answered?.right || (current.game ? false : isDone(current))));
  $("#legal-moves").replaceChildren(...(answering ? current.legal_moves : []).slice(0, 500)
    .map((text) => el("option", { value: text })));
}

function renderGameStep(current) {
  const box = $("#game-step");
  box.hidden = !current.game;
  if (!current.game) return;
  const check = page.gameCheck;
  const status = $("#game-status");
  const start = $("#start-game");
  const level = nameOf(t, "level", current.opponent);
  if (check?.playing) {
    status.replaceChildren(el("p", {}, t("learn.gamePlaying"), " ",
      el("a", { href: `/play/${encodeURIComponent(check.id)}`, class: "primary-link" }, t("learn.continueGame"))),
    el("button", { type: "button", class: "secondary", onclick: () => checkLessonGame(true) }, t("learn.checkGame")));
  } else if (check) {
    status.replaceChildren(el("p", { class: `verdict ${check.right ? "right" : "wrong"}` }, ...verdictWords(check)));
  } else {
    status.replaceChildren();
  }
  start.hidden = Boolean(check?.playing);
  start.textContent = t(check && check.right === false ? "learn.playAgain" : "learn.startGame", { level });
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
    if (text) submitAnswer(typedMove(text, step().legal_moves));
  });
  $("#hint-button").addEventListener("click", () => {
    page.hintShown = !page.hintShown;
    renderStep();
  });
  $("#again-button").addEventListener("click", tryAgain);
  $("#prev-button").addEventListener("click", () => show(page.index - 1, { focus: true }));
  $("#next-button").addEventListener("click", () => show(page.index + 1, { focus: true }));
  $("#start-game").addEventListener("click", startGame);
  $("#reset-course").addEventListener("click", resetCourse);
}

async function submitAnswer(text) {
  if (page.busy) return;
  const current = step();
  page.busy = true;
  showMessage("");
  try {
    const path = `/api/lessons/${encodeURIComponent(page.game)}/${encodeURIComponent(current.id)}/answer`;
    const result = await api("POST", `${path}?lang=${lang}&cookie=1`, { body: { move: text } });
    if (step() !== current) return;
    page.answered = result;
    page.progress = result.progress;
    if (!page.person) {
      page.person = await loadPerson();
      showPerson(page.person, t);
    }
    $("#move-text").value = "";
    render();
    const next = $("#next-button");
    (result.right && !next.disabled ? next : $("#again-button")).focus();
  } catch (error) {
    showMessage(errorText(lang, error, { move: text }));
    page.picker.reset();
    render();
  } finally {
    page.busy = false;
  }
}

function tryAgain() {
  page.answered = null;
  page.picker.setLegal(step().legal_moves, step().view);
  page.keepBoardFocus = true;
  render();
}

/** The last step: a game against the step's bot, the person on the step's seat; then to its page. */
async function startGame() {
  const current = step();
  const players = current.position.players ?? current.view.players ?? 2;
  const seats = Array.from({ length: players }, (_, seat) => (seat === current.seat ? "human" : `bot:${current.opponent}`));
  const body = { game: current.position.game, players, seats };
  if (current.position.variant) body.variant = current.position.variant;
  try {
    const created = await api("POST", "/api/games?cookie=1", { body });
    localStorage.setItem(LESSON_GAME + page.game, JSON.stringify({ id: created.id, step: current.id }));
    location.assign(`/play/${encodeURIComponent(created.id)}`);
  } catch (error) {
    showMessage(errorText(lang, error));
  }
}

/**
 * The lesson game this browser started, if any: won (the step is done), lost, or still played.
 * `render`: show the answer at once (the "Check my game" button).
 */
async function checkLessonGame(rerender = false) {
  const key = LESSON_GAME + page.game;
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(key) || "null");
  } catch {
    saved = null;
  }
  const last = page.steps.at(-1);
  if (!saved?.id || !last?.game) return;
  try {
    const path = `/api/lessons/${encodeURIComponent(page.game)}/${encodeURIComponent(last.id)}/game?lang=${lang}`;
    const result = await api("POST", path, { body: { id: saved.id } });
    page.gameCheck = { right: result.right, explanation: result.explanation };
    page.progress = result.progress;
    localStorage.removeItem(key);
  } catch (error) {
    if (error instanceof ApiError && error.code === "game_not_over") {
      page.gameCheck = { playing: true, id: saved.id };
    } else {
      page.gameCheck = null;
      localStorage.removeItem(key);
    }
  }
  if (rerender) render();
}

async function resetCourse() {
  try {
    const result = await api("POST", `/api/lessons/${encodeURIComponent(page.game)}/reset`, { body: {} });
    page.progress = result.progress;
    page.gameCheck = null;
    show(0, { focus: true });
  } catch (error) {
    showMessage(errorText(lang, error));
  }
}

function showMessage(text) {
  const message = $("#message");
  if (message) message.textContent = text;
}
