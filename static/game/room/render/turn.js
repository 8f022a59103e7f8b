// The turn line (whose turn, the round, and whether the computer plays it for a person who
// is away or out of time), the roll button and the rolls left.

import { fill, h, replaceChildren } from "../../shared/dom.js";
import { gettext, interpolate, ngettext } from "../../shared/i18n.js";
import { awayNote, clockText } from "../../shared/labels.js";
import { canRoll, isConnected, isHost, myPlayer, turnLine } from "../store.js";

/** els: {turn, rollBtn, rollsLeft, table, playAway}. Only while a game is shown. */
export function renderTurn(state, els, now) {
  const g = state.game;
  replaceChildren(els.turn);
  if (g.finished) {
    // The table stays after the game, quiet, so that the result above it moves nothing.
    els.turn.classList.remove("notice");
    els.turn.append(h("strong", {}, gettext("Game over")), h("span", { class: "round" },
      h("span", { class: "round-sep" }, " · "),
      interpolate(gettext("round %(round)s of %(rounds)s"), { round: g.rounds, rounds: g.rounds })));
    els.turn.classList.remove("mine");
    els.table.classList.remove("mine");
    els.playAway.hidden = true;
    els.rollBtn.hidden = myPlayer(state) === null;
    els.rollBtn.classList.add("off-turn");
    els.rollsLeft.textContent = "";
    return;
  }
  els.turn.classList.remove("notice");
  const line = turnLine(state, now);
  const name = h("strong", {}, line.name);
  if (line.mine) {
    // Translators: %(your_turn)s is "Your turn", in bold.
    let hint = gettext("%(your_turn)s — roll the dice.");
    // Translators: %(your_turn)s is "Your turn", in bold.
    if (g.dice && g.rolls_left === 0) hint = gettext("%(your_turn)s — pick a box for this roll.");
    // Translators: %(your_turn)s is "Your turn", in bold.
    else if (g.dice) hint = gettext("%(your_turn)s — hold dice and roll again, or pick a box.");
    els.turn.append(...fill(hint, { your_turn: h("strong", {}, gettext("Your turn")) }));
  } else if (line.awayLeft !== null) {
    els.turn.append(...fill(gettext("%(name)s is away"), { name }),
      h("span", { class: "autoplay" }, ` — ${awayNote(line.awayLeft)}`));
  } else {
    els.turn.append(...fill(line.bot ? gettext("%(name)s’s turn (computer)") : gettext("%(name)s’s turn"),
      { name }));
    if (line.autoplay) {
      els.turn.append(h("span", { class: "autoplay" }, ` — ${gettext("the computer plays it")}`));
    }
  }
  // On a phone the round takes a line of its own (room.css): the turn line keeps one height
  // whoever's turn it is, and the dice below it stay where they are.
  els.turn.append(h("span", { class: "round" }, h("span", { class: "round-sep" }, " · "),
    interpolate(gettext("round %(round)s of %(rounds)s"), { round: line.round, rounds: line.rounds })));
  // The host need not make everyone wait out the grace.
  els.playAway.hidden = !(isHost(state) && line.awayLeft !== null && line.awayLeft > 0);
  els.playAway.disabled = !isConnected(state) || state.busy;
  if (line.awayLeft !== null) els.playAway.textContent = interpolate(gettext("Play for %(name)s now"), { name: line.name });
  els.turn.classList.toggle("mine", line.mine);
  els.table.classList.toggle("mine", line.mine);
  const dice = state.page.dice;
  const free = dice - state.held.size;
  // A player's button keeps its room on the others' turns (unseen, out of the tab order):
  // the row does not fold and unfold under the dice every turn. A watcher has none.
  const seated = myPlayer(state) !== null;
  els.rollBtn.hidden = !seated;
  els.rollBtn.classList.toggle("off-turn", seated && !line.mine);
  els.rollBtn.disabled = !canRoll(state) || (g.dice !== null && free === 0);
  if (g.dice === null) els.rollBtn.textContent = gettext("Roll");
  else if (g.rolls_left === 0) els.rollBtn.textContent = gettext("No rolls left");
  else {
    els.rollBtn.textContent = interpolate(ngettext("Roll %(count)s die", "Roll %(count)s dice", free),
      { count: free });
  }
  // With none left the button already says so: the line beside it says what to do instead.
  els.rollsLeft.textContent = g.rolls_left === 0 ? gettext("Pick a box to score")
    : interpolate(ngettext("%(count)s roll left", "%(count)s rolls left", g.rolls_left),
      { count: g.rolls_left });
  els.rollsLeft.dataset.left = String(g.rolls_left);
}

/** Before the first game, the table set for it (a wide screen shows it; room.css): the line
 * says what the room waits for (`line`, host.waitingLine; null keeps the one shown), the dice
 * are not rolled, a player's roll button keeps its room unseen. */
export function renderTableBeforeStart(state, els, line) {
  if (line) {
    replaceChildren(els.turn, line.text);
    els.turn.classList.toggle("notice", line.notice);
  }
  els.turn.classList.remove("mine");
  els.table.classList.remove("mine");
  els.playAway.hidden = true;
  els.rollBtn.hidden = !(state.you && typeof state.you.seat === "number");
  els.rollBtn.classList.add("off-turn");
  els.rollBtn.disabled = true;
  els.rollBtn.textContent = gettext("Roll");
  els.rollsLeft.textContent = "";
}

/** The turn's countdown, the same for everyone in the room; redrawn on its own every tick. */
export function renderClock(clock, left) {
  clock.hidden = left === null;
  if (left === null) return;
  const text = clockText(left);
  if (clock.dataset.left !== String(left)) {
    clock.dataset.left = String(left);
    // Read out: "Time left for this turn: 0:52"; seen: "0:52 left".
    replaceChildren(clock,
      h("span", { class: "visually-hidden" },
        interpolate(gettext("Time left for this turn: %(time)s"), { time: text })),
      h("span", { "aria-hidden": "true" }, interpolate(gettext("%(time)s left"), { time: text })));
  }
  clock.classList.toggle("urgent", left <= 10);
}
