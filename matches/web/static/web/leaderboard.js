// The leaderboard (#/leaderboard[/<game>]): loaded when asked for, with its strings.

import * as api from "./api.js";
import { gameLabel, games, pick } from "./games.js";
import { loadStrings, t } from "./i18n.js";
import { field } from "./lobby.js";
import { h } from "./ui.js";

/** The leaderboard of a game (GET /leaderboard?game=): registered players by rating. */
export async function leaderboardScreen(root, gameId, navigate) {
  const [all] = await Promise.all([games(), loadStrings("leaderboard")]);
  const game = pick(all, gameId);
  const board = await api.get(`/leaderboard${api.query({ game: game.game, limit: 50 })}`);
  const picker = h("select", { id: "leaderboard-game", "aria-label": t("new.game"),
    onchange: (e) => navigate(`#/leaderboard/${e.target.value}`) },
  all.map((g) => h("option", { value: g.game, selected: g === game }, gameLabel(g))));
  const table = board.results.length
    ? h("table", { class: "leaderboard" },
      h("caption", { class: "sr-only", text: t("leaderboard.caption", { game: gameLabel(game) }) }),
      h("thead", {}, h("tr", {}, ["leaderboard.rank", "leaderboard.player", "leaderboard.rating", "leaderboard.matches", "leaderboard.record"]
        .map((k) => h("th", { scope: "col", text: t(k) })))),
      h("tbody", {}, board.results.map((e) => h("tr", { "data-player": e.player.username },
        h("td", { text: String(e.rank) }),
        h("th", { scope: "row" }, h("a", { href: `#/player/${encodeURIComponent(e.player.username)}`, text: e.player.display_name || e.player.username })),
        h("td", { class: "num", text: e.rating.toFixed(2) }),
        h("td", { class: "num", text: String(e.matches) }),
        h("td", { class: "num", text: `${e.wins}–${e.losses}` })))))
    : h("p", { class: "small", text: t("leaderboard.none") });
  root.replaceChildren(h("section", { class: "card leaderboard-card", id: "leaderboard" },
    h("h1", { text: t("leaderboard.title") }),
    field(t("new.game"), picker),
    table,
    h("p", { class: "small", text: t("leaderboard.note") }),
    h("a", { href: "#/", class: "button" }, t("btn.lobby"))));
}
