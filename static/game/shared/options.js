// Every option of one decision, valued: the one shape the page scripts use for the coach's
// `advice` frame (a practice room, docs/protocol.md) and for the answer of "Try it yourself"
// (GET /games/<id>/try/<seq>, presenters/review.py tried_view). The wire shapes differ; each
// has a small adapter below, and the lookups are written once.

import { parseSlot } from "./ruleset.js";

/**
 * A hold: {kind: "hold", keep (the dice kept, ascending), positions (which dice, when the
 * source says), value (the expected final score), loss, grade?}. A box: {kind: "box", box,
 * column, points?, value, loss, grade?}. `loss` is what the option gives up against the best
 * one; `grade` comes with a try's answer only.
 */
export class ValuedOptions {
  /** dice: the dice decided on; holds and boxes best first. */
  constructor({ dice, rollsLeft, holds, boxes }) {
    this.dice = dice;
    this.rollsLeft = rollsLeft;
    this.holds = holds;
    this.boxes = boxes;
  }

  /** The option of keeping the dice at `positions` (whatever their order), or null (not an
   * option: all five kept, or no roll left). */
  hold(positions) {
    const keep = [...positions].map((p) => this.dice[p]).sort((a, b) => a - b).join(",");
    return this.holds.find((o) => o.keep.join(",") === keep) || null;
  }

  /** The option of scoring `box` in `column`, or null (not a legal box). */
  box(box, column) {
    return this.boxes.find((o) => o.box === box && o.column === column) || null;
  }

  /** The best option of all (a hold before a box worth as much), or null. */
  best() {
    const hold = this.holds[0];
    const box = this.boxes[0];
    if (hold && (!box || hold.loss <= box.loss)) return hold;
    return box || null;
  }
}

/** The options of an `advice` frame, for the position whose dice are `dice`. The frame says
 * no loss: it is the distance to the best option's value. */
export function fromAdvice(msg, dice) {
  const top = Math.max(...[...msg.holds, ...msg.boxes].map((o) => o.value));
  const loss = (value) => Math.max(0, top - value);
  return new ValuedOptions({
    dice,
    rollsLeft: msg.rolls_left,
    holds: msg.holds.map((o) => ({ kind: "hold", keep: [...o.dice].sort((a, b) => a - b),
      positions: o.hold, value: o.value, loss: loss(o.value) })),
    boxes: msg.boxes.map((o) => ({ kind: "box", box: o.box, column: o.column, value: o.value,
      loss: loss(o.value) })),
  });
}

/** The options of a try's answer: its boxes are slot names ("chance@2" in triple). */
export function fromTried(tried) {
  return new ValuedOptions({
    dice: tried.dice,
    rollsLeft: tried.rolls_left,
    holds: tried.holds.map((o) => ({ kind: "hold", keep: [...o.keep].sort((a, b) => a - b),
      value: o.expected, loss: o.loss, grade: o.grade })),
    boxes: tried.boxes.map((o) => ({ kind: "box", ...parseSlot(o.box), points: o.points,
      value: o.expected, loss: o.loss, grade: o.grade })),
  });
}
