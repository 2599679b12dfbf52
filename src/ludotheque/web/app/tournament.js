/**
 * A tournament's page (`/tournaments/<id>`): its facts, entrants (join and leave; the creator
 * starts it, enters bots in a practice tournament and removes entrants), the standings with their
 * tie-breaks (Buchholz, Sonneborn-Berger), the pairings of every round with each game linked, and
 * the winner once it is over.
 *
 * An arena (`system: "arena"`) shows instead its time left (counted down here between readings),
 * whether the person waits for a partner, the games being played (each linked) and those played,
 * and standings by points (2 a win, 1 a draw) and performance; while it runs, people join it, pause
 * (leave) and come back (join again).
 *
 * Live: the document (`GET /api/tournaments/{id}`) is read again every few seconds while the
 * tournament is upcoming or running, and at once when the person's socket (`/api/me/ws`) says a
 * game of theirs was made (`matched`). When the person's game of a new round starts, the page
 * says so with a link to it, and shows a browser notification when the person allowed them.
 */

import { api } from "./api.js";
import { catalogEntry } from "./boards.js";
import { el, pathId } from "./dom.js";
import { currentLanguage, errorText, nameOf, plural, translatePage } from "./i18n.js";
import { loadPerson, showPerson } from "./person.js";
import {
  entrantName, isArena, isMe, pointsText, pointsWords, timeLeftText, tournamentLine, tournamentPath, when,
} from "./tournamentkit.js";
import { notify, watchPerson } from "./turns.js";

const lang = currentLanguage();
const t = translatePage(lang);
const $ = (selector) => document.querySelector(selector);
const POLL_MS = 3000;
const id = pathId();
const page = {
  person: null,
  catalog: [],
  doc: null,
  shown: "", // the document last drawn (JSON): an unchanged one is not drawn again (focus stays)
  announced: new Set(), // the person's games already announced (page and notification)
  first: true,
  busy: false,
  endsAt: null, // an arena's end on this browser's clock (ms), from the document's seconds_left
};

init();

async function init() {
  page.person = await loadPerson();
  showPerson(page.person, t);
  page.catalog = (await api("GET", "/api/catalog").catch(() => ({ games: [] })))?.games ?? [];
  wireButtons();
  wireNotifications();
  await load();
  setInterval(() => {
    if (page.doc && ["upcoming", "running"].includes(page.doc.status)) load();
  }, POLL_MS);
  setInterval(drawArenaClock, 1000);
  if (page.person) watchPerson(onPersonMessage);
  document.body.dataset.ready = "true";
}

/** Read the tournament again and draw it if it changed. */
async function load() {
  try {
    draw(await api("GET", tournamentPath(id)));
  } catch (error) {
    if (error.status === 404) $("#tournament-message").textContent = t("tournament.unknown");
    else $("#tournament-message").textContent = errorText(lang, error);
  }
}

function onPersonMessage(message) {
  if (message.type === "matched") load();
}

// -- actions -------------------------------------------------------------------------------------

async function act(path, body) {
  if (page.busy) return;
  page.busy = true;
  $("#tournament-message").textContent = "";
  try {
    draw(await api("POST", `${tournamentPath(id)}/${path}`, { body }));
  } catch (error) {
    $("#tournament-message").textContent = errorText(lang, error);
  } finally {
    page.busy = false;
  }
}

function wireButtons() {
  $("#join-button").addEventListener("click", async () => {
    if (!page.person) {
      // Nobody yet: a practice tournament takes guests.
      page.person = await loadPerson({ makeGuest: true });
      showPerson(page.person, t);
      if (page.person) watchPerson(onPersonMessage);
    }
    await act("join");
    $("#leave-button").hidden || $("#leave-button").focus();
  });
  $("#leave-button").addEventListener("click", async () => {
    await act("leave");
    $("#join-button").hidden || $("#join-button").focus();
  });
  $("#start-button").addEventListener("click", () => act("start"));
  $("#bot-form").addEventListener("submit", (event) => {
    event.preventDefault();
    act("join", { bot: $("#bot-level").value });
  });
}

function wireNotifications() {
  const line = $("#notify-line");
  const show = () => {
    line.hidden = !page.person || typeof Notification === "undefined" || Notification.permission !== "default";
  };
  $("#allow-notifications").addEventListener("click", async () => {
    await Notification.requestPermission();
    show();
  });
  show();
}

// -- drawing -------------------------------------------------------------------------------------

function draw(doc) {
  page.doc = doc;
  page.endsAt = typeof doc.seconds_left === "number" ? Date.now() + 1000 * doc.seconds_left : null;
  drawArenaClock();
  const { seconds_left: _left, ...lasting } = doc; // the time left alone changes nothing drawn
  const text = JSON.stringify({ ...lasting, timeUp: doc.seconds_left === 0 });
  if (text === page.shown) return;
  page.shown = text;
  document.body.dataset.system = doc.system;
  const names = new Map(doc.entries.map((entrant) => [entrant.entry, entrant]));
  const mine = doc.entries.find((entrant) => isMe(entrant, page.person)) ?? null;
  document.title = `${doc.name} — Ludothèque`;
  $("#tournament-name").textContent = doc.name;
  $("#tournament-facts").textContent = `${tournamentLine(doc, page.catalog, t, lang)}`
    + (doc.creator ? ` · ${t("tournament.createdBy", { name: doc.creator })}` : "");
  $("#tournament-status").textContent = statusWords(doc);
  drawEntries(doc, mine);
  drawStandings(doc);
  if (isArena(doc)) {
    drawArena(doc, names, mine);
    drawArenaHistory(doc, names, mine);
    drawArenaGame(doc, names, mine);
  } else {
    drawRounds(doc, names, mine);
    drawYourGame(doc, names, mine);
  }
  $("#arena-panel").hidden = !isArena(doc);
  drawWinner(doc);
  page.first = false;
}

function statusWords(doc) {
  const status = t(`tournament.status.${doc.status}`);
  if (doc.status === "upcoming") {
    const start = doc.starts_at ? t("tournament.startsAt", { when: when(doc.starts_at, lang) })
      : t("tournament.creatorStarts", { name: doc.creator ?? "?" });
    return `${status}. ${start}${isArena(doc) ? ` ${t("arena.startsWithAnyone")}` : ""}`;
  }
  if (doc.status === "running" && isArena(doc)) return `${status}. ${t("arena.endsAt", { when: when(doc.ends_at, lang) })}`;
  if (doc.status === "running") return `${status}. ${t("tournament.roundOf", { n: doc.round, rounds: doc.rounds })}`;
  if (doc.status === "finished" && doc.ended) return t("tournament.finishedOn", { when: when(doc.ended, lang) });
  return status;
}

function isCreator(doc) {
  return Boolean(page.person && !page.person.guest && doc.creator === page.person.name);
}

function drawEntries(doc, mine) {
  const upcoming = doc.status === "upcoming";
  const creator = isCreator(doc);
  $("#entry-count").textContent = plural(lang, "tournament.entrantsOf", { n: doc.entries.length, max: doc.max_entries });
  const list = $("#entries");
  if (doc.entries.length === 0) {
    list.replaceChildren(el("li", { class: "muted" }, t("tournament.noEntries")));
  } else {
    list.replaceChildren(...doc.entries.map((entrant) => {
      const name = entrantName(entrant, t, page.person);
      const item = el("li", { "data-entry": entrant.entry, class: isMe(entrant, page.person) ? "mine" : null },
        el("span", { class: "what" }, entrant.player
          ? el("a", { href: `/players/${encodeURIComponent(entrant.player)}` }, name) : name),
        entrant.rating !== null && entrant.rating !== undefined ? el("span", { class: "muted" }, String(entrant.rating)) : null,
        isArena(doc) && doc.status === "running" ? el("span", { class: "arena-state", "data-state": arenaState(entrant) },
          t(`arena.entry${arenaState(entrant)}`)) : null);
      if (creator && upcoming) {
        item.append(el("button", { type: "button", class: "secondary remove", "aria-label": t("tournament.removeLabel", { name }),
          onclick: () => act("leave", { entry: entrant.entry }) }, t("tournament.remove")));
      }
      return item;
    }));
  }
  const ratedGuest = doc.rated && (!page.person || page.person.guest);
  // A running arena takes entrants, and its entrants pause (leave) and come back (join again).
  const open = upcoming || (isArena(doc) && doc.status === "running");
  const away = !mine || (isArena(doc) && mine.paused);
  $("#join-button").hidden = !open || !away || ratedGuest;
  $("#leave-button").hidden = !open || away;
  const words = doc.status !== "running" ? ["tournament.join", "tournament.leave"]
    : [mine?.paused ? "arena.comeBack" : "arena.join", "arena.pause"];
  $("#join-button").textContent = t(words[0]);
  $("#leave-button").textContent = t(words[1]);
  $("#start-button").hidden = !upcoming || !creator;
  const botForm = $("#bot-form");
  botForm.hidden = !upcoming || !creator || doc.rated;
  const levels = catalogEntry(page.catalog, doc.game)?.bot_levels ?? [];
  const select = $("#bot-level");
  if (select.options.length !== levels.length) {
    select.replaceChildren(...levels.map((level) => el("option", { value: level }, nameOf(t, "level", level))));
    if (levels.includes("easy")) select.value = "easy";
  }
  if (levels.length === 0) botForm.hidden = true;
  if (upcoming && ratedGuest && !mine) $("#entry-count").textContent += ` ${t("tournament.signInToJoin")}`;
}

/** An arena entrant's state word: "Waiting", "Playing" or "Paused" (keys `arena.entry…`). */
function arenaState(entrant) {
  if (entrant.paused) return "Paused";
  return entrant.waiting ? "Waiting" : "Playing";
}

/** An arena's head of the standings: points, performance, games, rating. */
function arenaHead() {
  $("#standings caption").textContent = t("arena.scoring");
  $("#standings thead").replaceChildren(el("tr", {},
    el("th", { scope: "col" }, t("tournament.rank")),
    el("th", { scope: "col" }, t("tournament.player")),
    el("th", { scope: "col" }, t("tournament.score")),
    el("th", { scope: "col" }, el("abbr", { title: t("arena.performance") }, t("arena.performanceShort"))),
    el("th", { scope: "col" }, t("tournament.games")),
    el("th", { scope: "col" }, t("tournament.rating"))));
}

function drawStandings(doc) {
  const body = $("#standings tbody");
  const arena = isArena(doc);
  if (arena && !$("#standings").dataset.arena) {
    $("#standings").dataset.arena = "true";
    arenaHead();
  }
  if (doc.standings.length === 0) {
    body.replaceChildren(el("tr", {}, el("td", { colspan: arena ? 6 : 7, class: "muted" }, t("tournament.noStandings"))));
    return;
  }
  if (arena) {
    body.replaceChildren(...doc.standings.map((row) => el("tr", { "data-entry": row.entry, class: isMe(row, page.person) ? "mine" : null },
      el("td", {}, String(row.rank)),
      el("th", { scope: "row" }, entrantName(row, t, page.person)),
      el("td", { class: "score" }, String(row.score)),
      el("td", {}, row.performance === null ? "—" : String(row.performance)),
      el("td", {}, String(row.games)),
      el("td", {}, row.rating === null || row.rating === undefined ? "—" : String(row.rating)))));
    return;
  }
  body.replaceChildren(...doc.standings.map((row) => {
    const me = isMe(row, page.person);
    return el("tr", { "data-entry": row.entry, class: me ? "mine" : null },
      el("td", {}, String(row.rank)),
      el("th", { scope: "row" }, entrantName(row, t, page.person)),
      el("td", { class: "score" }, pointsText(row.score)),
      el("td", {}, pointsText(row.buchholz)),
      el("td", {}, pointsText(row.sonneborn_berger)),
      el("td", {}, String(row.games)),
      el("td", {}, row.rating === null || row.rating === undefined ? "—" : String(row.rating)));
  }));
}

/** What a board's result says, in words (never a colour alone). */
function resultWords(board, names) {
  if (board.result === null || board.result === undefined) {
    return t(board.game ? "tournament.result.playing" : "tournament.result.creating");
  }
  if (board.result === "½-½") return t("tournament.result.draw");
  const winner = board.result === "1-0" ? board.first : board.second;
  return t("tournament.result.won", { name: entrantName(names.get(winner) ?? {}, t, page.person),
    result: board.result.replace("-", "–") });
}

function drawRounds(doc, names, mine) {
  const holder = $("#rounds");
  if (doc.pairings.length === 0) {
    holder.replaceChildren(el("p", { class: "muted" }, t("tournament.noPairings")));
    return;
  }
  const name = (entry) => entrantName(names.get(entry) ?? { name: "?" }, t, page.person);
  // The round being played first, then the earlier ones.
  holder.replaceChildren(...[...doc.pairings].reverse().map((round) => {
    const headingId = `round-${round.round}`;
    return el("section", { class: "round", "data-round": round.round, "aria-labelledby": headingId },
      el("h3", { id: headingId }, t("tournament.round", { n: round.round })),
      el("ol", { class: "boards" }, ...round.boards.map((board) => {
        const ours = mine && (board.first === mine.entry || board.second === mine.entry);
        const item = el("li", { "data-board": board.board, "data-game": board.game ?? null,
          "data-result": board.result ?? "playing", class: ours ? "mine" : null });
        if (board.second === null || board.second === undefined) {
          item.append(el("span", { class: "what" }, t("tournament.byeOf", { name: name(board.first) })));
          return item;
        }
        item.append(
          el("span", { class: "board-no" }, t("tournament.board", { n: board.board })),
          el("span", { class: "what" }, t("tournament.versus", { first: name(board.first), second: name(board.second) })),
          el("span", { class: "board-result" }, resultWords(board, names)));
        if (board.game) {
          const play = ours && !board.result;
          item.append(el("a", { href: `/play/${encodeURIComponent(board.game)}`, class: play ? "play-link" : "watch" },
            t(play ? "tournament.playGame" : "tournament.watchGame")));
        }
        return item;
      })));
  }));
}

/** "Your game of round 2 is ready" with its link, and a notification the first time it is seen. */
function drawYourGame(doc, names, mine) {
  const banner = $("#your-game");
  const current = doc.pairings.find((round) => round.round === doc.round);
  const board = mine && doc.status === "running" && current
    ? current.boards.find((b) => b.first === mine.entry || b.second === mine.entry) : null;
  if (!board) {
    banner.hidden = true;
    banner.replaceChildren();
    return;
  }
  if (board.second === null || board.second === undefined) {
    banner.hidden = false;
    banner.replaceChildren(t("tournament.yourBye", { n: doc.round }));
    return;
  }
  if (!board.game || board.result) {
    banner.hidden = true;
    banner.replaceChildren();
    return;
  }
  const other = board.first === mine.entry ? board.second : board.first;
  const opponent = entrantName(names.get(other) ?? { name: "?" }, t, page.person);
  banner.hidden = false;
  banner.replaceChildren(
    el("span", {}, t("tournament.yourGame", { n: doc.round, opponent })), " ",
    el("a", { href: `/play/${encodeURIComponent(board.game)}`, id: "your-game-link", class: "primary-link" },
      t("tournament.yourGameLink")));
  if (!page.announced.has(board.game)) {
    page.announced.add(board.game);
    if (!page.first) notify(t("tournament.notifyTitle"), t("tournament.notify", { name: doc.name, n: doc.round }), board.game);
  }
}

function drawWinner(doc) {
  const banner = $("#winner");
  const top = doc.winner ?? doc.standings[0];
  if (doc.status !== "finished" || !top) {
    banner.hidden = true;
    return;
  }
  banner.hidden = false;
  const name = entrantName(top, t, page.person);
  banner.textContent = isArena(doc)
    ? t("arena.winner", { name, points: plural(lang, "arena.points", { n: top.score }) })
    : t("tournament.winner", { name, points: pointsWords(lang, top.score) });
}

// -- arenas --------------------------------------------------------------------------------------

/** The time left, counted down between readings of the document. */
function drawArenaClock() {
  const line = $("#arena-clock");
  if (!page.doc || !isArena(page.doc) || page.doc.status !== "running" || page.endsAt === null) {
    line.textContent = "";
    return;
  }
  line.textContent = t("arena.timeLeft", { time: timeLeftText((page.endsAt - Date.now()) / 1000) });
}

/** A board of the arena as a list item: its two sides, its result or "playing", its game's link. */
function arenaBoard(board, names, mine) {
  const name = (entry) => entrantName(names.get(entry) ?? { name: "?" }, t, page.person);
  const ours = mine && (board.first === mine.entry || board.second === mine.entry);
  const item = el("li", { "data-round": board.round, "data-game": board.game ?? null,
    "data-result": board.result ?? "playing", class: ours ? "mine" : null },
  el("span", { class: "what" }, t("tournament.versus", { first: name(board.first), second: name(board.second) })),
  el("span", { class: "board-result" }, resultWords(board, names)));
  if (board.game) {
    const play = ours && !board.result;
    item.append(el("a", { href: `/play/${encodeURIComponent(board.game)}`, class: play ? "play-link" : "watch" },
      t(play ? "tournament.playGame" : "tournament.watchGame")));
  }
  return item;
}

function drawArena(doc, names, mine) {
  const running = doc.status === "running";
  const timeUp = running && doc.seconds_left === 0;
  $("#arena-state").textContent = running ? t(timeUp ? "arena.timeUp" : "arena.running") : "";
  let waiting = "";
  if (running && mine?.paused) waiting = t("arena.youPaused");
  else if (running && mine?.waiting && !timeUp) waiting = t("arena.youWait");
  else if (running && !timeUp) {
    waiting = doc.waiting.length ? plural(lang, "arena.waitingCount", { n: doc.waiting.length }) : t("arena.nobodyWaiting");
  }
  $("#arena-waiting").textContent = waiting;
  const list = $("#arena-current");
  list.replaceChildren(...(doc.playing.length
    ? doc.playing.map((board) => arenaBoard(board, names, mine))
    : [el("li", { class: "muted" }, t("arena.noCurrent"))]));
}

/** The games played, the latest first. */
function drawArenaHistory(doc, names, mine) {
  $("#rounds-title").textContent = t("arena.history");
  const played = doc.pairings.flatMap((round) => round.boards).filter((board) => board.result).reverse();
  $("#rounds").replaceChildren(played.length
    ? el("ol", { class: "boards arena-games", reversed: true }, ...played.map((board) => arenaBoard(board, names, mine)))
    : el("p", { class: "muted" }, t("arena.noHistory")));
}

/** "Your arena game is ready" with its link, and a notification the first time it is seen. */
function drawArenaGame(doc, names, mine) {
  const banner = $("#your-game");
  const board = mine && doc.status === "running"
    ? doc.playing.find((b) => b.game && (b.first === mine.entry || b.second === mine.entry)) : null;
  if (!board) {
    banner.hidden = true;
    banner.replaceChildren();
    return;
  }
  const other = board.first === mine.entry ? board.second : board.first;
  const opponent = entrantName(names.get(other) ?? { name: "?" }, t, page.person);
  banner.hidden = false;
  banner.replaceChildren(
    el("span", {}, t("arena.yourGame", { opponent })), " ",
    el("a", { href: `/play/${encodeURIComponent(board.game)}`, id: "your-game-link", class: "primary-link" },
      t("tournament.yourGameLink")));
  if (!page.announced.has(board.game)) {
    page.announced.add(board.game);
    if (!page.first) notify(t("tournament.notifyTitle"), t("arena.notify", { name: doc.name }), board.game);
  }
}
