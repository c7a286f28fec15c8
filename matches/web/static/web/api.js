// The public API, and nothing else: every call the page makes goes through here.
// Errors come back as ApiError with the API's own code and message (in the language the
// page asks for with Accept-Language); a failed connection is a NetworkError.

import { t } from "./i18n.js";

const BASE = "/api/v1";
const RETRIES = [400, 1200, 2500]; // ms before each new try of a read while the network is down
const TOKEN_KEY = "tavla.token";

let language = "en";

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.message) || `HTTP ${status}`);
    this.status = status;
    this.code = (body && body.code) || "http_" + status;
    this.detail = body ? body.detail : null;
  }
}

/** The connection failed: its message is the page's own words, never the browser's. */
export class NetworkError extends Error {
  constructor(cause) {
    super(t("error.network"));
    this.cause = cause;
  }
}

/** The words to show a player for an error: the API's message, or ours. */
export const friendly = (err) => (err instanceof ApiError || err instanceof NetworkError ? err.message : t("error.unexpected"));

export function setLanguage(tag) {
  language = tag;
}

export function token() {
  return localStorage.getItem(TOKEN_KEY);
}

export function setToken(value) {
  if (value) localStorage.setItem(TOKEN_KEY, value);
  else localStorage.removeItem(TOKEN_KEY);
}

/** A call; a read (GET) that cannot reach the server is tried again a few times first. */
export async function call(method, path, body, opts = {}) {
  for (let i = 0; ; i++) {
    try {
      return await once(method, path, body, opts);
    } catch (err) {
      if (!(err instanceof NetworkError) || method !== "GET" || i >= RETRIES.length || opts.once) throw err;
      await new Promise((resolve) => setTimeout(resolve, RETRIES[i]));
    }
  }
}

// The network's round trip, smoothed over the last requests: a command says it (`Tavla-Lag`,
// ms), so the server does not charge the time on the wire to the player's clock (up to its
// bounds: docs/clocks.md, "Lag").
let roundTrip = null;

async function once(method, path, body, { signal, headers } = {}) {
  const h = { Accept: "application/json", "Accept-Language": language, ...(headers || {}) };
  const key = token();
  if (key) h.Authorization = `Token ${key}`;
  if (body !== undefined) h["Content-Type"] = "application/json";
  if (method === "POST" && roundTrip !== null) h["Tavla-Lag"] = String(Math.round(roundTrip));
  let response;
  const sent = performance.now();
  try {
    response = await fetch(BASE + path, {
      method,
      headers: h,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
      cache: "no-store",
    });
  } catch (err) {
    if (err.name === "AbortError") throw err;
    throw new NetworkError(String(err));
  }
  const took = performance.now() - sent;  // to the answer's headers: about one round trip
  if (!path.includes("wait=")) roundTrip = roundTrip === null ? took : 0.8 * roundTrip + 0.2 * took;
  if (response.status === 204) return null;
  let data = null;
  try {
    data = await response.json();
  } catch {
    if (response.ok) throw new ApiError(response.status, null);
  }
  if (!response.ok) {
    if (response.status >= 502 && response.status <= 504) throw new NetworkError(`HTTP ${response.status}`);
    throw new ApiError(response.status, data);
  }
  return data;
}

/** A state just answered by a command (a new match), so the next screen need not read it again. */
export const primed = new Map();

export const get = (path, opts) => call("GET", path, undefined, opts);
export const post = (path, body = {}, opts) => call("POST", path, body, opts);

export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) q.set(k, v);
  const s = q.toString();
  return s ? "?" + s : "";
}
