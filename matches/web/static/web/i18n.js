// UI strings: one small catalog per language (i18n/<tag>.js), only the page's own loaded
// (each has every string: tests/web checks it); a screen loaded when asked for brings its own
// strings in i18n/<feature>/<tag>.js (loadStrings), so the first page stays light. The language comes from the player's choice
// (kept in localStorage) or else the browser's languages; the API is asked for its messages
// in the same language (Accept-Language).

export const LANGUAGES = ["en", "sr-Latn", "tr"];
const KEY = "tavla.language";

let current = "en";
let catalog = {};
const features = new Set(); // the feature catalogs loaded, reloaded in a new language

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
  const parts = await Promise.all([import(`./i18n/${next}.js`), ...[...features].map((f) => import(`./i18n/${f}/${next}.js`))]);
  catalog = Object.assign({}, ...parts.map((part) => part.default));
  current = next;
  if (remember) localStorage.setItem(KEY, current);
  document.documentElement.lang = current;
  return current;
}

export const language = () => current;

/** Adds a feature's strings (i18n/<feature>/<tag>.js) to the catalog, once per language. */
export async function loadStrings(feature) {
  if (features.has(feature)) return;
  Object.assign(catalog, (await import(`./i18n/${feature}/${current}.js`)).default);
  features.add(feature);
}

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
