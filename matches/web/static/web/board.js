// The board as SVG from the player's side: his 1 bottom right, 24 top right, the bar in the
// middle, the tray on the right. From the game's facts (games.js) and the board: no bar, the
// heads marked, no cube, arrows for one direction of travel when so. It draws and reports
// gestures on highlighted spots; the match screen decides what they mean.

import { gameLabel, otherSide } from "./games.js";
import { t } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";
const M = 10; // frame
const PW = 40; // point width
const BAR = 40;
const OFF_GAP = 6;
const OFF = 44;
const LABEL = 22;
const R = 19; // checker radius
const PH = 190; // point height
const MID_GAP = 60;
export const W = M + 12 * PW + BAR + OFF_GAP + OFF + M;
export const H = 2 * LABEL + 2 * (PH + 10) + MID_GAP;
const Y0 = LABEL;
const Y1 = H - LABEL;
const MID = (Y0 + Y1) / 2;
const BAR_X = M + 6 * PW;
const OFF_X = M + 12 * PW + BAR + OFF_GAP;
const PIPS = {
  1: [[0, 0]],
  2: [[-1, -1], [1, 1]],
  3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

/** Column 0..11 from the left, and whether the point is on the top row. */
function place(point) {
  if (point <= 12) return { col: 12 - point, top: false };
  return { col: point - 13, top: true };
}

// The drawing's own numbering: the board's points as the viewer sees them. Turned (hot-seat
// with one orientation, the board given from the other seat): the other side's numbering
// (tavla mirrors the rows, long nardy turns by half); the bar and the tray swap halves.
let turned = false;
let facts = null;
const shown = (point) => (!turned ? point : otherSide(point, facts));
const placeOf = (point) => place(shown(point));

const colX = (col) => M + col * PW + (col >= 6 ? BAR : 0);

function el(name, attrs = {}, children = []) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, v);
  for (const child of children) if (child) node.append(child);
  return node;
}

function text(x, y, value, cls) {
  const node = el("text", { x, y, class: cls, "text-anchor": "middle", "dominant-baseline": "central" });
  node.textContent = value;
  return node;
}

function checker(cx, cy, color, label) {
  return el("g", { class: `checker ${color}` }, [
    el("circle", { cx, cy, r: R - 1 }),
    el("circle", { cx, cy, r: R - 7, class: "rim" }),
    label ? text(cx, cy, label, "count") : null,
  ]);
}

/** A stack of `n` checkers growing from the edge toward the middle (five shown, then a count). */
function stack(cx, top, n, color, base) {
  const g = el("g");
  const shown = Math.min(n, 5);
  for (let k = 0; k < shown; k++) {
    const cy = top ? base + R + k * 2 * R : base - R - k * 2 * R;
    g.append(checker(cx, cy, color, k === shown - 1 && n > 5 ? String(n) : ""));
  }
  return g;
}

function die(x, y, value, used, size = 32) {
  const g = el("g", { class: used ? "die used" : "die" });
  g.append(el("rect", { x: x - size / 2, y: y - size / 2, width: size, height: size, rx: 6 }));
  for (const [dx, dy] of PIPS[value] || []) {
    g.append(el("circle", { cx: x + dx * size * 0.27, cy: y + dy * size * 0.27, r: size * 0.09, class: "pip" }));
  }
  return g;
}

// The heads (long nardy) come with the board: `board.heads`, the game's own (GET /rules/games).
function pointLabel(point, board) {
  const n = board.points[point - 1];
  let text;
  if (n > 0) text = t("board.point.you", { n: point, count: n });
  else if (n < 0) text = t("board.point.opp", { n: point, count: -n });
  else text = t("board.point.empty", { n: point });
  const side = headOf(point, board);
  if (side) text += ` (${t(side === "you" ? "board.head.you" : "board.head.opp")})`;
  return text;
}

const headOf = (point, { heads }) =>
  heads && (point === heads.you.point ? "you" : point === heads.opponent.point ? "opponent" : null);

/** An arrow along a row, for the one direction of travel when both move the same way round. */
function flow(x1, x2, y) {
  const dir = Math.sign(x2 - x1);
  return el("path", {
    class: "flow",
    d: `M${x1},${y} L${x2},${y} M${x2 - dir * 9},${y - 6} L${x2},${y} L${x2 - dir * 9},${y + 6}`,
  });
}

/**
 * Draw `model` into `svg` (an <svg> element, replaced content):
 * { facts: the game's (games.js), board: {points, bar, off, heads}, colors: {you, opponent},
 *   dice, used: [bool], diceSide: "you"|"opponent", cube: {value, owner, offered, in_use},
 *   sources: [point], selected: point|null, targets: [{to, hit}], name }
 */
export function drawBoard(svg, model) {
  const { board, colors } = model;
  facts = model.facts;
  turned = !!model.turned;
  const same = facts.direction === "same";
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "group");
  svg.setAttribute("data-game", facts.game);
  svg.setAttribute("aria-label", t(`board.label.${facts.direction}`, { game: gameLabel(facts), name: model.name }));
  const focused = document.activeElement && svg.contains(document.activeElement)
    ? document.activeElement.getAttribute("data-spot") : null;
  svg.replaceChildren();

  svg.append(el("rect", { x: 0, y: 0, width: W, height: H, class: "frame", rx: 8 }));
  svg.append(el("rect", { x: M, y: Y0, width: 12 * PW + BAR, height: Y1 - Y0, class: "felt" }));
  svg.append(el("rect", { x: BAR_X, y: Y0, width: BAR, height: Y1 - Y0, class: "bar" }));
  svg.append(el("rect", { x: OFF_X, y: Y0, width: OFF, height: Y1 - Y0, class: "tray" }));

  const sources = new Set(model.sources || []);
  const targets = new Map((model.targets || []).map((s) => [s.to, s]));

  // points: triangles, labels, checkers, and the spot a player clicks
  for (let point = 1; point <= 24; point++) {
    const { col, top } = placeOf(point);
    const x = colX(col);
    const tip = top ? Y0 + PH : Y1 - PH;
    const base = top ? Y0 : Y1;
    svg.append(el("polygon", {
      points: `${x},${base} ${x + PW},${base} ${x + PW / 2},${tip}`,
      class: `tri ${(point % 2) ? "odd" : "even"}`,
    }));
    const head = headOf(point, board);
    if (head) {
      svg.append(el("rect", {
        x: x + 3, y: top ? 1 : H - LABEL + 1, width: PW - 6, height: LABEL - 2, rx: 4,
        class: `head-mark ${colors[head]}`, "data-head": head,
      }));
    }
    svg.append(text(x + PW / 2, top ? LABEL / 2 : H - LABEL / 2, String(point), head ? "num head" : "num"));
    const n = board.points[point - 1];
    const g = n ? stack(x + PW / 2, top, Math.abs(n), n > 0 ? colors.you : colors.opponent, base) : el("g");
    g.setAttribute("class", "stack");
    g.setAttribute("data-point", String(point));
    g.setAttribute("data-count", String(n));
    svg.append(g);
  }

  // the last play of the other side: where its checkers left (faint) and arrived (ringed)
  if (model.last && model.last.length) {
    const marks = el("g", { class: "last-play", "aria-hidden": "true" });
    for (const [from, to] of model.last) {
      for (const [p, cls] of [[from, "from"], [to, "to"]]) {
        if (p < 1 || p > 24) continue;
        const { col, top } = placeOf(p);
        marks.append(el("rect", { x: colX(col) + 2, y: top ? Y0 + 2 : Y1 - PH - 2, width: PW - 4, height: PH, rx: 6, class: `mark ${cls}`, "data-last": `${cls} ${p}` }));
      }
    }
    svg.append(marks);
  }

  // the bar: mine in the upper half (they enter at the top right), the opponent's below;
  // long nardy has none: its direction of travel instead, faint, beside the middle line
  if (board.bar) {
    const bar = el("g", { class: "bar-checkers", "data-you": board.bar.you, "data-opponent": board.bar.opponent });
    const half = (who, n, up) => {
      const g = stack(BAR_X + BAR / 2, !up, n, colors[who], up ? MID - 4 : MID + 4);
      g.setAttribute("data-bar", who);
      bar.append(g);
    };
    if (board.bar.you) half("you", board.bar.you, !turned);
    if (board.bar.opponent) half("opponent", board.bar.opponent, turned);
    svg.append(bar);
  }
  if (same) {
    const right = BAR_X + BAR;
    const end = M + 12 * PW + BAR;
    svg.append(el("g", { class: "flows", "aria-hidden": "true" }, [
      flow(end - 12, right + 12, MID - 30), flow(BAR_X - 12, M + 12, MID - 30),
      flow(M + 12, BAR_X - 12, MID + 30), flow(right + 12, end - 12, MID + 30),
    ]));
  }

  // borne off: mine from the bottom, the opponent's from the top
  const offSlab = (i, top, color) => el("rect", {
    x: OFF_X + 4, y: top !== turned ? Y0 + 4 + i * 9 : Y1 - 12 - i * 9, width: OFF - 8, height: 8, rx: 2, class: `slab ${color}`,
    "data-off": color,
  });
  const off = el("g", {
    class: "off",
    role: "img",
    "aria-label": t("board.offtray", { you: board.off.you, opp: board.off.opponent }),
    "data-you": board.off.you,
    "data-opponent": board.off.opponent,
  });
  for (let i = 0; i < board.off.you; i++) off.append(offSlab(i, false, colors.you));
  for (let i = 0; i < board.off.opponent; i++) off.append(offSlab(i, true, colors.opponent));
  svg.append(off);

  // dice: on the right half for the player on the near side, the left for the far side
  if (model.dice && model.dice.length) {
    const cx = (model.diceSide === "you") !== turned ? M + 6 * PW + BAR + 3 * PW : M + 3 * PW;
    const g = el("g", {
      class: "dice",
      role: "img",
      "aria-label": t("board.dice", {
        dice: model.dice.map((d, i) => (model.used && model.used[i] ? t("board.die.used", { n: d }) : d)).join(", "),
      }),
    });
    const gap = 40;
    const start = cx - ((model.dice.length - 1) * gap) / 2;
    model.dice.forEach((d, i) => g.append(die(start + i * gap, MID, d, model.used && model.used[i])));
    svg.append(g);
  }

  // the cube: in the middle of the tray while centred, on its owner's side otherwise
  if (facts.cube && model.cube && model.cube.in_use) {
    const owner = model.cube.owner ? model.cube.owner.who : null;
    const near = turned ? "opponent" : "you";
    const cy = owner === near ? MID + 52 : owner ? MID - 52 : MID;
    const value = owner ? model.cube.value : 64;
    svg.append(el("g", {
      class: model.cube.offered ? "cube offered" : "cube",
      role: "img",
      "aria-label": t("board.cube", { n: model.cube.value }),
    }, [
      el("rect", { x: OFF_X + 5, y: cy - 17, width: OFF - 10, height: 34, rx: 5 }),
      text(OFF_X + OFF / 2, cy, String(value), "cube-value"),
    ]));
  }

  // the spots a player can act on: sources (checkers that may move), targets (where to)
  const spots = [];
  const spotRect = (point) => {
    if (point === 25) return { x: BAR_X, y: turned ? MID + 20 : Y0, width: BAR, height: MID - Y0 - 20 };
    if (point === 0) return { x: OFF_X, y: turned ? Y0 : MID + 20, width: OFF, height: Y1 - MID - 20 };
    const { col, top } = placeOf(point);
    // the point's triangle and label, short of the middle: the dice stay uncovered
    return { x: colX(col), y: top ? 0 : Y1 - PH - 10, width: PW, height: PH + 10 + LABEL };
  };
  const ordered = [...sources].sort((a, b) => b - a);
  for (const point of ordered) {
    const what = point === 25 ? t("board.bar", { count: board.bar.you }) : pointLabel(point, board);
    const selected = model.selected === point;
    spots.push({ point, cls: selected ? "spot source selected" : "spot source", label: t(selected ? "board.selected" : "board.from", { what }) });
  }
  for (const [to, step] of [...targets.entries()].sort((a, b) => a[0] - b[0])) {
    const label = to === 0 ? t("board.off") : t(step.hit ? "board.to.hit" : "board.to", { n: to });
    spots.push({ point: to, cls: "spot target", label });
  }
  for (const spot of spots) {
    const g = el("g", {
      class: spot.cls,
      "data-spot": String(spot.point),
      role: "button",
      tabindex: "0",
      "aria-label": spot.label,
      "aria-pressed": spot.cls.includes("selected") ? "true" : null,
    }, [el("rect", { ...spotRect(spot.point), rx: 4 })]);
    svg.append(g);
  }
  if (focused !== null) {
    const again = svg.querySelector(`[data-spot="${focused}"]`);
    if (again) again.focus();
  }
}

/**
 * Report the player's gestures on the board's spots: `onSpot(point)` for a click, a tap or
 * Enter/Space on a highlighted spot; `onDrag(from, to)` for a checker dragged from a source
 * to a target. Pressing on a checker that may move picks it up at once (its targets light up
 * while it is dragged); the click that ends that press is then not a second pick.
 */
export function listen(svg, { onSpot, onDrag }) {
  let drag = null;
  let swallowClick = false;
  const spotOf = (node) => (node && node.closest ? node.closest("[data-spot]") : null);
  svg.addEventListener("pointerdown", (e) => {
    swallowClick = false;
    const spot = spotOf(e.target);
    drag = null;
    if (!spot || !spot.classList.contains("source")) return;
    drag = { from: Number(spot.dataset.spot), x: e.clientX, y: e.clientY };
    if (!spot.classList.contains("selected")) {
      swallowClick = true;
      onSpot(drag.from);
    }
  });
  svg.addEventListener("pointerup", (e) => {
    if (!drag) return;
    const moved = Math.hypot(e.clientX - drag.x, e.clientY - drag.y) > 12;
    const spot = spotOf(document.elementFromPoint(e.clientX, e.clientY));
    const from = drag.from;
    drag = null;
    if (moved && spot && Number(spot.dataset.spot) !== from) {
      swallowClick = true;
      onDrag(from, Number(spot.dataset.spot));
    }
  });
  svg.addEventListener("click", (e) => {
    if (swallowClick) {
      swallowClick = false;
      return;
    }
    const spot = spotOf(e.target);
    if (spot) onSpot(Number(spot.dataset.spot));
  });
  svg.addEventListener("keydown", (e) => {
    const spot = spotOf(e.target);
    if (spot && (e.key === "Enter" || e.key === " ")) {
      e.preventDefault();
      onSpot(Number(spot.dataset.spot));
    }
  });
}

/**
 * Where the top checker of a spot is drawn (its centre in the board's units): a point's
 * stack, a side's checkers on the bar (`{bar: "you"}`), or its borne-off slabs
 * (`{off: color}`); null when the spot is empty.
 */
export function topOf(svg, where) {
  let node = null;
  if (where.bar) node = svg.querySelector(`[data-bar="${where.bar}"] .checker:last-child`);
  else if (where.off) node = [...svg.querySelectorAll(`[data-off="${where.off}"]`)].pop();
  else node = svg.querySelector(`.stack[data-point="${where.point}"] .checker:last-child`);
  if (!node) return null;
  const b = node.getBBox();
  return { x: b.x + b.width / 2, y: b.y + b.height / 2, node };
}

/** Slide the checker now drawn at `where` from `start` to its place, in `ms`. */
export function fly(svg, where, start, ms) {
  const end = topOf(svg, where);
  if (!end || !start || ms <= 0) return Promise.resolve();
  const dx = start.x - end.x;
  const dy = start.y - end.y;
  end.node.classList.add("flying");
  const a = end.node.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }],
    { duration: ms, easing: "ease-in-out" });
  return a.finished.catch(() => {}).then(() => end.node.classList.remove("flying"));
}
