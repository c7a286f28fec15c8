// The client's entry: language, account, and the screens by the address's hash:
//   #/              lobby (or "play as guest")
//   #/match/<id>    a match: play it, or watch it
//   #/invite/<code> an invite link
//   #/signup, #/login

import * as api from "./api.js";
import { detect, setLanguage, t } from "./i18n.js";
import { account, authScreen, currentAccount, inviteScreen, lobbyScreen } from "./lobby.js";
import { MatchScreen } from "./match.js";
import { clearError, h, showError } from "./ui.js";

const root = document.getElementById("app");
let screen = null;

function useLanguage(tag, remember) {
  const lang = setLanguage(tag, remember);
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
  const node = document.getElementById("account");
  if (!me) {
    node.replaceChildren(h("a", { href: "#/login" }, t("account.login")));
    return;
  }
  const name = me.kind === "guest" ? t("account.guest", { name: me.display_name }) : me.display_name;
  node.replaceChildren(
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
  );
}

async function route() {
  clearError();
  if (screen) screen.stop();
  screen = null;
  renderAccount();
  const [, kind, arg] = (location.hash || "#/").match(/^#\/?([^/]*)\/?(.*)$/) || [];
  try {
    if (kind === "match" && arg) {
      screen = new MatchScreen(root, arg, { navigate });
      await screen.start();
    } else if (kind === "invite" && arg) {
      await inviteScreen(root, arg, navigate);
    } else if (kind === "signup" || kind === "login") {
      authScreen(root, kind, async () => {
        await account();
        navigate("#/");
      });
    } else {
      await lobbyScreen(root, navigate);
    }
  } catch (err) {
    showError(err.message);
    if (err instanceof api.NetworkError) setTimeout(route, 2000);
  }
  renderAccount();
}

async function main() {
  useLanguage(detect(), false);
  document.getElementById("language").addEventListener("change", (e) => {
    useLanguage(e.target.value, true);
    if (screen) {
      screen.dom = null;
      screen.render();
    }
    else route();
    renderAccount();
  });
  try {
    await account();
  } catch (err) {
    showError(err.message);
  }
  window.addEventListener("hashchange", route);
  route();
}

main();
