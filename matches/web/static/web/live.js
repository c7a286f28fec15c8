// The page's one WebSocket (`/ws/v1/live`, docs/realtime.md): the matches it follows and the
// player's notifications. It reconnects and subscribes again from each subscription's last
// version: nothing missed, nothing twice (docs/web.md, "Transport"). When it cannot open at
// all (a proxy blocks WebSockets), `blocked` is set and stream.js long-polls instead.

import * as api from "./api.js";

const OPEN_TIMEOUT = 8000; // ms for the socket to open (and say hello) before it counts as failed
const BLOCKED_AFTER = 3; // failed attempts, none ever opened: WebSockets do not get through
const PING_EVERY = 20_000; // ms between our pings; a socket silent for two of them is dead
const STATES = { idle: "idle", connecting: "connecting", open: "open", closed: "closed" };

let ws = null;
let state = STATES.idle;
let everOpened = false; // a socket opened on this page once: a later failure is a lost connection
let failures = 0;
let backoff = 250;
let retryTimer = null;
let openTimer = null;
let pingTimer = null;
let heardAt = 0;
let refs = 0;
let blocked = false;
let openedWith = null; // the token the socket speaks for
const subs = new Set(); // Subscription
const noteListeners = new Set();
const blockedListeners = new Set();
const shared = new Set(); // other modules' messages on this socket (lobbypush.js)

export const isBlocked = () => blocked;
export const isOpen = () => state === STATES.open;

function url() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws/v1/live`;
}

function connect() {
  if (blocked || state === STATES.connecting || state === STATES.open) return;
  clearTimeout(retryTimer);
  retryTimer = null;
  state = STATES.connecting;
  const key = api.token();
  openedWith = key;
  let socket;
  try {
    socket = new WebSocket(url(), key ? ["tavla.v1", "token." + key] : ["tavla.v1"]);
  } catch {
    return failed(null);
  }
  ws = socket;
  openTimer = setTimeout(() => failed(socket), OPEN_TIMEOUT);
  socket.onmessage = (m) => {
    if (ws !== socket) return;
    heardAt = Date.now();
    let msg;
    try {
      msg = JSON.parse(m.data);
    } catch {
      return;
    }
    receive(msg);
  };
  socket.onclose = (e) => {
    if (ws !== socket) return;
    if (e.code === 4401) {
      // the token is no longer valid: the HTTP calls will say so; follow anonymously
      api.setToken(null);
    }
    failed(socket);
  };
}

function receive(msg) {
  if (msg.type === "hello") {
    clearTimeout(openTimer);
    state = STATES.open;
    everOpened = true;
    failures = 0;
    backoff = 250;
    pingTimer = setInterval(ping, PING_EVERY);
    for (const sub of subs) sub.send();
    for (const x of shared) x.hello(send);
    return;
  }
  for (const x of shared) if (x.receive(msg)) return;
  if (msg.type === "notification") {
    for (const fn of [...noteListeners]) fn(msg);
    return;
  }
  if (msg.type === "pong") return;
  for (const sub of subs) if (sub.handles(msg)) sub.receive(msg);
}

function ping() {
  if (state !== STATES.open) return;
  if (Date.now() - heardAt > 2 * PING_EVERY + 5000) return failed(ws);
  send({ type: "ping" });
}

function send(msg) {
  if (state !== STATES.open || !ws) return false;
  try {
    ws.send(JSON.stringify(msg));
    return true;
  } catch {
    return false;
  }
}

/** The socket failed or closed: tell the followers, and try again (or give up: blocked). */
function failed(socket) {
  if (socket && ws !== socket) return;
  clearTimeout(openTimer);
  clearInterval(pingTimer);
  if (ws) {
    ws.onclose = ws.onmessage = null;
    try {
      ws.close();
    } catch {
      /* already closed */
    }
  }
  ws = null;
  state = STATES.closed;
  failures += 1;
  for (const sub of subs) sub.lost();
  if (!everOpened && failures >= BLOCKED_AFTER) {
    // never opened on this page: WebSockets do not get through here; long-poll instead
    blocked = true;
    for (const fn of [...blockedListeners]) fn();
    return;
  }
  if (!subs.size && !noteListeners.size && !shared.size) {
    state = STATES.idle;
    return;
  }
  retryTimer = setTimeout(connect, navigator.onLine === false ? 60_000 : backoff);
  backoff = Math.min(backoff * 2, 4000);
}

// The browser knows first: say so at once, and try again as soon as the network is back.
window.addEventListener("offline", () => {
  if (ws) failed(ws);
});
window.addEventListener("online", () => {
  backoff = 250;
  if (state === STATES.closed) connect();
});

/** Log in, log out, a new guest: the socket speaks for the token it was opened with. */
export function reconnect() {
  if (blocked) return;
  if (ws) {
    const socket = ws;
    ws = null;
    socket.onclose = socket.onmessage = null;
    clearTimeout(openTimer);
    clearInterval(pingTimer);
    try {
      socket.close();
    } catch {
      /* already closed */
    }
  }
  clearTimeout(retryTimer);
  state = STATES.idle;
  if (subs.size || noteListeners.size || shared.size) connect();
}

/** A socket opened before a log in, log out or new guest speaks for the old token. */
export function sameToken() {
  if (ws && openedWith !== api.token()) reconnect();
}

/** Call `fn(message)` for each notification of the player; returns a function that stops it. */
export function onNotification(fn) {
  noteListeners.add(fn);
  sameToken();
  connect();
  return () => noteListeners.delete(fn);
}

/** Share the socket: `ext.hello(send)` each time it opens, `ext.receive(msg)` true for its own. */
export function share(ext) {
  shared.add(ext);
  if (state === STATES.open) ext.hello(send);
  else connect();
  return () => shared.delete(ext);
}

/** Call `fn()` once if the socket turns out to be blocked on this page. */
export function onBlocked(fn) {
  blockedListeners.add(fn);
  return () => blockedListeners.delete(fn);
}

/**
 * Follow a match over the socket from version `after`: `onEvents(events, version)` with only
 * events newer than any given before, `onState(state)` (the state after each batch, from the
 * player's side), `onConnection(ok)`, `onFatal(error)` (the match cannot be followed).
 */
export function subscribe(matchId, after, handlers) {
  sameToken();
  const sub = new Subscription(matchId, after, handlers);
  subs.add(sub);
  if (state === STATES.open) sub.send();
  else connect();
  return sub;
}

class Subscription {
  constructor(matchId, after, { onEvents, onState, onConnection, onFatal }) {
    this.matchId = matchId;
    this.last = after;
    this.ref = null;
    this.live = false;
    this.down = false;
    this.handlers = { onEvents, onState, onConnection, onFatal };
  }

  handles(msg) {
    if (msg.ref !== undefined && msg.ref !== null && msg.ref === this.ref) return true;
    return msg.match === this.matchId && msg.type !== "error";
  }

  send() {
    this.ref = `s${++refs}`;
    send({ type: "subscribe", match: this.matchId, after: this.last, state: true, ref: this.ref });
  }

  receive(msg) {
    if (msg.type === "subscribed") {
      this.live = true;
      if (this.down) {
        this.down = false;
        this.handlers.onConnection(true);
      }
    } else if (msg.type === "events") {
      const fresh = msg.events.filter((e) => e.seq > this.last);
      if (!fresh.length) return;
      this.last = fresh[fresh.length - 1].seq;
      this.handlers.onEvents(fresh, msg.version);
    } else if (msg.type === "state") {
      this.handlers.onState(msg.state);
    } else if (msg.type === "error") {
      subs.delete(this);
      this.handlers.onFatal(new api.ApiError(msg.status, msg));
    }
  }

  /** The socket is gone: a lost connection, unless it never opened on this page (blocked?). */
  lost() {
    this.live = false;
    if (everOpened && !this.down) {
      this.down = true;
      this.handlers.onConnection(false);
    }
  }

  seen(seq) {
    if (seq > this.last) this.last = seq;
  }

  stop() {
    subs.delete(this);
    if (this.ref) send({ type: "unsubscribe", match: this.matchId });
  }
}
