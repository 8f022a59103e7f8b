// The table of a running game: the dice (mine to hold on my turn, the mover's holds for
// everyone else), the scorecards with what each open box would score, the coach's values and
// hint in a practice room, the Joker note and the "How boxes score" panel.

import { costText } from "../coach.js";
import { h, replaceChildren } from "../../shared/dom.js";
import { gettext, interpolate } from "../../shared/i18n.js";
import { bonusHelp, boxHelp } from "../../shared/help.js";
import { slotLabel } from "../../shared/labels.js";
import { RULESET, parseSlot, slotName } from "../../shared/ruleset.js";
import { renderColumnSwitch, renderScorecard } from "../../shared/scorecard.js";
import { awayPlayers, canHold, canScore, isMyTurn, myPlayer } from "../store.js";

/** ui: {tray, dice (the tray's element), coach}. */
export function renderDice(state, ui) {
  const g = state.game;
  const mine = isMyTurn(state);
  ui.tray.update({
    dice: g.dice,
    held: mine ? state.held : state.lastHeld,
    canHold: canHold(state),
    rolled: state.rolled,
  });
  ui.dice.classList.toggle("watching", !mine);
  // The coach's hint: the dice its best hold keeps.
  const best = mine && ui.coach.hint ? ui.coach.best(g) : null;
  const keep = new Set(best && best.kind === "hold" ? best.positions : []);
  ui.dice.querySelectorAll(".die").forEach((die, i) => die.classList.toggle("hint", keep.has(i)));
  ui.dice.classList.toggle("hint-nothing", Boolean(best && best.kind === "hold" && !keep.size));
}

/**
 * els: {switcher, jokerNote, scorecard, hintBtn, coachRow, rulesHelp, rulesBoxes,
 * rulesBonuses}; ui: {coach, feeling, confirm, onScore(box, column), onColumn(column)}.
 */
export function renderCards(state, els, ui) {
  const g = state.game;
  const columns = g.scorecards[0].columns.length;
  renderColumnSwitch(els.switcher, g, state.column, ui.onColumn);
  const forbidden = (g.options || []).filter((o) => !o.allowed);
  els.jokerNote.hidden = forbidden.length === 0;
  if (forbidden.length) {
    const allowed = g.options.filter((o) => o.allowed)
      .map((o) => slotLabel(o.box, o.column, columns));
    els.jokerNote.textContent = interpolate(
      gettext("Joker rule: this Yahtzee may only go in %(boxes)s; boxes marked ✕ are not allowed."),
      { boxes: allowed.join(", ") });
  }
  const shown = state.column === null || state.column === undefined
    ? [...Array(columns).keys()] : [state.column];
  const focused = document.activeElement;
  const focusSlot = focused && focused.classList && focused.classList.contains("option")
    ? slotName(focused.dataset.box, Number(focused.dataset.column), columns) : null;
  const table = renderScorecard({
    game: g, me: myPlayer(state), columnsShown: shown, away: awayPlayers(state),
    canScore: canScore(state),
    armed: (o) => ui.confirm.pending(scoreKey(o.box, o.column, columns)),
  }, ui.onScore);
  replaceChildren(els.scorecard, table);
  renderCoach(state, table, els, ui.coach);
  ui.feeling.markScored(table);
  renderRulesHelp(g, els);
  if (focusSlot) {
    const { box, column } = parseSlot(focusSlot);
    const again = table.querySelector(`button.option[data-box="${box}"][data-column="${column}"]`)
      || table.querySelector("button.option");
    if (again) again.focus();
  }
}

/**
 * Before the first game, its scorecards empty where they will be (store.emptyGame: `empty`),
 * shown on a wide screen only (room.css). `column`: triple's column shown (null: all);
 * ui: {onColumn(column)}.
 */
export function renderEmptyCards(empty, column, els, ui) {
  const { game, me } = empty;
  els.jokerNote.hidden = true;
  if (!game.players.length) {
    els.switcher.hidden = true;
    replaceChildren(els.scorecard);
    return;
  }
  renderColumnSwitch(els.switcher, game, column, ui.onColumn);
  const columns = game.scorecards[0].columns.length;
  replaceChildren(els.scorecard, renderScorecard({
    game, me, columnsShown: column === null ? [...Array(columns).keys()] : [column],
    canScore: false,
  }, () => {}));
  renderRulesHelp(game, els);
}

/** The confirmation key of scoring a box ("score:chance", "score:chance@2"). */
export function scoreKey(box, column, columns) {
  return `score:${slotName(box, column, columns)}`;
}

/** Practice rooms: each box I may score shows what it is worth; the hint marks the best
 * choice (a box here, the dice to keep in renderDice). */
function renderCoach(state, table, els, coach) {
  const g = state.game;
  const mine = isMyTurn(state);
  const advice = mine ? coach.current(g) : null;
  const best = advice && coach.hint ? coach.best(g) : null;
  for (const button of table.querySelectorAll("button.option")) {
    const column = Number(button.dataset.column);
    const cost = advice ? coach.boxCost(g, button.dataset.box, column) : null;
    if (cost === null) continue;
    button.append(h("span", { class: "coach-value" }, costText(cost)));
    if (best && best.kind === "box" && best.box === button.dataset.box && best.column === column) {
      button.classList.add("coach-best");
    }
  }
  if (els.hintBtn) {
    els.hintBtn.hidden = !advice;
    els.hintBtn.setAttribute("aria-pressed", String(Boolean(advice && coach.hint)));
  }
  // The threshold is set once, outside the sticky dice tray, by anyone with a seat.
  if (els.coachRow) els.coachRow.hidden = myPlayer(state) === null;
}

/** The "How boxes score" panel, filled once per ruleset. */
function renderRulesHelp(g, els) {
  if (els.rulesHelp.dataset.rules === g.rules) return;
  els.rulesHelp.dataset.rules = g.rules;
  replaceChildren(els.rulesBoxes, RULESET.boxes.flatMap((box) => [
    h("dt", {}, box.label), h("dd", {}, boxHelp(box.name))]));
  replaceChildren(els.rulesBonuses, bonusHelp().map((line) => h("li", {}, line)));
}
