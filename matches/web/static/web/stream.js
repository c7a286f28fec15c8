// How a match's new events reach the page, behind one function, so the match screen never
// knows how they come: pushed over the page's WebSocket (live.js, `/ws/v1/live`), or, when
// WebSockets cannot get through on this page, the long-poll of
// GET /matches/{id}/events?after=&wait= (both in the public API). Either way a batch holds
// only events newer than every one given before, so a resumed connection neither skips nor
// repeats any.

import * as live from "./live.js";
import { get, ApiError } from "./api.js";

const WAIT = 25; // seconds the server may hold a poll
const SLACK = 10_000; // ms beyond that before the page gives up on a silent connection


/**
 * Watch a match: `onEvents(events, version)` for every batch of new events in order,
 * `onState(state)` when the transport brings the state too (the socket does, after each
 * batch), `onConnection(ok)` when the connection is lost (false) and back (true),
 * `onFatal(error)` for an answer that retrying cannot change (the match is gone).
 * Returns { stop(), seen(seq), transport() } ("ws" or "poll").
 */
export function watch(matchId, after, handlers) {
  if (live.isBlocked()) return poll(matchId, after, handlers);
  let kind = "ws";
  let stopBlocked = () => {};
  const sub = live.subscribe(matchId, after, {
    ...handlers,
    onFatal: (err) => {
      stopBlocked();
      handlers.onFatal(err);
    },
  });
  let current = sub;
  stopBlocked = live.onBlocked(() => {
    sub.stop();
    kind = "poll";
    current = poll(matchId, sub.last, handlers);
    handlers.onTransport && handlers.onTransport(kind);
  });
  return {
    stop() {
      stopBlocked();
      current.stop();
    },
    seen(seq) {
      current.seen(seq);
    },
    transport: () => kind,
  };
}

/** The long-poll: the fallback when the page's WebSocket cannot open. */
function poll(matchId, after, { onEvents, onConnection, onFatal }) {
  let stopped = false;
  let controller = null;
  let connected = true;
  let last = after;
  let wake = null; // ends the pause between two tries at once (the browser is online again)

  const pause = (ms) =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  // The browser knows before any request does: say so at once and stop the waiting poll
  // (it would hang until its own timeout); try again as soon as it is back.
  const offline = () => {
    setConnected(false);
    if (controller) controller.abort();
  };
  const online = () => wake && wake();
  window.addEventListener("offline", offline);
  window.addEventListener("online", online);

  const setConnected = (ok) => {
    if (ok !== connected) {
      connected = ok;
      onConnection(ok);
    }
  };

  async function loop() {
    let backoff = 250;
    while (!stopped) {
      controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), WAIT * 1000 + SLACK);
      try {
        const body = await get(`/matches/${matchId}/events?after=${last}&wait=${WAIT}`, {
          signal: controller.signal,
          once: true,
        });
        clearTimeout(timer);
        if (stopped) return;
        setConnected(true);
        backoff = 250;
        if (body.events.length) {
          last = body.events[body.events.length - 1].seq;
          onEvents(body.events, body.version);
        }
      } catch (err) {
        clearTimeout(timer);
        if (stopped) return;
        if (err instanceof ApiError && err.status < 500 && err.status !== 429) {
          onFatal(err);
          return;
        }
        setConnected(false);
        await pause(backoff);
        backoff = Math.min(backoff * 2, 4000);
      }
    }
  }

  loop();
  return {
    stop() {
      stopped = true;
      window.removeEventListener("offline", offline);
      window.removeEventListener("online", online);
      if (controller) controller.abort();
      if (wake) wake();
    },
    seen(seq) {
      if (seq > last) last = seq;
    },
    transport: () => "poll",
  };
}
