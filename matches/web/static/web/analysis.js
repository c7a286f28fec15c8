// The post-game analysis on the record page (docs/analysis.md): "Analyse" asks for it
// (POST /matches/{id}/analysis) and waits for the worker; then the equity graph over the
// match (SVG drawn here), each play of the move list marked with its colour and the best play
// beside it, and the players' PR and luck. Loaded by recordpage.js for a finished match.

import * as api from "./api.js";
import { loadStrings, t } from "./i18n.js";
import { h, showError } from "./ui.js";

const NS = "http://www.w3.org/2000/svg";
const COLOURS = { doubtful: "#e0a800", bad: "#e8590c", "very bad": "#c92a2a" };
const DECIDED = ["moved", "passed", "cube_offered", "cube_taken", "cube_dropped"];
const STYLE = `#analysis svg{width:100%;max-width:600px;background:var(--card);border-radius:8px}
#analysis .zero{stroke:#bbb}#analysis .game{stroke:#ddd;stroke-dasharray:3 3}
#analysis polyline{fill:none;stroke:#1c7ed6;stroke-width:1.5}
table.log td[data-mark] .best{display:block;font-size:.75rem;color:var(--muted)}
${Object.entries(COLOURS).map(([m, c]) => `table.log td[data-mark="${m}"]{box-shadow:inset 3px 0 ${c}}`).join("")}`;

const svgEl = (name, attrs, text) => {
  const n = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  if (text) n.textContent = text;
  return n;
};

/** Puts the "Analyse" button in `nav`; the analysis is drawn into `panel` and `list`. */
export async function offer(nav, panel, { id, events, names, list }) {
  await loadStrings("analysis");
  if (!document.getElementById("analysis-style")) document.head.append(h("style", { id: "analysis-style", text: STYLE }));
  const button = h("button", { type: "button", "data-action": "analyse" }, t("analysis.analyse"));
  button.onclick = async () => {
    button.disabled = true;
    panel.replaceChildren(h("p", { class: "small", role: "status", text: t("analysis.running") }));
    try {
      let body = await api.post(`/matches/${id}/analysis`, {});
      while (body.status === "queued" || body.status === "running") {
        await new Promise((r) => setTimeout(r, 700));
        body = await api.get(`/matches/${id}/analysis`);
      }
      if (body.status === "done") show(panel, list, body, events, names);
      else panel.replaceChildren(h("p", { class: "small", text: t("analysis.failed", { error: body.error || "" }) }));
    } catch (err) {
      panel.replaceChildren();
      showError(api.friendly(err));
    } finally {
      button.disabled = false;
    }
  };
  nav.append(button);
}

function show(panel, list, body, events, names) {
  const decisions = body.games.flatMap((g, i) => g.decisions.map((d) => ({ ...d, game: i })));
  // the same decisions, in the same order, as the events of the move list
  const seqs = events.filter((e) => DECIDED.includes(e.type)).map((e) => e.seq);
  decisions.forEach((d, i) => {
    const cell = list.querySelector(`td[data-seq="${seqs[i]}"]`);
    if (!cell || !d.mark) return;
    cell.dataset.mark = d.mark;
    cell.title = t("analysis.best", { play: d.best });
    if (d.best && d.best !== d.played) cell.append(h("span", { class: "best", text: t("analysis.best", { play: d.best }) }));
  });
  panel.replaceChildren(graph(decisions, names[0]), players(body.players));
}

/** Player 0's equity (EMG, -1..1) after each decision, a line over the whole match. */
function graph(decisions, name) {
  const W = 600;
  const H = 160;
  const P = 8;
  const x = (i) => P + (i * (W - 2 * P)) / Math.max(1, decisions.length - 1);
  const y = (v) => H / 2 - (Math.max(-1, Math.min(1, v)) * (H / 2 - P));
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, class: "equity-graph", role: "img", "aria-label": t("analysis.graph", { name }) });
  svg.append(svgEl("line", { x1: P, y1: y(0), x2: W - P, y2: y(0), class: "zero" }));
  const points = [];
  decisions.forEach((d, i) => {
    if (i && d.game !== decisions[i - 1].game) svg.append(svgEl("line", { x1: x(i), y1: P, x2: x(i), y2: H - P, class: "game" }));
    if (d.equity === null) return;
    points.push([x(i), y(d.player === 0 ? d.equity : -d.equity), d]);
  });
  svg.append(svgEl("polyline", { points: points.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(" ") }));
  for (const [px, py, d] of points) {
    if (d.mark) svg.append(svgEl("circle", { cx: px.toFixed(1), cy: py.toFixed(1), r: 3.5, fill: COLOURS[d.mark], "data-mark": d.mark }, `${d.played || d.action}: ${d.mark}`));
  }
  return svg;
}

function players(list) {
  const row = (cells, tag = "td") => h("tr", {}, cells.map((c) => h(tag, { text: String(c) })));
  return h("table", { class: "log analysis-players" },
    h("thead", {}, row([t("analysis.player"), t("analysis.pr"), t("analysis.rate"), t("analysis.luck"), t("analysis.marks")], "th")),
    h("tbody", {}, list.map((p) => row([p.name, p.pr.toFixed(1), p.error_rate.toFixed(1), p.luck.toFixed(2),
      `${p.marks.doubtful} / ${p.marks.bad} / ${p.marks["very bad"]}`]))));
}
