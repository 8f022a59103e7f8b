// "Try it yourself" on a finished game's page: from a graded decision, the reader re-decides on
// the same dice (holds dice and rolls the others, or picks a box) and reads the grade of their
// choice. Every option's value comes from the server (GET /games/<id>/try/<seq>: the review's
// own valuation, presenters/review.py tried_view, read as shared/options.js's valued options);
// this module only looks the choice up.

import { diceItems } from "../shared/dice.js";
import { h, replaceChildren } from "../shared/dom.js";
import { formatNumber, gettext, interpolate, ngettext } from "../shared/i18n.js";
import { GRADE_WORDS, SYMBOLS, choiceText, chosenText, points } from "./review.js";
import { fromTried } from "../shared/options.js";
import { RULESET } from "../shared/ruleset.js";
import { slotLabel } from "../shared/labels.js";

/**
 * The decision a reader may try from frame `index`: the one made on its dice (the next move's,
 * if it is a graded decision; the same the board's words speak of: Review.decisionAt).
 * {seq, at (the frame index of the dice to decide on)} or null.
 */
export function decisionToTry(frames, index, decisions) {
  const next = frames[index + 1];
  return next && decisions.has(next.seq) ? { seq: next.seq, at: index } : null;
}

/** One option in words: "keep 3 3", "re-roll all five", "score Chance (21)". */
export function optionText(option, columns = 1) {
  if (option.kind === "hold") return choiceText(option.keep, columns);
  return interpolate(gettext("score %(box)s (%(points)s)"),
    { box: slotLabel(option.box, option.column, columns), points: option.points });
}

/**
 * The reader's choice graded: {grade, title, detail}. `title` says the choice and its grade,
 * `detail` what it gave up against the best of `options` (shared/options.js), and what the
 * game's player chose.
 */
export function triedVerdict(option, options, columns = 1, played = null) {
  const what = optionText(option, columns);
  const chosen = `${what[0].toUpperCase()}${what.slice(1)}`;
  const mark = SYMBOLS[option.grade] ? ` ${SYMBOLS[option.grade]}` : "";
  const title = `${chosen}: ${GRADE_WORDS[option.grade]}${mark}`;
  const best = options.best();
  const parts = [];
  if (option.loss > 0) {
    parts.push(interpolate(ngettext("%(points)s point behind the best, %(best)s.",
      "%(points)s points behind the best, %(best)s.", option.loss),
    { points: points(option.loss), best: optionText(best, columns) }));
  } else if (option.grade === "best") {
    parts.push(gettext("No choice is worth more here."));
  }
  parts.push(interpolate(gettext("Expected final score %(points)s."),
    { points: formatNumber(option.value, 1) }));
  if (played) parts.push(interpolate(gettext("In the game: %(played)s."), { played }));
  return { grade: option.grade, title, detail: parts.join(" ") };
}

/** The game's own choice in words, with its grade: "Held nothing — a mistake, 1.93 lost". */
export function playedText(frame, decision, columns = 1) {
  const what = chosenText(frame, columns);
  if (decision.grade === "best") return interpolate(gettext("%(chosen)s, the best choice"), { chosen: what });
  return interpolate(gettext("%(chosen)s, %(grade)s (%(points)s lost)"),
    { chosen: what, grade: GRADE_WORDS[decision.grade], points: points(decision.loss) });
}

/**
 * The panel under the board and its moments: idle (a button when a decision is at hand),
 * asking the server, trying (dice to hold, a roll button, the scorecard's boxes), a verdict.
 * `replay` gives {frames, decisions (Map seq → decision), index(), go(i), render(),
 * trying (set here), url(seq)}.
 */
export class TryIt {
  constructor(panel, replay) {
    this.panel = panel;
    this.replay = replay;
    this.columns = RULESET.columns;
    this.state = null; // {seq, at, options (shared/options.js), held: Set, verdict} while trying
    this.asking = null;
    panel.hidden = false;
  }

  get active() {
    return Boolean(this.state);
  }

  /** Back to the replay (a move elsewhere, Escape, the button). */
  stop() {
    this.state = null;
    this.asking = null;
  }

  async start(choice) {
    this.asking = choice.seq;
    this.drawAsking();
    let tried = null;
    let error = gettext("The choices could not be valued; try again in a moment.");
    try {
      const response = await fetch(this.replay.url(choice.seq), { headers: { Accept: "application/json" } });
      const body = await response.json();
      if (response.ok) tried = body;
      else if (body && body.message) error = body.message;
    } catch (err) {
      // offline a moment: said below
    }
    if (this.asking !== choice.seq) return; // the reader moved on meanwhile
    this.asking = null;
    if (!tried) {
      replaceChildren(this.panel, h("p", { class: "try-error", role: "alert" }, error));
      return;
    }
    this.state = { ...choice, options: fromTried(tried), held: new Set(), verdict: null };
    this.replay.go(choice.at, { keepTrying: true });
    this.panel.querySelector(".try-roll, .try-stop")?.focus({ preventScroll: true });
  }

  /** The panel for the frame at `index` (the replay draws it after each move). */
  draw(index) {
    if (this.asking !== null) return;
    if (this.state) {
      this.drawTrying();
      return;
    }
    const choice = decisionToTry(this.replay.frames, index, this.replay.decisions);
    if (!choice) {
      replaceChildren(this.panel, h("p", { class: "try-idle" }, h("span", { class: "try-where" },
        gettext("Go to a roll to try a choice yourself."))));
      return;
    }
    const who = this.replay.players[this.replay.frames[choice.at].player];
    replaceChildren(this.panel, h("p", { class: "try-idle" },
      h("button", { type: "button", class: "btn try-start", onclick: () => this.start(choice) },
        gettext("Try it yourself")), h("span", { class: "try-what" },
        interpolate(gettext("What would you do with %(name)s’s dice?"), { name: who }))));
  }

  drawAsking() {
    replaceChildren(this.panel, h("p", { class: "try-idle", role: "status" },
      gettext("Valuing every choice…")));
  }

  drawTrying() {
    const { options: tried, held, verdict } = this.state;
    const option = held.size < tried.dice.length ? tried.hold(held) : null;
    const canRoll = tried.rollsLeft > 0 && option !== null;
    const others = tried.dice.length - held.size;
    const rollLabel = held.size
      ? interpolate(ngettext("Roll the other %(count)s", "Roll the other %(count)s", others), { count: others })
      : gettext("Roll all five");
    replaceChildren(this.panel,
      h("h3", { class: "try-title" }, gettext("Try it yourself")),
      h("p", { class: "try-help" }, tried.rollsLeft
        ? interpolate(ngettext(
          "Tap dice to hold them and roll the others, or pick a box on the scorecard (%(count)s roll left).",
          "Tap dice to hold them and roll the others, or pick a box on the scorecard (%(count)s rolls left).",
          tried.rollsLeft), { count: tried.rollsLeft })
        : gettext("No rolls left: pick a box on the scorecard.")),
      h("div", { class: "try-actions" },
        tried.rollsLeft ? h("button", {
          type: "button", class: "btn btn-primary try-roll", disabled: !canRoll,
          onclick: () => this.choose(option),
        }, rollLabel) : null,
        h("button", { type: "button", class: "btn try-stop",
          onclick: () => { this.stop(); this.replay.render(); } }, gettext("Back to the game"))),
      h("div", { class: "try-verdict", role: "status", "aria-live": "polite",
        dataset: verdict ? { grade: verdict.grade } : {} },
      verdict ? [h("strong", {}, verdict.title), " ", verdict.detail] : ""));
  }

  /** The reader chose `option` (a hold or a box): its grade, beside the game's choice. */
  choose(option) {
    if (!option) return;
    const { options, seq } = this.state;
    const frame = this.replay.frames[this.replay.indexOf(seq)];
    const decision = this.replay.decisions.get(seq);
    const played = decision ? playedText(frame, decision, this.columns) : null;
    this.state.verdict = triedVerdict(option, options, this.columns, played);
    this.replay.render();
  }

  /** The dice of the position, as buttons that hold and free them. */
  dice() {
    const { options, held } = this.state;
    return diceItems(options.dice, held, { onToggle: (pos) => {
      if (held.has(pos)) held.delete(pos);
      else held.add(pos);
      this.replay.render();
      this.panel.ownerDocument.querySelector(`#replay-dice li:nth-child(${pos + 1}) button`)
        ?.focus({ preventScroll: true });
    } });
  }

  /** The scorecard's options for the player deciding: every legal box with its points. */
  options() {
    return this.state.options.boxes.map(({ box, column, points }) => (
      { box, column, points, allowed: true }));
  }

  /** A box picked on the scorecard. */
  pickBox(box, column) {
    this.choose(this.state.options.box(box, column));
  }
}
