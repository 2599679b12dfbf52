/**
 * Reading the seats, draw offer and result of a game document, whatever the server's exact
 * extra fields (docs/design.md fixes only the core ones): seats as `[{seat, kind|type, name, level}]`
 * or `["human", "bot:easy", ...]`.
 */

/**
 * `{seat, kind, level, name}` for each seat of `doc`; `kind` is `human`, `open` (anyone may take
 * it), `invite` (kept for whoever opens the creator's invite link), `reserved` (a rematch seat
 * kept for a player of the previous game) or `bot`.
 */
export function readSeats(doc) {
  const raw = Array.isArray(doc.seats) ? doc.seats : [];
  const seats = [];
  for (let seat = 0; seat < doc.players; seat += 1) {
    const entry = raw.find((item) => item && typeof item === "object" && item.seat === seat) ?? raw[seat];
    seats.push(normalise(seat, entry));
  }
  return seats;
}

function normalise(seat, entry) {
  if (typeof entry === "string") return fromKind(seat, entry, null);
  if (!entry || typeof entry !== "object") return { seat, kind: "human", level: null, name: null };
  const kind = entry.kind ?? entry.type ?? (entry.bot ? `bot:${entry.bot}` : entry.open ? "open" : "human");
  const found = fromKind(seat, String(kind), entry.name ?? entry.guest ?? null);
  if (entry.level) found.level = entry.level;
  if (entry.joined === false || entry.is_open === true || entry.taken === false) found.kind = "open";
  return found;
}

function fromKind(seat, kind, name) {
  if (kind.startsWith("bot")) return { seat, kind: "bot", level: kind.split(":")[1] ?? null, name };
  if (kind === "open" || kind === "waiting") return { seat, kind: "open", level: null, name };
  if (kind === "invite" || kind === "reserved") return { seat, kind, level: null, name };
  return { seat, kind: "human", level: null, name };
}

/** Whether a seat of `doc` is a bot's (no draw is offered to a bot, a takeback is offered against one). */
export function hasBot(doc) {
  return readSeats(doc).some((seat) => seat.kind === "bot");
}

/** Every seat that offers a draw (the server's `draw_offer` list), in seat order. */
export function drawOffers(doc) {
  const offer = doc.draw_offer ?? doc.draw_offered_by ?? doc.draw ?? null;
  if (Array.isArray(offer)) return offer.filter((seat) => typeof seat === "number");
  const one = drawOffer(doc);
  return one === null ? [] : [one];
}

/** The seat that offers a draw, or null. */
export function drawOffer(doc) {
  const offer = doc.draw_offer ?? doc.draw_offered_by ?? doc.draw ?? null;
  if (typeof offer === "number") return offer;
  if (offer && typeof offer === "object" && typeof offer.seat === "number") return offer.seat;
  if (Array.isArray(offer) && offer.length > 0) return offer[0];
  return null;
}
