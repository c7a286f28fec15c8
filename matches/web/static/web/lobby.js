// The lobby: play at once as a guest, sign up or log in (a guest keeps his matches), start a
// match (game, opponent, computer level, length, advanced: cube, clock), and the lists of my
// matches, open challenges and live matches to watch. Also the invite page.

import * as api from "./api.js";
import { GAMES, LENGTHS, MODES } from "./games.js";
import { t } from "./i18n.js";
import { h, showError } from "./ui.js";

const PREFS = "tavla.new-match";

let me = null; // the account of the token, or null

export async function account() {
  if (!api.token()) return (me = null);
  try {
    me = await api.get("/me");
  } catch (err) {
    if (err instanceof api.ApiError && err.status === 401) {
      api.setToken(null);
      me = null;
    } else throw err;
  }
  return me;
}

export const currentAccount = () => me;

export async function playAsGuest(name) {
  const body = await api.post("/auth/guest", name ? { display_name: name } : {});
  api.setToken(body.token);
  me = body.user;
  return me;
}

function field(label, input) {
  return h("label", { class: "field" }, h("span", { text: label }), input);
}

function guestForm(onDone) {
  const name = h("input", { name: "display_name", maxlength: "40", autocomplete: "nickname" });
  return h("form", {
    class: "card welcome",
    onsubmit: async (e) => {
      e.preventDefault();
      try {
        await playAsGuest(name.value.trim());
        onDone();
      } catch (err) {
        showError(err.message);
      }
    },
  },
  h("h1", { text: t("welcome.title") }),
  h("p", { text: t("welcome.text") }),
  field(t("welcome.name"), name),
  h("button", { type: "submit", class: "primary", "data-action": "guest" }, t("welcome.play")),
  h("p", { class: "small" }, t("welcome.have") + " ",
    h("a", { href: "#/login" }, t("account.login")), " · ", h("a", { href: "#/signup" }, t("account.signup"))));
}

/** Sign up (a guest's token turns the guest into this account, matches kept) or log in. */
export function authScreen(root, kind, onDone) {
  const username = h("input", { name: "username", required: true, autocomplete: "username", maxlength: "30" });
  const password = h("input", { name: "password", type: "password", required: true, autocomplete: kind === "signup" ? "new-password" : "current-password" });
  const display = h("input", { name: "display_name", maxlength: "40" });
  const signup = kind === "signup";
  root.replaceChildren(h("form", {
    class: "card auth",
    onsubmit: async (e) => {
      e.preventDefault();
      try {
        const body = { username: username.value.trim(), password: password.value };
        if (signup && display.value.trim()) body.display_name = display.value.trim();
        const answer = await api.post(signup ? "/auth/signup" : "/auth/login", body);
        api.setToken(answer.token);
        me = answer.user;
        onDone();
      } catch (err) {
        showError(err.message);
      }
    },
  },
  h("h1", { text: t(signup ? "auth.signup.title" : "auth.login.title") }),
  signup && me && me.kind === "guest" ? h("p", { text: t("auth.signup.guest") }) : null,
  field(t("auth.username"), username),
  field(t("auth.password"), password),
  signup ? field(t("auth.display"), display) : null,
  h("div", { class: "row" },
    h("button", { type: "submit", class: "primary" }, t(signup ? "auth.submit.signup" : "auth.submit.login")),
    h("a", { href: "#/", class: "button" }, t("cancel")))));
}

function loadPrefs() {
  try {
    return { game: "tavla", mode: "computer", level: "network", length: 3, invite: "link", ...JSON.parse(localStorage.getItem(PREFS) || "{}") };
  } catch {
    return { game: "tavla", mode: "computer", level: "network", length: 3, invite: "link" };
  }
}

function radios(name, options, value, label) {
  return h("fieldset", { class: `choice ${name}` }, h("legend", { text: label }),
    options.map(([v, text, disabled]) => h("label", {},
      h("input", { type: "radio", name, value: String(v), checked: String(v) === String(value), disabled }), " ", text)));
}

function newMatchForm(levels, navigate) {
  const p = loadPrefs();
  const levelSelect = h("select", { name: "level" }, levels.map((l) => h("option", { value: l, selected: l === p.level }, t(`level.${l}`))));
  const num = (name, value) => h("input", { type: "number", name, min: "0", max: "86400", value: String(value), inputmode: "numeric" });
  const clock = { delay: num("delay", 12), reserve: num("reserve", 120), max_move: num("max_move", 60), reconnect: num("reconnect", 60) };
  const customClock = h("input", { type: "checkbox", name: "custom_clock" });
  const cube = h("input", { type: "checkbox", name: "cube" });
  const pub = h("input", { type: "checkbox", name: "public", checked: true });
  const form = h("form", { class: "card new-match", "aria-labelledby": "new-title" },
    h("h2", { id: "new-title", text: t("new.title") }),
    radios("game", GAMES.map((g) => [g.id, t(g.label), !g.available]), p.game, t("new.game")),
    radios("mode", MODES.map((m) => [m, t(`mode.${m}`)]), p.mode, t("new.mode")),
    h("div", { class: "only-computer" }, field(t("new.level"), levelSelect)),
    radios("length", LENGTHS.map((n) => [n, n === 1 ? t("new.point") : t("new.points", { n })]), p.length, t("new.length")),
    h("div", { class: "only-online" }, radios("invite", [["link", t("new.invite.link")], ["open", t("new.invite.open")]], p.invite, t("new.invite"))),
    h("details", { class: "advanced" }, h("summary", { text: t("new.advanced") }),
      h("label", { class: "check" }, cube, " ", t("new.cube")),
      h("label", { class: "check" }, pub, " ", t("new.public")),
      h("div", { class: "only-online" },
        h("label", { class: "check" }, customClock, " ", t("new.clock")),
        h("div", { class: "clock-fields" }, ["delay", "reserve", "max_move", "reconnect"].map((k) => field(t(`clock.${k}`), clock[k]))))),
    h("button", { type: "submit", class: "primary", "data-action": "start" }, t("new.start")));
  const sync = () => {
    const mode = new FormData(form).get("mode");
    form.querySelectorAll(".only-computer").forEach((n) => (n.hidden = mode !== "computer"));
    form.querySelectorAll(".only-online").forEach((n) => (n.hidden = mode !== "online"));
  };
  form.addEventListener("change", sync);
  sync();
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = new FormData(form);
    const game = GAMES.find((g) => g.id === f.get("game")) || GAMES[0];
    const prefs = { game: game.id, mode: f.get("mode"), level: levelSelect.value, length: Number(f.get("length")), invite: f.get("invite") };
    localStorage.setItem(PREFS, JSON.stringify(prefs));
    const body = { ...game.create, mode: prefs.mode, length: prefs.length, cube: cube.checked, public: pub.checked };
    if (prefs.mode === "computer") body.level = prefs.level;
    if (prefs.mode === "online") {
      body.open_challenge = prefs.invite === "open";
      if (customClock.checked) body.clock = Object.fromEntries(Object.entries(clock).map(([k, n]) => [k, Number(n.value)]));
    }
    try {
      const state = await api.post("/matches", body);
      navigate(`#/match/${state.id}`);
    } catch (err) {
      showError(err.message);
    }
  });
  return form;
}

function playerName(p) {
  if (!p) return "?";
  if (p.kind === "computer") return t("computer");
  return p.display_name || p.username;
}

function summaryLine(m) {
  const [a, b] = m.players;
  const who = m.status === "waiting" ? `${playerName(a || b)} · ${t("summary.waiting")}` : t("summary.vs", { a: playerName(a), b: playerName(b) });
  const len = m.settings.length ? t("summary.to", { n: m.settings.length }) : "";
  return `${who} · ${t(`mode.${m.settings.mode}`)} ${len} · ${m.score[0]}:${m.score[1]}`;
}

function list(title, id, items, action) {
  return h("section", { class: "card list", id },
    h("h2", { text: title }),
    items.length ? h("ul", {}, items.map((m) => h("li", { "data-match": m.id }, h("span", { text: summaryLine(m) }), action(m))))
      : h("p", { class: "small", text: t("list.none") }));
}

export async function lobbyScreen(root, navigate) {
  if (!me) {
    root.replaceChildren(guestForm(() => navigate("#/", true)), await liveList(navigate));
    return;
  }
  const [levels, mine, challenges, live] = await Promise.all([
    api.get("/rules/levels"),
    api.get("/matches?status=waiting,active&limit=20"),
    api.get("/matches/challenges?limit=20"),
    api.get("/matches/live?limit=20"),
  ]);
  const accept = (m) => h("button", {
    type: "button",
    "data-action": "accept-challenge",
    onclick: async () => {
      try {
        await api.post(`/matches/${m.id}/join`, {});
        navigate(`#/match/${m.id}`);
      } catch (err) {
        showError(err.message);
      }
    },
  }, t("list.accept"));
  const others = challenges.results.filter((m) => !m.players.some((p) => p && p.username === me.username));
  root.replaceChildren(
    h("div", { class: "columns" },
      newMatchForm(levels.levels, navigate),
      h("div", {},
        list(t("list.mine"), "mine", mine.results, (m) => h("a", { href: `#/match/${m.id}`, class: "button" }, t("list.open"))),
        list(t("list.challenges"), "challenges", others, accept),
        list(t("list.live"), "live", live.results, (m) => h("a", { href: `#/match/${m.id}`, class: "button" }, t("list.watch"))),
        h("button", { type: "button", onclick: () => navigate("#/", true) }, t("list.refresh")))));
}

async function liveList(navigate) {
  const live = await api.get("/matches/live?limit=20");
  return list(t("list.live"), "live", live.results, (m) => h("a", { href: `#/match/${m.id}`, class: "button" }, t("list.watch")));
}

/** An invite link: who invites, then join (as a guest in one click if need be). */
export async function inviteScreen(root, code, navigate) {
  const match = await api.get(`/invites/${encodeURIComponent(code)}`);
  const host = match.players.find((p) => p);
  const seated = me && match.players.some((p) => p && p.username === me.username);
  if (seated || match.status !== "waiting") {
    if (seated || match.settings.public) return navigate(`#/match/${match.id}`, true);
    root.replaceChildren(h("p", { class: "card", text: t("invite.gone") }));
    return;
  }
  const name = h("input", { name: "display_name", maxlength: "40" });
  const join = async (e) => {
    e.preventDefault();
    try {
      if (!me) await playAsGuest(name.value.trim());
      await api.post(`/invites/${encodeURIComponent(code)}/join`, {});
      navigate(`#/match/${match.id}`);
    } catch (err) {
      showError(err.message);
    }
  };
  root.replaceChildren(h("form", { class: "card invite", onsubmit: join },
    h("h1", { text: t("invite.title") }),
    h("p", { text: t("invite.text", { name: playerName(host), n: match.settings.length }) }),
    me ? null : field(t("welcome.name"), name),
    h("button", { type: "submit", class: "primary", "data-action": "join" }, t("invite.join"))));
}
