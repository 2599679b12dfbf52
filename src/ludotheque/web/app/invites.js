/**
 * Links that give a seat, on the game page: the one this page was opened with (a token link
 * `?token=`, or an invite link `?invite=<code>`), and the ones its creator hands out (open seats'
 * join links, invite seats' links).
 *
 * An invite link is never claimed by opening it: another site could send a signed-in player to
 * it and seat them in a rated game they never chose. The page shows what the seat is (rated or
 * casual, time control, opponents) and claims it only on the person's click (`claimInviteSeat`).
 */

import { api, ApiError, claimInvite, claimToken, gamePath, takeFromAddress } from "./api.js";
import { readSeats } from "./seats.js";

/**
 * The link this page was opened with; the secret leaves the address bar first (an invite code is
 * kept in this tab's history entry, so that a reload offers the seat again).
 * Returns `{seat, problem, invite}`: the seat now held through a token link (or null), what went
 * wrong (`"claimed"`: an invite someone already used; `"invalid"`: a link of no seat of this game;
 * else null), and the invite code waiting for the person's click (or null).
 * Throws an `ApiError` 404 for an unknown game.
 */
export async function claimFromAddress(gameId, held) {
  const token = takeFromAddress("token");
  const code = takeFromAddress("invite");
  if (token) return claimTokenLink(gameId, token);
  if (code) keepInviteCode(code);
  const kept = code ?? history.state?.inviteCode ?? null;
  if (kept) return inviteOnOffer(gameId, kept, held);
  return { seat: null, problem: null, invite: null };
}

async function claimTokenLink(gameId, token) {
  try {
    return { seat: await claimToken(gameId, token), problem: null, invite: null };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw error;
    return { seat: null, problem: "invalid", invite: null };
  }
}

/** Keep (or, with null, forget) the invite code on offer in this tab's history entry. */
export function keepInviteCode(code) {
  const state = { ...(history.state ?? {}) };
  if (code) state.inviteCode = code;
  else delete state.inviteCode;
  history.replaceState(state, "");
}

/**
 * An invite code, read without taking anything: while a seat waits for an invite, the page offers
 * it (the code is checked on the click). With none left, the code was used (or never was one):
 * a seat this browser holds means it opened its own link again (nothing to say); else the taken
 * seats are asked whether the code was theirs — a question that changes nothing, and asked
 * without `?cookie=1`, so that no guest is made for it.
 */
async function inviteOnOffer(gameId, code, held) {
  const seats = readSeats(await api("GET", gamePath(gameId)));
  if (seats.some((seat) => seat.kind === "invite")) return { seat: null, problem: null, invite: code };
  keepInviteCode(null);
  if (held.length > 0) return { seat: null, problem: null, invite: null };
  for (const { seat } of seats.filter((entry) => entry.kind === "human")) {
    try {
      await api("POST", `${gamePath(gameId)}/seats/${seat}/claim`, { body: { invite: code } });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === "invite_claimed") return { seat: null, problem: "claimed", invite: null };
    }
  }
  return { seat: null, problem: "invalid", invite: null };
}

/**
 * The person's click on "Take this seat": try the seats still waiting for an invite with the
 * code. Returns `{seat, problem}`: the seat taken, or the problem (`"signIn"`: a rated game and
 * no signed-in player; `"claimed"`, `"invalid"`, or an `ApiError` to word).
 */
export async function claimInviteSeat(gameId, code) {
  const seats = readSeats(await api("GET", gamePath(gameId)));
  const waiting = seats.filter((seat) => seat.kind === "invite");
  if (waiting.length === 0) return { seat: null, problem: "claimed" };
  for (const { seat } of waiting) {
    try {
      const taken = await claimInvite(gameId, seat, code);
      keepInviteCode(null);
      return { seat: taken, problem: null };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === "sign_in_required") return { seat: null, problem: "signIn" };
      if (error.code === "invite_claimed") return { seat: null, problem: "claimed" };
      if (error.code !== "invite_invalid") return { seat: null, problem: error };
    }
  }
  return { seat: null, problem: "invalid" };
}

/**
 * The links this page offers to hand out: each open seat's join link (no secret in it), and the
 * links the creator was given for invite seats nobody has claimed yet (kept in this tab's
 * history entry only, see `keepInvites`) — never a link to a seat this browser plays itself.
 */
export function linksToHandOut(doc, kept, held) {
  const seats = readSeats(doc);
  const open = seats.filter((seat) => seat.kind === "open")
    .map((seat) => ({ seat: seat.seat, url: `/play/${encodeURIComponent(doc.id)}?join=${seat.seat}` }));
  const waiting = new Set(seats.filter((seat) => seat.kind === "invite").map((seat) => seat.seat));
  const given = kept.filter((entry) => waiting.has(entry.seat) || (!held.has(entry.seat) && isTokenLink(entry)))
    .filter((entry) => !open.some((other) => other.seat === entry.seat));
  return [...open, ...given].sort((a, b) => a.seat - b.seat);
}

// Links of older pages (a seat token in the address) for seats another person plays.
function isTokenLink(entry) {
  return /[?&]token=/.test(entry.url);
}

/** Invite links live in this tab's history entry only: a reload shows them, nothing else keeps them. */
export function keepInvites(more) {
  const bySeat = new Map();
  for (const entry of [...(history.state?.invites ?? []), ...more]) {
    if (entry && typeof entry.seat === "number" && typeof entry.url === "string") bySeat.set(entry.seat, entry);
  }
  const invites = [...bySeat.values()].map(({ seat, url }) => ({ seat, url }));
  history.replaceState({ ...(history.state ?? {}), invites }, "");
  return invites;
}
