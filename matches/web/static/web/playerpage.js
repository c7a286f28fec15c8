// A player's page (#/player/<name>): his ratings over time drawn as SVG, his rated matches,
// wins and losses.

import * as api from "./api.js";
import { gameLabel, games } from "./games.js";
import { loadStrings, t, tn } from "./i18n.js";
import { h } from "./ui.js";

/** A player's ratings over time, as a line (SVG, drawn here). */
function chart(entries) {
  const W = 600;
  const H = 200;
  const P = 30;
  const values = entries.flatMap((e) => [e.rating_before, e.rating_after]);
  const lo = Math.min(...values) - 5;
  const hi = Math.max(...values) + 5;
  const x = (i) => P + (i * (W - 2 * P)) / Math.max(1, entries.length);
  const y = (v) => H - P - ((v - lo) * (H - 2 * P)) / (hi - lo);
  const points = [[x(0), y(entries[0].rating_before)], ...entries.map((e, i) => [x(i + 1), y(e.rating_after)])];
  const NS = "http://www.w3.org/2000/svg";
  const el = (name, attrs, text) => {
    const n = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
    if (text) n.textContent = text;
    return n;
  };
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "img", "aria-label": t("player.chart") });
  svg.append(el("line", { x1: P, y1: H - P, x2: W - P, y2: H - P, class: "axis" }));
  svg.append(el("text", { x: 2, y: y(hi - 5) + 4, class: "tick" }, String(Math.round(hi - 5))));
  svg.append(el("text", { x: 2, y: y(lo + 5) + 4, class: "tick" }, String(Math.round(lo + 5))));
  svg.append(el("polyline", { points: points.map((p) => p.join(",")).join(" "), class: "line" }));
  points.forEach(([px, py], i) => svg.append(el("circle", { cx: px, cy: py, r: 3.5, class: "dot", "data-rating": i ? entries[i - 1].rating_after.toFixed(2) : entries[0].rating_before.toFixed(2) })));
  return svg;
}

/** His PR in each analysed rated match, oldest first (docs/analysis.md), as dots on a line. */
function prChart(history) {
  const W = 600;
  const H = 120;
  const P = 20;
  const hi = Math.max(10, ...history.map((m) => m.pr));
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "rating-chart pr-chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("analysis.prChart"));
  const points = history.map((m, i) => [P + (i * (W - 2 * P)) / Math.max(1, history.length - 1), H - P - (m.pr * (H - 2 * P)) / hi]);
  const line = document.createElementNS(NS, "polyline");
  line.setAttribute("class", "line");
  line.setAttribute("points", points.map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" "));
  svg.append(line);
  points.forEach(([x, y], i) => {
    const dot = document.createElementNS(NS, "circle");
    for (const [k, v] of Object.entries({ cx: x.toFixed(1), cy: y.toFixed(1), r: 3.5, class: "dot", "data-pr": history[i].pr.toFixed(2) })) dot.setAttribute(k, v);
    svg.append(dot);
  });
  return svg;
}

const performance = (player, game) => {
  const p = (player.performance || []).find((x) => x.game === game);
  if (!p) return [];
  return [h("p", { class: "small", "data-pr": p.pr.toFixed(2), text: t("analysis.prLine", { pr: p.pr.toFixed(1), n: p.matches }) }), prChart(p.history)];
};

export async function playerScreen(root, name) {
  const path = `/players/${encodeURIComponent(name)}`;
  const [player, recent, all] = await Promise.all([api.get(path), api.get(`${path}/matches?limit=20`), games()]);
  const sections = [];
  if ((player.performance || []).length) await loadStrings("analysis");
  const change = {}; // match id -> his rating change, for the recent matches that were rated
  for (const g of all) {
    const r = (player.ratings || []).find((x) => x.game === g.game);
    if (!r) continue;
    const history = await api.get(`${path}/ratings${api.query({ game: g.game, limit: 100 })}`);
    const entries = [...history.results].reverse(); // oldest first
    for (const e of entries) change[e.match] = e.change;
    sections.push(h("section", { class: "card", "data-game": g.game },
      h("h2", { text: `${gameLabel(g)}: ${Math.round(r.rating)}` }),
      h("p", { class: "small", text: t("player.record", { n: r.matches, won: r.wins, lost: r.losses }) }),
      entries.length ? chart(entries) : null,
      ...performance(player, g.game)));
  }
  // his recent matches, rated or not: won or lost, against whom, the score, the rating change
  const rows = recent.results.map((m) => {
    const me = m.players.find((p) => p && p.username === player.username) || {};
    const them = m.players.find((p) => p && p !== me) || {};
    const c = change[m.id];
    return h("li", { "data-match": m.id },
      h("a", { href: `#/record/${m.id}` }, `${m.winner === me.seat ? "✓" : "✗"} ${them.display_name || them.username} · ${tn("points", m.settings.length)} · ${m.score[me.seat]}:${m.score[1 - me.seat]}`),
      c === undefined ? null : h("span", { class: c >= 0 ? "up" : "down", text: `${c >= 0 ? "+" : ""}${c.toFixed(2)}` }));
  });
  const m = player.matches;
  root.replaceChildren(h("div", { id: "player", "data-player": player.username },
    h("section", { class: "card" }, h("h1", { text: player.display_name || player.username }),
      h("p", { class: "small", text: t("player.matches", { n: m.finished, won: m.won, lost: m.lost }) })),
    ...(sections.length ? sections : [h("p", { class: "card small", text: t("player.unrated") })]),
    rows.length ? h("section", { class: "card" }, h("h2", { text: t("player.recent") }), h("ul", { class: "recent" }, rows)) : null));
  // follow, block, report, challenge (community.js): only for another signed-in player
  if (player.viewer) {
    const who = { name: player.username, display_name: player.display_name };
    root.querySelector("#player section.card").append(await (await import("./community.js")).pageActions(who, player.viewer));
  }
}
