// A match's record (#/record/<id>): its move list and the board at any point of any game,
// stepped with buttons and the arrow keys; a .mat download (gnubg's format) when gnubg describes
// the game's positions (its facts' `gnubg_ids`: tavla).
// Each game starts from the game's opening position (its facts, GET /rules/games); after each
// `moved` event the board is the server's (GET /matches/{id}/boards, from the first seat's
// side): the page never applies steps itself.

import * as api from "./api.js";
import { drawBoard } from "./board.js";
import { checkers, facts as factsOf, gameLabel } from "./games.js";
import { t } from "./i18n.js";
import { playBoards, pointFor } from "./match.js";
import { buildRecord } from "./record.js";
import { h, showError } from "./ui.js";

/** The opening position from seat 0's side, from the game's facts (GET /rules/games):
 * its starting points, its bar or heads. */
export const openingBoard = (g) => ({
  points: [...g.start], bar: g.bar ? { you: 0, opponent: 0 } : null, off: { you: 0, opponent: 0 },
  heads: g.heads && { you: { point: g.heads[0] }, opponent: { point: g.heads[1] } },
});

/** Every position of the match: [{game, seq, board, dice, seat, last}] after each play;
 * `facts`: the game's; `boards`: each play's boards by its seq (seat 0's side). */
export function positions(events, facts, boards) {
  const out = [];
  let board = null;
  let dice = null;
  const record = buildRecord(events, checkers(facts));
  const gameOfSeq = (seq) => record.find((g) => g.rows.some((r) => r.some((c) => c && c.seq >= seq))) || record[record.length - 1];
  let current = 0;
  for (const e of events) {
    const d = e.data || {};
    const g = gameOfSeq(e.seq);
    if (!g) break;
    if (g.number !== current) {
      current = g.number;
      board = openingBoard(facts);
      out.push({ game: current, seq: e.seq, board, dice: null, seat: null, last: null });
    }
    if (e.type === "opening_roll" && d.die0 !== d.die1) dice = [d.die0, d.die1];
    if (e.type === "rolled") dice = d.dice;
    if (e.type === "moved" || e.type === "passed" || e.type.startsWith("cube_") || e.type.startsWith("resign_")) {
      const steps = e.type === "moved" ? d.steps : [];
      if (e.type === "moved" && boards.has(e.seq)) board = boards.get(e.seq).at(-1);
      const last = steps.map(([f, to]) => [pointFor(f, d.seat, 0, facts), pointFor(to, d.seat, 0, facts)]);
      out.push({ game: current, seq: e.seq, board, dice: e.type === "moved" || e.type === "passed" ? dice : null, seat: d.seat, last });
    }
  }
  return out;
}

async function allEvents(id) {
  const events = [];
  for (;;) {
    const after = events.length ? events[events.length - 1].seq : 0;
    const page = await api.get(`/matches/${id}/events?after=${after}`);
    events.push(...page.events);
    if (!page.events.length || events[events.length - 1].seq >= page.version) return events;
  }
}

const nameOf = (state, seat) => {
  const p = state.players[seat];
  if (state.settings.mode === "hotseat") return t(`seat.${seat}`);
  if (!p) return "?";
  return p.kind === "computer" ? t("computer") : p.display_name || p.username;
};

/** The record page; returns { stop() } (its arrow keys). */
export async function recordScreen(root, id) {
  const [state, events] = await Promise.all([api.get(`/matches/${id}`), allEvents(id)]);
  const [boards, facts] = await Promise.all([playBoards(id, 0, 0), factsOf(state.settings.game)]);
  const frames = positions(events, facts, boards);
  const record = buildRecord(events, checkers(facts));
  let at = frames.length - 1;
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "board");
  svg.setAttribute("id", "board");
  const info = h("p", { class: "status", role: "status", "aria-live": "polite" });
  const list = h("div", { id: "move-list", class: "move-list" });
  const go = (n) => {
    at = Math.max(0, Math.min(frames.length - 1, n));
    show();
  };
  const nav = h("div", { class: "actions" },
    [["first", "|◀", () => go(0)], ["prev", "◀", () => go(at - 1)], ["next", "▶", () => go(at + 1)], ["last", "▶|", () => go(frames.length - 1)]]
      .map(([name, label, onclick]) => h("button", { type: "button", "data-step": name, "aria-label": t(`record.${name}`), title: t(`record.${name}`), onclick }, label)));
  if (facts.gnubg_ids) {
    nav.append(h("button", { type: "button", "data-action": "mat", onclick: async () => {
      try {
        const body = await api.get(`/matches/${id}/export`);
        const a = h("a", { href: URL.createObjectURL(new Blob([body.mat], { type: "text/plain" })), download: body.filename });
        a.click();
      } catch (err) {
        showError(api.friendly(err));
      }
    } }, t("record.mat")));
  }
  const cells = () => {
    list.replaceChildren(...record.map((g) => h("table", { class: "log", "data-game": String(g.number) },
      h("caption", { text: t("log.game", { n: g.number }) }),
      h("thead", {}, h("tr", {}, h("th", { text: "" }), h("th", { scope: "col", text: nameOf(state, 0) }), h("th", { scope: "col", text: nameOf(state, 1) }))),
      h("tbody", {}, g.rows.map((row, i) => h("tr", {}, h("th", { scope: "row", text: String(i + 1) }),
        row.map((c) => h("td", c ? { "data-seq": String(c.seq), class: "jump", onclick: () => go(frames.findIndex((f) => f.seq === c.seq)), text: c.text } : {}))))))));
  };
  const show = () => {
    const f = frames[at];
    if (!f) return;
    drawBoard(svg, {
      facts, board: f.board, colors: { you: "light", opponent: "dark" }, dice: f.dice, used: null,
      diceSide: f.seat === 1 ? "opponent" : "you", cube: null, sources: [], targets: [], selected: null,
      name: nameOf(state, 0), last: f.last,
    });
    svg.dataset.seq = String(f.seq);
    svg.dataset.frame = String(at);
    const done = state.games.filter((g) => g.number < f.game);
    const score = [0, 1].map((seat) => done.filter((g) => g.winner.seat === seat).reduce((n, g) => n + g.points, 0));
    info.textContent = `${t("log.game", { n: f.game })} · ${t("record.step", { n: at + 1, of: frames.length })} · ${t("result.score", { a: score[0], b: score[1] })}`;
    list.querySelectorAll("td.current").forEach((n) => n.classList.remove("current"));
    const cell = list.querySelector(`td[data-seq="${f.seq}"]`);
    if (cell) {
      cell.classList.add("current");
      cell.scrollIntoView({ block: "nearest" });
    }
    nav.querySelector("[data-step=first]").disabled = nav.querySelector("[data-step=prev]").disabled = at === 0;
    nav.querySelector("[data-step=last]").disabled = nav.querySelector("[data-step=next]").disabled = at === frames.length - 1;
  };
  const key = (e) => {
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: frames.length - 1 }[e.key];
    if (to === undefined || ["INPUT", "SELECT"].includes(e.target.tagName)) return;
    e.preventDefault();
    go(to);
  };
  document.addEventListener("keydown", key);
  const analysis = h("div", { id: "analysis" });
  if (state.status === "finished") {
    import("./analysis.js").then((m) => m.offer(nav, analysis, { id, events, list, names: [nameOf(state, 0), nameOf(state, 1)] }));
  }
  const title = `${nameOf(state, 0)} – ${nameOf(state, 1)} · ${gameLabel(facts)} · ${state.score.seats[0]}:${state.score.seats[1]}`;
  root.replaceChildren(h("section", { class: "match record", "data-match": id },
    h("div", { class: "play" }, h("h1", { class: "record-title", text: title }), h("div", { class: "board-wrap" }, svg), nav, info, analysis,
      h("p", {}, h("a", { href: `#/match/${id}` }, t("record.open")))),
    h("aside", { class: "side" }, h("h2", { class: "log-title", text: t("log.title") }), list)));
  cells();
  show();
  return { stop: () => document.removeEventListener("keydown", key) };
}
