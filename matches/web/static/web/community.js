// What one may do about another player, from his name (the match screen) or his page: his
// page, follow, block, report, challenge (communitychallenge.js).

import * as api from "./api.js";
import { loadStrings, t } from "./i18n.js";
import { currentAccount } from "./lobby.js";
import { h, showError, withName } from "./ui.js";

const path = (name, what) => `/players/${encodeURIComponent(name)}/${what}`;
let open = null; // the menu shown

function close() {
  open?.remove();
  open = null;
}

document.addEventListener("click", (e) => open && !open.contains(e.target) && !open.opener.contains(e.target) && close(), true);
document.addEventListener("keydown", (e) => e.key === "Escape" && close());
window.addEventListener("hashchange", close);

/** The menu of `who` ({name, display_name}) under `opener`; `about`: {message, match} reported. */
export async function playerMenu(opener, who, about = {}) {
  const again = open && open.opener === opener;
  close();
  if (again) return;
  await loadStrings("community");
  const menu = h("div", { class: "player-menu", role: "dialog", "aria-label": who.display_name, "data-menu-for": who.name },
    h("a", { href: `#/player/${encodeURIComponent(who.name)}`, "data-action": "player-page" }, t("community.page")));
  menu.opener = opener;
  // on the page's body beside the name, so a redrawn screen leaves it open
  const r = opener.getBoundingClientRect();
  menu.style.top = `${r.bottom + scrollY + 4}px`;
  menu.style.left = `${Math.max(4, Math.min(r.left, innerWidth - 300) + scrollX)}px`;
  document.body.append(menu);
  open = menu;
  if (!currentAccount() || currentAccount().username === who.name) return;
  let viewer = null;
  try {
    viewer = (await api.get(`/players/${encodeURIComponent(who.name)}`)).viewer;
  } catch {
    /* a guest has no page: he may be reported all the same */
  }
  if (open === menu) menu.append(playerActions(who, viewer, about));
}

/** The buttons on a player's page (playerpage.js). */
export async function pageActions(who, viewer) {
  await loadStrings("community");
  return playerActions(who, viewer);
}

/** Follow, block (with `viewer`: {following, blocked}), report and challenge buttons. */
export function playerActions(who, viewer, about = {}) {
  const box = h("div", { class: "player-actions", "data-player-actions": who.name });
  const toggle = (what, on, key) => h("button", {
    type: "button",
    "data-action": on ? `un${what}` : what,
    onclick: async () => {
      try {
        await api.call(on ? "DELETE" : "POST", path(who.name, what));
        viewer[what === "block" ? "blocked" : "following"] = !on;
        if (what === "block") viewer.following = false; // blocking unfollows both ways
        draw();
      } catch (err) {
        showError(api.friendly(err));
      }
    },
  }, t(`community.${on ? "un" : ""}${key}`));
  const draw = () => {
    box.dataset.following = !!viewer?.following;
    box.dataset.blocked = !!viewer?.blocked;
    box.replaceChildren(
      viewer && !viewer.blocked ? toggle("follow", viewer.following, "follow") : null,
      viewer && !viewer.blocked ? h("button", { type: "button", "data-action": "challenge", onclick: async () =>
        box.replaceChildren(await (await import("./communitychallenge.js")).challengeForm(who)) }, t("community.challenge")) : null,
      viewer ? toggle("block", viewer.blocked, "block") : null,
      h("button", { type: "button", "data-action": "report", onclick: () => box.replaceChildren(report(who, about, draw)) }, t("community.report")));
  };
  draw();
  return box;
}

function report(who, about, done) {
  const reason = h("select", { name: "reason", "aria-label": t("community.reason") },
    ["abuse", "spam", "cheating", "other"].map((r) => h("option", { value: r }, t(`community.reason.${r}`))));
  const text = h("textarea", { name: "text", maxlength: "500", rows: "3", dir: "auto", placeholder: t("community.report.text"), "aria-label": t("community.report.text") });
  const form = h("form", {
    class: "report",
    onsubmit: async (e) => {
      e.preventDefault();
      try {
        await api.post("/reports", { player: who.name, message: about.message || null, match: about.match || null, reason: reason.value, text: text.value.trim() });
        form.replaceChildren(h("p", { class: "small", "data-reported": who.name, text: t("community.reported") }));
      } catch (err) {
        showError(api.friendly(err));
      }
    },
  },
  h("p", { class: "small" }, ...withName(about.message ? "community.report.message" : "community.report.player", who.display_name)),
  reason, text,
  h("button", { type: "submit", class: "danger", "data-action": "send-report" }, t("community.report")),
  h("button", { type: "button", onclick: done }, t("cancel")));
  return form;
}
