// The turn line (whose turn, the round, and whether the computer plays it for a person who
// is away or out of time), the roll button and the rolls left.

import { h, replaceChildren } from "../dom.js";
import { awayNote, clockText } from "../labels.js";
import { canRoll, isConnected, isHost, turnLine } from "../store.js";

/** els: {turn, rollBtn, rollsLeft, table, playAway}. Only while a game is shown. */
export function renderTurn(state, els, now) {
  const g = state.game;
  const line = turnLine(state, now);
  replaceChildren(els.turn);
  if (line.mine) {
    let hint = " — roll the dice.";
    if (g.dice && g.rolls_left === 0) hint = " — pick a box for this roll.";
    else if (g.dice) hint = " — hold dice and roll again, or pick a box.";
    els.turn.append(h("strong", {}, "Your turn"), hint);
  } else if (line.awayLeft !== null) {
    els.turn.append(h("strong", {}, line.name), " is away",
      h("span", { class: "autoplay" }, ` — ${awayNote(line.awayLeft)}`));
  } else {
    els.turn.append(h("strong", {}, line.name), line.bot ? "’s turn (computer)" : "’s turn");
    if (line.autoplay) els.turn.append(h("span", { class: "autoplay" }, " — the computer plays it"));
  }
  els.turn.append(h("span", { class: "round" }, ` · round ${line.round} of ${line.rounds}`));
  // The host need not make everyone wait out the grace.
  els.playAway.hidden = !(isHost(state) && line.awayLeft !== null && line.awayLeft > 0);
  els.playAway.disabled = !isConnected(state) || state.busy;
  if (line.awayLeft !== null) els.playAway.textContent = `Play for ${line.name} now`;
  els.turn.classList.toggle("mine", line.mine);
  els.table.classList.toggle("mine", line.mine);
  const dice = state.page.dice;
  const free = dice - state.held.size;
  els.rollBtn.hidden = !line.mine;
  els.rollBtn.disabled = !canRoll(state) || (g.dice !== null && free === 0);
  if (g.dice === null) els.rollBtn.textContent = "Roll";
  else if (g.rolls_left === 0) els.rollBtn.textContent = "No rolls left";
  else els.rollBtn.textContent = `Roll ${free} ${free === 1 ? "die" : "dice"}`;
  // With none left the button already says so: the line beside it says what to do instead.
  els.rollsLeft.textContent = g.rolls_left === 0 ? "Pick a box to score"
    : g.rolls_left === 1 ? "1 roll left" : `${g.rolls_left} rolls left`;
  els.rollsLeft.dataset.left = String(g.rolls_left);
}

/** The turn's countdown, the same for everyone in the room; redrawn on its own every tick. */
export function renderClock(clock, left) {
  clock.hidden = left === null;
  if (left === null) return;
  const text = clockText(left);
  if (clock.dataset.left !== String(left)) {
    clock.dataset.left = String(left);
    replaceChildren(clock, h("span", { class: "visually-hidden" }, "Time left for this turn: "),
      text, h("span", { "aria-hidden": "true" }, " left"));
  }
  clock.classList.toggle("urgent", left <= 10);
}
