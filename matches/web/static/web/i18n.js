// UI strings: one small catalog per language (i18n/<tag>.js), only the page's own loaded
// (each has every string: tests/web checks it). The language comes from the player's choice
// (kept in localStorage) or else the browser's languages; the API is asked for its messages
// in the same language (Accept-Language).

export const LANGUAGES = ["en", "sr-Latn", "tr"];
const KEY = "tavla.language";

let current = "en";
let catalog = {};

export function detect(languages = navigator.languages || [navigator.language || "en"]) {
  const saved = localStorage.getItem(KEY);
  if (saved && LANGUAGES.includes(saved)) return saved;
  for (const tag of languages) {
    const lower = String(tag).toLowerCase();
    if (lower.startsWith("sr") || lower.startsWith("bs") || lower.startsWith("hr") || lower.startsWith("sh")) return "sr-Latn";
    if (lower.startsWith("tr")) return "tr";
    if (lower.startsWith("en")) return "en";
  }
  return "en";
}

export async function setLanguage(tag, remember = false) {
  const next = LANGUAGES.includes(tag) ? tag : "en";
  catalog = (await import(`./i18n/${next}.js`)).default;
  current = next;
  if (remember) localStorage.setItem(KEY, current);
  document.documentElement.lang = current;
  return current;
}

export const language = () => current;

/** The string for `key` with `{name}` placeholders filled. */
export function t(key, params = {}) {
  const text = catalog[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/** A count in the language's grammar (Intl.PluralRules): `key.one`, `key.few`, `key.other`. */
export function tn(key, n, params = {}) {
  const form = new Intl.PluralRules(current === "sr-Latn" ? "sr" : current).select(n);
  const pick = catalog[`${key}.${form}`] !== undefined ? form : "other";
  return t(`${key}.${pick}`, { n, ...params });
}
