/**
 * The game page: one game document (from the WebSocket) drawn as a board, a move list, the
 * seats, clocks and buttons; moves chosen by clicks (see picker.js), by keyboard, or typed.
 *
 * The page renders only the document's `view` and `moves`: it never holds more than its reader
 * may know. It holds no seat token either: the server keeps them in HttpOnly cookies (see
 * api.js) and the page only learns which seats this browser holds, reading and acting as one
 * of them with `?seat=n` — on the same screen, as whichever held seat is to move.
 */

import {
  api,
  ApiError,
  claimToken,
  gamePath,
  heldSeats,
  inviteHandoff,
  migrateLegacyTokens,
  takeTokenFromAddress,
} from "./api.js";
import { ClockDisplay, formatSeconds } from "./clock.js";
import { el, pathId } from "./dom.js";
import { currentLanguage, pick, translatePage } from "./i18n.js";
import { LiveGame } from "./live.js";
import { MovePicker } from "./picker.js";
import { drawOffer, readSeats } from "./seats.js";

const lang = currentLanguage();
const t = translatePage(lang);
const $ = (selector) => document.querySelector(selector);

const page = {
  id: pathId(),
  doc: null,
  board: null,
  picker: null,
  catalog: null,
  held: new Set(), // the seats this browser's cookies hold
  invites: [], // [{seat, url}]: invite links (with tokens) of the seats this browser created
  live: null,
  replayPly: null, // null: live position; a number: replaying that ply of a finished game
  viewsByPly: new Map(),
  busy: false,
};

const clocks = new ClockDisplay(renderClocks);

start().catch((error) => showMessage(t("error.generic", { message: error.message })));

async function start() {
  page.catalog = await api("GET", "/api/catalog").catch(() => null);
  const kinds = catalogGames().map((entry) => entry.id);
  if (kinds.includes(page.id)) {
    // /games/pylos names a game, not a match: start one from the lobby's form.
    location.replace(`/?game=${encodeURIComponent(page.id)}#new-game`);
    return;
  }
  keepInvites([...await migrateLegacyTokens(page.id).catch(() => []), ...inviteHandoff.take(page.id)]);
  const seat = await claimInvite();
  try {
    page.held = new Set(await heldSeats(page.id));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw new Error(t("game.notFound"));
    throw error;
  }
  page.live = new LiveGame(page.id, onDocument, onConnection);
  // The invite link's seat; otherwise the server's choice: the held seat to move, or the first.
  page.live.connect(seat);
  wireControls();
}

/** Say when the connection is lost; clear only that message when it is back. */
function onConnection(up) {
  if (!up) showMessage(t("game.connection"));
  else if ($("#message").textContent === t("game.connection")) showMessage("");
}

/** An invite link (`?token=`): the server keeps its token in a cookie; returns its seat. */
async function claimInvite() {
  const token = takeTokenFromAddress();
  if (!token) return null;
  try {
    return await claimToken(page.id, token);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw new Error(t("game.notFound"));
    showMessage(t("game.badInvite"));
    return null;
  }
}

/** Invite links live in this tab's history entry only: a reload shows them, nothing else keeps them. */
function keepInvites(more) {
  const bySeat = new Map();
  for (const entry of [...(history.state?.invites ?? []), ...more]) {
    if (entry && typeof entry.seat === "number" && typeof entry.url === "string") bySeat.set(entry.seat, entry);
  }
  page.invites = [...bySeat.values()].map(({ seat, url }) => ({ seat, url }));
  history.replaceState({ ...(history.state ?? {}), invites: page.invites }, "");
}

function catalogGames() {
  const catalog = page.catalog;
  if (!catalog) return [];
  return Array.isArray(catalog) ? catalog : catalog.games ?? [];
}

/** A new document; one answering our own POST is dropped when a newer one already came. */
async function onDocument(doc, { isReply = false } = {}) {
  const first = page.doc === null;
  if (isReply && page.doc && doc.moves.length < page.doc.moves.length) return;
  page.doc = doc;
  page.viewsByPly.set(doc.moves.length, doc.view);
  if (first || !page.board || page.board.id !== doc.game) {
    page.board = await import(`/static/games/${doc.game}.js`);
    page.picker = new MovePicker(page.board);
    setupStaticParts(doc);
  }
  if (typeof doc.seat === "number") page.held.add(doc.seat);
  // Same screen: when another seat this browser holds is to move, read the game as that seat.
  if (page.held.has(doc.to_move) && doc.to_move !== doc.seat && doc.status !== "over") {
    page.live.connect(doc.to_move);
    return;
  }
  page.picker.setLegal(doc.legal_moves ?? [], doc.view);
  if (doc.status !== "over") page.replayPly = null;
  render();
  $("#game").setAttribute("aria-busy", "false");
  document.body.dataset.ready = "true";
}

function setupStaticParts(doc) {
  const facts = catalogGames().find((entry) => entry.id === doc.game);
  const title = facts ? pick(facts.title, lang) : doc.game;
  $("#game-title").textContent = title;
  document.title = `${title} — Ludothèque`;
  const rules = $("#rules-link");
  rules.href = `/rules/${encodeURIComponent(doc.game)}`;
  $("#memory-option").hidden = !page.board.hasMemoryMode;
  document.body.dataset.game = doc.game;
}

// ---------------------------------------------------------------- rendering

function render() {
  const doc = page.doc;
  renderTurn(doc);
  renderResult(doc);
  renderBoard();
  renderChoices();
  renderMoveForm(doc);
  renderSeats(doc);
  renderFacts(doc);
  renderActions(doc);
  renderMoves(doc);
  renderInvites(doc);
  clocks.update(doc);
}

function seatName(seat) {
  return page.board.seatName(seat, page.doc.players, lang);
}

function mySeat() {
  const viewer = page.doc?.view?.viewer;
  return typeof viewer === "number" ? viewer : null;
}

function renderTurn(doc) {
  const element = $("#turn");
  const me = mySeat();
  let text;
  if (doc.status === "waiting") text = t("game.waiting");
  else if (doc.status === "over") text = t("game.over");
  else if (doc.to_move !== null && doc.to_move === me && doc.legal_moves.length > 0) {
    text = t("game.yourTurn", { who: seatName(doc.to_move) });
  } else text = doc.to_move === null ? "" : t("game.toMove", { who: seatName(doc.to_move) });
  const who = me === null ? t("game.spectator") : t("game.youAre", { who: seatName(me) });
  element.replaceChildren(el("strong", {}, text), " ", el("span", { class: "muted" }, who));
  element.classList.toggle("my-turn", doc.to_move === me && doc.legal_moves.length > 0);
}

function renderResult(doc) {
  const banner = $("#result");
  const result = doc.result;
  banner.hidden = !result;
  if (!result) return;
  const winners = result.winners ?? [];
  const headline = winners.length === 0
    ? t("game.draw")
    : t("game.winner", { who: winners.map(seatName).join(", ") });
  const score = Array.isArray(result.scores) ? result.scores.join(" – ") : "";
  banner.replaceChildren(
    el("strong", {}, headline),
    score ? el("span", {}, ` · ${t("game.score", { score })}`) : "",
    result.reason ? el("span", { class: "muted" }, ` ${t("game.reason", { reason: reasonText(result.reason) })}`) : "",
  );
  banner.classList.toggle("win", winners.includes(mySeat()));
}

/** A result's reason in the page language (an unknown reason shows as the engine names it). */
function reasonText(reason) {
  const key = `reason.${reason}`;
  const label = t(key);
  return label === key ? reason : label;
}

function currentView() {
  if (page.replayPly !== null && page.viewsByPly.has(page.replayPly)) return page.viewsByPly.get(page.replayPly);
  return page.doc.view;
}

function renderBoard() {
  const container = $("#board");
  const replaying = page.replayPly !== null;
  const tokens = replaying ? [] : page.picker.chosen;
  const next = replaying ? [] : page.picker.next();
  const marks = {
    tokens,
    targets: new Set(next.map((choice) => choice.key).filter((key) => key !== null)),
    chosenKeys: new Set(tokens.map((token) => page.board.keyOf(token)).filter((key) => key !== null)),
    lastKeys: new Set(lastMoveKeys()),
    memory: $("#memory").checked,
  };
  const hadFocus = document.activeElement?.closest?.("#board")?.dataset?.key;
  const drawing = page.board.render(currentView(), marks, lang);
  container.replaceChildren(drawing);
  if (hadFocus) {
    const again = container.querySelector(`.target[data-key="${CSS.escape(hadFocus)}"]`)
      ?? container.querySelector(".target");
    again?.focus();
  }
}

function lastMoveKeys() {
  const moves = page.doc.moves;
  const ply = page.replayPly ?? moves.length;
  const last = moves[ply - 1];
  if (!last || last.includes("?")) return [];
  try {
    return page.board.paths(last, currentView())[0].map((token) => page.board.keyOf(token)).filter((key) => key !== null);
  } catch {
    return [];
  }
}

function renderChoices() {
  const bar = $("#choices");
  bar.replaceChildren();
  if (page.replayPly !== null || !page.picker.isActive) return;
  const next = page.picker.next();
  const buttons = next.filter((choice) => choice.key === null);
  const complete = page.picker.complete();
  // The board may say what this step asks (Imbrication: where to place, which piece acts...).
  const prompt = page.board.prompt?.(page.doc.view, page.picker.chosen, { complete, lang });
  if (prompt) bar.append(el("p", { class: "hint board-prompt" }, prompt));
  else if (page.picker.chosen.length === 0 && buttons.length === 0) {
    bar.append(el("p", { class: "hint" }, t("game.selectHint")));
  }
  if (buttons.length > 0 || complete) bar.append(el("span", { class: "prompt" }, t("game.chooseNext")));
  if (buttons.length > 12) {
    // Too many to show as buttons (a setup's choices): a list instead.
    const select = el("select", { "aria-label": t("game.chooseNext") },
      el("option", { value: "" }, t("game.choose")),
      buttons.map((choice) => el("option", { value: choice.token }, page.board.labelOf(choice.token, lang))));
    select.addEventListener("change", () => select.value && chooseToken(select.value));
    bar.append(select);
  } else {
    for (const choice of buttons) {
      bar.append(el("button", { type: "button", class: "choice", "data-token": choice.token,
        onclick: () => chooseToken(choice.token) }, page.board.labelOf(choice.token, lang)));
    }
  }
  if (complete) {
    bar.append(el("button", { type: "button", class: "choice finish", onclick: () => submitMove(complete) },
      `${t("game.finish")} (${complete})`));
  }
  if (page.board.randomChoice?.(page.doc.view) && page.picker.chosen.length === 0) {
    bar.append(el("button", { type: "button", class: "secondary", onclick: randomSetup }, t("game.randomSetup")));
  }
  if (page.picker.hasSelection) {
    bar.append(el("button", { type: "button", class: "secondary", onclick: cancelSelection }, t("game.cancel")));
  }
}

function renderMoveForm(doc) {
  const legal = page.replayPly === null ? doc.legal_moves ?? [] : [];
  const form = $("#move-form");
  form.hidden = legal.length === 0;
  $("#legal-moves").replaceChildren(...legal.slice(0, 500).map((text) => el("option", { value: text })));
  $("#legal-select").replaceChildren(
    el("option", { value: "" }, `${t("game.choose")} (${legal.length})`),
    ...legal.map((text) => el("option", { value: text }, text)),
  );
}

function renderSeats(doc) {
  const list = $("#seats");
  list.replaceChildren();
  const seats = readSeats(doc);
  const join = $("#join");
  join.replaceChildren();
  for (const seat of seats) {
    const who = seat.kind === "bot"
      ? t("game.bot", { level: seat.level ?? "?" })
      : seat.kind === "open" ? t("game.open") : seat.name ?? t("game.human");
    const item = el("li", { class: `seat${doc.to_move === seat.seat && doc.status === "playing" ? " to-move" : ""}`,
      "data-seat": seat.seat },
      el("span", { class: `seat-mark seat-${seat.seat}`, "aria-hidden": "true" }, page.board.seatBadge?.(seat.seat, doc.players, lang) ?? String(seat.seat + 1)),
      el("span", { class: "seat-name" }, `${seatName(seat.seat)} — ${who}`),
      el("span", { class: "clock", "data-clock": seat.seat }, ""));
    if (seat.seat === mySeat()) item.classList.add("mine");
    list.append(item);
    if (seat.kind === "open" && doc.status !== "over") {
      const button = el("button", { type: "button", class: "join-seat", onclick: () => joinSeat(seat.seat) },
        t("game.joinSeat", { who: seatName(seat.seat) }));
      join.append(button);
      // A join link (`?join=n`) puts that seat's button first in line for the keyboard.
      if (new URLSearchParams(location.search).get("join") === String(seat.seat)) {
        button.classList.add("primary");
        join.prepend(button);
      }
    }
  }
}

function renderClocks(state) {
  for (const element of document.querySelectorAll("[data-clock]")) {
    const seat = Number(element.dataset.clock);
    if (!state || !Number.isFinite(state.seconds[seat])) {
      element.textContent = "";
      continue;
    }
    element.textContent = formatSeconds(state.seconds[seat], lang === "fr" ? "j" : "d");
    element.classList.toggle("running", state.running === seat);
    element.classList.toggle("low", state.seconds[seat] < 30);
    element.setAttribute("aria-label", `${t("game.clock")} ${seatName(seat)}: ${element.textContent}`);
  }
}

function renderFacts(doc) {
  const list = $("#facts");
  const facts = [
    { label: t("game.phase"), value: String(currentView().phase ?? "") },
    ...page.board.facts(currentView(), lang, { memory: $("#memory").checked }),
  ];
  list.replaceChildren(...facts.flatMap(({ label, value }) => [el("dt", {}, label), el("dd", {}, value)]));
  void doc;
}

function renderActions(doc) {
  const actions = $("#actions");
  actions.replaceChildren();
  const me = mySeat();
  const offer = drawOffer(doc);
  const offerBox = $("#draw-offer");
  offerBox.textContent = offer !== null && doc.status === "playing" ? t("game.drawOffered", { who: seatName(offer) }) : "";
  const button = (key, action, extra = {}) =>
    el("button", { type: "button", "data-action": action, onclick: () => seatAction(action), ...extra }, t(key));
  if (me !== null && doc.status === "playing") {
    actions.append(button("game.resign", "resign", { class: "danger" }));
    actions.append(button(offer !== null && offer !== me ? "game.acceptDraw" : "game.offerDraw", "draw"));
    const canTakeBack = doc.can_take_back ?? (readSeats(doc).some((seat) => seat.kind === "bot") && doc.moves.length > 0);
    if (canTakeBack) {
      actions.append(button("game.takeback", "takeback"));
    }
  }
  if (me !== null && doc.status === "over") {
    actions.append(button(doc.rematch ? "game.joinRematch" : "game.rematch", "rematch"));
  }
  actions.append(el("button", { type: "button", "data-action": "export", onclick: exportRecord }, t("game.export")));
}

function renderMoves(doc) {
  const list = $("#moves");
  list.replaceChildren();
  if (doc.moves.length === 0) list.append(el("li", { class: "muted none" }, t("game.noMoves")));
  doc.moves.forEach((text, index) => {
    const ply = index + 1;
    const item = el("li", { "data-ply": ply }, el("span", { class: "mover" }, ""), text);
    if (page.replayPly !== null && ply === page.replayPly) item.classList.add("current");
    if (doc.status === "over") {
      item.tabIndex = 0;
      item.setAttribute("role", "button");
      item.addEventListener("click", () => replayTo(ply));
      item.addEventListener("keydown", (event) => (event.key === "Enter" ? replayTo(ply) : null));
    }
    list.append(item);
  });
  const replay = $("#replay");
  replay.hidden = doc.status !== "over";
  if (doc.status === "over") {
    const at = page.replayPly ?? doc.moves.length;
    $("#replay-at").textContent = t("game.replayAt", { n: at, total: doc.moves.length });
  }
  list.querySelector(".current")?.scrollIntoView({ block: "nearest" });
  if (page.replayPly === null) list.scrollTop = list.scrollHeight;
}

function renderInvites(doc) {
  const panel = $("#invites-panel");
  // Open seats: a join link anyone may use (no secret). Seats this browser created for people:
  // their token link, kept from the creation (see keepInvites).
  const open = readSeats(doc).filter((seat) => seat.kind === "open")
    .map((seat) => ({ seat: seat.seat, url: `/play/${encodeURIComponent(page.id)}?join=${seat.seat}` }));
  const given = page.invites.filter((entry) => entry.seat !== mySeat() && !open.some((o) => o.seat === entry.seat));
  const shown = [...open, ...given].sort((a, b) => a.seat - b.seat);
  panel.hidden = shown.length === 0 || doc.status === "over";
  const list = $("#invites");
  list.replaceChildren(...shown.map((entry) => {
    const url = new URL(entry.url, location.origin).href;
    const input = el("input", { type: "text", readonly: true, value: url, "aria-label": t("game.inviteSeat", { who: seatName(entry.seat) }) });
    const copy = el("button", { type: "button", onclick: async () => {
      input.select();
      await navigator.clipboard?.writeText(url).catch(() => {});
      copy.textContent = t("game.copied");
    } }, t("game.copy"));
    return el("li", {}, el("span", {}, t("game.inviteSeat", { who: seatName(entry.seat) })), input, copy);
  }));
}

// ---------------------------------------------------------------- actions

function wireControls() {
  const board = $("#board");
  board.addEventListener("click", (event) => {
    const target = event.target.closest("[data-key]");
    if (target) clickKey(target.dataset.key);
  });
  board.addEventListener("keydown", (event) => {
    const target = event.target.closest("[data-key]");
    if (target && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      clickKey(target.dataset.key);
    }
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") cancelSelection();
  });
  $("#move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("#move-text").value.trim();
    if (text) submitMove(text);
  });
  $("#legal-select").addEventListener("change", (event) => {
    $("#move-text").value = event.target.value;
    $("#move-text").focus();
  });
  $("#memory").addEventListener("change", () => render());
  for (const button of document.querySelectorAll("#replay [data-step]")) {
    button.addEventListener("click", () => stepReplay(button.dataset.step));
  }
}

function clickKey(key) {
  if (page.replayPly !== null || page.busy) return;
  const choices = page.picker.choicesAt(key);
  if (choices.length === 1) {
    chooseToken(choices[0].token);
  } else if (choices.length > 1) {
    // One cell, several meanings: ask with buttons.
    const bar = $("#choices");
    bar.replaceChildren(el("span", { class: "prompt" }, t("game.chooseNext")),
      ...choices.map((choice) => el("button", { type: "button", class: "choice", "data-token": choice.token,
        onclick: () => chooseToken(choice.token) }, page.board.labelOf(choice.token, lang))));
    bar.querySelector("button")?.focus();
  } else if (page.picker.hasSelection && page.board.keyOf(page.picker.chosen.at(-1)) === key) {
    page.picker.back();
    renderBoard();
    renderChoices();
  }
}

function chooseToken(token) {
  const done = page.picker.choose(token);
  if (done) {
    submitMove(done);
    return;
  }
  renderBoard();
  renderChoices();
  if (!document.activeElement?.closest?.("#board")) {
    ($("#choices button.choice") ?? $("#board .target"))?.focus?.();
  }
}

function cancelSelection() {
  if (!page.picker || !page.picker.hasSelection) return;
  page.picker.reset();
  renderBoard();
  renderChoices();
}

async function submitMove(text) {
  if (page.busy) return;
  page.busy = true;
  showMessage("");
  try {
    const doc = await api("POST", `${gamePath(page.id)}/moves${seatQuery()}`, {
      body: { move: text, ply: page.doc.moves.length },
    });
    $("#move-text").value = "";
    await onDocument(doc, { isReply: true });
    return doc;
  } catch (error) {
    showMessage(t("error.generic", { message: error.message }));
    page.picker.reset();
    render();
    if (error instanceof ApiError && error.status === 409) page.live.refresh().catch(() => {});
    return null;
  } finally {
    page.busy = false;
  }
}

/** Plimil's setup: play random legal choices until this player's setup is done. */
async function randomSetup() {
  while (page.doc && page.board.randomChoice?.(page.doc.view) && page.doc.legal_moves.length > 0) {
    const legal = page.doc.legal_moves;
    const doc = await submitMove(legal[Math.floor(Math.random() * legal.length)]);
    if (!doc) break;
  }
}

/** `?seat=n`: the seat this page reads and acts as (one of those its cookies hold). */
function seatQuery() {
  const seat = mySeat();
  return seat === null ? "" : `?seat=${seat}`;
}

async function seatAction(action) {
  const seat = mySeat();
  if (seat === null) return;
  try {
    if (action === "rematch") {
      await rematch(seat);
      return;
    }
    const answer = await api("POST", `${gamePath(page.id)}/seats/${seat}/${action}`, { body: {} });
    if (answer && answer.view !== undefined) await onDocument(answer);
    else await page.live.refresh();
  } catch (error) {
    showMessage(t("error.generic", { message: error.message }));
  }
}

/**
 * Every seat this browser holds takes its place in the rematch (on the same screen, both), and
 * the page moves to the new game; the server keeps the new seats in cookies.
 */
async function rematch(seat) {
  const seats = [seat, ...[...page.held].filter((other) => other !== seat).sort((a, b) => a - b)];
  let newId = null;
  for (const held of seats) {
    try {
      const answer = await api("POST", `${gamePath(page.id)}/seats/${held}/rematch?cookie=1`, { body: {} });
      newId = answer.id;
    } catch (error) {
      // Another seat's place may already be taken (by the person who held it before): fine.
      if (held === seat) throw error;
    }
  }
  if (newId && newId !== page.id) location.assign(`/play/${encodeURIComponent(newId)}`);
}

async function joinSeat(seat) {
  const name = localStorage.getItem("ludotheque.name") || (lang === "fr" ? "Invité" : "Guest");
  try {
    await api("POST", `${gamePath(page.id)}/seats/${seat}/join?cookie=1`, { body: { name } });
    page.held.add(seat);
    page.live.connect(seat);
  } catch (error) {
    showMessage(t("error.generic", { message: error.message }));
  }
}

async function exportRecord() {
  try {
    const record = await api("GET", `${gamePath(page.id)}/record${seatQuery()}`);
    const blob = new Blob([JSON.stringify(record, null, 2)], { type: "application/json" });
    const link = el("a", { href: URL.createObjectURL(blob), download: `${page.doc.game}-${page.id}.json` });
    document.body.append(link);
    link.click();
    link.remove();
  } catch (error) {
    showMessage(t("error.generic", { message: error.message }));
  }
}

// ---------------------------------------------------------------- replay

async function replayTo(ply) {
  const total = page.doc.moves.length;
  const target = Math.max(0, Math.min(total, ply));
  if (!page.viewsByPly.has(target)) {
    // The positions this page did not see live are asked from the server, when it offers them.
    try {
      const doc = await api("GET", `${gamePath(page.id)}/replay/${target}`);
      if (doc && doc.view) page.viewsByPly.set(target, doc.view);
    } catch {
      showMessage(t("game.replayOnly"));
    }
  }
  page.replayPly = target === total ? null : target;
  render();
}

function stepReplay(step) {
  const total = page.doc.moves.length;
  const at = page.replayPly ?? total;
  const target = { first: 0, prev: at - 1, next: at + 1, last: total }[step];
  replayTo(target);
}

function showMessage(text) {
  $("#message").textContent = text;
}
