// The client's entry: language, account, and the screens by the address's hash:
//   #/              lobby (or "play as guest")
//   #/match/<id>    a match: play it, or watch it
//   #/invite/<code> an invite link
//   #/record/<id>   a match's record, stepped through
//   #/player/<name> a player's ratings over time and his rated matches
//   #/leaderboard[/<game>]  the leaderboard
//   #/tournaments[/<status>], #/tournament/<id>  tournaments (tournaments.js)
//   #/friends      the players one follows, the direct challenges, the players one blocked
//   #/signup, #/login
//   #/developers   the API's links (the shell's <template id="api-links">)

import * as api from "./api.js";
import { detect, setLanguage, t } from "./i18n.js";
import { account, authScreen, currentAccount, inviteScreen, lobbyScreen } from "./lobby.js";
import * as live from "./live.js";
import { MatchScreen } from "./match.js";
import { clearError, h, showError } from "./ui.js";

const root = document.getElementById("app");
let screen = null;
let routes = 0; // which call of route() is the current one

async function useLanguage(tag, remember) {
  const lang = await setLanguage(tag, remember);
  api.setLanguage(lang);
  document.getElementById("language").value = lang;
  document.querySelectorAll("[data-t]").forEach((n) => (n.textContent = t(n.dataset.t)));
}

function navigate(hash, replace = false) {
  if (location.hash === hash || (hash === "#/" && !location.hash)) route();
  else if (replace) {
    history.replaceState(null, "", hash);
    route();
  } else location.hash = hash;
}

function renderAccount() {
  const me = currentAccount();
  live.sameToken();
  if (me) notifications();
  const node = document.getElementById("account");
  if (!me) {
    node.replaceChildren(h("a", { href: "#/login" }, t("account.login")));
    return;
  }
  const shown = me.display_name || me.username;
  const name = me.kind === "guest" ? t("account.guest", { name: shown }) : shown;
  // (replaceChildren writes a null as the text "null": the header once read "Ana null")
  node.replaceChildren(...[
    h("span", { class: "me", "data-kind": me.kind, text: name }),
    me.kind === "guest" ? h("a", { href: "#/signup", "data-action": "signup" }, t("account.keep")) : null,
    h("button", {
      type: "button",
      class: "link",
      onclick: async () => {
        try {
          await api.post("/auth/logout");
        } catch {
          /* signed out here whatever the server says */
        }
        api.setToken(null);
        await account();
        navigate("#/", true);
      },
    }, t("account.logout")),
  ].filter(Boolean));
}

async function route() {
  clearError();
  checkToast();
  const turn = ++routes;
  if (screen) screen.stop();
  screen = null;
  renderAccount();
  const [, kind, arg] = (location.hash || "#/").match(/^#\/?([^/]*)\/?(.*)$/) || [];
  try {
    if (kind === "match" && arg) {
      screen = new MatchScreen(root, arg, { navigate });
      await screen.start();
    } else if (kind === "record" && arg) {
      screen = await (await import("./recordpage.js")).recordScreen(root, arg); // loaded when asked for
    } else if (kind === "player" && arg) {
      await (await import("./playerpage.js")).playerScreen(root, decodeURIComponent(arg));
    } else if (kind === "tournaments" || (kind === "tournament" && arg)) {
      const pages = await import("./tournaments.js");
      const shown = kind === "tournament" ? await pages.tournamentScreen(root, arg) : await pages.tournamentsScreen(root, arg);
      if (turn === routes) screen = shown;
      else shown.stop();
    } else if (kind === "friends" && currentAccount()) {
      screen = await (await import("./friends.js")).friendsScreen(root, navigate);
    } else if (kind === "leaderboard") {
      await (await import("./leaderboard.js")).leaderboardScreen(root, arg, navigate);
    } else if (kind === "invite" && arg) {
      await inviteScreen(root, arg, navigate);
    } else if (kind === "developers") {
      root.replaceChildren(h("section", { class: "card", id: "developers" }, h("h1", { text: t("dev.title") }),
        h("p", { text: t("dev.text") }), h("ul", {}, document.getElementById("api-links").content.cloneNode(true))));
    } else if (kind === "signup" || kind === "login") {
      authScreen(root, kind, async () => {
        await account();
        navigate("#/");
      });
    } else {
      const lobby = await lobbyScreen(root, navigate);
      if (turn === routes) screen = lobby;
      else lobby.stop(); // left meanwhile
    }
  } catch (err) {
    showError(api.friendly(err));
    if (err instanceof api.NetworkError) setTimeout(route, 2000);
  }
  renderAccount();
}

/**
 * The player's notifications wherever he is on the site: a rematch offered to him is shown
 * with a link to it (on the finished match's own screen the offer is already there).
 */
let banner = null; // the notification shown: { key, params, href, match }

function toast(shown) {
  banner = shown;
  const node = document.getElementById("toast");
  node.hidden = !banner;
  if (!banner) return;
  const close = h("button", { type: "button", class: "link", "data-action": "dismiss", onclick: () => toast(null) }, t("notify.close"));
  node.replaceChildren(h("span", { text: t(banner.key, banner.params) }),
    h("a", { href: banner.href, class: "button", "data-action": "open-notification", onclick: () => toast(null) }, t("notify.open")), close);
}

/** A rematch offer goes once it is answered (the match started or is gone) or opened. */
async function checkToast() {
  if (!banner) return;
  if (location.hash === banner.href) return toast(null);
  try {
    const state = await api.get(`/matches/${banner.match}`);
    if (state.status !== "waiting") toast(null);
  } catch {
    toast(null);
  }
}

let listening = false;

function notifications() {
  if (listening) return;
  listening = true;
  live.onNotification(async (note) => {
    if (note.kind === "tournament_match") {
      // "your match is ready": to the board
      toast({ key: "notify.tournament", params: {}, href: `#/match/${note.match}`, match: note.match });
      return;
    }
    // a direct challenge to him, or the answer to his (a toast wherever he is)
    if (note.kind === "challenge" || note.kind === "challenge_answered") return (await import("./communitychallenge.js")).onNotice(note, navigate);
    if (note.kind !== "rematch_offered") return;
    if (screen && screen.state && screen.state.lobby && screen.state.lobby.rematch === note.match) return;
    try {
      const state = await api.get(`/matches/${note.match}`);
      const other = state.players.find((p) => p && p.username !== currentAccount()?.username);
      toast({ key: "notify.rematch", params: { name: other ? other.display_name || other.username : "" }, href: `#/match/${note.match}`, match: note.match });
    } catch {
      /* a hint only: the lists say the same */
    }
  });
}

async function main() {
  await useLanguage(detect(), false);
  document.getElementById("language").addEventListener("change", async (e) => {
    await useLanguage(e.target.value, true);
    toast(banner);
    if (screen && screen.render) {
      screen.dom = null;
      screen.render();
    }
    else route();
    renderAccount();
  });
  try {
    await account();
  } catch (err) {
    showError(api.friendly(err));
  }
  window.addEventListener("hashchange", route);
  route();
}

main();
