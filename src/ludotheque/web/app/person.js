/**
 * The browser's person: a player signed in, or a guest with a generated name (a session cookie
 * the server keeps HttpOnly: no script reads it). Every page names them in its header, linking to
 * the account page.
 */

import { api } from "./api.js";
import { showWarnings } from "./moderation-warnings.js";

/** The person (`GET /api/me`), or null; with `makeGuest`, a browser without one becomes a guest. */
export async function loadPerson({ makeGuest = false } = {}) {
  let account = null;
  try {
    account = (await api("GET", "/api/me"))?.account ?? null;
    if (!account && makeGuest) account = (await api("POST", "/api/account/guest"))?.account ?? null;
  } catch {
    return null;
  }
  return account;
}

/** Name the person in the header's account link (`#person-link`), and show the moderators'
 * warnings they have not read yet. */
export function showPerson(account, t) {
  const link = document.querySelector("#person-link");
  if (!link) return;
  if (!account) {
    link.textContent = t("account.signIn");
    return;
  }
  link.textContent = account.guest ? t("account.guestLink", { name: account.name }) : account.name;
  link.dataset.person = account.name;
  showWarnings(document.documentElement.lang === "fr" ? "fr" : "en");
}
