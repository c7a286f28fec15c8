// Page-wide messages: the API's error in its own words, and the lost-connection banner.

import { t } from "./i18n.js";

let errorTimer = null;

export function showError(message) {
  const node = document.getElementById("error");
  node.textContent = message;
  node.hidden = false;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => (node.hidden = true), 8000);
}

export function clearError() {
  document.getElementById("error").hidden = true;
}

export function connection(ok) {
  const node = document.getElementById("connection");
  if (ok) {
    node.hidden = true;
    node.textContent = "";
  } else {
    node.textContent = t("conn.lost");
    node.hidden = false;
  }
}

export const h = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
};

/** A player's words (a name), bidi-isolated. */
export const bdi = (text, attrs = {}) => h("bdi", { dir: "auto", ...attrs, text });

/** `key`'s string, its `{name}` an isolated node (never markup). */
export function withName(key, name, params = {}) {
  const [before, after = ""] = t(key, { ...params, name: "\u0000" }).split("\u0000");
  return [before, bdi(name, { class: "name" }), after];
}
