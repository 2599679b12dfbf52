/**
 * A moderator's warnings, shown once: `GET /api/me` lists those the person has not seen; each is
 * shown at the top of the page (an alert) until its "Understood" button marks it seen
 * (`POST /api/me/warnings/seen`). A warning given while the page is open comes over the person's
 * socket (`{"type": "warning", "warning": {id, reason, at}}`): pass it to `showWarning`.
 */

import { api } from "./api.js";
import { el } from "./dom.js";
import { addWords, translator } from "./i18n.js";
import WORDS from "./texts-moderation.json" with { type: "json" };

addWords(WORDS);

// The warnings this page was told are read: an answer of `GET /api/me` sent before that (two
// calls at once, or one crossing the click) must not show one again.
const dismissed = new Set();

/** Show the person's unseen warnings (nothing for nobody, or on any failure). */
export async function showWarnings(lang) {
  let warnings = [];
  try {
    warnings = (await api("GET", "/api/me"))?.warnings ?? [];
  } catch {
    return;
  }
  for (const warning of warnings) showWarning(warning, lang);
}

/** One warning at the top of the page's main content, until the person says they read it. */
export function showWarning(warning, lang) {
  const t = translator(lang);
  if (dismissed.has(warning.id) || document.querySelector(`[data-warning="${warning.id}"]`)) return;
  const button = el("button", { type: "button" }, t("moderation.warningSeen"));
  const box = el("div", { class: "moderation-warning", role: "alert", "data-warning": String(warning.id) },
    el("p", {}, t("moderation.warning", { reason: warning.reason })), button);
  button.addEventListener("click", async () => {
    dismissed.add(warning.id);
    box.remove();
    try {
      if (warning.id !== null && warning.id !== undefined) await api("POST", "/api/me/warnings/seen", { body: { ids: [warning.id] } });
    } catch {
      // shown again at the next page: nothing lost
    }
  });
  (document.querySelector("main") ?? document.body).prepend(box);
}
