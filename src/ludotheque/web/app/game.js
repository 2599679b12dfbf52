/**
 * The game page: one game document (from the WebSocket) drawn as a board, a move list, the
 * seats, clocks and buttons; moves chosen by clicks (see picker.js), by keyboard (boardnav.js),
 * or typed.
 *
 * The page renders only the document's `view` and `moves`: it never holds more than its reader
 * may know. It holds no seat token either: the server keeps them in HttpOnly cookies (see
 * api.js) and the page only learns which seats this browser holds, reading and acting as one
 * of them with `?seat=n` — on the same screen, as whichever held seat is to move.
 */

import { catalogEntry, catalogGames, loadBoard } from "./boards.js";
import { api, apiText, ApiError, gamePath, heldSeats, inviteHandoff, migrateLegacyTokens } from "./api.js";
import { setRovingCell } from "./boardnav.js";
import { ClockDisplay, deadlineOf, formatDeadline, formatSeconds, timeControlText } from "./clock.js";
import { Chat } from "./chat.js";
import { boardClicks, typedMove } from "./boardclicks.js";
import { el, pathId } from "./dom.js";
import { currentLanguage, errorText, gameWord, nameOf, pick, plural, translatePage } from "./i18n.js";
import { claimFromAddress, claimInviteSeat, keepInvites, linksToHandOut } from "./invites.js";
import { LiveGame } from "./live.js";
import { fillMoveList } from "./movelist.js";
import { outcomeText } from "./outcome.js";
import { loadPerson, showPerson } from "./person.js";
import { MovePicker } from "./picker.js";
import { playSound, setSound, soundOn } from "./sound.js";
import { showCount, watchPerson } from "./turns.js";
import { showWarning } from "./moderation-warnings.js";
import { drawOffers, hasBot, readSeats } from "./seats.js";
import { Hints } from "./hints.js";

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
  invites: [], // [{seat, url}]: invite links of the seats this browser created for others
  live: null,
  replayPly: null, // null: live position; a number: replaying that ply of a finished game
  viewsByPly: new Map(),
  boardOf: null, // the game whose board is loaded
  busy: false,
  askingResign: false, // the resign button was pressed once: the page asks to confirm
  focusKey: null, // the board cell the keyboard last visited
  keepBoardFocus: false, // a move chosen on the board: the focus goes back to it afterwards
  received: 0, // documents received other than replies to our own POSTs (see onDocument)
  invite: null, // the invite code of the link this page was opened with, until the person takes the seat
  person: undefined, // the browser's person (`GET /api/me`): null for nobody, undefined until known
  signInAsked: false, // a rated game refused this browser a seat: it needs a signed-in player
  flipped: false, // the reader turned the board half a turn from their own side
  pendingMove: null, // a move waiting for the person's confirmation (see `confirmMoves`)
  lowTimeWarned: false, // the "low time" sound was played for this game
  hints: null, // the hint box (hints.js)
  hint: null, // {move, ply}: the hint to highlight on the board
};
// The board's clicks (declared before any code can draw the board).
const { fillChoices, wireBoard } = boardClicks(page, {
  t, lang, canClick: () => page.replayPly === null && !page.busy, submit: (text) => submitMove(text),
  redraw: () => { renderBoard(); renderChoices(); },
  focusTargets: ["#choices button.choice", "#board .target"],
});

const COORDS = "ludotheque.coords";
const CONFIRM = "ludotheque.confirm";

const clocks = new ClockDisplay(renderClocks);

start().catch((error) => showMessage(errorText(lang, error)));

let chat = null;

async function start() {
  const personLoaded = loadPerson().then((person) => {
    page.person = person;
    showPerson(person, t);
    if (person) {
      watchPerson((message) => {
        if (message.type === "turns") showCount(message.count);
        else if (message.type === "warning") showWarning(message.warning, lang);
      });
    }
  });
  page.catalog = await api("GET", "/api/catalog").catch(() => null);
  const kinds = catalogGames(page.catalog).map((entry) => entry.id);
  if (kinds.includes(page.id)) {
    // /games/pylos names a game, not a match: start one from the lobby's form.
    location.replace(`/?game=${encodeURIComponent(page.id)}#new-game`);
    return;
  }
  page.invites = keepInvites([...await migrateLegacyTokens(page.id).catch(() => []), ...inviteHandoff.take(page.id)]);
  let seat = null;
  try {
    const claimed = await claimFromAddress(page.id, await heldSeats(page.id));
    seat = claimed.seat;
    page.invite = claimed.invite;
    if (page.invite) await personLoaded;
    if (claimed.problem) showMessage(t(claimed.problem === "claimed" ? "game.inviteClaimed" : "game.inviteInvalid"));
    page.held = new Set(await heldSeats(page.id));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw new Error(t("game.notFound"));
    throw error;
  }
  chat = new Chat(page.id, t, lang);
  page.hints = new Hints(page.id, $("#hint-box"), { t, lang, shown: (hint) => {
    page.hint = hint;
    if (page.doc) renderBoard();
  } });
  page.live = new LiveGame(page.id, onDocument, onConnection, (message) => {
    if (message.type === "chat" && message.line) chat.receive(message.line);
  });
  // The link's seat; otherwise the server's choice: the held seat to move, or the first.
  page.live.connect(seat);
  wireControls();
}

/** Say when the connection is lost; clear only that message when it is back. */
function onConnection(up) {
  if (!up) showMessage(t("game.connection"));
  else if ($("#message").textContent === t("game.connection")) showMessage("");
}

/**
 * A new document. One answering our own POST (`sentAt`: `page.received` when it was sent) is
 * dropped when the socket brought one since: every change reaches the socket too, and the
 * reply may predate what followed it (the ratings of a game just resigned).
 */
async function onDocument(doc, { isReply = false, sentAt = null } = {}) {
  const first = page.doc === null;
  if (isReply && page.doc && doc.moves.length < page.doc.moves.length) return;
  if (sentAt !== null && page.received !== sentAt) return;
  if (!isReply) page.received += 1;
  const before = page.doc;
  page.doc = doc;
  if (before && before.moves.length !== doc.moves.length) page.pendingMove = null;
  page.viewsByPly.set(doc.moves.length, doc.view);
  if (first || !page.board || page.boardOf !== doc.game) {
    page.board = await loadBoard(doc.game, gameFacts(doc.game));
    page.boardOf = doc.game;
    page.picker = new MovePicker(page.board);
    setupStaticParts(doc);
  }
  if (typeof doc.seat === "number") page.held.add(doc.seat);
  // Same screen: when another seat this browser holds is to move, read the game as that seat.
  if (page.held.has(doc.to_move) && doc.to_move !== doc.seat && doc.status !== "over") {
    page.live.connect(doc.to_move);
    return;
  }
  chat.setSeat(typeof doc.seat === "number" ? doc.seat : null);
  if (before && before.id === doc.id) soundsOf(before, doc);
  page.picker.setLegal(doc.legal_moves ?? [], doc.view);
  if (doc.status !== "over") page.replayPly = null;
  if (doc.status !== "playing") page.askingResign = false;
  render();
  $("#game").setAttribute("aria-busy", "false");
  document.body.dataset.ready = "true";
}

/** A move played since the last document: its sound; then "your turn" when it became the reader's. */
function soundsOf(before, doc) {
  if (doc.moves.length > before.moves.length) {
    const last = doc.moves.at(-1) ?? "";
    // The board may tell a capture (from the move's text, or the views before and after it);
    // else a capture is written with an "x".
    playSound(page.board.isCapture?.(last, before.view, doc.view) ?? /x/.test(last) ? "capture" : "move");
  }
  const mine = (d) => d.status === "playing" && d.to_move === d.view?.viewer && (d.legal_moves ?? []).length > 0;
  if (mine(doc) && !mine(before) && doc.moves.length > before.moves.length) setTimeout(() => playSound("turn"), 150);
}

/** The game's facts from the catalog (titles, variant, phase and reason names), if it answered. */
function gameFacts(gameId = page.doc?.game) {
  return catalogEntry(page.catalog, gameId);
}

function setupStaticParts(doc) {
  const facts = gameFacts(doc.game);
  const title = facts ? pick(facts.title, lang) : doc.game;
  $("#game-title").textContent = title;
  document.title = `${document.title.match(/^\(\d+\) /)?.[0] ?? ""}${title} — Ludothèque`;
  const rules = $("#rules-link");
  rules.href = `/rules/${encodeURIComponent(doc.game)}`;
  $("#memory-option").hidden = !page.board.hasMemoryMode;
  $("#flip-board").hidden = typeof page.board.readerTurn !== "function";
  document.body.dataset.game = doc.game;
}

// ---------------------------------------------------------------- rendering

function render() {
  const doc = page.doc;
  renderTurn(doc);
  renderResult(doc);
  renderTakeSeat(doc);
  renderBoard();
  renderChoices();
  renderMoveForm(doc);
  renderSeats(doc);
  renderFacts(doc);
  renderActions(doc);
  renderMoves(doc);
  renderInvites(doc);
  page.hints?.update(doc, mySeat());
  clocks.update(doc);
}

function seatName(seat) {
  return page.board.seatName(seat, page.doc.players, lang, page.doc.view);
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
  const teams = page.board.teamsText?.(doc.view, me, lang);
  element.replaceChildren(el("strong", {}, text), " ", el("span", { class: "muted" }, who),
    teams ? el("span", { class: "teams" }, ` — ${teams}`) : "");
  element.classList.toggle("my-turn", doc.to_move === me && doc.legal_moves.length > 0);
}

function renderResult(doc) {
  const banner = $("#result");
  const result = doc.result;
  banner.hidden = !result;
  if (!result) return;
  const mine = [...page.held];
  banner.replaceChildren(el("strong", {}, outcomeText(result, {
    lang, players: doc.players, mine, seatName, board: page.board, reasons: gameFacts()?.reasons,
  })));
  const winners = result.winners ?? [];
  banner.classList.toggle("win", mine.length < doc.players && mine.some((seat) => winners.includes(seat)));
  const lesson = lessonOf(doc.id);
  if (lesson) {
    banner.append(el("a", { class: "lesson-link", href: `/learn/${encodeURIComponent(lesson)}` }, t("learn.backToLesson")));
  }
  // The analysis link goes under the banner, not in it: the banner says the result, no more.
  if (doc.status === "over" && !document.querySelector("#analysis-line")) {
    banner.after(el("p", { id: "analysis-line", class: "analysis-line" },
      el("a", { class: "analysis-link", id: "analysis-link",
        href: `/games/${encodeURIComponent(doc.id)}/analysis` }, t("analysis.link"))));
  }
}

// The lessons page (learn.js) remembers the lesson game it started: `{id, step}` under this prefix.
const LESSON_GAME = "ludotheque.lessonGame.";

/** The game whose lessons started game `id` in this browser, if any (its last step). */
function lessonOf(id) {
  for (const key of Object.keys(localStorage)) {
    if (!key.startsWith(LESSON_GAME)) continue;
    try {
      if (JSON.parse(localStorage.getItem(key))?.id === id) return key.slice(LESSON_GAME.length);
    } catch {
      // not ours to read
    }
  }
  return null;
}

/**
 * The seat a link offers (an invite link's, or an open seat's `?join=n`), described before it is
 * taken: "Take this seat — rated, 1+0, against Ada". Only the person's click takes it, never the
 * page's load. A rated game needs a signed-in player: a guest is told so, with a sign-in link
 * that comes back here.
 */
function renderTakeSeat(doc) {
  const box = $("#take-seat");
  const offered = offeredSeat(doc);
  const signedIn = Boolean(page.person && !page.person.guest);
  const needsAccount = doc.rated && (page.signInAsked || (page.person !== undefined && !signedIn));
  box.hidden = !offered && !page.signInAsked;
  if (box.hidden) {
    box.replaceChildren();
    return;
  }
  if (needsAccount) {
    const link = el("a", { class: "sign-in-link", href: signInPath() }, t("game.signInToPlay"));
    box.replaceChildren(el("p", {}, t("game.ratedNeedsAccount"), " ", link));
    return;
  }
  const label = takeSeatLabel(doc);
  const focused = document.activeElement?.id === "take-seat-button";
  const button = el("button", { type: "button", class: "primary", id: "take-seat-button",
    onclick: () => (offered.invite ? takeInvite() : joinSeat(offered.seat)) }, label);
  box.replaceChildren(button);
  if (focused) button.focus();
}

/** `{invite: true}` for an invite link whose seat still waits, `{seat}` for a join link's open seat, else null. */
function offeredSeat(doc) {
  if (doc.status === "over") return null;
  const seats = readSeats(doc);
  if (page.invite && seats.some((seat) => seat.kind === "invite")) return { invite: true };
  const asked = new URLSearchParams(location.search).get("join");
  const open = seats.find((seat) => seat.kind === "open" && String(seat.seat) === asked);
  return open && !page.held.has(open.seat) ? { seat: open.seat } : null;
}

/** "Take this seat — rated, 1+0, against Ada" (the other players: with them, in a game of more than two). */
function takeSeatLabel(doc) {
  const others = readSeats(doc).filter((seat) => seat.kind === "human" || seat.kind === "bot")
    .map((seat) => doc.seats?.[seat.seat]?.player || seatHolder(seat));
  const values = { rating: t(doc.rated ? "game.ratedWord" : "game.casualWord"), clock: shortClock(doc.clock),
    who: others.join(t("result.and")) };
  if (others.length === 0) return t("game.takeSeatPlain", values);
  return t(doc.players > 2 ? "game.takeSeatWith" : "game.takeSeatAgainst", values);
}

/** A time control in few words: "1+0" (minutes + seconds a move), "3 d per move", "no clock". */
function shortClock(clock) {
  if (clock?.type === "fischer") return `${clock.minutes}+${clock.increment ?? 0}`;
  return timeControlText(clock, t) ?? t("game.noClock");
}

/** The account page, coming back to this game (and its link) once signed in. */
function signInPath() {
  const back = new URL(location.pathname, location.origin);
  if (page.invite) back.searchParams.set("invite", page.invite);
  const join = new URLSearchParams(location.search).get("join");
  if (join !== null) back.searchParams.set("join", join);
  return `/account?next=${encodeURIComponent(back.pathname + back.search)}`;
}

/** The person's click on an invite link's seat. */
async function takeInvite() {
  const code = page.invite;
  if (!code || page.busy) return;
  page.busy = true;
  try {
    const { seat, problem } = await claimInviteSeat(page.id, code);
    if (problem === "signIn") {
      page.signInAsked = true;
    } else if (problem) {
      page.invite = null;
      showMessage(typeof problem === "string"
        ? t(problem === "claimed" ? "game.inviteClaimed" : "game.inviteInvalid") : errorText(lang, problem));
    } else {
      page.invite = null;
      page.held.add(seat);
      page.live.connect(seat);
    }
  } catch (error) {
    showMessage(errorText(lang, error));
  } finally {
    page.busy = false;
  }
  render();
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
    turn: (page.board.readerTurn?.(currentView(), mySeat()) ?? 0) + (page.flipped ? 2 : 0),
  };
  const hadFocus = page.keepBoardFocus || container.contains(document.activeElement);
  page.focusKey = document.activeElement?.closest?.("#board [data-key]")?.dataset?.key ?? page.focusKey;
  container.replaceChildren(page.board.render(currentView(), marks, lang));
  if (!replaying) markHint(container);
  // The cell visited last stays the board's place in the Tab order, and keeps the focus.
  const cell = setRovingCell(container, page.focusKey);
  if (hadFocus) (cell ?? container).focus();
  page.keepBoardFocus = false;
}

/** The hint's move (hints.js) highlighted on the board, while its position is on it. */
function markHint(container) {
  const hint = page.hint;
  if (!hint || hint.ply !== page.doc.moves.length) return;
  let keys = [];
  try {
    keys = page.board.paths(hint.move, page.doc.view)[0].map((token) => page.board.keyOf(token));
  } catch {
    return;
  }
  for (const key of keys) {
    if (key === null) continue;
    for (const cell of container.querySelectorAll(`[data-key="${CSS.escape(key)}"]`)) cell.classList.add("hinted");
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
  if (page.pendingMove !== null) {
    bar.append(el("span", { class: "prompt" }, t("game.confirmMove", { move: page.pendingMove })),
      el("button", { type: "button", class: "choice confirm-move", onclick: () => submitMove(page.pendingMove, { confirmed: true }) },
        t("game.confirmYes")),
      el("button", { type: "button", class: "secondary", onclick: cancelSelection }, t("game.confirmNo")));
    return;
  }
  if (page.replayPly !== null || !page.picker.isActive) return;
  fillChoices(page.doc.view);
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

/** A seat's person in words: a bot's level, an open or invite seat, a name (the server's "Guest n" translated). */
function seatHolder(seat) {
  // The perfect bot plays the hard level where this variant's tables do not reach: say so.
  const partial = seat.level === "perfect"
    && gameFacts(page.doc?.game)?.perfect?.variants?.[page.doc?.variant] !== "complete";
  if (seat.kind === "bot" && partial) return t("game.bot", { level: t("level.perfectPartial") });
  if (seat.kind === "bot") return t("game.bot", { level: nameOf(t, "level", seat.level ?? "?") });
  if (seat.kind === "open") return t("game.open");
  if (seat.kind === "invite") return t("game.invitePending");
  if (seat.kind === "reserved") return t("game.reserved");
  const guest = /^Guest(?: (\d+))?$/.exec(seat.name ?? "");
  if (guest) return guest[1] ? `${t("game.guest")} ${guest[1]}` : t("game.guest");
  return seat.name || t("game.human");
}

/** A seat's person, linking to a player's page, with their rating (and the game's change). */
function holderElement(seat, entry) {
  const words = entry.player ? el("a", { href: `/players/${encodeURIComponent(entry.player)}` }, entry.player)
    : seatHolder(seat);
  const rating = entry.rating ? `${entry.rating.rating}${entry.rating.provisional ? "?" : ""}` : null;
  const change = typeof entry.rating_change === "number"
    ? ` ${entry.rating_change >= 0 ? "+" : "−"}${Math.abs(entry.rating_change)}` : "";
  return el("span", { class: "holder" }, words,
    rating ? el("span", { class: "seat-rating", "data-rating": entry.rating.rating }, ` (${rating}${change})`) : null);
}

function muteButton(seat) {
  const isMuted = chat.muted.has(seat);
  return el("button", { type: "button", class: "secondary mute", "aria-pressed": String(isMuted),
    onclick: () => toggleMute(seat) }, t(isMuted ? "chat.unmute" : "chat.mute"));
}

async function toggleMute(seat) {
  const me = mySeat();
  if (me === null) return;
  try {
    const body = { seat, muted: !chat.muted.has(seat) };
    const answer = await api("POST", `${gamePath(page.id)}/seats/${me}/mute`, { body });
    chat.muted = new Set(answer.muted);
    renderSeats(page.doc);
    await chat.show(chat.room);
  } catch (error) {
    showMessage(errorText(lang, error));
  }
}

function seatBadge(seat) {
  return page.board.seatBadge?.(seat, page.doc.players, lang, page.doc.view) ?? String(seat + 1);
}

function renderSeats(doc) {
  const list = $("#seats");
  list.replaceChildren();
  const join = $("#join");
  join.replaceChildren();
  for (const seat of readSeats(doc)) {
    const item = el("li", { class: `seat${doc.to_move === seat.seat && doc.status === "playing" ? " to-move" : ""}`,
      "data-seat": seat.seat },
      el("span", { class: `seat-mark seat-${seat.seat}`, "aria-hidden": "true" }, seatBadge(seat.seat)),
      el("span", { class: "seat-name" }, `${seatName(seat.seat)} — `, holderElement(seat, doc.seats?.[seat.seat] ?? {})),
      el("span", { class: "clock", "data-clock": seat.seat }, ""));
    if (seat.seat === mySeat()) item.classList.add("mine");
    else if (mySeat() !== null && seat.kind === "human") item.append(muteButton(seat.seat));
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
  renderClockBar(doc);
  renderDeadline(doc);
}

/** Correspondence: the date by which the seat to move must play (a count of days says less). */
function renderDeadline(doc) {
  const deadline = deadlineOf(doc);
  const line = $("#deadline");
  line.hidden = !deadline;
  line.replaceChildren(...(deadline
    ? [t("game.deadline", { who: seatName(deadline.seat) }), " ", el("strong", {}, formatDeadline(deadline.at, lang))]
    : []));
}

/** On a narrow screen the clocks sit by the board (the side panel is far below it). */
function renderClockBar(doc) {
  const bar = $("#clock-bar");
  bar.hidden = !doc.clock;
  bar.replaceChildren(...(doc.clock ? readSeats(doc) : []).map((seat) =>
    el("span", { class: `bar-seat${doc.to_move === seat.seat && doc.status === "playing" ? " to-move" : ""}` },
      el("span", { class: `seat-mark seat-${seat.seat}`, "aria-hidden": "true" }, seatBadge(seat.seat)),
      el("span", { class: "clock", "data-clock": seat.seat }, ""))));
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
    if (seat === mySeat() && state.running === seat && state.seconds[seat] < 30 && !page.lowTimeWarned
        && page.doc?.clock?.type === "fischer") {
      page.lowTimeWarned = true;
      playSound("lowTime");
    }
    element.setAttribute("aria-label", `${t("game.clock")} ${seatName(seat)}: ${element.textContent}`);
  }
}

function renderFacts(doc) {
  const view = currentView();
  const facts = [
    { label: t("form.variant"), value: gameWord(gameFacts(), "variant", doc.variant ?? "standard", lang) },
    { label: t("game.phase"), value: gameWord(gameFacts(), "phase", view.phase ?? "", lang) },
    { label: t("game.timeControl"), value: timeControlText(doc.clock, t) ?? t("game.noClock") },
    { label: t("game.rating"), value: t(doc.rated ? "lobby.rated" : "lobby.casual") },
  ];
  facts.push(...page.board.facts(view, lang, { memory: $("#memory").checked }));
  $("#facts").replaceChildren(...facts.flatMap(({ label, value }) => [el("dt", {}, label), el("dd", {}, value)]));
}

function renderActions(doc) {
  const actions = $("#actions");
  actions.replaceChildren();
  const me = mySeat();
  const playing = me !== null && doc.status === "playing";
  renderDrawOffer(doc, me);
  const button = (key, onclick, extra = {}) => el("button", { type: "button", onclick, ...extra }, t(key));
  const action = (key, name, extra = {}) => button(key, () => seatAction(name), { "data-action": name, ...extra });
  if (playing && page.askingResign) {
    actions.append(el("p", { class: "confirm" }, t("game.resignConfirm")),
      action("game.resignYes", "resign", { class: "danger" }),
      button("game.resignNo", () => askResign(false), { "data-action": "keep-playing" }));
  } else if (playing) {
    actions.append(button("game.resign", () => askResign(true), { "data-action": "ask-resign", class: "danger" }));
    actions.append(...drawButtons(doc, me, action, button));
    // No takeback in a rated game (the server refuses it: `rated_takeback`).
    if (!doc.rated && (doc.can_take_back ?? (hasBot(doc) && doc.moves.length > 0))) {
      actions.append(action("game.takeback", "takeback"));
    }
  }
  if (me !== null && doc.status === "over") {
    actions.append(action(doc.rematch ? "game.joinRematch" : "game.rematch", "rematch"));
  }
  actions.append(el("button", { type: "button", "data-action": "export", onclick: exportRecord }, t("game.export")));
}

/** Offer, or accept and decline another's offer; none against a bot (a bot never agrees). */
function drawButtons(doc, me, action, button) {
  if (hasBot(doc)) return [];
  const offers = drawOffers(doc);
  if (offers.includes(me)) return [];
  if (offers.length === 0) return [action("game.offerDraw", "draw")];
  return [action("game.acceptDraw", "draw"),
    button("game.declineDraw", () => seatAction("draw/decline"), { "data-action": "decline-draw" })];
}

function renderDrawOffer(doc, me) {
  const box = $("#draw-offer");
  const offers = doc.status === "playing" ? drawOffers(doc) : [];
  let text = "";
  if (offers.includes(me)) text = t("game.drawPending");
  else if (offers.length > 0) text = t("game.drawOffered", { who: offers.map(seatName).join(t("result.and")) });
  box.textContent = text;
}

function renderMoves(doc) {
  const isOver = doc.status === "over";
  const list = $("#moves");
  const focusedPly = document.activeElement?.closest?.("#moves [data-ply]")?.dataset?.ply;
  fillMoveList(list, doc, page.board, {
    moverName: (seat) => page.board.moverName?.(seat, doc.players, lang, doc.view) ?? seatName(seat),
    current: page.replayPly,
    onPick: isOver ? (ply) => replayTo(ply) : null,
    empty: t("game.noMoves"),
  });
  $("#replay").hidden = !isOver;
  if (isOver) {
    const at = page.replayPly ?? doc.moves.length;
    $("#replay-at").textContent = plural(lang, "game.replayAt", { n: at, total: doc.moves.length });
  }
  const scroller = $("#moves-scroll");
  if (focusedPly) list.querySelector(`[data-ply="${focusedPly}"]`)?.focus();
  const current = list.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
  else if (page.replayPly === null) scroller.scrollTop = scroller.scrollHeight;
}

function renderInvites(doc) {
  const panel = $("#invites-panel");
  const shown = linksToHandOut(doc, page.invites, page.held);
  panel.hidden = shown.length === 0 || doc.status === "over";
  const list = $("#invites");
  list.replaceChildren(...shown.map((entry) => {
    const url = new URL(entry.url, location.origin).href;
    const label = t("game.inviteSeat", { who: seatName(entry.seat) });
    const input = el("input", { type: "text", readonly: true, value: url, "aria-label": label });
    const copy = el("button", { type: "button", onclick: async () => {
      input.select();
      await navigator.clipboard?.writeText(url).catch(() => {});
      copy.textContent = t("game.copied");
    } }, t("game.copy"));
    return el("li", { "data-seat": entry.seat }, el("span", {}, label), input, copy);
  }));
  $("#invites-hint").hidden = !readSeats(doc).some((seat) => seat.kind === "invite");
}

// ---------------------------------------------------------------- actions

function wireControls() {
  // Once the game is over, left and right step the replay instead of moving between cells.
  wireBoard($("#board"), { keepFocus: false,
    keyTaken: (event) => page.doc?.status === "over" && Boolean(REPLAY_KEYS[event.key]) });
  document.addEventListener("keydown", onPageKey);
  $("#move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("#move-text").value.trim();
    if (text) submitMove(typedMove(text, page.doc.legal_moves ?? []));
  });
  $("#legal-select").addEventListener("change", (event) => {
    $("#move-text").value = event.target.value;
    $("#move-text").focus();
  });
  $("#memory").addEventListener("change", () => render());
  wireOptions();
  for (const button of document.querySelectorAll("#replay [data-step]")) {
    button.addEventListener("click", () => stepReplay(button.dataset.step));
  }
}

/** The board and sound options: turn the board, coordinates, sounds and move confirmation (remembered). */
function wireOptions() {
  const flip = $("#flip-board");
  flip.addEventListener("click", () => {
    page.flipped = !page.flipped;
    flip.setAttribute("aria-pressed", String(page.flipped));
    if (page.doc) renderBoard();
  });
  const coords = $("#coords-switch");
  const showCoords = (on) => {
    document.body.classList.toggle("no-coords", !on);
    coords.setAttribute("aria-pressed", String(on));
  };
  showCoords(localStorage.getItem(COORDS) !== "off");
  coords.addEventListener("click", () => {
    const on = coords.getAttribute("aria-pressed") !== "true";
    localStorage.setItem(COORDS, on ? "on" : "off");
    showCoords(on);
  });
  const sound = $("#sound-switch");
  sound.setAttribute("aria-pressed", String(soundOn()));
  sound.addEventListener("click", () => {
    setSound(!soundOn());
    sound.setAttribute("aria-pressed", String(soundOn()));
  });
  const confirm = $("#confirm-moves");
  confirm.value = localStorage.getItem(CONFIRM) ?? "correspondence";
  confirm.addEventListener("change", () => localStorage.setItem(CONFIRM, confirm.value));
}

const REPLAY_KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };

/** Escape drops the selection; once the game is over, the arrow keys step through the replay. */
function onPageKey(event) {
  if (event.key === "Escape") cancelSelection();
  const step = REPLAY_KEYS[event.key];
  if (!step || event.defaultPrevented || page.doc?.status !== "over") return;
  if (event.target.closest?.("input, select, textarea, [contenteditable]")) return;
  event.preventDefault();
  stepReplay(step);
}

function cancelSelection() {
  if (page.pendingMove !== null) {
    page.pendingMove = null;
    page.picker.reset();
    renderBoard();
    renderChoices();
    $("#board").focus();
    return;
  }
  if (!page.picker || !page.picker.hasSelection) return;
  page.picker.reset();
  renderBoard();
  renderChoices();
}

/** Whether a move waits for "Confirm" first: the person's choice (by default, in correspondence games). */
function confirmMoves() {
  const choice = localStorage.getItem(CONFIRM) ?? "correspondence";
  return choice === "always" || (choice === "correspondence" && page.doc?.clock?.type === "correspondence");
}

async function submitMove(text, { confirmed = false } = {}) {
  if (page.busy) return null;
  if (!confirmed && confirmMoves()) {
    page.pendingMove = text;
    renderChoices();
    $("#choices .confirm-move")?.focus();
    return null;
  }
  page.pendingMove = null;
  page.busy = true;
  // A move built on the board (or its choice buttons) hands the focus back to the board.
  page.keepBoardFocus = Boolean(document.activeElement?.closest?.("#board, #choices"));
  showMessage("");
  try {
    const sentAt = page.received;
    const doc = await api("POST", `${gamePath(page.id)}/moves${seatQuery()}`, {
      body: { move: text, ply: page.doc.moves.length },
    });
    $("#move-text").value = "";
    await onDocument(doc, { isReply: true, sentAt });
    return doc;
  } catch (error) {
    showMessage(errorText(lang, error, { move: text }));
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
    const doc = await submitMove(legal[Math.floor(Math.random() * legal.length)], { confirmed: true });
    if (!doc) break;
  }
}

/** `?seat=n`: the seat this page reads and acts as (one of those its cookies hold). */
function seatQuery() {
  const seat = mySeat();
  return seat === null ? "" : `?seat=${seat}`;
}

/** Resigning takes two clicks: the first asks "Resign this game?". */
function askResign(asking) {
  page.askingResign = asking;
  renderActions(page.doc);
  $(asking ? "#actions [data-action='keep-playing']" : "#actions [data-action='ask-resign']")?.focus();
}

async function seatAction(action) {
  const seat = mySeat();
  if (seat === null) return;
  page.askingResign = false;
  try {
    if (action === "rematch") {
      await rematch(seat);
      return;
    }
    const sentAt = page.received;
    const answer = await api("POST", `${gamePath(page.id)}/seats/${seat}/${action}`, { body: {} });
    if (answer && answer.view !== undefined) await onDocument(answer, { isReply: true, sentAt });
    else await page.live.refresh();
  } catch (error) {
    showMessage(errorText(lang, error));
    renderActions(page.doc);
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

/** A chosen name goes with a join; without one the server names the seat "Guest n" (shown translated). */
function joinBody() {
  const name = localStorage.getItem("ludotheque.name");
  return name ? { name } : {};
}

async function joinSeat(seat) {
  try {
    await api("POST", `${gamePath(page.id)}/seats/${seat}/join?cookie=1`, { body: joinBody() });
    page.held.add(seat);
    page.live.connect(seat);
  } catch (error) {
    if (error instanceof ApiError && error.code === "sign_in_required") {
      page.signInAsked = true;
      render();
      $("#take-seat a")?.focus();
    } else showMessage(errorText(lang, error));
  }
}

/** The record exactly as the server wrote it: decoding it would round seeds of old games. */
async function exportRecord() {
  try {
    const record = await apiText("GET", `${gamePath(page.id)}/record${seatQuery()}`);
    const blob = new Blob([record], { type: "application/json" });
    const link = el("a", { href: URL.createObjectURL(blob), download: `${page.doc.game}-${page.id}.json` });
    document.body.append(link);
    link.click();
    link.remove();
  } catch (error) {
    showMessage(errorText(lang, error));
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
