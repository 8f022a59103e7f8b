// The coach of a practice room. After each of my rolls the server sends an `advice` frame
// (docs/protocol.md): the expected final score of every legal box and, with a roll left, of
// every hold. The page shows under each box what scoring it costs against the best choice now
// ("best", "−2.3"), highlights the best choice on request (the Hint
// button or H) and, before a choice that gives up more than the threshold, asks first through
// the room's one confirmation bar (confirm.js).

import { formatNumber, gettext, interpolate } from "../shared/i18n.js";
import { slotLabel } from "../shared/labels.js";
import { fromAdvice } from "../shared/options.js";

const STORE = "coach-threshold";
export const THRESHOLDS = [0.2, 1, 5, Infinity]; // Infinity: never ask

const fmt = (x) => formatNumber(x, 1);

/** A choice's cost as a box shows it: "best" when it gives up nothing (to the tenth shown),
 * else "−2.3" (expected points given up against the best choice). */
export function costText(cost) {
  return cost < 0.05 ? gettext("best") : `−${fmt(cost)}`;
}

export class Coach {
  constructor() {
    this.advice = null;
    this.hint = false;
    const saved = Number(localStorage.getItem(STORE));
    this.threshold = THRESHOLDS.includes(saved) ? saved : 0.2;
    if (localStorage.getItem(STORE) === "never") this.threshold = Infinity;
  }

  setThreshold(value) {
    this.threshold = value;
    try {
      localStorage.setItem(STORE, value === Infinity ? "never" : String(value));
    } catch (err) { /* storage disabled: the choice lasts this page */ }
  }

  /** Keep `msg` if it is about the position `game` is at. */
  update(msg, game) {
    if (game && msg.game === game.id && msg.seq === game.seq) {
      this.advice = { game: msg.game, seq: msg.seq, options: fromAdvice(msg, game.dice) };
      this.hint = false;
    }
  }

  /** The valued options (shared/options.js) for `game` as it stands, or null (another roll,
   * another turn, none). */
  current(game) {
    const a = this.advice;
    return a && game && a.game === game.id && a.seq === game.seq ? a.options : null;
  }

  /** What scoring `box` now costs against the best choice (a hold or a box), or null. */
  boxCost(game, box, column) {
    const option = this.current(game)?.box(box, column);
    return option ? option.loss : null;
  }

  /** The best choice now (a hold: its `positions` and `keep`; a box), or null. */
  best(game) {
    return this.current(game)?.best() || null;
  }

  /** Why scoring there deserves a second look (it costs more than the threshold), or null. */
  scoreWarning(game, box, column, columns) {
    const best = this.best(game);
    const option = this.current(game)?.box(box, column);
    if (!best || !option) return null;
    const cost = option.loss;
    if (!(cost > this.threshold)) return null;
    // A tenth is shown: never "1.0 point", always "points".
    const values = { box: slotLabel(box, column, columns), points: fmt(cost) };
    return {
      message: best.kind === "box"
        ? interpolate(gettext("The coach: %(box)s costs %(points)s points against scoring %(best)s."),
          { ...values, best: slotLabel(best.box, best.column, columns) })
        : interpolate(gettext("The coach: %(box)s costs %(points)s points against keeping %(best)s."),
          { ...values, best: keeping(best.keep) }),
      yes: gettext("Score it anyway"),
    };
  }

  /** Why rolling with these held positions deserves a second look, or null. */
  rollWarning(game, positions, columns) {
    const best = this.best(game);
    const mine = this.current(game)?.hold(positions);
    if (!best || !mine) return null;
    const cost = mine.loss;
    if (!(cost > this.threshold)) return null;
    const values = { mine: keeping(mine.keep), points: fmt(cost) };
    return {
      message: best.kind === "box"
        ? interpolate(gettext("The coach: keeping %(mine)s costs %(points)s points against scoring %(best)s."),
          { ...values, best: slotLabel(best.box, best.column, columns) })
        : interpolate(gettext("The coach: keeping %(mine)s costs %(points)s points against keeping %(best)s."),
          { ...values, best: keeping(best.keep) }),
      yes: gettext("Roll anyway"),
    };
  }
}

/** The dice a hold keeps, "2 3 5", or "nothing". */
function keeping(dice) {
  // Translators: the dice a player keeps: "keeping nothing".
  return dice.join(" ") || gettext("nothing");
}
