/**
 * Links that give a seat, on the game page: the one this page was opened with (a token link
 * `?token=`, or an invite link `?invite=<code>`, claimed once, by the first browser that opens
 * it), and the ones its creator hands out (open seats' join links, invite seats' links).
 */

import { api, ApiError, claimInvite, claimToken, gamePath, takeFromAddress } from "./api.js";
import { readSeats } from "./seats.js";

/**
 * Claim the seat of the link this page was opened with; the code leaves the address bar first.
 * Returns `{seat, problem}`: the seat now held (or null), and what went wrong (`"claimed"`: an
 * invite someone already used; `"invalid"`: a link of no seat of this game; else null).
 * Throws an `ApiError` 404 for an unknown game.
 */
export async function claimFromAddress(gameId, held) {
  const token = takeFromAddress("token");
  const code = takeFromAddress("invite");
  if (token) return claimTokenLink(gameId, token);
  if (code) return claimInviteLink(gameId, code, held);
  return { seat: null, problem: null };
}

async function claimTokenLink(gameId, token) {
  try {
    return { seat: await claimToken(gameId, token), problem: null };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw error;
    return { seat: null, problem: "invalid" };
  }
}

/**
 * The link names the game and a code, not the seat: try the seats still waiting for an invite
 * first, then the others (the seat of a code already used answers `invite_claimed`; when this
 * browser holds that seat, it opened its own link again: nothing to say).
 */
async function claimInviteLink(gameId, code, held) {
  const doc = await api("GET", gamePath(gameId));
  const seats = readSeats(doc);
  const candidates = [
    ...seats.filter((seat) => seat.kind === "invite"),
    ...seats.filter((seat) => seat.kind === "human"),
  ];
  for (const { seat } of candidates) {
    try {
      return { seat: await claimInvite(gameId, seat, code), problem: null };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code !== "invite_claimed") continue;
      return held.includes(seat) ? { seat, problem: null } : { seat: null, problem: "claimed" };
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
