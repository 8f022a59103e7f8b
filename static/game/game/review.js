// The analysis on a finished game's page (the data: game/presenters/review.py, in
// #analysis-data): the grade of each decision in the move list, the verdict on the current
// move, and a chart of each player's expected final score that moves the replay when clicked.
// Every figure comes from the stored review; nothing is computed here but the drawing.

import { h, replaceChildren, svg } from "../shared/dom.js";
import { formatNumber, gettext, interpolate, ngettext } from "../shared/i18n.js";
import { slotLabel } from "../shared/labels.js";
import { RULESET, parseSlot } from "../shared/ruleset.js";

export const SYMBOLS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
/** Each grade in words, as the verdicts say it (looked up in the catalog when read). */
export const GRADE_WORDS = {
  get best() { return gettext("the best choice"); },
  get good() { return gettext("a good choice"); },
  get inaccuracy() { return gettext("an inaccuracy"); },
  get mistake() { return gettext("a mistake"); },
  get blunder() { return gettext("a blunder"); },
};

/** The analysis the page was sent, or null (not computed yet). */
export function loadAnalysis() {
  const el = document.getElementById("analysis-data");
  return el ? JSON.parse(el.textContent) : null;
}

/** Expected points given up: "1.93", "under 0.01". */
export const points = (x) => (x < 0.01
  ? interpolate(gettext("under %(points)s"), { points: formatNumber(0.01, 2) }) : formatNumber(x, 2));
/** A chance to win given up (0 to 1), in points of percent: "1.2 %", "under 0.1 %" (the
 * sign kept on its number's line: a no-break space before it). */
export const chancePoints = (x) => {
  let text;
  if (x >= 0.001) text = interpolate(gettext("%(percent)s %"), { percent: formatNumber(100 * x, 1) });
  else if (x > 0) text = interpolate(gettext("under %(percent)s %"), { percent: formatNumber(0.1, 1) });
  else text = interpolate(gettext("%(percent)s %"), { percent: 0 });
  return text.replace(/ %$/, "\u00a0%");
};
/** The label beside a move that gave up at least half a point of chance: "−1.2 %". */
export const CHANCE_MARK = 0.005;

/** "keep 3 3", "re-roll all five", "score Chance": the best choice, in words. */
export function choiceText(best, columns) {
  if (Array.isArray(best)) {
    return best.length ? interpolate(gettext("keep %(dice)s"), { dice: best.join(" ") })
      : gettext("re-roll all five");
  }
  const { box, column } = parseSlot(best);
  return interpolate(gettext("score %(box)s"), { box: slotLabel(box, column, columns) });
}

/** What the move at `frame` chose: "Held 2 3 5", "Scored Chance". */
export function chosenText(frame, columns) {
  if (frame.kind === "scored") {
    return interpolate(gettext("Scored %(box)s"), { box: slotLabel(frame.box, frame.column, columns) });
  }
  const kept = frame.held.map((pos) => frame.dice[pos]).sort((a, b) => a - b);
  return kept.length ? interpolate(gettext("Held %(dice)s"), { dice: kept.join(" ") })
    : gettext("Held nothing");
}

/** A decision in words: what was chosen (`frame`, the move it made), its grade, what it cost
 * and the best choice; the chance to win it gave up, where the review has one. */
export function decisionText(d, frame, columns) {
  const values = { chosen: chosenText(frame, columns), grade: GRADE_WORDS[d.grade],
    mark: SYMBOLS[d.grade] ? ` ${SYMBOLS[d.grade]}` : "", loss: points(d.loss),
    best: d.best === undefined ? "" : choiceText(d.best, columns) };
  let text;
  if (d.autoplay) {
    text = d.best === undefined
      ? gettext("The computer’s choice (while away): %(chosen)s, not graded.")
      : ngettext("The computer’s choice (while away): %(chosen)s, not graded; %(loss)s point lost, best: %(best)s.",
        "The computer’s choice (while away): %(chosen)s, not graded; %(loss)s points lost, best: %(best)s.", d.loss);
  } else if (d.best === undefined) {
    text = gettext("Choice: %(chosen)s — %(grade)s.");
  } else {
    // Translators: %(mark)s is empty or a chess-like sign ("?!") with its space.
    text = ngettext("Choice: %(chosen)s — %(grade)s%(mark)s, %(loss)s point lost; best: %(best)s.",
      "Choice: %(chosen)s — %(grade)s%(mark)s, %(loss)s points lost; best: %(best)s.", d.loss);
  }
  text = interpolate(text, values);
  if (d.chance_loss !== undefined) {
    const chance = { chance: chancePoints(d.chance_loss),
      best: d.best_to_win === undefined ? "" : choiceText(d.best_to_win, columns) };
    text += ` ${interpolate(d.best_to_win === undefined
      ? gettext("Chance to win given up: %(chance)s.")
      : gettext("Chance to win given up: %(chance)s; best to win: %(best)s."), chance)}`;
  }
  return text;
}

/** The luck of a roll in words: what its dice are worth against what a roll is expected to
 * bring, in points ("This roll: 1.82 points better than expected."). */
export function luckText(luck) {
  const size = Math.abs(luck);
  const values = { points: formatNumber(size, 2) };
  if (size < 0.005) return gettext("This roll: as good as expected.");
  return interpolate(luck > 0
    ? ngettext("This roll: %(points)s point better than expected.",
      "This roll: %(points)s points better than expected.", size)
    : ngettext("This roll: %(points)s point worse than expected.",
      "This roll: %(points)s points worse than expected.", size), values);
}

/** The graded slips (inaccuracies, mistakes, blunders; not autoplay's) among `decisions`,
 * of `player` only unless it is null, in game order. */
export function slipsOf(decisions, player = null) {
  return decisions.filter((d) => SYMBOLS[d.grade] && !d.autoplay
    && (player === null || d.player === player));
}

/** "3 mistakes: 1 blunder, 2 inaccuracies" — how many slips, by grade, in words. */
export function slipsText(slips) {
  const words = {
    inaccuracy: (n) => ngettext("%(count)s inaccuracy", "%(count)s inaccuracies", n),
    mistake: (n) => ngettext("%(count)s mistake", "%(count)s mistakes", n),
    blunder: (n) => ngettext("%(count)s blunder", "%(count)s blunders", n),
  };
  if (!slips.length) return gettext("no mistakes");
  const parts = ["blunder", "mistake", "inaccuracy"].map((g) => {
    const n = slips.filter((d) => d.grade === g).length;
    return n ? interpolate(words[g](n), { count: n }) : null;
  }).filter(Boolean);
  return parts.join(", ");
}

export class Review {
  constructor(analysis, frames, players) {
    this.frames = frames;
    this.players = players;
    this.columns = RULESET.columns;
    const playerAt = new Map(frames.map((f) => [f.seq, f.player]));
    // Each decision with its player (the player to move at its event) and its frame.
    this.list = analysis.decisions.map((d) => ({ ...d, player: playerAt.get(d.seq) }));
    this.decisions = new Map(this.list.map((d) => [d.seq, d]));
    this.indexOfSeq = new Map(frames.map((f, i) => [f.seq, i]));
    this.only = null; // the player whose slips alone are shown, or null
    this.luck = new Map(analysis.luck);
    this.series = analysis.series;
    this.chances = analysis.chances || [];
    this.chart = null;
  }

  /** The index of the moment whose dice the decision at `seq` was made on: the move before
   * it (the roll it re-rolls from or scores). */
  positionOf(seq) {
    return this.indexOfSeq.get(seq) - 1;
  }

  /** The decision made on the board at frame `index` (its dice): the next move's, if it is a
   * graded decision, with that move's frame (what was chosen); else null. */
  decisionAt(index) {
    const next = this.frames[index + 1];
    const decision = next && this.decisions.get(next.seq);
    return decision ? { decision, frame: next } : null;
  }

  /** In words, the decision made on the dice at frame `index` and the luck of the roll that
   * brought them, or null: the board, its words and Try it yourself speak of one decision. */
  verdict(index) {
    const parts = this.verdictParts(index);
    return parts.length ? parts.join(" ") : null;
  }

  /** The same words in their parts, each drawn on its own line: the roll's luck, then the
   * decision made on its dice. */
  verdictParts(index) {
    const parts = [];
    const luck = this.luck.get(this.frames[index].seq);
    if (luck !== undefined) parts.push(luckText(luck));
    const at = this.decisionAt(index);
    if (at) parts.push(decisionText(at.decision, at.frame, this.columns));
    return parts;
  }

  /** The grade of each decision on the button of the roll it was made on (a roll's button:
   * these dice, and what was done with them), with its words for screen readers and a title. */
  markMoves(list) {
    for (const button of list.querySelectorAll("button.move-rolled")) {
      const index = Number(button.dataset.index);
      const at = this.decisionAt(index);
      const verdict = this.verdict(index);
      if (at) {
        const d = at.decision;
        if (d.autoplay) {
          button.classList.add("g-autoplay");
          // Translators: the short mark of a move the computer played (autoplay).
          button.append(h("span", { class: "auto-mark", "aria-hidden": "true" }, gettext("auto")));
        } else {
          button.classList.add(`g-${d.grade}`);
          if (SYMBOLS[d.grade]) {
            button.append(h("span", { class: "g-mark", "aria-hidden": "true" }, SYMBOLS[d.grade]));
          }
        }
        if (d.chance_loss >= CHANCE_MARK) {
          button.append(h("span", { class: "chance-mark", "aria-hidden": "true" },
            interpolate(gettext("−%(percent)s %"), { percent: formatNumber(100 * d.chance_loss, 1) })));
        }
        if (d.autoplay || SYMBOLS[d.grade] || d.chance_loss >= CHANCE_MARK) button.title = verdict;
      }
      // After the button's own words, so that its name still begins with what it shows.
      if (verdict) button.append(h("span", { class: "visually-hidden" }, `. ${verdict}`));
    }
  }

  /** Draw the chart into `el` (its legend, the layer of the slips' marks: `marks`); a click
   * on it or on a mark calls `pick(frame index)`. */
  drawChart(el, legend, pick, marks) {
    this.chart = new Chart(el, legend, this.series, this.frames, this.players, pick,
      this.chances, marks, (player) => this.markedSlips(player));
  }

  /** The slips the chart marks and the move list keeps: everyone's, or one player's. Each
   * with `index`, the moment of its dice (where a click goes), and `at`, that moment's seq. */
  markedSlips(player = this.only) {
    return slipsOf(this.list, player).map((d) => {
      const index = this.positionOf(d.seq);
      const frame = this.frames[index + 1];
      const values = { name: this.players[d.player], round: frame.round,
        chosen: chosenText(frame, this.columns), points: points(d.loss) };
      return { ...d, index, at: this.frames[index].seq,
        label: interpolate(SLIP_LABELS[d.grade](), values) };
    });
  }

  /** Show the slips of `player` alone (null: everyone's) on the chart. */
  showOnly(player) {
    this.only = player;
    if (this.chart) this.chart.drawMarks();
  }

  /** The chart's marker at move `index` (the board beside it says the rest). */
  show(index) {
    if (this.chart) this.chart.mark(this.frames[index].seq);
  }
}

/** A slip's mark on the chart in words, by grade. */
const SLIP_LABELS = {
  inaccuracy: () => gettext("Inaccuracy by %(name)s in round %(round)s: %(chosen)s, %(points)s points lost"),
  mistake: () => gettext("Mistake by %(name)s in round %(round)s: %(chosen)s, %(points)s points lost"),
  blunder: () => gettext("Blunder by %(name)s in round %(round)s: %(chosen)s, %(points)s points lost"),
};

// --- the chart ----------------------------------------------------------------------------------

const PAD = { left: 40, right: 12, top: 10, bottom: 26 };

/** A round number of points between grid lines: about one per 40 px. */
function gridStep(span, height) {
  const raw = span / Math.max(2, Math.floor(height / 40));
  const unit = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 2.5, 5, 10].map((m) => m * unit).find((s) => s >= raw);
}

/** The value of a step line (points [[seq, value]...] in seq order) at `seq`. */
export function valueAt(line, seq) {
  let lo = 0;
  let hi = line.length - 1;
  if (seq < line[0][0]) return line[0][1];
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (line[mid][0] <= seq) lo = mid;
    else hi = mid - 1;
  }
  return line[lo][1];
}

/**
 * The chart's geometry for a chart `clientWidth` wide (280 at least): its size, the seqs and
 * the values it spans, the grid's step, and x(seq), y(value) in its SVG's units.
 */
export function chartScale(series, frames, clientWidth) {
  const width = Math.max(280, clientWidth);
  const height = width < 500 ? 210 : 260;
  const first = frames[0].seq;
  const last = frames[frames.length - 1].seq;
  const values = series.flat().map((p) => p[1]);
  const span = Math.max(...values) - Math.min(...values) || 10;
  const step = gridStep(span, height - PAD.top - PAD.bottom);
  const low = Math.floor(Math.min(...values) / step) * step;
  const high = Math.ceil(Math.max(...values) / step) * step || low + step;
  const plot = width - PAD.left - PAD.right;
  return {
    width, height, first, last, low, high, step,
    x: (seq) => PAD.left + ((seq - first) / Math.max(1, last - first)) * plot,
    y: (v) => PAD.top + ((high - v) / (high - low)) * (height - PAD.top - PAD.bottom),
  };
}

/** Each slip (Review.markedSlips) with where its mark goes, in percent of the chart's width
 * (`left`) and height (`top`): at the moment of its dice (`at`), on its player's line. */
export function markPlaces(slips, series, scale) {
  return slips.map((d) => ({ ...d,
    left: (scale.x(d.at) / scale.width) * 100,
    top: (scale.y(valueAt(series[d.player], d.at)) / scale.height) * 100 }));
}

class Chart {
  constructor(el, legend, series, frames, players, pick, chances, marks, slips) {
    this.marksEl = marks;
    this.slips = slips;
    this.pick = pick;
    this.el = el;
    this.legend = legend;
    this.series = series;
    this.chances = chances;
    this.frames = frames;
    this.players = players;
    this.seq = frames[frames.length - 1].seq;
    this.draw();
    this.svg.addEventListener("click", (e) => pick(this.indexAt(e.clientX)));
    if (marks) marks.addEventListener("keydown", (e) => this.markKeys(e));
    // Narrower or wider: drawn again at the new width, so the labels keep their size.
    let width = el.clientWidth;
    new ResizeObserver(() => {
      if (el.clientWidth !== width) {
        width = el.clientWidth;
        this.draw();
        this.mark(this.seq);
      }
    }).observe(el);
  }

  draw() {
    const scale = chartScale(this.series, this.frames, this.el.clientWidth);
    const { width, height, first, last, low, high, step } = scale;
    const plot = width - PAD.left - PAD.right;
    this.scale = scale;
    this.x = scale.x;
    this.y = scale.y;
    this.width = width;
    this.first = first;
    this.last = last;

    const grid = [];
    for (let v = low; v <= high + step / 2; v += step) {
      const y = this.y(v).toFixed(1);
      grid.push(svg("line", { class: "grid", x1: PAD.left, x2: width - PAD.right, y1: y, y2: y }),
        svg("text", { class: "tick", x: PAD.left - 5, y, dy: "0.32em", "text-anchor": "end" },
          formatNumber(Number(v.toFixed(1)), Number.isInteger(Number(v.toFixed(1))) ? 0 : 1)));
    }
    // The x axis in rounds: where each round's first turn starts, labelled as room allows.
    const starts = [];
    for (const f of this.frames) {
      if (f.kind === "turn_started" && (!starts.length || starts.at(-1)[0] !== f.round)) {
        starts.push([f.round, f.seq]);
      }
    }
    const every = Math.max(1, Math.ceil((28 * starts.length) / plot));
    const base = height - PAD.bottom;
    starts.forEach(([round, seq], k) => {
      const x = this.x(seq).toFixed(1);
      grid.push(svg("line", { class: "round-tick", x1: x, x2: x, y1: base, y2: base + 4 }));
      // Round 1's place is the axis name's (a longer word in some languages than "round").
      if (k > 0 && (k % every === 0 || k === starts.length - 1 && k % every > every / 2)) {
        grid.push(svg("text", { class: "tick", x, y: base + 16, "text-anchor": "middle" }, round));
      }
    });
    // Translators: the name of the chart's x axis (rounds of the game).
    grid.push(svg("text", { class: "tick axis-name", x: 2, y: base + 16 }, gettext("round")));

    const lines = this.series.map((line, p) => {
      let d = `M${this.x(line[0][0]).toFixed(1)} ${this.y(line[0][1]).toFixed(1)}`;
      for (const [seq, v] of line.slice(1)) {
        d += `H${this.x(seq).toFixed(1)}V${this.y(v).toFixed(1)}`;
      }
      d += `H${this.x(last).toFixed(1)}`;
      return svg("path", { class: `line p${p}`, d });
    });
    this.cursor = svg("line", { class: "cursor", y1: PAD.top, y2: base });
    this.dots = this.series.map((_, p) => svg("circle", { class: `dot p${p}`, r: 4 }));
    this.svg = this.svg || svg("svg", { class: "chart", focusable: "false", "aria-hidden": "true" });
    this.svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    this.svg.setAttribute("width", width);
    this.svg.setAttribute("height", height);
    replaceChildren(this.svg, grid, lines, this.cursor, this.dots);
    if (!this.svg.isConnected) this.el.append(this.svg);
    this.height = height;
    this.drawMarks();

    this.values = this.players.map(() => h("span", { class: "value" }));
    this.odds = this.players.map(() => h("span", { class: "odds" }));
    replaceChildren(this.legend, this.players.map((name, p) => h("li", { class: `p${p}` },
      h("span", { class: "swatch" }), h("span", { class: "name" }, name), " ", this.values[p],
      this.chances.length ? this.odds[p] : "")));
  }

  /** A mark per slip at its moment on its player's line, a button that goes there. The
   * marks are one stop in the tab order (roving tabindex): the arrow keys move among them. */
  drawMarks() {
    if (!this.marksEl) return;
    const slips = this.slips();
    const current = this.marksEl.querySelector("button[tabindex='0']");
    const keep = current ? Number(current.dataset.seq) : null;
    const buttons = markPlaces(slips, this.series, this.scale).map((d) => {
      const mark = h("button", {
        type: "button", class: `chart-mark g-${d.grade} p${d.player}`, tabindex: "-1",
        "aria-label": d.label, title: d.label, dataset: { seq: String(d.seq), at: String(d.at) },
        onclick: () => this.pick(d.index),
      }, h("span", { "aria-hidden": "true" }, SYMBOLS[d.grade]));
      mark.style.left = `${d.left}%`;
      mark.style.top = `${d.top}%`;
      return mark;
    });
    const focused = buttons.find((b) => Number(b.dataset.seq) === keep) || buttons[0];
    if (focused) focused.tabIndex = 0;
    replaceChildren(this.marksEl, buttons);
    this.marksEl.hidden = !buttons.length;
  }

  /** The marker at `seq`: a vertical line, each player's value there. */
  mark(seq) {
    this.seq = seq;
    const x = this.x(seq).toFixed(1);
    this.cursor.setAttribute("x1", x);
    this.cursor.setAttribute("x2", x);
    this.series.forEach((line, p) => {
      const v = valueAt(line, seq);
      this.dots[p].setAttribute("cx", x);
      this.dots[p].setAttribute("cy", this.y(v).toFixed(1));
      this.values[p].textContent = formatNumber(v, 1);
    });
    if (this.chances.length) {
      // The chances as they stood at the start of the turn this move belongs to.
      const at = this.chances.filter(([s]) => s <= seq).pop() || this.chances[0];
      at[1].forEach((c, p) => {
        this.odds[p].textContent = ` · ${interpolate(gettext("%(percent)s % to win"), { percent: Math.round(c * 100) })}`;
      });
    }
  }

  /** Left, Right, Home, End among the marks (the replay's own keys stay off meanwhile). */
  markKeys(e) {
    const buttons = [...this.marksEl.querySelectorAll("button")];
    const at = buttons.indexOf(document.activeElement);
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, ArrowUp: at - 1, ArrowDown: at + 1,
      Home: 0, End: buttons.length - 1 }[e.key];
    if (to === undefined || at < 0) return;
    e.preventDefault();
    e.stopPropagation();
    const next = buttons[Math.min(Math.max(to, 0), buttons.length - 1)];
    buttons[at].tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  }

  /** Page coordinates of the chart at `seq` (for the tests: where to click). */
  pointOf(seq) {
    const box = this.svg.getBoundingClientRect();
    return { x: box.left + (this.x(seq) * box.width) / this.width, y: box.top + box.height / 2 };
  }

  /** The frame nearest to a click at clientX. */
  indexAt(clientX) {
    const box = this.svg.getBoundingClientRect();
    const px = ((clientX - box.left) * this.width) / box.width;
    const plot = this.width - PAD.left - PAD.right;
    const seq = this.first + ((px - PAD.left) / plot) * (this.last - this.first);
    let best = 0;
    this.frames.forEach((f, i) => {
      if (Math.abs(f.seq - seq) < Math.abs(this.frames[best].seq - seq)) best = i;
    });
    return best;
  }
}
