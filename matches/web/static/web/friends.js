// The players one follows, online, playing or not, each to challenge, and the challenges
// pending (a card in the lobby; #/friends adds following by name and the players blocked).
// Read again every few seconds while shown.

import * as api from "./api.js";
import { games } from "./games.js";
import { loadStrings, t } from "./i18n.js";
import { bdi, h, showError, withName } from "./ui.js";

const name = (p) => p.display_name || p.name;
const ready = () => loadStrings("friends");

/** The friends card in `slot` (`full`: the #/friends screen); returns { stop() }. */
export async function friendsCard(slot, navigate, full = false) {
  await ready();
  let timer = null;
  let last = "";
  const refresh = async () => {
    clearTimeout(timer);
    try {
      const reads = ["/me/following", "/challenges", full && "/me/blocked"].filter(Boolean).map((p) => api.get(p, { once: true }));
      const [following, challenges, blocked] = await Promise.all(reads);
      const [c, all] = challenges.incoming.length ? await Promise.all([import("./communitychallenge.js"), games()]) : [null, null];
      const key = JSON.stringify([following, challenges, blocked]);
      if (key !== last && !slot.querySelector("input:focus, form.challenge-form:not([data-sent])")) {
        last = key;
        slot.replaceChildren(draw(following.players, challenges, blocked?.players, full, navigate, refresh, c, all));
      }
    } catch (err) {
      if (!last) showError(api.friendly(err));
    }
    if (timer !== false) timer = setTimeout(refresh, 10_000);
  };
  await refresh();
  return { stop() { clearTimeout(timer); timer = false; } };
}

export async function friendsScreen(root, navigate) {
  const slot = h("div", { id: "friends-screen" });
  root.replaceChildren(slot);
  return friendsCard(slot, navigate, true);
}

function draw(players, challenges, blocked, full, navigate, refresh, c, all) {
  const act = (fn) => async () => {
    try {
      await fn();
    } catch (err) {
      showError(api.friendly(err));
    }
    refresh();
  };
  const unset = (what, p) => act(() => api.call("DELETE", `/players/${encodeURIComponent(p.name)}/${what}`));
  const row = (p) => {
    const state = p.playing ? "playing" : p.online ? "online" : "offline";
    const li = h("li", { "data-friend": p.name, "data-presence": state },
      h("span", { class: `presence ${state}` }, t(`friends.${state}`)),
      h("a", { href: `#/player/${encodeURIComponent(p.name)}` }, bdi(name(p))),
      p.playing ? h("a", { href: `#/match/${p.playing}`, class: "button", "data-action": "watch" }, t("friends.watch")) : null,
      h("button", { type: "button", "data-action": "challenge", onclick: async () => li.querySelector("form") || li.append(await (await import("./communitychallenge.js")).challengeForm(p, refresh)) }, t("friends.challenge")),
      full ? h("button", { type: "button", class: "link", "data-action": "unfollow", onclick: unset("follow", p) }, t("friends.unfollow")) : null);
    return li;
  };
  const input = h("input", { name: "player", required: true, placeholder: t("friends.username"), "aria-label": t("friends.username") });
  const pending = [
    ...challenges.incoming.map((x) => h("li", { "data-challenge": x.id }, ...c.answer(x, all, navigate, refresh))),
    ...challenges.outgoing.map((c) => h("li", { "data-challenge": c.id }, ...withName("friends.waiting", name(c.to)),
      h("button", { type: "button", "data-action": "withdraw", onclick: act(() => api.call("DELETE", `/challenges/${c.id}`)) }, t("friends.withdraw")))),
  ];
  return h("section", { class: "card friends", id: "friends" },
    h("h2", {}, full ? t("friends.title") : h("a", { href: "#/friends" }, t("friends.title"))),
    pending.length ? h("ul", { class: "pending" }, pending) : null,
    players.length ? h("ul", { class: "following" }, players.map(row)) : h("p", { class: "small", text: t("friends.none") }),
    full ? [
      h("form", { class: "row", onsubmit: (e) => { e.preventDefault(); act(() => api.post(`/players/${encodeURIComponent(input.value.trim())}/follow`))(); } },
        input, h("button", { type: "submit", "data-action": "follow-by-name" }, t("friends.follow"))),
      h("h3", { text: t("friends.blocked") }),
      blocked.length ? h("ul", { class: "blocked" }, blocked.map((p) => h("li", { "data-blocked": p.name }, bdi(name(p)),
        h("button", { type: "button", class: "link", "data-action": "unblock", onclick: unset("block", p) }, t("friends.unblock")))))
        : h("p", { class: "small", text: t("friends.blocked.none") })] : null);
}
