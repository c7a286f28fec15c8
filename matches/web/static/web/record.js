// The record of a match from its events (GET /matches/{id}/events, and the ones pushed after):
// its games, each with its opening roll and numbered turns of both seats in the usual notation
// (dice: play, doubles and takes, passes, resignations), as the match page's move list and the
// record page show it. A game ends at a drop, an accepted resignation, the last checker borne
// off (a side's `checkers`: the game's, games.js; fifteen), or a loss of the match (time, forfeit).

import { t } from "./i18n.js";

const dieText = (dice) => (dice ? `${Math.max(...dice)}${Math.min(...dice)}` : "");

/** games: [{ number, opening: [d0, d1] | null, rows: [[cell|null, cell|null]], over }] */
export function buildRecord(events, checkers = 15) {
  const games = [];
  let game = null;
  let dice = [null, null];
  let off = [0, 0];
  let cube = 1;
  const begin = () => {
    game = { number: games.length + 1, opening: null, rows: [], over: false };
    games.push(game);
    dice = [null, null];
    off = [0, 0];
    cube = 1;
  };
  const push = (seat, text, e, extra = {}) => {
    if (!game || game.over) begin();
    let row = game.rows[game.rows.length - 1];
    if (!row || row[seat] || (seat === 0 && row[1])) {
      row = [null, null];
      game.rows.push(row);
    }
    row[seat] = { text, seq: e.seq, type: e.type, ...extra };
  };
  for (const e of events) {
    const d = e.data || {};
    switch (e.type) {
      case "opening_roll":
        if (!game || game.over || game.rows.length) begin();
        game.opening = [d.die0, d.die1];
        if (d.die0 !== d.die1) dice[d.die0 > d.die1 ? 0 : 1] = [d.die0, d.die1];
        break;
      case "rolled":
        if (!game || game.over) begin();
        dice[d.seat] = d.dice;
        break;
      case "moved":
        push(d.seat, `${dieText(dice[d.seat])}: ${d.notation}`, e, { steps: d.steps, dice: dice[d.seat] });
        off[d.seat] += d.steps.filter((s) => s[1] === 0).length;
        if (off[d.seat] >= checkers) game.over = true;
        break;
      case "passed":
        push(d.seat, `${dieText(dice[d.seat])}: ${t("log.pass")}`, e, { dice: dice[d.seat] });
        break;
      case "cube_offered":
        cube *= 2;
        push(d.seat, t("log.double", { n: cube }), e);
        break;
      case "cube_taken":
        push(d.seat, t("log.take"), e);
        break;
      case "cube_dropped":
        push(d.seat, t("log.drop"), e);
        game.over = true;
        break;
      case "resign_offered":
        push(d.seat, t("log.resign", { n: d.value * cube }), e);
        break;
      case "resign_accepted":
        push(d.seat, t("log.accept"), e);
        game.over = true;
        break;
      case "resign_rejected":
        push(d.seat, t("log.reject"), e);
        break;
      case "timed_out":
        push(d.seat, t("log.timeout"), e);
        game.over = true;
        break;
      case "forfeited":
        push(d.seat, t("log.forfeit"), e);
        game.over = true;
        break;
      case "match_resigned":
        push(d.seat, t("log.resignMatch"), e);
        game.over = true;
        break;
      default:
    }
  }
  return games;
}
