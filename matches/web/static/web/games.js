// The games and their facts (GET /rules/games, read once a page): what differs between the
// games (direction, cube, resign values, results, gnubg_ids, ...) is taken from them, never
// from a game's name. A game's label: `game.<key>` in the catalogs, else the API's `title`.

import * as api from "./api.js";
import { t } from "./i18n.js";

let asked = null;

/** Every game's facts, the default first, each with `key` (form value, catalog key). */
export function games() {
  asked ||= api.get("/rules/games").then((b) => b.games.map((g) => ({ ...g, key: g.game.replace(/\W/g, "_") })),
    (err) => { asked = null; throw err; });
  return asked;
}

/** The game named `game` (API name or key) in `list`, else the first. */
export const pick = (list, game) => list.find((g) => g.game === game || g.key === game) || list[0];

export const facts = async (game) => pick(await games(), game);

const word = (key, other) => (t(key) === key ? other : t(key));

export const gameLabel = (g) => word(`game.${g.key}`, g.title);

/** Point `p` in the other side's numbering (the bar and off stay). */
export const otherSide = (p, g) => (p === 25 || p === 0 ? p : g.direction === "same" ? ((p + 11) % 24) + 1 : 25 - p);

export const checkers = (g) => g.start.reduce((n, c) => n + Math.max(0, c), 0);

/** The game's name of a win worth `value` points (oyn, mars...): `kind.<name>` as announced,
 * `resign.<name>` as offered. */
export function winName(g, value, words = "kind") {
  const name = g.results[Math.min(value, g.results.length) - 1];
  return word(`${words}.${name}`, name);
}

/** A result's `kind` (single, gammon, backgammon) in the game's words. */
export const kindName = (g, kind) => winName(g, ["single", "gammon", "backgammon"].indexOf(kind) + 1);

export const CLOCK_PRESETS = ["site"]; // POST /seeks `clock`: no endpoint lists others
export const MODES = ["computer", "hotseat", "online"];
export const LENGTHS = [1, 3, 5, 7];
