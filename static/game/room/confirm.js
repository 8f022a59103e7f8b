// The one confirmation of the room page: a choice that cannot be undone and looks like a
// mistake (a box scored 0, a box far below the dice's best, a start that drops free seats)
// needs a second tap. The first tap asks, in a bar at the bottom of the screen; a second tap on
// the same thing, or the bar's button, does it; anything else cancels. Reasons to ask are
// functions of their own (`scoreWarning`), so a coach that warns about a costly choice asks
// the same way.

import { h, replaceChildren } from "../shared/dom.js";
import { gettext, interpolate } from "../shared/i18n.js";
import { slotLabel } from "../shared/labels.js";

/** A box scores "far below" the best one when it gives up this much and more than half. */
const FAR_BELOW = 15;

/**
 * Why scoring `option` deserves a second look, or null. options: the game's `options`.
 */
export function scoreWarning(option, options, columns) {
  const where = slotLabel(option.box, option.column, columns);
  if (option.points === 0) {
    return { message: interpolate(gettext("Score 0 in %(box)s? The box is filled for good."), { box: where }),
      yes: interpolate(gettext("Scratch %(box)s"), { box: where }) };
  }
  const best = options.filter((o) => o.allowed)
    .reduce((a, b) => (b.points > a.points ? b : a), option);
  if (best.points - option.points >= FAR_BELOW && option.points * 2 < best.points) {
    const there = slotLabel(best.box, best.column, columns);
    const values = { points: option.points, box: where, other: there, best: best.points };
    return {
      message: interpolate(gettext("Score only %(points)s in %(box)s? %(other)s would give %(best)s."), values),
      yes: interpolate(gettext("Score %(points)s"), values),
    };
  }
  return null;
}

export class Confirm {
  /** bar: the element that shows the question (hidden while nothing is asked). */
  constructor(bar) {
    this.bar = bar;
    this.key = null;
    this.action = null;
    document.addEventListener("keydown", (e) => { if (e.key === "Escape") this.cancel(); });
  }

  /**
   * Ask before `action` runs. `key` names the choice: asking again with the same key (the
   * second tap) runs it. Returns true when the action ran.
   */
  ask(key, { message, yes }, action) {
    if (this.key === key) {
      this.cancel();
      action();
      return true;
    }
    this.key = key;
    this.action = action;
    replaceChildren(this.bar,
      h("p", { class: "confirm-text", id: "confirm-text" }, message),
      h("div", { class: "confirm-buttons" },
        h("button", { type: "button", class: "btn btn-primary confirm-yes",
          onclick: () => this.ask(key, { message, yes }, action) }, yes),
        h("button", { type: "button", class: "btn confirm-no", onclick: () => this.cancel() },
          gettext("Cancel"))));
    this.bar.hidden = false;
    document.body.dataset.confirming = key;
    return false;
  }

  /** Whether `key` is waiting for its second tap. */
  pending(key) {
    return this.key === key;
  }

  cancel() {
    if (this.key === null) return;
    this.key = null;
    this.action = null;
    this.bar.hidden = true;
    replaceChildren(this.bar);
    delete document.body.dataset.confirming;
  }
}
