// "Try it yourself" on a finished game's page: from a graded decision, the reader re-decides on
// the same dice (holds dice and rolls the others, or picks a box) and reads the grade of their
// choice. Every option's value comes from the server (GET /games/<id>/try/<seq>: the review's
// own valuation, presenters/review.py tried_view); this module only looks the choice up.

import { dieFace, dieName } from "../shared/dice.js";
import { h, replaceChildren } from "../shared/dom.js";
import { formatNumber, gettext, interpolate, ngettext, pgettext } from "../shared/i18n.js";
import { GRADE_WORDS, SYMBOLS, choiceText, chosenText, points } from "./review.js";
import { RULESET, parseSlot, slotName } from "../shared/ruleset.js";
import { slotLabel } from "../shared/labels.js";

/**
 * The decision a reader may try from frame `index`: the next move if it is a graded decision
 * (the position before it is on the board), else this move if it is one (then the board goes
 * back one move). {seq, at (the frame index of the dice to decide on)} or null.
 */
export function decisionToTry(frames, index, decisions) {
  const next = frames[index + 1];
  if (next && decisions.has(next.seq)) return { seq: next.seq, at: index };
  const here = frames[index];
  if (index > 0 && decisions.has(here.seq)) return { seq: here.seq, at: index - 1 };
  return null;
}

/** The option of keeping the dice at `positions` (of `tried.dice`), or null (all five). */
export function holdOption(tried, positions) {
  const keep = [...positions].map((p) => tried.dice[p]).sort((a, b) => a - b);
  return tried.holds.find((o) => o.keep.length === keep.length
    && o.keep.every((d, i) => d === keep[i])) || null;
}

/** The option of scoring box `box` of column `column`, or null (not a legal box). */
export function boxOption(tried, box, column, columns = 1) {
  const name = slotName(box, column, columns);
  return tried.boxes.find((o) => o.box === name) || null;
}

/** The best option of all: the least loss (holds and boxes). */
function bestOf(tried) {
  return [...tried.holds, ...tried.boxes].reduce((a, b) => (b.loss < a.loss ? b : a));
}

/** One option in words: "keep 3 3", "re-roll all five", "score Chance (21)". */
export function optionText(option, columns = 1) {
  if (option.keep) return choiceText(option.keep, columns);
  const { box, column } = parseSlot(option.box);
  return interpolate(gettext("score %(box)s (%(points)s)"),
    { box: slotLabel(box, column, columns), points: option.points });
}

/**
 * The reader's choice graded: {grade, title, detail}. `title` says the choice and its grade,
 * `detail` what it gave up against the best, and what the game's player chose.
 */
export function triedVerdict(option, tried, columns = 1, played = null) {
  const what = optionText(option, columns);
  const chosen = `${what[0].toUpperCase()}${what.slice(1)}`;
  const mark = SYMBOLS[option.grade] ? ` ${SYMBOLS[option.grade]}` : "";
  const title = `${chosen}: ${GRADE_WORDS[option.grade]}${mark}`;
  const best = bestOf(tried);
  const parts = [];
  if (option.loss > 0) {
    parts.push(interpolate(ngettext("%(points)s point behind the best, %(best)s.",
      "%(points)s points behind the best, %(best)s.", option.loss),
    { points: points(option.loss), best: optionText(best, columns) }));
  } else if (option.grade === "best") {
    parts.push(gettext("No choice is worth more here."));
  }
  parts.push(interpolate(gettext("Expected final score %(points)s."),
    { points: formatNumber(option.expected, 1) }));
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
    this.state = null; // {seq, at, tried, held: Set, verdict} while trying
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
    this.state = { ...choice, tried, held: new Set(), verdict: null };
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
    const { tried, held, verdict } = this.state;
    const option = held.size < tried.dice.length ? holdOption(tried, held) : null;
    const canRoll = tried.rolls_left > 0 && option !== null;
    const others = tried.dice.length - held.size;
    const rollLabel = held.size
      ? interpolate(ngettext("Roll the other %(count)s", "Roll the other %(count)s", others), { count: others })
      : gettext("Roll all five");
    replaceChildren(this.panel,
      h("h3", { class: "try-title" }, gettext("Try it yourself")),
      h("p", { class: "try-help" }, tried.rolls_left
        ? interpolate(ngettext(
          "Tap dice to hold them and roll the others, or pick a box on the scorecard (%(count)s roll left).",
          "Tap dice to hold them and roll the others, or pick a box on the scorecard (%(count)s rolls left).",
          tried.rolls_left), { count: tried.rolls_left })
        : gettext("No rolls left: pick a box on the scorecard.")),
      h("div", { class: "try-actions" },
        tried.rolls_left ? h("button", {
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
    const { tried, seq } = this.state;
    const frame = this.replay.frames[this.replay.indexOf(seq)];
    const decision = this.replay.decisions.get(seq);
    const played = decision ? playedText(frame, decision, this.columns) : null;
    this.state.verdict = triedVerdict(option, tried, this.columns, played);
    this.replay.render();
  }

  /** The dice of the position, as buttons that hold and free them. */
  dice() {
    const { tried, held } = this.state;
    return tried.dice.map((value, pos) => h("li", {}, h("button", {
      type: "button", class: `die${held.has(pos) ? " held" : ""}`,
      "aria-pressed": String(held.has(pos)), dataset: { value: String(value) },
      // As the room names its dice: "held" is the tag a held die shows.
      "aria-label": dieName(pos, value, held.has(pos)),
      onclick: () => {
        if (held.has(pos)) held.delete(pos);
        else held.add(pos);
        this.replay.render();
        this.panel.ownerDocument.querySelector(`#replay-dice li:nth-child(${pos + 1}) button`)
          ?.focus({ preventScroll: true });
      },
    // Translators: the tag under a held die, on a 320 px phone too: 6 letters at most.
    }, dieFace(value), h("span", { class: "die-held-tag", "aria-hidden": "true" }, pgettext("die tag", "Held")))));
  }

  /** The scorecard's options for the player deciding: every legal box with its points. */
  options() {
    return this.state.tried.boxes.map((o) => {
      const { box, column } = parseSlot(o.box);
      return { box, column, points: o.points, allowed: true };
    });
  }

  /** A box picked on the scorecard. */
  pickBox(box, column) {
    this.choose(boxOption(this.state.tried, box, column, this.columns));
  }
}
