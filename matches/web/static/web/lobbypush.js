// The live lobby (docs/realtime.md, "Lobby"): on the page's WebSocket (live.js), a
// `subscribe_lobby`; each `lobby` hint (the open challenges or the live matches changed)
// calls `refresh()`, a few at once coalesced into one. The push is a hint: once subscribed
// (also again after the socket was lost: what changed before is read then) and every
// POLL_EVERY while the socket is down, `refresh()` is called too.

import * as live from "./live.js";

const COALESCE = 250; // ms: hints closer than this make one refresh
const POLL_EVERY = 20_000; // ms between refreshes while the socket is not open

/**
 * Call `refresh()` whenever the lobby's lists (`what`: "challenges", "live") change; returns
 * { stop() }. `refresh` may be async; a refresh that fails is left to the next hint.
 */
export function followLobby(refresh, what = ["challenges", "live"]) {
  let stopped = false;
  let timer = null;
  let send = null;
  const later = () => {
    if (stopped || timer) return;
    timer = setTimeout(async () => {
      timer = null;
      if (stopped) return;
      try {
        await refresh();
      } catch {
        /* the next hint or poll tries again */
      }
    }, COALESCE);
  };
  const unshare = live.share({
    hello(sendOnSocket) {
      send = sendOnSocket;
      send({ type: "subscribe_lobby", what, ref: "lobby" });
    },
    receive(msg) {
      if (msg.type === "lobby" || msg.type === "lobby_subscribed") {
        // subscribed: what changed between the page's first read and now, once
        if (msg.type === "lobby_subscribed" || what.includes(msg.what)) later();
        return true;
      }
      return msg.ref === "lobby" || msg.type === "lobby_unsubscribed";
    },
  });
  const poll = setInterval(() => {
    if (!live.isOpen()) later();
  }, POLL_EVERY);
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      clearInterval(poll);
      unshare();
      if (send && live.isOpen()) send({ type: "unsubscribe_lobby" });
    },
  };
}
