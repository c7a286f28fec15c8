// Tournaments (docs/tournaments.md): the list (#/tournaments) and a tournament's page
// (#/tournament/<id>): a knockout's bracket or a Swiss's standings table, each match linked
// to its live view or its record, join and leave. Followed on the page's socket: each
// `lobby` hint of "tournaments" for this one reads it again (lobbypush.js).

import * as api from "./api.js";
import { loadStrings, t } from "./i18n.js";
import { currentAccount } from "./lobby.js";
import { followLobby } from "./lobbypush.js";
import { h } from "./ui.js";

const STATUSES = ["upcoming", "running", "finished"];

function when(iso) {
  return new Date(iso).toLocaleString();
}

/** #/tournaments[/<status>]: the tournaments of one status; returns { stop() }. */
export async function tournamentsScreen(root, status) {
  await loadStrings("tournaments");
  const shown = STATUSES.includes(status) ? status : "upcoming";
  const render = async () => {
    const { tournaments } = await api.get(`/tournaments${api.query({ status: shown })}`);
    const tabs = h("nav", { class: "tabs", "aria-label": t("tournaments.title") },
      STATUSES.map((s) => h("a", { href: `#/tournaments/${s}`, class: s === shown ? "current" : null, "data-status": s }, t(`tournaments.status.${s}`))));
    const rows = tournaments.map((x) => h("li", { "data-tournament": x.id },
      h("a", { href: `#/tournament/${x.id}`, text: x.name }),
      h("span", { class: "small", text: ` · ${t(`tournaments.format.${x.format}`)} · ${t("tournaments.players", { n: x.players, max: x.max_players })} · ${when(x.starts_at)}${x.winner ? " · " + t("tournaments.winner", { name: x.winner }) : ""}` })));
    root.replaceChildren(h("section", { class: "card list", id: "tournaments" },
      h("h1", { text: t("tournaments.title") }), tabs,
      rows.length ? h("ul", {}, rows) : h("p", { class: "small", text: t("tournaments.none") })));
  };
  await render();
  return followLobby(render, ["tournaments"]);
}

function matchLink(board) {
  if (!board.match) return null;
  const over = board.match_status === "finished" || board.match_status === "aborted";
  return h("a", { href: `#/${over ? "record" : "match"}/${board.match}`, class: "small", "data-action": over ? "record" : "watch" },
    t(over ? "tournaments.record" : "tournaments.watch"));
}

function boardNode(board) {
  const [a, b] = board.usernames;
  const winner = board.result ? board.result.winner : board.players[1] === null ? board.players[0] : null;
  const name = (i) => {
    const n = board.usernames[i];
    if (n === null) return t(i === 1 && a !== null ? "tournaments.bye" : "tournaments.nobody");
    return n;
  };
  const who = (i) => h("span", { class: winner !== null && board.players[i] === winner ? "won" : null, text: name(i) });
  return h("li", { class: "board", "data-board": String(board.index) },
    who(0), h("span", { text: " – " }), who(1),
    board.result && board.result.ended_by !== "played" ? h("span", { class: "small", text: ` (${t(`tournaments.ended.${board.result.ended_by}`)})` }) : null,
    b === null ? null : h("span", { text: " " }), matchLink(board));
}

function bracket(detail) {
  return h("div", { class: "bracket", id: "bracket" }, detail.rounds.map((r) =>
    h("section", { class: "round", "data-round": String(r.number) },
      h("h3", { text: r.number === detail.total_rounds ? t("tournaments.final") : t("tournaments.round", { n: r.number }) }),
      h("ol", {}, r.boards.map(boardNode)))));
}

function standingsTable(rows) {
  return h("table", { class: "leaderboard", id: "standings" },
    h("thead", {}, h("tr", {}, ["place", "player", "points", "buchholz", "obuchholz", "rating"].map((k) => h("th", { scope: "col", text: t(`tournaments.col.${k}`) })))),
    h("tbody", {}, rows.map((r) => h("tr", { "data-player": r.username, class: r.withdrawn ? "withdrawn" : null },
      h("td", { text: String(r.place) }), h("th", { scope: "row", text: r.username }),
      h("td", { class: "num", text: String(r.points) }), h("td", { class: "num", text: String(r.buchholz) }),
      h("td", { class: "num", text: String(r.opponents_buchholz) }), h("td", { class: "num", text: r.rating.toFixed(0) })))));
}

/** #/tournament/<id>: one tournament, followed while shown; returns { stop() }. */
export async function tournamentScreen(root, id) {
  await loadStrings("tournaments");
  const act = async (action) => {
    await api.post(`/tournaments/${id}/${action}`);
    await render();
  };
  const render = async () => {
    const [detail, standings] = await Promise.all([api.get(`/tournaments/${id}`), api.get(`/tournaments/${id}/standings`)]);
    const s = detail.settings;
    const me = currentAccount();
    const buttons = detail.actions.map((a) => h("button", { type: "button", "data-action": a, onclick: () => act(a) }, t(`tournaments.${a}`)));
    const winner = detail.players.find((p) => p.user_id === detail.winner);
    const players = detail.rounds.length ? null : h("ul", { id: "entrants" }, detail.players.map((p) => h("li", { text: p.username })));
    const rounds = detail.rounds.length
      ? (s.format === "knockout" ? bracket(detail) : h("div", {}, standingsTable(standings.rows), bracket(detail)))
      : null;
    root.replaceChildren(h("section", { class: "card", id: "tournament", "data-status": detail.status },
      h("h1", { text: s.name }),
      h("p", { class: "small", text: `${t(`tournaments.format.${s.format}`)} · ${t(`tournaments.status.${detail.status}`)} · ${t("tournaments.length", { n: s.length })} · ${when(s.starts_at)}` }),
      winner ? h("p", { class: "winner", id: "winner", text: t("tournaments.winner", { name: winner.username }) }) : null,
      me ? h("div", { class: "actions" }, buttons) : h("p", { class: "small" }, h("a", { href: "#/login" }, t("tournaments.signin"))),
      h("p", { class: "small", text: t("tournaments.players", { n: detail.players.length, max: s.max_players }) }),
      players, rounds,
      h("a", { href: "#/tournaments", class: "button" }, t("tournaments.all"))));
  };
  await render();
  const follow = followLobby(render, ["tournaments"]);
  return { stop: () => follow.stop() };
}
