// The coach of a practice room. After each of my rolls the server sends an `advice` frame
// (docs/protocol.md): the expected final score of every legal box and, with a roll left, of
// every hold. The page shows under each box what scoring it costs against the best choice now
// ("best", "−2.3"), highlights the best choice on request (the Hint
// button or H) and, before a choice that gives up more than the threshold, asks first through
// the room's one confirmation bar (confirm.js).

import { formatNumber, gettext, interpolate } from "../shared/i18n.js";
import { slotLabel } from "../shared/labels.js";

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
      this.advice = msg;
      this.hint = false;
    }
  }

  /** The advice for `game` as it stands, or null (another roll, another turn, none). */
  current(game) {
    const a = this.advice;
    return a && game && a.game === game.id && a.seq === game.seq ? a : null;
  }

  boxValue(game, box, column) {
    const a = this.current(game);
    const found = a && a.boxes.find((b) => b.box === box && b.column === column);
    return found ? found.value : null;
  }

  /** What scoring `box` now costs against the best choice (a hold or a box), or null. */
  boxCost(game, box, column) {
    const best = this.best(game);
    const value = this.boxValue(game, box, column);
    return best && value !== null ? Math.max(0, best.value - value) : null;
  }

  /** The hold (positions) whose dice are those at `positions`, with its value. */
  holdOf(game, positions) {
    const a = this.current(game);
    if (!a) return null;
    const dice = [...positions].map((i) => game.dice[i]).sort((x, y) => x - y).join(",");
    return a.holds.find((h) => h.dice.join(",") === dice) || null;
  }

  /** The best choice now: {kind: "hold"|"box", value, hold?, box?, column?}. */
  best(game) {
    const a = this.current(game);
    if (!a) return null;
    const hold = a.holds[0];
    const box = a.boxes[0];
    if (hold && (!box || hold.value >= box.value)) return { kind: "hold", ...hold };
    return box ? { kind: "box", ...box } : null;
  }

  /** Why scoring there deserves a second look (it costs more than the threshold), or null. */
  scoreWarning(game, box, column, columns) {
    const best = this.best(game);
    const value = this.boxValue(game, box, column);
    if (!best || value === null) return null;
    const cost = best.value - value;
    if (!(cost > this.threshold)) return null;
    // A tenth is shown: never "1.0 point", always "points".
    const values = { box: slotLabel(box, column, columns), points: fmt(cost) };
    return {
      message: best.kind === "box"
        ? interpolate(gettext("The coach: %(box)s costs %(points)s points against scoring %(best)s."),
          { ...values, best: slotLabel(best.box, best.column, columns) })
        : interpolate(gettext("The coach: %(box)s costs %(points)s points against keeping %(best)s."),
          { ...values, best: keeping(best.dice) }),
      yes: gettext("Score it anyway"),
    };
  }

  /** Why rolling with these held positions deserves a second look, or null. */
  rollWarning(game, positions, columns) {
    const best = this.best(game);
    const mine = this.holdOf(game, positions);
    if (!best || !mine) return null;
    const cost = best.value - mine.value;
    if (!(cost > this.threshold)) return null;
    const values = { mine: keeping(mine.dice), points: fmt(cost) };
    return {
      message: best.kind === "box"
        ? interpolate(gettext("The coach: keeping %(mine)s costs %(points)s points against scoring %(best)s."),
          { ...values, best: slotLabel(best.box, best.column, columns) })
        : interpolate(gettext("The coach: keeping %(mine)s costs %(points)s points against keeping %(best)s."),
          { ...values, best: keeping(best.dice) }),
      yes: gettext("Roll anyway"),
    };
  }
}

/** The dice a hold keeps, "2 3 5", or "nothing". */
function keeping(dice) {
  // Translators: the dice a player keeps: "keeping nothing".
  return dice.join(" ") || gettext("nothing");
}
