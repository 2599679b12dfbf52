/**
 * Clocks shown on the game page. The server owns the time; the page only counts the running
 * clock down between two documents, from the figures of the latest one.
 *
 * Accepted shapes of `doc.clock` (the server's: `{type, remaining_ms: [...], running}`), or a list with one entry per seat, each a number
 * of seconds or `{remaining|seconds|remaining_ms, ...}`, or an object `{remaining: [...],
 * running: seat, ...}`; correspondence clocks may give `deadline` (ISO text or epoch seconds).
 */

export function formatSeconds(seconds, dayUnit = "d") {
  if (!Number.isFinite(seconds)) return "—";
  const total = Math.max(0, Math.floor(seconds));
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = total % 60;
  const two = (n) => String(n).padStart(2, "0");
  if (days > 0) return `${days}${dayUnit} ${two(hours)}:${two(minutes)}`;
  if (hours > 0) return `${hours}:${two(minutes)}:${two(secs)}`;
  return `${two(minutes)}:${two(secs)}`;
}

function secondsOf(entry) {
  if (typeof entry === "number") return entry;
  if (!entry || typeof entry !== "object") return NaN;
  if (typeof entry.remaining_ms === "number") return entry.remaining_ms / 1000;
  for (const name of ["remaining", "seconds", "remaining_s", "time"]) {
    if (typeof entry[name] === "number") return entry[name];
  }
  if (entry.deadline !== undefined && entry.deadline !== null) {
    const at = typeof entry.deadline === "number" ? entry.deadline * 1000 : Date.parse(entry.deadline);
    return (at - Date.now()) / 1000;
  }
  return NaN;
}

/** Per-seat remaining seconds and the running seat, normalised from the document. */
export function readClocks(doc) {
  const clocks = doc.clock ?? doc.clocks;
  if (!clocks) return null;
  let entries = clocks;
  let running = doc.status === "playing" ? doc.to_move : null;
  if (!Array.isArray(clocks)) {
    entries = clocks.remaining_ms
      ? clocks.remaining_ms.map((ms) => ms / 1000)
      : clocks.remaining ?? clocks.seats ?? clocks.clocks ?? [];
    if (clocks.running !== undefined) running = clocks.running;
  }
  if (!Array.isArray(entries) || entries.length === 0) return null;
  return { seconds: entries.map(secondsOf), running, receivedAt: performance.now() };
}

/** Keeps clock elements up to date once a second. */
export class ClockDisplay {
  constructor(render) {
    this.render = render;
    this.state = null;
    this.timer = setInterval(() => this.tick(), 250);
  }

  update(doc) {
    this.state = readClocks(doc);
    this.tick();
  }

  tick() {
    if (!this.state) {
      this.render(null);
      return;
    }
    const elapsed = (performance.now() - this.state.receivedAt) / 1000;
    const seconds = this.state.seconds.map((value, seat) =>
      seat === this.state.running ? value - elapsed : value,
    );
    this.render({ seconds, running: this.state.running });
  }
}

/** The time control in words ("10 min + 5 s per move", "3 d per move"), or null without a clock. */
export function timeControlText(clock, t) {
  if (!clock || typeof clock !== "object" || Array.isArray(clock)) return null;
  if (clock.type === "fischer") {
    return t("game.fischer", { minutes: trimmed(clock.minutes), increment: trimmed(clock.increment ?? 0) });
  }
  if (clock.type === "correspondence") return t("game.correspondence", { days: trimmed(clock.days) });
  return null;
}

function trimmed(value) {
  const number = Number(value);
  return Number.isFinite(number) ? String(Math.round(number * 100) / 100) : "?";
}

/**
 * The moment the running seat must have moved by, as a `Date` (correspondence games only: a
 * date means more than a countdown of days), or null.
 */
export function deadlineOf(doc, now = Date.now()) {
  const clock = doc.clock;
  if (!clock || clock.type !== "correspondence" || doc.status !== "playing") return null;
  const running = clock.running;
  const left = Array.isArray(clock.remaining_ms) ? clock.remaining_ms[running] : undefined;
  if (typeof running !== "number" || !Number.isFinite(left)) return null;
  return { seat: running, at: new Date(now + left) };
}

/** A deadline as people read it in `lang` ("Fri 14 March, 18:05"). */
export function formatDeadline(date, lang) {
  return new Intl.DateTimeFormat(lang === "fr" ? "fr-FR" : "en-GB", {
    weekday: "short", day: "numeric", month: "long", hour: "2-digit", minute: "2-digit",
  }).format(date);
}
