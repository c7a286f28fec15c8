// The match screen: the state from the API, the player's partial play (one checker at a time
// with legal-next-steps, each step undoable until he confirms), the actions the state allows,
// the clocks, and the match's events arriving through stream.js.

import * as api from "./api.js";
import { drawBoard, listen } from "./board.js";
import { t } from "./i18n.js";
import { watch } from "./stream.js";
import { connection, h, showError } from "./ui.js";

const pointName = (p) => (p === 25 ? "bar" : p === 0 ? "off" : String(p));

/** Notation of single-die steps, for legal-next-steps (`bar/22*`, `6/off`). */
export function notation(steps) {
  return steps.map((s) => `${pointName(s.from)}/${pointName(s.to)}${s.hit ? "*" : ""}`).join(" ");
}

/** The board after the partial play, from the mover's side. */
export function applySteps(board, steps) {
  // long nardy has no bar (null) and nothing is hit; its heads are counted from the points
  const b = { points: [...board.points], bar: board.bar ? { ...board.bar } : null, off: { ...board.off }, heads: board.heads };
  for (const s of steps) {
    if (s.from === 25) b.bar.you -= 1;
    else b.points[s.from - 1] -= 1;
    if (s.to === 0) b.off.you += 1;
    else {
      if (b.points[s.to - 1] === -1) {
        b.points[s.to - 1] = 0;
        b.bar.opponent += 1;
      }
      b.points[s.to - 1] += 1;
    }
  }
  return b;
}

/** Which dice the steps used: the exact die, or for a bear-off the smallest larger one. */
export function usedDice(dice, steps) {
  const all = dice[0] === dice[1] ? [dice[0], dice[0], dice[0], dice[0]] : [...dice];
  const used = all.map(() => false);
  for (const s of steps) {
    const distance = s.from - s.to;
    let pick = all.findIndex((d, i) => !used[i] && d === distance);
    if (pick < 0) {
      let best = -1;
      all.forEach((d, i) => {
        if (!used[i] && d > distance && (best < 0 || d < all[best])) best = i;
      });
      pick = best;
    }
    if (pick >= 0) used[pick] = true;
  }
  return { all, used };
}

function seatName(state, seat) {
  const p = state.players[seat];
  if (state.settings.mode === "hotseat") return t(`seat.${seat}`);
  if (!p) return t("opponent");
  if (p.kind === "computer") return t("computer");
  return p.display_name || p.username;
}

/** A player's rating in the match's game, beside his name (guests and the computer have none). */
function rating(player) {
  if (!player || typeof player.rating !== "number") return null;
  const n = Math.round(player.rating);
  return h("span", { class: "rating", title: t("rating.of", { n }), "aria-label": t("rating.of", { n }), text: String(n) });
}

const fmt = (seconds) => {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};

export class MatchScreen {
  constructor(root, matchId, { navigate }) {
    this.root = root;
    this.id = matchId;
    this.navigate = navigate;
    this.state = null;
    this.steps = [];
    this.history = []; // legal-next-steps answers before each step (undo restores them)
    this.next = null;
    this.selected = null;
    this.busy = false;
    this.notices = [];
    this.passes = 0; // forced passes announced (the server passes a roll that cannot move)
    this.lastDice = null;
    this.refreshing = null;
    this.refreshAgain = false;
    this.receivedAt = 0;
    this.stopped = false;
    this.generation = 0;
  }

  async start() {
    this.root.replaceChildren(h("p", { class: "loading", text: t("loading") }));
    const state = await api.get(`/matches/${this.id}`);
    await this.setState(state);
    this.streamSeq = state.version;
    this.streamCount = 0;
    this.streamGaps = 0;
    this.stream = watch(this.id, state.version, {
      onEvents: (events) => this.onEvents(events),
      onState: (pushed) => this.setState(pushed).catch((err) => showError(err.message)),
      onTransport: () => this.render(),
      onConnection: (ok) => {
        connection(ok);
        if (ok) this.refresh();
      },
      onFatal: (err) => showError(err.message),
    });
    this.render();
    this.ticker = setInterval(() => this.tick(), 250);
    this.onKey = (e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
  }

  stop() {
    this.stopped = true;
    if (this.stream) this.stream.stop();
    clearInterval(this.ticker);
    document.removeEventListener("keydown", this.onKey);
    connection(true);
  }

  // -- state -------------------------------------------------------------------------------

  onEvents(events) {
    // what the stream delivered, on the page for the tests: no seq twice, none skipped
    for (const e of events) {
      if (e.seq !== this.streamSeq + 1) this.streamGaps += 1;
      this.streamSeq = e.seq;
      this.streamCount += 1;
    }
    if (this.dom) this.root.querySelector("section.match").dataset.stream = `${this.streamSeq} ${this.streamCount} ${this.streamGaps}`;
    for (const e of events) {
      const name = (seat) => (this.state ? seatName(this.state, seat) : "");
      if (e.type === "rolled") this.lastDice = e.data.dice;
      if (e.type === "passed") {
        const dice = (this.lastDice || []).join("–");
        this.passes += 1;
        this.notice(t("notice.passed", { name: name(e.data.seat), dice }));
      }
      if (e.type === "opening_roll") {
        const [a, b] = [e.data.die0, e.data.die1];
        if (a !== b) this.notice(t("notice.opening", { a: `${name(0)} ${a}`, b: `${name(1)} ${b}`, name: name(a > b ? 0 : 1) }));
      }
      if (e.type === "resign_rejected") this.notice(t("notice.rejected"));
      if (e.type === "marked_unrated") this.notice(t("notice.unrated"));
    }
    // the socket brings the state after the events; the long-poll only the events
    const top = events[events.length - 1].seq;
    if (this.stream.transport() === "poll" && (!this.state || top > this.state.version)) this.refresh();
  }

  notice(message) {
    this.notices = [...this.notices.slice(-2), message];
    this.renderNotices();
    if (this.dom) this.root.querySelector("section.match").dataset.passes = String(this.passes);
  }

  async refresh() {
    if (this.refreshing) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      try {
        do {
          this.refreshAgain = false;
          const state = await api.get(`/matches/${this.id}`);
          await this.setState(state);
        } while (this.refreshAgain && !this.stopped);
      } catch (err) {
        if (!(err instanceof api.NetworkError)) showError(err.message);
      } finally {
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }

  async setState(state) {
    if (this.stopped) return;
    if (this.state && state.version < this.state.version) return;
    const moved = !this.state || state.version !== this.state.version || state.side.seat !== this.state.side.seat;
    this.state = state;
    this.receivedAt = performance.now();
    this.clockOffset = state.clock ? Date.parse(state.clock.now) - Date.now() : 0;
    if (moved) {
      // the same version may arrive twice (the command's answer and the socket's push):
      // only a newer one makes the legal steps asked here stale
      const generation = ++this.generation;
      this.steps = [];
      this.history = [];
      this.selected = null;
      this.next = null;
      if (this.canPlay()) {
        this.render();
        try {
          this.next = await api.get(`/matches/${this.id}/legal-next-steps?steps=`);
        } catch (err) {
          if (err instanceof api.ApiError && err.code === "illegal_action") return this.refresh();
          throw err;
        }
        if (this.generation !== generation) return;
      }
    }
    this.render();
  }

  canPlay() {
    const s = this.state;
    return s && s.actions.includes("play") && s.side.seat === s.to_act?.seat;
  }

  // -- the partial play ---------------------------------------------------------------------

  sources() {
    if (!this.next) return [];
    return [...new Set(this.next.next_steps.map((s) => s.from))];
  }

  targets() {
    if (!this.next || this.selected === null) return [];
    return this.next.next_steps.filter((s) => s.from === this.selected);
  }

  async onSpot(point) {
    if (this.busy || !this.next) return;
    const target = this.targets().find((s) => s.to === point);
    if (target) return this.step(target);
    if (this.sources().includes(point)) {
      this.selected = this.selected === point ? null : point;
      this.render();
    }
  }

  async onDrag(from, to) {
    if (this.busy || !this.next) return;
    const step = this.next.next_steps.find((s) => s.from === from && s.to === to);
    if (step) return this.step(step);
    this.selected = this.sources().includes(from) ? from : null;
    this.render();
  }

  async step(step) {
    this.busy = true;
    this.render();
    const version = this.state.version;
    try {
      const steps = [...this.steps, step];
      const next = await api.get(`/matches/${this.id}/legal-next-steps?steps=${encodeURIComponent(notation(steps))}`);
      if (this.state.version !== version) return;
      this.history.push(this.next);
      this.steps = steps;
      this.next = next;
      this.selected = null;
    } catch (err) {
      showError(err.message);
    } finally {
      this.busy = false;
      this.render();
    }
  }

  undo() {
    if (this.busy || !this.steps.length) return;
    this.steps = this.steps.slice(0, -1);
    this.next = this.history.pop();
    this.selected = null;
    this.render();
  }

  async confirm() {
    if (!this.next || !this.next.complete) return;
    await this.act("play", { play: this.steps.map((s) => [s.from, s.to]) });
  }

  async act(action, body = {}) {
    if (this.busy) return;
    this.busy = true;
    this.render();
    try {
      const state = await api.post(`/matches/${this.id}/${action}`, { expected_version: this.state.version, ...body });
      this.busy = false;
      await this.setState(state);
    } catch (err) {
      this.busy = false;
      showError(err.message);
      await this.refresh();
    } finally {
      this.busy = false;
      this.render();
    }
  }

  async rematch() {
    try {
      const state = await api.post(`/matches/${this.id}/rematch`);
      this.navigate(`#/match/${state.id}`);
    } catch (err) {
      showError(err.message);
    }
  }

  key(e) {
    if (e.target && ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
    if ((e.key === "u" || e.key === "U") && this.steps.length) {
      e.preventDefault();
      this.undo();
    }
  }

  // -- drawing -----------------------------------------------------------------------------

  render() {
    if (this.stopped || !this.state) return;
    const s = this.state;
    if (!this.dom) this.build();
    const me = s.side.seat;
    const colors = { you: me === 0 ? "light" : "dark", opponent: me === 0 ? "dark" : "light" };
    const board = applySteps(s.board, this.steps);
    let dice = null;
    let used = null;
    if (s.dice) {
      const u = usedDice(s.dice, this.steps);
      dice = u.all;
      used = u.used;
    }
    const selectedTargets = this.targets();
    const targetPoints = new Set(selectedTargets.map((x) => x.to));
    drawBoard(this.dom.svg, {
      game: s.settings.game || "tavla",
      board,
      colors,
      dice,
      used,
      diceSide: s.turn?.who === "you" ? "you" : "opponent",
      cube: s.cube,
      sources: this.busy ? [] : this.sources().filter((p) => !targetPoints.has(p)),
      selected: this.selected,
      targets: this.busy ? [] : selectedTargets,
      name: seatName(s, me),
    });
    const section = this.root.querySelector("section.match");
    section.dataset.version = String(s.version);
    section.dataset.status = s.status;
    section.dataset.steps = String(this.steps.length);
    section.dataset.passes = String(this.passes);
    section.dataset.transport = this.stream ? this.stream.transport() : "";
    section.dataset.stream = `${this.streamSeq} ${this.streamCount} ${this.streamGaps}`;
    section.dataset.toAct = s.to_act && s.status === "active" ? s.to_act.who : "";
    section.classList.toggle("waiting", s.status === "waiting");
    this.renderPlayers();
    this.renderStatus();
    this.renderActions();
    this.renderNotices();
    this.tick();
  }

  build() {
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("class", "board");
    svg.setAttribute("id", "board");
    listen(svg, { onSpot: (p) => this.onSpot(p), onDrag: (a, b) => this.onDrag(a, b) });
    this.dom = {
      top: h("div", { class: "player far" }),
      svg,
      bottom: h("div", { class: "player near" }),
      status: h("p", { id: "status", class: "status", role: "status", "aria-live": "polite" }),
      notices: h("ul", { id: "notices", class: "notices", "aria-live": "polite" }),
      actions: h("div", { id: "actions", class: "actions" }),
      lobby: h("div", { class: "lobby-box" }),
      help: h("p", { class: "help", text: t("help.keys") }),
    };
    this.root.replaceChildren(
      h("section", { class: "match", "data-match": this.id },
        this.dom.top, h("div", { class: "board-wrap" }, svg), this.dom.bottom,
        this.dom.status, this.dom.actions, this.dom.notices, this.dom.lobby, this.dom.help),
    );
  }

  renderPlayers() {
    const s = this.state;
    const me = s.side.seat;
    const line = (seat, who) => {
      const pips = who === "you" ? s.pips.you : s.pips.opponent;
      const score = who === "you" ? s.score.you : s.score.opponent;
      const acting = s.to_act && s.to_act.seat === seat && s.status === "active";
      return [
        h("span", { class: `swatch ${seat === 0 ? "light" : "dark"}`, "aria-hidden": "true" }),
        h("strong", { class: "name", text: seatName(s, seat) }),
        rating(s.players[seat]),
        h("span", { class: "pips", text: t("match.pips", { n: pips }) }),
        h("span", { class: "score", "aria-label": t("match.score"), text: String(score) }),
        s.clock ? h("span", { class: "clock", "data-clock": who, role: "timer", "aria-label": t("clock.label", { name: seatName(s, seat) }) }) : null,
        acting ? h("span", { class: "acting", "aria-hidden": "true", text: "●" }) : null,
      ];
    };
    this.dom.top.replaceChildren(...line(1 - me, "opponent").filter(Boolean));
    this.dom.bottom.replaceChildren(...line(me, "you").filter(Boolean));
    this.dom.top.classList.toggle("to-act", s.to_act?.seat === 1 - me);
    this.dom.bottom.classList.toggle("to-act", s.to_act?.seat === me);
  }

  statusText() {
    const s = this.state;
    if (s.status === "waiting") return t("match.waiting");
    if (s.status === "aborted") return t("result.aborted");
    if (s.result) {
      const how = s.result.ended_by && s.result.ended_by !== "bearoff" ? " " + t("ended.by", { how: t(`ended.${s.result.ended_by}`) }) : "";
      if (!s.result.winner) return t("result.aborted");
      if (s.side.role === "player") return t(s.result.winner.who === "you" ? "result.won" : "result.lost") + how;
      return t("result.winner", { name: seatName(s, s.result.winner.seat) }) + how;
    }
    if (s.phase === "opening") return t("turn.opening");
    const acting = s.to_act ? s.to_act.seat : null;
    const name = acting === null ? "" : seatName(s, acting);
    const dice = s.dice ? s.dice.join("–") : "";
    const mine = s.side.role !== "spectator" && acting === s.side.seat && s.actions.length > 0;
    const cube = s.cube.value * 2;
    const points = s.resignation ? s.resignation.points : 0;
    if (mine && s.side.role === "player") {
      if (s.phase === "doubled") return t("turn.you.take", { n: cube });
      if (s.phase === "resigning") return t("turn.you.accept", { points });
      if (s.phase === "play") return t("turn.you.play", { dice });
      return t("turn.you.roll");
    }
    if (mine || s.side.role === "spectator") {
      if (s.phase === "doubled") return t("turn.seat.take", { name, n: cube });
      if (s.phase === "resigning") return t("turn.seat.accept", { name, points });
      if (s.phase === "play") return t("turn.seat.play", { name, dice });
      return t("turn.seat.roll", { name });
    }
    if (s.phase === "doubled") return t("turn.opponent.take", { name });
    if (s.phase === "resigning") return t("turn.opponent.accept", { name });
    return t("turn.opponent", { name });
  }

  renderStatus() {
    const s = this.state;
    let text = this.statusText();
    if (s.side.role === "spectator") text = t("match.spectating") + " " + text;
    const score = s.score.length ? t("match.score.to", { a: s.score.seats[0], b: s.score.seats[1], n: s.score.length })
      : t("match.score.money", { a: s.score.seats[0], b: s.score.seats[1] });
    const crawford = s.crawford.crawford_game ? " · " + t("match.crawford") : "";
    // it counts when the match is rated and both players are (registered players and bots)
    const counts = s.settings.rated && s.players.every((p) => p && (p.kind === "registered" || p.kind === "bot"));
    const rated = s.settings.mode === "online" && s.status !== "waiting" ? " · " + t(counts ? "match.rated" : "match.unrated") : "";
    this.dom.status.replaceChildren(
      h("span", { class: "what", text }),
      h("span", { class: "scoreline", text: `${seatName(s, 0)} – ${seatName(s, 1)}: ${score}${crawford}${rated}` }),
    );
    this.dom.status.dataset.phase = s.phase;
    this.dom.status.dataset.status = s.status;
  }

  renderActions() {
    const s = this.state;
    const a = new Set(s.actions);
    const btn = (name, label, onclick, extra = {}) =>
      h("button", { type: "button", "data-action": name, onclick, disabled: this.busy || extra.disabled, class: extra.primary ? "primary" : null }, label);
    const out = [];
    if (a.has("roll")) out.push(btn("roll", t("btn.roll"), () => this.act("roll"), { primary: true }));
    if (this.canPlay()) {
      out.push(btn("undo", t("btn.undo"), () => this.undo(), { disabled: !this.steps.length }));
      out.push(btn("confirm", t("btn.confirm"), () => this.confirm(), { primary: true, disabled: !(this.next && this.next.complete) }));
    }
    if (a.has("double")) out.push(btn("double", t("btn.double"), () => this.act("double")));
    if (a.has("take")) out.push(btn("take", t("btn.take"), () => this.act("take"), { primary: true }));
    if (a.has("drop")) out.push(btn("drop", t("btn.drop"), () => this.act("drop")));
    if (a.has("accept")) out.push(btn("accept", t("btn.accept"), () => this.act("accept"), { primary: true }));
    if (a.has("reject")) out.push(btn("reject", t("btn.reject"), () => this.act("reject")));
    if (a.has("resign")) {
      const nardy = s.settings.game === "long-nardy"; // oyn 1, mars 2; no backgammon
      const select = h("select", { "aria-label": t("resign.value"), "data-resign-value": "" },
        (nardy ? [1, 2] : [1, 2, 3]).map((v) => h("option", { value: String(v) }, t(nardy ? `resign.nardy.${v}` : `resign.${v}`))));
      out.push(h("span", { class: "resign" }, select,
        btn("resign", t("btn.resign"), () => this.act("resign", { value: Number(select.value) }))));
    }
    if (a.has("rematch")) out.push(btn("rematch", t("btn.rematch"), () => this.rematch(), { primary: true }));
    if (a.has("abort")) out.push(btn("abort", t("btn.abort"), () => this.act("abort")));
    if (s.status === "finished" || s.status === "aborted" || s.side.role === "spectator") {
      out.push(h("a", { href: "#/", class: "button", "data-action": "lobby" }, t("btn.lobby")));
    }
    this.dom.actions.replaceChildren(...out);

    // waiting for an opponent: the invite link; finished: the rematch on offer
    const box = [];
    if (s.status === "waiting" && s.lobby.invite_code) {
      const link = `${location.origin}${location.pathname}#/invite/${s.lobby.invite_code}`;
      const input = h("input", { id: "invite-link", readonly: true, value: link, "aria-label": t("match.invite") });
      box.push(h("label", {}, t("match.invite")), input,
        h("button", { type: "button", onclick: async (e) => {
          input.select();
          try { await navigator.clipboard.writeText(link); e.target.textContent = t("match.copied"); } catch { /* selected: copy by hand */ }
        } }, t("match.copy")));
    }
    if (s.lobby.rematch && s.status !== "active") {
      const other = s.players[1 - s.side.seat];
      box.push(h("span", { "data-rematch-offered": s.lobby.rematch, text: t("rematch.offered", { name: other ? seatName(s, other.seat) : "" }) }));
    }
    this.dom.lobby.replaceChildren(...box);
  }

  renderNotices() {
    if (!this.dom) return;
    this.dom.notices.replaceChildren(...this.notices.map((n) => h("li", { text: n })));
  }

  /** The clocks count down from the server's time: the running side's delay, then reserve. */
  tick() {
    const s = this.state;
    if (!s || !s.clock || !this.dom) return;
    const elapsed = (performance.now() - this.receivedAt) / 1000;
    for (const who of ["you", "opponent"]) {
      const node = this.root.querySelector(`[data-clock="${who}"]`);
      if (!node) continue;
      const c = s.clock[who];
      let delay = c.delay;
      let reserve = c.reserve;
      const running = s.clock.running && s.clock.running.who === who;
      if (running) {
        delay = Math.max(0, c.delay - elapsed);
        reserve = Math.max(0, c.reserve - Math.max(0, elapsed - c.delay));
        if (s.clock.deadline) {
          const left = (Date.parse(s.clock.deadline) - (Date.now() + this.clockOffset)) / 1000;
          if (left < delay + reserve) {
            reserve = Math.max(0, left - delay);
            if (left < delay) delay = Math.max(0, left);
          }
        }
      }
      node.textContent = `${fmt(reserve)}${running && delay > 0 ? " " + t("clock.delay.short", { n: Math.ceil(delay) }) : ""}`;
      node.classList.toggle("running", running);
      node.classList.toggle("low", running && delay <= 0 && reserve < 10);
    }
  }
}
