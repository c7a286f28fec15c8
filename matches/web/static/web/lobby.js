// The lobby: play at once as a guest, sign up or log in (a guest keeps his matches), start a
// match (game, opponent, computer level, length, advanced: cube, clock), and the lists of my
// matches, open challenges and live matches to watch. Also the invite page.

import * as api from "./api.js";
import { CLOCK_PRESETS, LENGTHS, MODES, gameLabel, games, pick } from "./games.js";
import { t, tn } from "./i18n.js";
import * as live from "./live.js";
import { followLobby } from "./lobbypush.js";
import { h, showError } from "./ui.js";

const PREFS = "tavla.new-match";
const SEEK_PREFS = "tavla.seek";
const SEEK_KEY = "tavla.seek.id"; // the waiting seek of this tab (a reload resumes waiting)

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

export function field(label, input) {
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
        showError(api.friendly(err));
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
  const form = h("form", {
    class: "card auth",
    onsubmit: async (e) => {
      e.preventDefault();
      fieldErrors(form, null);
      try {
        const body = { username: username.value.trim(), password: password.value };
        if (signup && display.value.trim()) body.display_name = display.value.trim();
        const answer = await api.post(signup ? "/auth/signup" : "/auth/login", body);
        api.setToken(answer.token);
        me = answer.user;
        onDone();
      } catch (err) {
        if (!fieldErrors(form, err.detail)) showError(api.friendly(err));
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
    h("a", { href: "#/", class: "button" }, t("cancel"))));
  root.replaceChildren(form);
}

/** The API's field errors (`detail`: field -> messages) beside their fields; whether any was. */
function fieldErrors(form, detail) {
  form.querySelectorAll(".field-error").forEach((n) => n.remove());
  let shown = false;
  for (const [name, messages] of Object.entries(detail && typeof detail === "object" ? detail : {})) {
    const input = form.querySelector(`[name="${name}"]`);
    if (!input) continue;
    const id = `error-${name}`;
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", id);
    input.after(h("span", { class: "field-error", id, text: [].concat(messages).join(" ") }));
    shown = true;
  }
  return shown;
}

// the last choices (`game`: a game's key; none: the first game)
function loadPrefs() {
  try {
    return { game: null, mode: "computer", level: "network", length: 3, invite: "link", ...JSON.parse(localStorage.getItem(PREFS) || "{}") };
  } catch {
    return { game: null, mode: "computer", level: "network", length: 3, invite: "link" };
  }
}

function radios(name, options, value, label) {
  return h("fieldset", { class: `choice ${name}` }, h("legend", { text: label }),
    options.map(([v, text, disabled]) => h("label", {},
      h("input", { type: "radio", name, value: String(v), checked: String(v) === String(value), disabled }), " ", text)));
}

/** The computer's levels of a game (GET /rules/levels?game=), weakest first, and its default. */
const levelsOf = {};
function loadLevels(game) {
  if (!levelsOf[game]) levelsOf[game] = api.get(`/rules/levels${api.query({ game })}`);
  return levelsOf[game];
}

/** The new-match form; `all`: the games (games.js), each offered with its facts. */
function newMatchForm(all, levels, navigate) {
  const p = loadPrefs();
  const levelSelect = h("select", { name: "level" });
  const showLevels = (answer, wanted) => {
    const pick = answer.levels.includes(wanted) ? wanted : answer.default || answer.levels[answer.levels.length - 1];
    levelSelect.replaceChildren(...answer.levels.map((l) => h("option", { value: l, selected: l === pick }, t(`level.${l}`))));
  };
  showLevels(levels, p.level);
  const num = (name, value) => h("input", { type: "number", name, min: "0", max: "86400", value: String(value), inputmode: "numeric" });
  const clock = { delay: num("delay", 12), reserve: num("reserve", 120), max_move: num("max_move", 60), reconnect: num("reconnect", 60) };
  const customClock = h("input", { type: "checkbox", name: "custom_clock" });
  const cube = h("input", { type: "checkbox", name: "cube" });
  const pub = h("input", { type: "checkbox", name: "public", checked: true });
  const form = h("form", { class: "card new-match", "aria-labelledby": "new-title" },
    h("h2", { id: "new-title", text: t("new.title") }),
    radios("game", all.map((g) => [g.key, gameLabel(g)]), pick(all, p.game).key, t("new.game")),
    radios("mode", MODES.map((m) => [m, t(`mode.${m}`)]), p.mode, t("new.mode")),
    h("div", { class: "only-computer" }, field(t("new.level"), levelSelect)),
    radios("length", LENGTHS.map((n) => [n, tn("points", n)]), p.length, t("new.length")),
    h("div", { class: "only-online" }, radios("invite", [["link", t("new.invite.link")], ["open", t("new.invite.open")]], p.invite, t("new.invite"))),
    h("details", { class: "advanced" }, h("summary", { text: t("new.advanced") }),
      h("label", { class: "check only-cube" }, cube, " ", t("new.cube")),
      h("label", { class: "check" }, pub, " ", t("new.public")),
      h("div", { class: "only-online" },
        h("label", { class: "check" }, customClock, " ", t("new.clock")),
        h("div", { class: "clock-fields" }, ["delay", "reserve", "max_move", "reconnect"].map((k) => field(t(`clock.${k}`), clock[k]))))),
    h("button", { type: "submit", class: "primary", "data-action": "start" }, t("new.start")));
  const sync = () => {
    const mode = new FormData(form).get("mode");
    form.querySelectorAll(".only-computer").forEach((n) => (n.hidden = mode !== "computer"));
    form.querySelectorAll(".only-online").forEach((n) => (n.hidden = mode !== "online"));
    const game = pick(all, new FormData(form).get("game"));
    form.querySelectorAll(".only-cube").forEach((n) => (n.hidden = !game.cube));
    if (levelSelect.dataset.game !== game.game) {
      levelSelect.dataset.game = game.game;
      loadLevels(game.game).then(
        (answer) => levelSelect.dataset.game === game.game && showLevels(answer, levelSelect.value || p.level),
        (err) => showError(api.friendly(err)));
    }
  };
  form.addEventListener("change", sync);
  sync();
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = new FormData(form);
    const game = pick(all, f.get("game"));
    const prefs = { game: game.key, mode: f.get("mode"), level: levelSelect.value, length: Number(f.get("length")), invite: f.get("invite") };
    localStorage.setItem(PREFS, JSON.stringify(prefs));
    const body = { game: game.game, mode: prefs.mode, length: prefs.length, public: pub.checked };
    if (game.cube) body.cube = cube.checked;
    if (prefs.mode === "computer") body.level = prefs.level;
    if (prefs.mode === "online") {
      body.open_challenge = prefs.invite === "open";
      if (customClock.checked) body.clock = Object.fromEntries(Object.entries(clock).map(([k, n]) => [k, Number(n.value)]));
    }
    try {
      const state = await api.post("/matches", body);
      api.primed.set(state.id, state);
      navigate(`#/match/${state.id}`);
    } catch (err) {
      showError(api.friendly(err));
    }
  });
  return form;
}

// the last choices (`game`: the API's name; none: the first game)
function seekPrefs() {
  try {
    return { game: null, length: 5, clock: "site", ...JSON.parse(localStorage.getItem(SEEK_PREFS) || "{}") };
  } catch {
    return { game: null, length: 5, clock: "site" };
  }
}

/**
 * "Play online now": quick pairing (POST /seeks). The socket keeps the seek alive and brings
 * `seek_paired`; polling GET /seeks/{id} when no socket gets through. Returns { node, stop() }.
 */
function quickPairing(all, navigate) {
  const p = seekPrefs();
  const chosen = pick(all, p.game);
  const game = h("select", { name: "seek-game", "aria-label": t("new.game") },
    all.map((g) => h("option", { value: g.game, selected: g === chosen }, gameLabel(g))));
  const length = h("select", { name: "seek-length", "aria-label": t("new.length") },
    LENGTHS.map((n) => h("option", { value: String(n), selected: n === Number(p.length) }, tn("points", n))));
  const clock = h("select", { name: "seek-clock", "aria-label": t("seek.clock") },
    CLOCK_PRESETS.map((c) => h("option", { value: c, selected: c === p.clock }, t(`clock.preset.${c}`))));
  const line = h("p", { class: "seek-status", role: "status", "aria-live": "polite" });
  const startButton = h("button", { type: "submit", class: "primary", "data-action": "seek" }, t("seek.play"));
  const cancelButton = h("button", { type: "button", "data-action": "cancel-seek", hidden: true }, t("seek.cancel"));
  const form = h("form", { class: "card seek", "aria-labelledby": "seek-title" },
    h("h2", { id: "seek-title", text: t("seek.title") }),
    h("p", { class: "small", text: t("seek.text") }),
    h("div", { class: "row wrap" },
      field(t("new.game"), game), field(t("new.length"), length), field(t("seek.clock"), clock)),
    h("div", { class: "row" }, startButton, cancelButton),
    line);

  let seek = null;
  let timer = null;
  let stopNotes = null;
  let gone = false;

  const show = () => {
    const waiting = seek && seek.status === "waiting";
    form.dataset.seek = seek ? seek.status : "";
    startButton.hidden = waiting;
    cancelButton.hidden = !waiting;
    [game, length, clock].forEach((n) => (n.disabled = waiting));
    if (waiting) {
      const window = seek.window === null ? t("seek.anyone") : t("seek.window", { n: Math.round(seek.window) });
      line.textContent = t("seek.waiting", { rating: Math.round(seek.rating), window });
    } else if (seek && seek.status === "expired") line.textContent = t("seek.expired");
    else line.textContent = "";
  };
  const finish = () => {
    clearTimeout(timer);
    timer = null;
    if (stopNotes) stopNotes();
    stopNotes = null;
    sessionStorage.removeItem(SEEK_KEY);
  };
  const paired = (matchId) => {
    finish();
    seek = null;
    if (!gone) navigate(`#/match/${matchId}`);
  };
  const update = (answer) => {
    seek = answer;
    if (seek.status === "paired" && seek.match) return paired(seek.match);
    if (seek.status !== "waiting") finish();
    show();
  };
  const check = async () => {
    timer = null;
    if (!seek || gone) return;
    try {
      update(await api.get(`/seeks/${seek.id}`));
    } catch (err) {
      if (err instanceof api.ApiError) {
        finish();
        seek = null;
        show();
        return showError(api.friendly(err));
      }
    }
    if (seek && seek.status === "waiting" && !gone) schedule();
  };
  // with the socket open it keeps the seek alive and says when it is paired: a slow check
  // only; without it the poll is what keeps the seek alive (it expires after 30 s)
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(check, live.isOpen() ? 10_000 : 3_000);
  };
  // the notification may come before the answer to our own POST: kept until we know our id
  let early = [];
  const listen = () => {
    if (stopNotes) return;
    stopNotes = live.onNotification((note) => {
      if (note.kind !== "seek_paired") return;
      if (!seek) early.push(note);
      else if (note.seek === seek.id) paired(note.match);
    });
  };
  const wait = () => {
    sessionStorage.setItem(SEEK_KEY, seek.id);
    listen();
    const mine = early.find((note) => note.seek === seek.id);
    early = [];
    if (mine) return paired(mine.match);
    schedule();
  };

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const prefs = { game: game.value, length: Number(length.value), clock: clock.value };
    localStorage.setItem(SEEK_PREFS, JSON.stringify(prefs));
    startButton.disabled = true;
    listen(); // the socket is open (or opening) before the seek can be paired
    try {
      update(await api.post("/seeks", { ...prefs, cube: pick(all, prefs.game).cube }));
      if (seek && seek.status === "waiting") wait();
    } catch (err) {
      showError(api.friendly(err));
    } finally {
      startButton.disabled = false;
    }
  });
  cancelButton.addEventListener("click", async () => {
    if (!seek) return;
    try {
      update(await api.call("DELETE", `/seeks/${seek.id}`));
    } catch (err) {
      showError(api.friendly(err));
    }
  });

  const resume = sessionStorage.getItem(SEEK_KEY);
  if (resume) {
    seek = { id: resume, status: "waiting", rating: 0, window: null };
    wait();
    check();
  }
  show();
  return {
    node: form,
    stop() {
      gone = true;
      if (seek && seek.status === "waiting") {
        api.call("DELETE", `/seeks/${seek.id}`).catch(() => {});
      }
      finish();
    },
  };
}

/** The player's ratings (GET /players/{name}); guests are not rated. */
async function ratingCard(all) {
  if (me.kind === "guest") {
    return h("section", { class: "card rating", id: "my-rating" },
      h("p", { class: "small" }, t("rating.guest") + " ", h("a", { href: "#/signup" }, t("account.signup"))),
      h("a", { href: "#/leaderboard", "data-action": "leaderboard" }, t("leaderboard.title")));
  }
  let player = null;
  try {
    player = await api.get(`/players/${encodeURIComponent(me.username)}`);
  } catch {
    return null;
  }
  const rows = all.map((g) => {
    const r = (player.ratings || []).find((x) => x.game === g.game);
    return h("li", { "data-game": g.game },
      h("span", { text: gameLabel(g) }),
      h("strong", { class: "rating-value", text: r ? String(Math.round(r.rating)) : "1500" }),
      h("span", { class: "small", text: t("rating.matches", { n: r ? r.matches : 0 }) }));
  });
  return h("section", { class: "card rating", id: "my-rating" },
    h("h2", { text: t("rating.title") }), h("ul", { class: "ratings" }, rows),
    h("p", {}, h("a", { href: `#/player/${encodeURIComponent(me.username)}`, "data-action": "my-page" }, t("player.mine"))),
    h("a", { href: "#/leaderboard", "data-action": "leaderboard" }, t("leaderboard.title")));
}

function playerName(p) {
  if (!p) return "?";
  if (p.kind === "computer") return t("computer");
  const name = p.display_name || p.username;
  return typeof p.rating === "number" ? `${name} (${Math.round(p.rating)})` : name;
}

/** A match in a list; its game named unless it is the first (the default of a new match). */
function summaryLine(all, m) {
  const [a, b] = m.players;
  const who = m.status === "waiting" ? `${playerName(a || b)} · ${t("summary.waiting")}` : t("summary.vs", { a: playerName(a), b: playerName(b) });
  const len = m.settings.length ? t("summary.to", { n: m.settings.length }) : "";
  const g = pick(all, m.settings.game);
  const game = g !== all[0] ? `${gameLabel(g)} · ` : "";
  const clock = clockText(m);
  const rated = ratedOf(m);
  return `${game}${who} · ${t(`mode.${m.settings.mode}`)} ${len} · ${m.score[0]}:${m.score[1]}${clock ? " · " + clock : ""}${rated === null || m.settings.mode !== "online" ? "" : " · " + t(rated ? "match.rated" : "match.unrated")}`;
}

// a list's or an invite's clock and whether it is rated: from the body when it says, else
// from the settings; absent: not shown
const ratedOf = (m) => (typeof m.rated === "boolean" ? m.rated : typeof m.settings?.rated === "boolean" ? m.settings.rated : null);
function clockText(m) {
  const c = m.clock !== undefined ? m.clock : m.settings?.clock;
  if (!c) return "";
  if (typeof c === "string") return c === "site" ? t("clock.preset.site") : c;
  const s = (n) => (n >= 60 && n % 60 === 0 ? t("clock.min", { n: n / 60 }) : t("clock.sec", { n }));
  return t("clock.text", { delay: s(c.delay), reserve: s(c.reserve), max: s(c.max_move) });
}

function list(all, title, id, items, action) {
  return h("section", { class: "card list", id },
    h("h2", { text: title }),
    items.length ? h("ul", {}, items.map((m) => h("li", { "data-match": m.id }, h("span", { text: summaryLine(all, m) }), action(m))))
      : h("p", { class: "small", text: t("list.none") }));
}

/** The lobby; returns { stop() } (leaving it withdraws a waiting quick-pairing seek). */
export async function lobbyScreen(root, navigate) {
  if (!me) {
    root.replaceChildren(guestForm(() => navigate("#/", true)), await liveList(navigate));
    return { stop() {} };
  }
  const all = games(); // the games and their facts (GET /rules/games), once for the page
  const [levels, mine, challenges, watchable, rating, gameList] = await Promise.all([
    all.then((list) => loadLevels(pick(list, loadPrefs().game).game)),
    api.get(MINE),
    api.get(CHALLENGES),
    api.get(LIVE),
    all.then(ratingCard),
    all,
  ]);
  const quick = quickPairing(gameList, navigate);
  const accept = (m) => h("button", {
    type: "button",
    "data-action": "accept-challenge",
    onclick: async () => {
      try {
        await api.post(`/matches/${m.id}/join`, {});
        navigate(`#/match/${m.id}`);
      } catch (err) {
        showError(api.friendly(err));
      }
    },
  }, t("list.accept"));
  const others = (page) => page.results.filter((m) => !m.players.some((p) => p && p.username === me.username));
  const open = (m) => h("a", { href: `#/match/${m.id}`, class: "button" }, t("list.open"));
  const watch = (m) => h("a", { href: `#/match/${m.id}`, class: "button" }, t("list.watch"));
  const lists = h("div", { class: "lists" });
  const draw = (mineNow, challengesNow, liveNow) => lists.replaceChildren(
    list(gameList, t("list.mine"), "mine", mineNow.results, open),
    list(gameList, t("list.challenges"), "challenges", others(challengesNow), accept),
    list(gameList, t("list.live"), "live", liveNow.results, watch));
  draw(mine, challenges, watchable);
  // the players he follows and the direct challenges (friends.js, loaded with the lobby)
  const friends = h("div", { class: "friends-slot" });
  const card = me.kind === "registered" ? import("./friends.js").then((m) => m.friendsCard(friends, navigate)).catch(() => null) : null;
  root.replaceChildren(
    h("div", { class: "columns" },
      h("div", {}, quick.node, newMatchForm(gameList, levels, navigate)),
      h("div", {},
        rating,
        friends,
        lists,
        await finishedList(gameList),
        h("button", { type: "button", onclick: () => navigate("#/", true) }, t("list.refresh")))));
  // the lists follow by themselves: the page's WebSocket hints when the open challenges or the
  // live matches change (lobbypush.js; every 20 s while the socket is down), then the three
  // lists are read again and drawn if they changed
  let last = "";
  const push = followLobby(async () => {
    const pages = await Promise.all([MINE, CHALLENGES, LIVE].map((path) => api.get(path, { once: true })));
    const key = JSON.stringify(pages.map((p) => p.results.map((m) => [m.id, m.status, m.version])));
    if (key !== last) draw(...pages);
    last = key;
  });
  return { stop() { push.stop(); quick.stop(); card?.then((c) => c && c.stop()); } };
}

const MINE = "/matches?status=waiting,active&limit=20";
const CHALLENGES = "/matches/challenges?limit=20";
const LIVE = "/matches/live?mode=online&limit=20";

/** My finished matches, newest first, ten at a time (the API's cursor), each with its record. */
async function finishedList(all) {
  const section = list(all, t("list.finished"), "finished", [], () => null);
  const ul = h("ul", {});
  const more = h("button", { type: "button", "data-action": "more", hidden: true }, t("list.more"));
  let next = "/matches?status=finished&limit=10";
  const load = async () => {
    const page = await api.get(next);
    ul.append(...page.results.map((m) => h("li", { "data-match": m.id }, h("span", { text: summaryLine(all, m) }),
      h("a", { href: `#/record/${m.id}`, class: "button" }, t("list.record")))));
    next = page.next ? page.next.slice(page.next.indexOf("/api/v1") + 7) : null;
    more.hidden = !next;
    section.querySelector("p.small").hidden = ul.children.length > 0;
  };
  more.addEventListener("click", () => load().catch((err) => showError(api.friendly(err))));
  section.append(ul, more);
  await load();
  return section;
}

async function liveList(navigate) {
  const [live, all] = await Promise.all([api.get("/matches/live?mode=online&limit=20"), games()]);
  return list(all, t("list.live"), "live", live.results, (m) => h("a", { href: `#/match/${m.id}`, class: "button" }, t("list.watch")));
}

/** An invite link: who invites, then join (as a guest in one click if need be). */
export async function inviteScreen(root, code, navigate) {
  const [match, all] = await Promise.all([api.get(`/invites/${encodeURIComponent(code)}`), games()]);
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
      showError(api.friendly(err));
    }
  };
  root.replaceChildren(h("form", { class: "card invite", onsubmit: join },
    h("h1", { text: t("invite.title") }),
    h("p", { text: t("invite.text", { name: playerName(host), game: gameLabel(pick(all, match.settings.game)), points: tn("points", match.settings.length) }) }),
    clockText(match) ? h("p", { class: "invite-clock", text: clockText(match) }) : null,
    ratedOf(match) === null ? null : h("p", { class: "small invite-rated", text: t(ratedOf(match) ? "match.rated" : "match.unrated") }),
    me ? null : field(t("welcome.name"), name),
    h("button", { type: "submit", class: "primary", "data-action": "join" }, t("invite.join"))));
}
