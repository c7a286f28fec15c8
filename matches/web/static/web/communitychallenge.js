// A direct challenge: its form (POST /challenges), and one to the player shown wherever he
// is with accept and decline (app.js hands the notices over); the answer to his own: accepted
// takes him to the board, else it is said.

import * as api from "./api.js";
import { LENGTHS, gameLabel, games, pick } from "./games.js";
import { loadStrings, t, tn } from "./i18n.js";
import { h, showError, withName } from "./ui.js";

const name = (p) => p.display_name || p.name;
const ready = () => loadStrings("friends");

/** A challenge's settings to `who`, then sent (POST /challenges): `onSent(challenge)`. */
export async function challengeForm(who, onSent = () => {}) {
  const [all] = await Promise.all([games(), ready()]);
  const select = (key, options) => h("select", { name: key, "aria-label": t(`friends.${key}`) }, options);
  const game = select("game", all.map((g) => h("option", { value: g.key }, gameLabel(g))));
  const length = select("length", LENGTHS.map((n) => h("option", { value: n, selected: n === 3 }, tn("points", n))));
  const rated = h("input", { type: "checkbox", name: "rated", checked: true });
  const status = h("span", { class: "small", role: "status" });
  const form = h("form", {
    class: "challenge-form row",
    onsubmit: async (e) => {
      e.preventDefault();
      try {
        const g = pick(all, game.value);
        const sent = await api.post("/challenges", { to: who.name, game: g.game, length: Number(length.value), rated: rated.checked });
        form.dataset.sent = sent.id;
        status.replaceChildren(...withName("friends.waiting", name(who)));
        onSent(sent);
      } catch (err) {
        status.textContent = api.friendly(err);
        status.dataset.code = err.code;
      }
    },
  }, game, length, h("label", { class: "check" }, rated, " ", t("match.rated")),
  h("button", { type: "submit", class: "primary", "data-action": "send-challenge" }, t("friends.send")), status);
  return form;
}

/** Who challenges, how, and accept or decline; `all`: the games (games.js). */
export function answer(c, all, navigate, done) {
  const s = c.settings || {};
  const reply = (how) => async () => {
    try {
      const a = await api.post(`/challenges/${c.id}/${how}`);
      if (a.match) navigate(`#/match/${a.match}`);
    } catch (err) {
      showError(api.friendly(err));
    }
    done();
  };
  return [h("span", {}, ...withName("friends.challenged", name(c.from), {
    how: [gameLabel(pick(all, s.game)), s.length && tn("points", s.length), s.rated && t("match.rated")].filter(Boolean).join(", ") })),
  h("button", { type: "button", class: "primary", "data-action": "accept-direct", onclick: reply("accept") }, t("friends.accept")),
  h("button", { type: "button", "data-action": "decline-direct", onclick: reply("decline") }, t("friends.decline"))];
}

let toast = null;

function show(c, words) {
  if (!toast?.isConnected) document.getElementById("toast").after(toast = h("div", { id: "challenge-toast", class: "toast", role: "status" }));
  toast.dataset.challenge = c.id;
  toast.replaceChildren(...words);
  toast.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(hide, c.status === "pending" ? Math.max(1000, Date.parse(c.expires_at) - Date.now()) : 8000);
}

const hide = () => toast && (toast.hidden = true);

/** A notice (app.js): a challenge to him (the pending ones read again: a notice is a hint). */
export async function onNotice(note, navigate) {
  const [all] = await Promise.all([games(), ready()]);
  const c = note.challenge || note.data?.challenge;
  if (note.kind === "challenge") {
    const { incoming } = await api.get("/challenges").catch(() => ({ incoming: [] }));
    const mine = incoming.find((x) => x.id === c?.id) || incoming.at(-1);
    if (mine) show(mine, answer(mine, all, navigate, hide));
  } else if (c?.status === "accepted" && c.match) {
    hide();
    navigate(`#/match/${c.match}`);
  } else if (c) {
    show(c, [h("span", { "data-answer": c.status }, ...withName(`friends.answered.${c.status}`, name(c.status === "cancelled" ? c.from : c.to))),
      h("button", { type: "button", class: "link", "data-action": "dismiss", onclick: hide }, t("notify.close"))]);
  }
}
