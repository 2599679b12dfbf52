/** Small DOM helpers shared by the pages (no framework). */

export const SVG_NS = "http://www.w3.org/2000/svg";

/** `el("button", {class: "x", onclick}, "text", child)`: an HTML element. */
export function el(tag, attributes = {}, ...children) {
  return fill(document.createElement(tag), attributes, children);
}

/** `svg("circle", {cx: 1})`: an SVG element. */
export function svg(tag, attributes = {}, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attributes, children);
}

function fill(element, attributes, children) {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      element.addEventListener(name.slice(2), value);
    } else if (name === "dataset") {
      Object.assign(element.dataset, value);
    } else {
      element.setAttribute(name, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** An SVG `<title>`: the tooltip and, with aria-label, what a screen reader reads. */
export function titled(element, label) {
  element.setAttribute("aria-label", label);
  element.prepend(svg("title", {}, label));
  return element;
}

/** The `{id}` part of `/games/{id}` or `/play/{id}` or `/rules/{id}`. */
export function pathId() {
  const parts = location.pathname.split("/").filter(Boolean);
  return parts.length >= 2 ? decodeURIComponent(parts[parts.length - 1]) : null;
}
