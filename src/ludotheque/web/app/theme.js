/**
 * The light or dark theme of every page: the browser's `prefers-color-scheme` until the person
 * chooses with the switch (`[data-theme-switch]`, a button with `aria-pressed`: pressed = dark),
 * then their choice, remembered in localStorage. Loaded by every page as its own module, before
 * the page's script, so that the page is drawn in its theme at once.
 */

const KEY = "ludotheque.theme";
const DARK = window.matchMedia?.("(prefers-color-scheme: dark)");

function chosen() {
  const saved = localStorage.getItem(KEY);
  return saved === "dark" || saved === "light" ? saved : null;
}

/** The theme in use: the person's choice, else the browser's. */
export function currentTheme() {
  return chosen() ?? (DARK?.matches ? "dark" : "light");
}

function apply() {
  const theme = currentTheme();
  document.documentElement.dataset.theme = theme;
  for (const button of document.querySelectorAll("[data-theme-switch]")) {
    button.setAttribute("aria-pressed", String(theme === "dark"));
  }
}

function wire() {
  for (const button of document.querySelectorAll("[data-theme-switch]")) {
    button.addEventListener("click", () => {
      localStorage.setItem(KEY, currentTheme() === "dark" ? "light" : "dark");
      apply();
    });
  }
  apply();
}

apply();
DARK?.addEventListener?.("change", apply);
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wire);
else wire();
