/**
 * The account page: a guest's name, sign up (a guest keeps their games), sign in and out, the
 * password, e-mail notifications, the browser's notification permission and personal API tokens.
 */

import { api } from "./api.js";
import { el } from "./dom.js";
import { currentLanguage, errorText, translatePage } from "./i18n.js";
import { loadPerson, showPerson } from "./person.js";

const lang = currentLanguage();
const t = translatePage(lang);
const $ = (selector) => document.querySelector(selector);
let person = null;
// `?next=/play/...`: the page to go back to once signed in (a path of this site only).
const next = returnPath(new URLSearchParams(location.search).get("next"));

/** `value` when it is a path of this site (never another site's address), else null. */
function returnPath(value) {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return null;
  try {
    const url = new URL(value, location.origin);
    return url.origin === location.origin ? url.pathname + url.search : null;
  } catch {
    return null;
  }
}

init();

async function init() {
  person = await loadPerson({ makeGuest: true });
  if (next) {
    $("#return-hint").hidden = false;
    $("#return-link").href = next;
  }
  render();
  wire();
  document.body.dataset.ready = "true";
}

function say(text) {
  $("#account-message").textContent = text;
}

function render() {
  showPerson(person, t);
  const player = person && !person.guest;
  $("#who").textContent = !person ? t("account.nobody")
    : player ? t("account.signedInAs", { name: person.name }) : t("account.guestAs", { name: person.name });
  $("#guest-panel").hidden = player;
  $("#signup-panel").hidden = player;
  $("#signin-panel").hidden = player;
  $("#player-panel").hidden = !player;
  $("#password-panel").hidden = !player;
  $("#tokens-panel").hidden = !player;
  if (person && !player) $("#rename-name").value = person.name;
  if (player) {
    $("#profile-link").href = `/players/${encodeURIComponent(person.name)}`;
    $("#email").value = person.email ?? "";
    $("#notify-email").checked = Boolean(person.notify_email);
    showEmailState();
    showNotificationState();
    loadTokens();
  }
}

/** Whether the saved address is verified: nothing is mailed to it until its link is opened. */
function showEmailState() {
  $("#email-state").textContent = !person?.email ? ""
    : t(person.email_verified ? "account.emailVerified" : "account.emailUnverified");
}

/** Submit `form` as JSON to `path`; `after(answer)` on success, the refusal said otherwise. */
function onSubmit(form, path, after) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    say("");
    const body = Object.fromEntries(new FormData(form).entries());
    try {
      await after(await api("POST", path, { body: shape(form, body) }));
    } catch (error) {
      say(errorText(lang, error));
    }
  });
}

function shape(form, body) {
  if (form.id === "email-form") return { email: body.email || null, notify: $("#notify-email").checked };
  return body;
}

function wire() {
  onSubmit($("#rename-form"), "/api/me/name", (answer) => {
    person = answer.account;
    say(t("account.renamed"));
    render();
  });
  const signedIn = (answer) => {
    person = answer.account;
    for (const input of document.querySelectorAll("input[type=password]")) input.value = "";
    if (next && !person.guest) {
      location.assign(next);
      return;
    }
    render();
    $("#account-title").focus?.();
  };
  onSubmit($("#signup-form"), "/api/account/signup", signedIn);
  onSubmit($("#signin-form"), "/api/account/signin", signedIn);
  onSubmit($("#password-form"), "/api/account/password", (answer) => {
    signedIn(answer);
    say(t("account.passwordChanged"));
  });
  onSubmit($("#email-form"), "/api/me/email", (answer) => {
    person = answer.account;
    showEmailState();
    say(t("account.saved"));
  });
  $("#token-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const answer = await api("POST", "/api/me/tokens", { body: { label: $("#token-label").value } });
      $("#new-token").hidden = false;
      $("#new-token-text").textContent = answer.token;
      $("#token-label").value = "";
      await loadTokens();
    } catch (error) {
      say(errorText(lang, error));
    }
  });
  $("#signout").addEventListener("click", async () => {
    await api("POST", "/api/account/signout", { body: {} }).catch(() => null);
    person = await loadPerson({ makeGuest: true });
    render();
  });
  $("#allow-notifications").addEventListener("click", async () => {
    if (typeof Notification === "undefined") return;
    await Notification.requestPermission();
    showNotificationState();
  });
}

function showNotificationState() {
  const state = typeof Notification === "undefined" ? "unsupported" : Notification.permission;
  $("#notification-state").textContent = t(`account.notification.${state}`);
  $("#allow-notifications").hidden = state !== "default";
}

async function loadTokens() {
  const list = $("#tokens");
  try {
    const { tokens } = await api("GET", "/api/me/tokens");
    list.replaceChildren(...tokens.map((token) => el("li", { "data-token-id": token.id },
      el("span", { class: "what" }, token.label),
      el("span", { class: "muted" }, token.last_used ? t("account.tokenUsed") : t("account.tokenUnused")),
      el("button", { type: "button", class: "danger", onclick: () => revoke(token.id),
        "aria-label": t("account.revokeNamed", { label: token.label }) }, t("account.revoke")))));
  } catch (error) {
    say(errorText(lang, error));
  }
}

async function revoke(id) {
  try {
    await api("DELETE", `/api/me/tokens/${encodeURIComponent(id)}`);
    await loadTokens();
  } catch (error) {
    say(errorText(lang, error));
  }
}
