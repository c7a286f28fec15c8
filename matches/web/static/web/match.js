// The match screen: the state from the API, the player's partial play (one checker at a time
// with legal-next-steps, each step undoable until he confirms), the actions the state allows,
// the clocks, and the match's events arriving through stream.js.

import * as api from "./api.js";
import { drawBoard, fly, listen, topOf } from "./board.js";
import { checkers, games, kindName, otherSide, pick, winName } from "./games.js";
import { t, tn } from "./i18n.js";
import { buildRecord } from "./record.js";
import { change, play, settings, stepTime, SPEEDS } from "./settings.js";
import { watch } from "./stream.js";
import { connection, h, showError } from "./ui.js";

const pointName = (p) => (p === 25 ? "bar" : p === 0 ? "off" : String(p));

/** Notation of single-die steps, for legal-next-steps (`bar/22*`, `6/off`). */
export function notation(steps) {
  return steps.map((s) => `${pointName(s.from)}/${pointName(s.to)}${s.hit ? "*" : ""}`).join(" ");
}

/** The boards of the plays after `version`, each step's from `seat`'s side (GET
 * /matches/{id}/boards): the page draws the server's boards and never applies steps itself. */
export async function playBoards(id, version, seat) {
  const body = await api.get(`/matches/${id}/boards?after=${version}&seat=${seat}`);
  return new Map(body.plays.map((p) => [p.seq, p.boards]));
}

/** A point of `seat`'s numbering in the numbering of the board shown from `view`, in the
 * game `g` (its facts: the direction the sides travel). */
export function pointFor(p, seat, view, g) {
  return seat === view ? p : otherSide(p, g);
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

// ms kept in hand: a pushed state may have travelled (or waited) that long, and a move needs
// its own trip to reach the server before the deadline
const CLOCK_MARGIN = 600;

// whole seconds left, rounded down: "0:06" while 6.8 s are left
const fmt = (seconds) => {
  const s = Math.max(0, Math.floor(seconds + 1e-6));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const allDice = (d) => (d[0] === d[1] ? [d[0], d[0], d[0], d[0]] : [...d]);
const ANIMATED = new Set(["opening_roll", "rolled", "moved", "passed"]);
const BETWEEN = new Set(["rolled", "moved", "passed", "cube_offered", "cube_taken", "resign_rejected"]);

/**
 * What a player has for the running move, from the state's clock: the free delay left, then
 * the reserve, and the move's cap (`deadline`, the server's rule: start + min(delay + reserve,
 * max_move)) when it ends the move first. `elapsed` seconds since the state was read, `left`
 * seconds to the deadline by the server's time. Never more than the deadline allows.
 */
export function clockShown(c, elapsed, left) {
  const delay = Math.max(0, c.delay - elapsed);
  const reserve = Math.max(0, c.reserve - Math.max(0, elapsed - c.delay));
  if (left === null || left >= delay + reserve - 0.05) return { delay, reserve, capped: false, total: delay + reserve };
  const total = Math.max(0, left);
  return { delay: Math.min(delay, total), reserve: Math.max(0, total - delay), capped: true, total, reserveLeft: reserve };
}

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
    this.notices = []; // {key, params, ttl}: re-worded in the page's language when it changes
    this.passes = 0; // forced passes announced (the server passes a roll that cannot move)
    this.refreshing = null;
    this.refreshAgain = false;
    this.receivedAt = 0;
    this.stopped = false;
    this.generation = 0;
    this.log = []; // every event of the match, in order (the move list)
    this.queue = []; // the other side's events still to be shown on the board
    this.anim = null; // the board while they are shown
    this.last = null; // the other side's last play: {seat, steps}
    this.chain = Promise.resolve();
    this.confirming = null; // "resign" | "abort" while the player is asked
    this.results = null; // game results already announced
    this.lowWarned = null;
  }

  async start() {
    this.root.replaceChildren(h("p", { class: "loading", text: t("loading") }));
    const primed = api.primed.get(this.id);
    api.primed.delete(this.id);
    const [state, past, all] = await Promise.all([
      primed || api.get(`/matches/${this.id}`),
      api.get(`/matches/${this.id}/events?after=0`).catch(() => ({ events: [] })),
      games(),
    ]);
    this.facts = pick(all, state.settings.game); // the game's facts (GET /rules/games)
    this.log = past.events.filter((e) => e.seq <= state.version);
    this.results = state.games.length;
    this.markLast(this.log, state);
    const opening = [...this.log].reverse().find((e) => e.type === "opening_roll");
    const plays = opening ? this.log.filter((e) => e.seq > opening.seq && (e.type === "moved" || e.type === "passed")).length : 9;
    if (opening && plays < 2) this.openingNotice(opening, state);
    await this.setState(state);
    this.streamSeq = state.version;
    this.streamCount = 0;
    this.streamGaps = 0;
    this.stream = watch(this.id, state.version, {
      onEvents: (events) => this.onEvents(events),
      onState: (pushed) => this.pushed(pushed),
      onTransport: () => this.render(),
      onConnection: (ok) => {
        connection(ok);
        if (ok) this.refresh();
      },
      onFatal: (err) => showError(api.friendly(err)),
    });
    this.render();
    if (state.settings.mode === "online") this.loadChat();
    this.ticker = setInterval(() => this.tick(), 250);
    this.onKey = (e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
  }

  async loadChat() {
    const { chatPanel } = await import("./chat.js");
    if (this.stopped) return;
    this.chat = await chatPanel(this);
    if (this.stopped) return this.chat.stop();
    if (this.dom) this.dom.chat.replaceChildren(this.chat.node);
    this.render();
  }

  stop() {
    this.stopped = true;
    if (this.chat) this.chat.stop();
    if (this.stream) this.stream.stop();
    clearInterval(this.ticker);
    document.removeEventListener("keydown", this.onKey);
    connection(true);
  }

  mine(seat) {
    return this.state && this.state.side.role !== "spectator" && this.state.side.seats.includes(seat);
  }

  // -- state -------------------------------------------------------------------------------

  onEvents(events) {
    // what the stream delivered, on the page for the tests: no seq twice, none skipped
    for (const e of events) {
      if (e.seq !== this.streamSeq + 1) this.streamGaps += 1;
      this.streamSeq = e.seq;
      this.streamCount += 1;
    }
    const known = this.log.length ? this.log[this.log.length - 1].seq : 0;
    const fresh = events.filter((e) => e.seq > known);
    this.log.push(...fresh);
    if (this.dom) this.root.querySelector("section.match").dataset.stream = `${this.streamSeq} ${this.streamCount} ${this.streamGaps}`;
    for (const e of fresh) {
      const late = this.state && e.seq <= this.state.version; // its state is already shown
      if (e.type === "moved" && (late || this.state?.side.role === "hotseat")) this.last = { seat: e.data.seat, steps: e.data.steps };
      if (late && (e.type === "passed" || e.type === "opening_roll")) this.eventNotice(e);
      // the other side's dice and checkers are shown on the board before its new position
      else if (late) { /* nothing to show: the board has it */ }
      else if (ANIMATED.has(e.type) && !(e.type !== "opening_roll" && this.mine(e.data.seat))) this.queue.push(e);
      else if (e.type === "passed" || e.type === "opening_roll") this.eventNotice(e);
      if (e.type === "moved" && this.mine(e.data.seat) && this.state.side.role === "player") this.last = null;
      if (e.type === "resign_rejected") this.notice("notice.rejected", {});
      if (e.type === "marked_unrated") this.notice("notice.unrated", {}, 99);
      if (e.type === "moved" || e.type === "passed") this.age();
    }
    this.renderLog();
    const held = this.held;
    if (held && this.log.length && this.log[this.log.length - 1].seq >= held.version) {
      this.held = null;
      clearTimeout(this.heldTimer);
      this.setState(held);
    }
    // the socket brings the state after the events; the long-poll only the events
    const top = events[events.length - 1].seq;
    if (this.stream.transport() === "poll" && (!this.state || top > this.state.version)) this.refresh();
  }

  name(seat, state = this.state) {
    return state ? seatName(state, seat) : "";
  }

  eventNotice(e, state = this.state) {
    if (e.type === "passed") {
      const rolled = [...this.log].reverse().find((x) => x.type === "rolled" && x.seq < e.seq);
      this.passes += 1;
      this.notice("notice.passed", { seat: e.data.seat, dice: rolled ? rolled.data.dice.join("–") : "" });
    }
    if (e.type === "opening_roll") this.openingNotice(e, state);
  }

  openingNotice(e, state) {
    const [a, b] = [e.data.die0, e.data.die1];
    if (a === b) this.notice("notice.opening.tie", { n: a }, 1);
    else this.notice("notice.opening", { a, b, seat: a > b ? 0 : 1 }, 2, state);
  }

  /** Notices say their words when drawn (the language may change); `ttl` plays they stay. */
  notice(key, params, ttl = 2) {
    this.notices = [...this.notices.filter((n) => n.key !== key).slice(-2), { key, params, ttl }];
    this.renderNotices();
  }

  age() {
    this.notices = this.notices.map((n) => ({ ...n, ttl: n.ttl - 1 })).filter((n) => n.ttl > 0);
    if (this.result) this.result.ttl -= 1;
    if (this.result && this.result.ttl <= 0) this.result = null;
  }

  markLast(events, state) {
    const lastMove = [...events].reverse().find((e) => e.type === "moved" || e.type === "passed");
    const other = lastMove && (state.side.role !== "player" || !state.side.seats.includes(lastMove.data.seat));
    this.last = other && lastMove.type === "moved" ? { seat: lastMove.data.seat, steps: lastMove.data.steps } : null;
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
        if (!(err instanceof api.NetworkError)) showError(api.friendly(err));
      } finally {
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }

  /** A pushed state may be newer than the events pushed so far (the server reads it after
   * the batch): it waits for them, so the plays between are drawn first (1.5 s at most). */
  pushed(state) {
    const seen = this.log.length ? this.log[this.log.length - 1].seq : 0;
    if (state.version <= seen) return this.setState(state).catch((err) => showError(api.friendly(err)));
    if (this.held && this.held.version >= state.version) return;
    this.held = state;
    clearTimeout(this.heldTimer);
    this.heldTimer = setTimeout(() => {
      if (this.held === state) {
        this.held = null;
        this.setState(state);
      }
    }, 1500);
  }

  /** States are taken one after the other: the other side's play is shown before the next. */
  setState(state) {
    this.chain = this.chain.then(() => this.takeState(state));
    return this.chain;
  }

  async takeState(state) {
    if (this.stopped) return;
    if (this.state && state.version < this.state.version) return;
    const before = this.state;
    const moved = !before || state.version !== before.version || state.side.seat !== before.side.seat;
    const shown = this.queue.filter((e) => e.seq <= state.version);
    this.queue = this.queue.filter((e) => e.seq > state.version);
    // the plays between the position on screen and the first to show (the page's own, whose
    // answer a push overtook) are put on the board first
    const gap = before && shown.length ? this.log.filter((e) => e.seq > before.version && e.seq < shown[0].seq) : [];
    let drawn = before && shown.length && gap.every((e) => BETWEEN.has(e.type));
    // the server's boards of those plays, step by step (the page applies no step itself)
    let boards = new Map();
    const ownSide = drawn && state.side.seat === before.side.seat && before.side.role !== "hotseat";
    if (ownSide && [...gap, ...shown].some((e) => e.type === "moved")) {
      try {
        boards = await playBoards(this.id, before.version, before.side.seat);
      } catch {
        drawn = false; // the new position is shown as it is
      }
      if (this.stopped) return;
    }
    // the page has it (the tests time the arrival by this): shown after the other side's play
    this.arrived = Math.max(this.arrived || 0, state.version);
    if (this.dom) this.dom.section.dataset.version = String(this.arrived);
    if (drawn) await this.animate(before, state, shown, gap, boards);
    else if (shown.length) {
      // not from the position on screen (a state crossed them): the notices and the mark only
      for (const e of shown) if (e.type === "passed" || e.type === "opening_roll") this.eventNotice(e, state);
      const m = shown.filter((e) => e.type === "moved").pop();
      if (m) this.last = { seat: m.data.seat, steps: m.data.steps };
    }
    this.state = state;
    this.receivedAt = performance.now();
    // the server's time less ours, as a state says it: never more than the truth (it was
    // stamped before it travelled), so the largest seen is the nearest
    if (state.clock) this.clockOffset = Math.max(this.clockOffset ?? -Infinity, Date.parse(state.clock.now) - Date.now());
    if (this.results !== null && state.games.length > this.results) {
      const g = state.games[state.games.length - 1];
      this.result = { game: g, ttl: 3 };
    }
    this.results = state.games.length;
    if (moved) {
      // the same version may arrive twice (the command's answer and the socket's push):
      // only a newer one makes the legal steps asked here stale
      const generation = ++this.generation;
      this.steps = [];
      this.history = [];
      this.selected = null;
      this.next = null;
      this.lowWarned = null;
      const myTurn = state.status === "active" && state.side.role === "player" && state.to_act?.who === "you" && state.actions.length;
      if (myTurn && before && before.to_act?.who !== "you") play("turn");
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
    this.autoRoll();
  }

  /** The other side's dice and each of its checkers along its path, then the new position. */
  async animate(before, after, events, gap, boards) {
    const ms = stepTime();
    const view = before.side.seat;
    const g = this.facts;
    if (after.side.seat !== view || before.side.role === "hotseat") {
      // hot-seat: the players' own clicks; only the opening roll to announce
      for (const e of events) if (e.type === "opening_roll" || e.type === "passed") this.eventNotice(e, after);
      return;
    }
    this.anim = { board: before.board, dice: null, used: null, side: before.turn?.who || "you" };
    for (const e of gap) if (e.type === "moved" && boards.has(e.seq)) this.anim.board = boards.get(e.seq).at(-1);
    this.render(); // the page says a play is being drawn (data-animating), the controls wait
    for (const e of events) {
      if (this.stopped) return;
      const d = e.data;
      const who = d.seat === view ? "you" : "opponent";
      if (e.type === "opening_roll") {
        this.anim = { ...this.anim, rolled: [d.die0, d.die1], steps: [], dice: [d.die0, d.die1], used: [false, false], side: d.die0 > d.die1 === (view === 0) ? "you" : "opponent" };
        this.eventNotice(e, after);
        play("dice");
        this.render();
        if (ms) await sleep(ms * 2);
        continue;
      }
      if (e.type === "rolled") {
        this.anim = { ...this.anim, rolled: d.dice, steps: [], dice: allDice(d.dice), used: allDice(d.dice).map(() => false), side: who };
        play("dice");
        this.render();
        if (ms) await sleep(ms * 2.5);
        continue;
      }
      if (e.type === "passed") {
        this.eventNotice(e, after);
        this.render();
        if (ms) await sleep(ms * 3);
        continue;
      }
      // moved: one step after the other, each checker sliding from where it was
      const colors = { you: view === 0 ? "light" : "dark", opponent: view === 0 ? "dark" : "light" };
      const drawn = boards.get(e.seq) || [];
      for (const [i, [f, to, hit]] of d.steps.entries()) {
        const step = { from: pointFor(f, d.seat, view, g), to: pointFor(to, d.seat, view, g), hit: !!hit };
        const svg = this.dom.svg;
        const start = topOf(svg, step.from === 25 ? { bar: who } : { point: step.from });
        const victim = step.hit ? topOf(svg, { point: step.to }) : null;
        if (drawn[i]) this.anim.board = drawn[i];
        if (this.anim.rolled) {
          this.anim.steps.push(step);
          this.anim.used = usedDice(this.anim.rolled, this.anim.steps).used;
        }
        this.renderBoard();
        play("checker");
        const end = step.to === 0 ? { off: colors[who] } : { point: step.to };
        await fly(svg, end, start, ms);
        if (victim) await fly(svg, { bar: who === "you" ? "opponent" : "you" }, victim, ms);
        if (ms) await sleep(ms / 3);
      }
      this.last = { seat: d.seat, steps: d.steps };
      if (ms) await sleep(ms);
    }
    this.anim = null;
  }

  canPlay() {
    const s = this.state;
    return s && !this.anim && s.actions.includes("play") && s.side.seat === s.to_act?.seat;
  }

  autoRoll() {
    const s = this.state;
    if (!settings().autoRoll || this.busy || this.anim || !s || s.side.role === "spectator") return;
    if (s.actions.includes("roll") && !s.actions.includes("double") && this.autoRolled !== s.version) {
      this.autoRolled = s.version;
      this.act("roll");
    }
  }

  // -- the partial play ---------------------------------------------------------------------

  sources() {
    if (!this.next || this.anim) return [];
    return [...new Set(this.next.next_steps.map((s) => s.from))];
  }

  targets() {
    if (!this.next || this.selected === null) return [];
    return this.next.next_steps.filter((s) => s.from === this.selected);
  }

  async onSpot(point) {
    if (this.busy || !this.next || this.anim) return;
    const target = this.targets().find((s) => s.to === point);
    if (target) return this.step(target);
    if (this.sources().includes(point)) {
      this.selected = this.selected === point ? null : point;
      this.render();
    }
  }

  async onDrag(from, to) {
    if (this.busy || !this.next || this.anim) return;
    const step = this.next.next_steps.find((s) => s.from === from && s.to === to);
    if (step) return this.step(step);
    this.selected = this.sources().includes(from) ? from : null;
    this.render();
  }

  async step(step) {
    const onBoard = document.activeElement === document.body || this.dom.svg.contains(document.activeElement);
    this.busy = true;
    this.render();
    const version = this.state.version;
    let sent = false;
    try {
      const steps = [...this.steps, step];
      const next = await api.get(`/matches/${this.id}/legal-next-steps?steps=${encodeURIComponent(notation(steps))}`);
      if (this.state.version !== version) return;
      this.history.push(this.next);
      this.steps = steps;
      this.next = next;
      this.selected = null;
      play("checker");
      // one-click play: sent when its last die is used; auto-pass: when no die is left to play
      const done = next.complete && !next.next_steps.length;
      const dice = this.state.dice ? allDice(this.state.dice).length : 0;
      if (done && (settings().oneClick || (settings().autoPass && steps.length < dice))) sent = true;
    } catch (err) {
      showError(api.friendly(err));
    } finally {
      this.busy = false;
      this.render();
    }
    if (sent) return this.confirm();
    if (onBoard) {
      // the keyboard stays on the board: the next checker that may move
      const spot = this.dom.svg.querySelector(".spot.target, .spot.source");
      if (spot) spot.focus();
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
    this.confirming = null;
    this.render();
    if (action === "roll") play("dice");
    try {
      const state = await api.post(`/matches/${this.id}/${action}`, { expected_version: this.state.version, ...body });
      this.busy = false;
      await this.setState(state);
    } catch (err) {
      this.busy = false;
      showError(api.friendly(err));
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
      showError(api.friendly(err));
    }
  }

  key(e) {
    if (e.target && ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
    if ((e.key === "u" || e.key === "U") && this.steps.length && !settings().oneClick) {
      e.preventDefault();
      this.undo();
    }
  }

  // -- drawing -----------------------------------------------------------------------------

  render() {
    if (this.stopped || !this.state) return;
    const s = this.state;
    if (!this.dom) this.build();
    this.renderBoard();
    const section = this.dom.section;
    section.dataset.version = String(Math.max(s.version, this.arrived || 0));
    section.dataset.shown = String(s.version);
    section.dataset.status = s.status;
    section.dataset.steps = String(this.steps.length);
    section.dataset.passes = String(this.passes);
    section.dataset.transport = this.stream ? this.stream.transport() : "";
    section.dataset.stream = `${this.streamSeq} ${this.streamCount} ${this.streamGaps}`;
    section.dataset.toAct = s.to_act && s.status === "active" ? s.to_act.who : "";
    section.dataset.animating = this.anim ? "true" : "";
    section.classList.toggle("waiting", s.status === "waiting");
    this.renderPlayers();
    this.renderStatus();
    this.renderActions();
    this.renderNotices();
    this.renderLog();
    if (this.chat) this.chat.update();
    this.tick();
  }

  /** Hot-seat keeps one orientation (seat 0's) unless the player asks it to turn. */
  turned() {
    const s = this.state;
    return s.side.role === "hotseat" && !settings().turnBoard && s.side.seat === 1;
  }

  renderBoard() {
    const s = this.state;
    const me = s.side.seat;
    const colors = { you: me === 0 ? "light" : "dark", opponent: me === 0 ? "dark" : "light" };
    const a = this.anim;
    const board = a ? a.board : this.steps.length && this.next ? this.next.board : s.board; // the server's, after the steps
    let dice = null;
    let used = null;
    if (a) {
      dice = a.dice;
      used = a.used;
    } else if (s.dice) {
      const u = usedDice(s.dice, this.steps);
      dice = u.all;
      used = u.used;
    }
    const selectedTargets = this.targets();
    const targetPoints = new Set(selectedTargets.map((x) => x.to));
    const g = this.facts;
    const last = this.last && !this.steps.length
      ? this.last.steps.map(([f, to]) => [pointFor(f, this.last.seat, me, g), pointFor(to, this.last.seat, me, g)]) : null;
    drawBoard(this.dom.svg, {
      facts: g,
      board,
      colors,
      dice,
      used,
      diceSide: a ? a.side : s.turn?.who === "you" ? "you" : "opponent",
      cube: s.cube,
      sources: this.busy ? [] : this.sources().filter((p) => !targetPoints.has(p)),
      selected: this.selected,
      targets: this.busy ? [] : selectedTargets,
      name: seatName(s, me),
      turned: this.turned(),
      last,
    });
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
      result: h("div", { id: "game-result", class: "game-result", role: "status", "aria-live": "polite", hidden: true }),
      actions: h("div", { id: "actions", class: "actions" }),
      lobby: h("div", { class: "lobby-box" }),
      log: h("div", { id: "move-list", class: "move-list", tabindex: "0", "aria-label": t("log.title") }),
      settings: this.settingsBox(),
      help: h("p", { class: "help", text: t("help.keys") }),
      chat: h("div", { class: "chat-slot" }, this.chat ? this.chat.node : null),
    };
    if (this.chat) this.chat.relabel();
    this.dom.section = h("section", { class: "match", "data-match": this.id },
      h("div", { class: "play" },
        this.dom.lobby, this.dom.top, h("div", { class: "board-wrap" }, svg, this.dom.result), this.dom.bottom,
        this.dom.actions, this.dom.status),
      h("aside", { class: "side" },
        this.dom.notices, this.dom.chat,
        h("h2", { class: "log-title", text: t("log.title") }), this.dom.log,
        h("a", { href: `#/record/${this.id}`, "data-action": "record" }, t("record.link")),
        this.dom.settings, this.dom.help));
    this.root.replaceChildren(this.dom.section);
  }

  settingsBox() {
    const s = settings();
    const check = (name) => h("label", { class: "check" },
      h("input", { type: "checkbox", "data-setting": name, checked: s[name], onchange: (e) => { change(name, e.target.checked); this.render(); this.autoRoll(); } }),
      " ", t(`set.${name}`));
    const speed = h("select", { "data-setting": "speed", onchange: (e) => change("speed", e.target.value) },
      Object.keys(SPEEDS).map((k) => h("option", { value: k, selected: s.speed === k }, t(`set.speed.${k}`))));
    return h("details", { class: "settings", id: "settings" }, h("summary", { text: t("set.title") }),
      check("autoRoll"), check("autoPass"), check("oneClick"), check("sound"), check("turnBoard"),
      h("label", { class: "field" }, h("span", { text: t("set.speed") }), speed));
  }

  renderPlayers() {
    const s = this.state;
    const me = s.side.seat;
    const pips = this.anim ? null : this.steps.length && this.next ? this.next.pips : s.pips;
    const line = (seat, who) => {
      const score = who === "you" ? s.score.you : s.score.opponent;
      const acting = s.to_act && s.to_act.seat === seat && s.status === "active";
      return [
        h("span", { class: `swatch ${seat === 0 ? "light" : "dark"}`, "aria-hidden": "true" }),
        h("strong", { class: "name", text: seatName(s, seat), ...this.nameAttrs(s.players[seat]) }),
        rating(s.players[seat]),
        h("span", { class: "pips", text: t("match.pips", { n: pips ? pips[who] : "…" }) }),
        h("span", { class: "score", "aria-label": t("match.score"), text: String(score) }),
        s.clock ? h("span", { class: "clock", "data-clock": who, role: "timer", "aria-label": t("clock.label", { name: seatName(s, seat) }) }) : null,
        acting ? h("span", { class: "acting", "aria-hidden": "true", text: "●" }) : null,
      ];
    };
    // hot-seat turned to one side: seat 0 stays near
    const [near, far] = this.turned() ? [[1 - me, "opponent"], [me, "you"]] : [[me, "you"], [1 - me, "opponent"]];
    this.dom.top.replaceChildren(...line(...far).filter(Boolean));
    this.dom.bottom.replaceChildren(...line(...near).filter(Boolean));
    this.dom.top.classList.toggle("to-act", s.to_act?.seat === far[0]);
    this.dom.bottom.classList.toggle("to-act", s.to_act?.seat === near[0]);
  }

  /** A registered player's name opens his menu (chat.js). */
  nameAttrs(p) {
    return p && p.kind === "registered" && this.chat ? { "data-player": p.username, role: "button", tabindex: "0", dir: "auto" } : {};
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
    if (this.anim) return t("turn.showing", { name: seatName(s, s.turn ? s.turn.seat : 0) });
    if (s.phase === "opening") return t("turn.opening");
    const acting = s.to_act ? s.to_act.seat : null;
    const name = acting === null ? "" : seatName(s, acting);
    const dice = s.dice ? s.dice.join("–") : "";
    const mine = s.side.role !== "spectator" && acting === s.side.seat && s.actions.length > 0;
    const cube = s.cube.value * 2;
    const points = s.resignation ? s.resignation.points : 0;
    if (mine && s.side.role === "player") {
      if (s.phase === "doubled") return t("turn.you.take", { n: cube });
      if (s.phase === "resigning") return t("turn.you.accept", { points: tn("points", points) });
      if (s.phase === "play") return t("turn.you.play", { dice });
      return t("turn.you.roll");
    }
    if (mine || s.side.role === "spectator") {
      if (s.phase === "doubled") return t("turn.seat.take", { name, n: cube });
      if (s.phase === "resigning") return t("turn.seat.accept", { name, points: tn("points", points) });
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
    // the game just ended: who won how many points, and how
    const r = this.result;
    this.dom.result.hidden = !r;
    if (r) {
      const g = r.game;
      const winner = g.winner.seat;
      const kind = kindName(this.facts, g.kind); // single, gammon, ... in the game's words
      const how = g.ended_by && g.ended_by !== "bearoff" ? " " + t("ended.by", { how: t(`ended.${g.ended_by}`) }) : "";
      this.dom.result.dataset.winner = String(winner);
      this.dom.result.dataset.points = String(g.points);
      this.dom.result.replaceChildren(
        h("strong", { text: t("result.game", { n: g.number, name: seatName(s, winner), points: tn("points", g.points), kind }) + how }),
        h("span", { class: "small", text: t("result.score", { a: s.score.seats[0], b: s.score.seats[1] }) }),
        h("button", { type: "button", "data-action": "continue", onclick: () => { this.result = null; this.render(); } }, t("btn.continue")));
    }
  }

  renderActions() {
    const s = this.state;
    const a = new Set(this.anim ? [] : s.actions);
    const btn = (name, label, onclick, extra = {}) =>
      h("button", { type: "button", "data-action": name, onclick, disabled: this.busy || extra.disabled, class: extra.primary ? "primary" : extra.danger ? "danger" : null }, label);
    const out = [];
    const game = a.has("resign");
    if (this.confirming === "resign" && (game || a.has("resign-match"))) {
      // resigning: the game at a price (the cube's value counts) or the whole match, or keep playing
      const values = game ? this.facts.resign_values : [];
      const select = h("select", { "aria-label": t("resign.value"), "data-resign-value": "" },
        values.map((v) => h("option", { value: String(v), selected: String(v) === this.resignValue },
          `${winName(this.facts, v, "resign")}: ${tn("points", v * s.cube.value)}`)),
        a.has("resign-match") ? h("option", { value: "match", selected: this.resignValue === "match" }, t("resign.match")) : null);
      select.addEventListener("change", () => (this.resignValue = select.value));
      const ask = t(game ? "resign.ask" : "resign.askMatch");
      out.push(h("span", { class: "confirm", role: "group", "aria-label": ask }, h("span", { text: ask }), select,
        btn("resign-confirm", t("btn.resign.confirm"), () => select.value === "match" ? this.act("resign-match") : this.act("resign", { value: Number(select.value) }), { danger: true }),
        btn("cancel", t("cancel"), () => { this.confirming = null; this.render(); })));
      this.dom.actions.replaceChildren(...out);
      this.dom.lobby.replaceChildren();
      return;
    }
    if (this.confirming === "abort" && a.has("abort")) {
      out.push(h("span", { class: "confirm", role: "group", "aria-label": t("abort.ask") },
        h("span", { text: t("abort.ask") }),
        btn("abort-confirm", t("btn.abort"), () => this.act("abort"), { danger: true }),
        btn("cancel", t("cancel"), () => { this.confirming = null; this.render(); })));
      this.dom.actions.replaceChildren(...out);
      return;
    }
    if (a.has("roll")) out.push(btn("roll", t("btn.roll"), () => this.act("roll"), { primary: true }));
    if (this.canPlay()) {
      if (!settings().oneClick) out.push(btn("undo", t("btn.undo"), () => this.undo(), { disabled: !this.steps.length }));
      out.push(btn("confirm", t("btn.confirm"), () => this.confirm(), { primary: true, disabled: !(this.next && this.next.complete) }));
    }
    if (a.has("double")) out.push(btn("double", t("btn.double"), () => this.act("double")));
    if (a.has("take")) out.push(btn("take", t("btn.take"), () => this.act("take"), { primary: true }));
    if (a.has("drop")) out.push(btn("drop", t("btn.drop"), () => this.act("drop")));
    if (a.has("accept")) out.push(btn("accept", t("btn.accept"), () => this.act("accept"), { primary: true }));
    if (a.has("reject")) out.push(btn("reject", t("btn.reject"), () => this.act("reject")));
    if (a.has("rematch")) out.push(btn("rematch", t("btn.rematch"), () => this.rematch(), { primary: true }));
    if (s.status === "finished" || s.status === "aborted" || s.side.role === "spectator") {
      out.push(h("a", { href: "#/", class: "button", "data-action": "lobby" }, t("btn.lobby")));
    }
    // the ones that end things sit apart, and ask first
    const apart = [];
    if (a.has("resign") || a.has("resign-match")) apart.push(btn("resign", t("btn.resign"), () => { this.confirming = "resign"; this.resignValue = "1"; this.render(); }));
    if (a.has("abort")) apart.push(btn("abort", t("btn.abort"), () => { this.confirming = "abort"; this.render(); }));
    if (apart.length) out.push(h("span", { class: "apart" }, apart));
    this.dom.actions.replaceChildren(...out);
    if (s.settings.hints && this.canPlay()) import("./hint.js").then((m) => m.offer(this)); // docs/analysis.md

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
    this.dom.notices.replaceChildren(...this.notices.map((n) => {
      const p = { ...n.params };
      if ("seat" in p) p.name = this.name(p.seat);
      if (n.key === "notice.opening") {
        p.a = `${this.name(0)} ${n.params.a}`;
        p.b = `${this.name(1)} ${n.params.b}`;
      }
      return h("li", { "data-notice": n.key, text: t(n.key, p) });
    }));
  }

  /** The move list: each game, its opening roll, numbered turns of both seats. */
  renderLog() {
    if (!this.dom || !this.state) return;
    const s = this.state;
    const games = buildRecord(this.log, checkers(this.facts));
    const cell = (c) => h("td", c ? { "data-seq": String(c.seq), text: c.text } : {});
    const out = games.map((g) => {
      const r = s.games.find((x) => x.number === g.number);
      return h("table", { class: "log", "data-game": String(g.number) },
        h("caption", { text: t("log.game", { n: g.number }) + (g.opening ? ` · ${t("log.opening", { a: g.opening[0], b: g.opening[1] })}` : "") }),
        h("thead", {}, h("tr", {}, h("th", { scope: "col", text: "" }), h("th", { scope: "col", text: seatName(s, 0) }), h("th", { scope: "col", text: seatName(s, 1) }))),
        h("tbody", {}, g.rows.map((row, i) => h("tr", {}, h("th", { scope: "row", text: `${i + 1}` }), cell(row[0]), cell(row[1])))),
        r ? h("tfoot", {}, h("tr", {}, h("td", { colspan: "3", class: "log-result",
          text: t("result.game.short", { name: seatName(s, r.winner.seat), points: tn("points", r.points) }) }))) : null);
    });
    this.dom.log.replaceChildren(...(out.length ? out : [h("p", { class: "small", text: t("log.none") })]));
    this.dom.log.scrollTop = this.dom.log.scrollHeight;
  }

  /** The clocks count down from the server's time: the delay, then the reserve, and the
   * move's cap when it comes first; the running one is red from 10 s, with a sound once. */
  tick() {
    const s = this.state;
    if (!s || !s.clock || !this.dom) return;
    // the server's time now, a little ahead (the time a move takes to reach it): never more
    // on a clock than the server allows
    const now = Date.now() + (this.clockOffset || 0) + CLOCK_MARGIN;
    const elapsed = Math.max(0, (now - Date.parse(s.clock.now)) / 1000);
    for (const who of ["you", "opponent"]) {
      const node = this.root.querySelector(`[data-clock="${who}"]`);
      if (!node) continue;
      const c = s.clock[who];
      const running = !!(s.clock.running && s.clock.running.who === who && s.status === "active");
      let shown = { delay: c.delay, reserve: c.reserve, capped: false, total: c.delay + c.reserve };
      if (running) {
        const left = s.clock.deadline ? (Date.parse(s.clock.deadline) - now) / 1000 : null;
        shown = clockShown(c, elapsed, left);
      }
      let text = fmt(shown.reserve);
      if (running && shown.capped) text = t("clock.move", { time: fmt(shown.total) });
      else if (running && shown.delay > 0) text += " " + t("clock.delay.short", { n: Math.ceil(shown.delay) });
      node.textContent = text;
      node.dataset.left = running ? shown.total.toFixed(2) : "";
      node.title = running && shown.capped ? t("clock.capped", { reserve: fmt(shown.reserveLeft) }) : "";
      const low = running && shown.total <= 10;
      node.classList.toggle("running", running);
      node.classList.toggle("low", low);
      if (low && who === "you" && s.side.role === "player" && this.lowWarned !== s.version) {
        this.lowWarned = s.version;
        play("low");
      }
    }
  }
}
