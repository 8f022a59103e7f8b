// A finished game's page: the replay. The server sends one frame per stored event
// (game/presenters/replay.py: the state after it and what it changed on the scorecards); this
// module draws the frame chosen by the buttons, the keys, the move list or the URL (#seq=N).
// It scores nothing itself: every figure comes from the rules engine on the server.

import { dieFace, dieName } from "../shared/dice.js";
import { fill, h, replaceChildren } from "../shared/dom.js";
import { gettext, interpolate, pgettext } from "../shared/i18n.js";
import { boxLabel, boxShort, describeEvent } from "../shared/labels.js";
import { waitForAnalysis } from "./analysis_wait.js";
import { Review, loadAnalysis, slipsOf, slipsText } from "./review.js";
import { TryIt } from "./tryit.js";
import { RULESET } from "../shared/ruleset.js";
import { renderScorecard, shortNames } from "../shared/scorecard.js";

const started = performance.now();
const $ = (id) => document.getElementById(id);
const data = JSON.parse($("replay-data").textContent);
const frames = data.frames;
const last = frames.length - 1;
const columns = RULESET.columns;
// describeEvent wants a game: the names and the number of columns are all it reads.
const names = { players: data.players, scorecards: [data.empty_card] };
// Scorecard rows of the totals, by the key the frames use for them.
const TOTAL_ROWS = {
  upper_subtotal: "upper-total", upper_bonus: "upper-bonus", yahtzee_bonus: "y-bonus",
  total: "total", grand_total: "grand-total",
};

const state = { index: last, column: undefined, only: null };
// The seat of the reader's own player in this game, if they played it (views.game_detail).
const you = $("replay").dataset.you === undefined ? null : Number($("replay").dataset.you);
// The stored review of the decisions (review.js), once the game has one.
let review = reviewOf(loadAnalysis());

function reviewOf(analysis) {
  return analysis && frames.length ? new Review(analysis, frames, data.players) : null;
}

// --- the frames, prepared once ---------------------------------------------------------------

/** Everyone's scorecards after each frame: the empty card plus the changes so far. Cards are
 * shared between frames until a frame changes them (copy on write). */
function buildCards() {
  const empty = () => JSON.parse(JSON.stringify(data.empty_card));
  let cards = data.players.map(empty);
  return frames.map((frame) => {
    if (frame.changes) {
      cards = cards.slice();
      const copied = new Set();
      for (const [p, c, key, value] of frame.changes) {
        if (!copied.has(p)) {
          cards[p] = JSON.parse(JSON.stringify(cards[p]));
          copied.add(p);
        }
        if (c === null) cards[p].total = value;
        else if (key in cards[p].columns[c].boxes) cards[p].columns[c].boxes[key] = value;
        else cards[p].columns[c][key] = value;
      }
    }
    return cards;
  });
}
const cardsAt = buildCards();

/** The last frame of each turn (its score, its bonuses), and the very end. */
const turnEnds = frames.map((f, i) => i).filter((i) => i === last
  || (i > 0 && frames[i + 1].kind === "turn_started"));

const indexOfSeq = new Map(frames.map((f, i) => [f.seq, i]));

// --- moving ------------------------------------------------------------------------------------

function clamp(i) {
  return Math.min(Math.max(i, 0), last);
}

/** The frame for #seq=N: that event, or the nearest one; the end for anything else. */
function indexFromHash() {
  const m = /^#seq=(-?\d{1,9})$/.exec(location.hash);
  if (!m) return last;
  const seq = Number(m[1]);
  if (indexOfSeq.has(seq)) return indexOfSeq.get(seq);
  let best = last;
  frames.forEach((f, i) => {
    if (Math.abs(f.seq - seq) < Math.abs(frames[best].seq - seq)) best = i;
  });
  return best;
}

const STEPS = {
  first: () => 0,
  last: () => last,
  prev: (i) => i - 1,
  next: (i) => i + 1,
  "prev-turn": (i) => [...turnEnds].reverse().find((t) => t < i) ?? 0,
  "next-turn": (i) => turnEnds.find((t) => t > i) ?? last,
};

function go(index, { fromUser = true, keepTrying = false } = {}) {
  if (tryIt && tryIt.active && !keepTrying) tryIt.stop();
  state.index = clamp(index);
  if (fromUser) {
    history.replaceState(null, "", `#seq=${frames[state.index].seq}`);
  }
  render();
}

function step(name) {
  const movesHadFocus = $("move-list").contains(document.activeElement);
  go(STEPS[name](state.index));
  if (movesHadFocus) currentMove().focus({ preventScroll: true });
}

// --- drawing -----------------------------------------------------------------------------------

function render() {
  const i = state.index;
  const frame = frames[i];
  renderPosition(frame, i);
  renderDice(frame);
  renderCards(frame, i);
  renderMoves(i);
  if (review) review.show(i);
  if (tryIt) tryIt.draw(i);
  for (const button of document.querySelectorAll(".replay-controls .step")) {
    const to = clamp(STEPS[button.dataset.step](i));
    button.disabled = to === i;
  }
}

function who(p) {
  return p === null || p === undefined ? "" : data.players[p];
}

function renderPosition(frame, i) {
  const parts = [];
  if (frame.kind === "game_finished") parts.push(gettext("Final scores"));
  else if (frame.round > 0) {
    parts.push(interpolate(gettext("Round %(round)s of %(rounds)s"),
      { round: frame.round, rounds: RULESET.boxes.length * columns }));
    parts.push(interpolate(gettext("%(name)s’s turn"), { name: who(frame.player) }));
    parts.push(frame.roll ? interpolate(gettext("roll %(roll)s of 3"), { roll: frame.roll })
      : gettext("before the first roll"));
  } else parts.push(gettext("Before the first turn"));
  const position = interpolate(gettext("Move %(move)s of %(moves)s"), { move: i + 1, moves: frames.length });
  replaceChildren($("replay-position"), position);
  const sentence = describeEvent(frame, names, frame.autoplay ? "autoplay" : null) || "";
  // Trying the next decision: this move's own verdict is another decision's; left out.
  const verdict = review && !(tryIt && tryIt.active) && review.verdict(frame);
  replaceChildren($("replay-status"), h("strong", {}, parts.join(" · ")),
    h("span", { class: "visually-hidden" }, `. ${position}. `), h("br"), sentence,
    verdict ? h("span", { class: "verdict" }, " ", verdict) : null);
}

function renderDice(frame) {
  $("replay-dice").classList.toggle("trying", Boolean(tryIt && tryIt.active));
  $("replay").classList.toggle("trying", Boolean(tryIt && tryIt.active));
  if (tryIt && tryIt.active) {
    replaceChildren($("replay-dice"), tryIt.dice());
    return;
  }
  const held = new Set(frame.held || []);
  replaceChildren($("replay-dice"), [0, 1, 2, 3, 4].map((pos) => {
    const value = frame.dice ? frame.dice[pos] : null;
    const kept = value !== null && held.has(pos);
    return h("li", { class: `die${value === null ? " blank" : ""}${kept ? " held" : ""}`,
      dataset: { value: value === null ? "" : String(value) } },
    dieFace(value),
    // Translators: the tag under a held die, on a 320 px phone too: 6 letters at most.
    h("span", { class: "die-held-tag", "aria-hidden": "true" }, pgettext("die tag", "Held")),
    h("span", { class: "visually-hidden" }, dieName(pos, value, kept)));
  }));
}

function renderCards(frame, i) {
  const changes = frame.changes || [];
  if (columns > 1) {
    if (state.column === undefined) {
      const wide = window.matchMedia("(min-width: 60rem)").matches;
      state.column = wide && data.players.length <= 3 ? null : 0;
    }
    // One column shown: follow the move, so the change just made is in view.
    const moved = changes.find((c) => c[1] !== null);
    if (state.column !== null && moved) state.column = moved[1];
    renderSwitch();
  }
  const shown = state.column === null || state.column === undefined
    ? [...Array(columns).keys()] : [state.column];
  const trying = tryIt && tryIt.active;
  const game = {
    players: data.players, scorecards: cardsAt[i], options: trying ? tryIt.options() : [],
    finished: frame.kind === "game_finished", current_player: frame.player,
  };
  const table = renderScorecard({ game, me: trying ? frame.player : null, you: false,
    columnsShown: shown, canScore: trying }, (box, column) => tryIt.pickBox(box, column));
  for (const [p, c, key] of changes) {
    const row = TOTAL_ROWS[key];
    const selector = row
      ? `tr.${row} td.p${p}${c === null ? "" : `[data-col="${c}"]`}`
      : `tr[data-box="${key}"] td.p${p}[data-col="${c}"]`;
    const cell = table.querySelector(selector);
    if (cell) {
      cell.classList.add("changed");
      if (!row) cell.append(h("span", { class: "visually-hidden" }, " ", gettext("(just scored)")));
    }
  }
  replaceChildren($("replay-card"), table);
}

function renderSwitch() {
  const switcher = $("replay-switch");
  switcher.hidden = false;
  const choices = [...Array(columns).keys(), "all"];
  replaceChildren(switcher, choices.map((c) => h("button", {
    type: "button", class: "switch",
    "aria-pressed": String(c === "all" ? state.column === null : state.column === c),
    onclick: () => { state.column = c === "all" ? null : c; render(); },
  }, c === "all" ? gettext("All") : interpolate(gettext("Col. %(column)s ×%(multiplier)s"),
    { column: c + 1, multiplier: RULESET.multipliers[c] }))));
}

// --- the move list -----------------------------------------------------------------------------

// By round, one line per turn: the player, each roll (kept dice marked), the box, the bonuses.
// Only the current move is in the tab order (roving tabindex); the arrow keys move from it.
// The analysis adds its grades to these buttons (data-seq). A button's name is its visible
// text followed by what it leaves unsaid (hidden text), so that speech users can say what they
// see; the short forms a phone shows carry the long ones beside them.

const unsaid = (text) => h("span", { class: "visually-hidden" }, text);

function moveButton(i, content) {
  return h("button", {
    type: "button", class: `move move-${frames[i].kind}`, tabindex: "-1",
    dataset: { index: String(i), seq: String(frames[i].seq) },
  }, content);
}

function rollButton(i) {
  const f = frames[i];
  const kept = new Set(f.held);
  // Kept dice marked; the others stay plain text (hundreds of rolls: few elements).
  const dice = f.dice.flatMap((d, pos) => [pos ? " " : null,
    kept.has(pos) ? h("span", { class: "kept" }, d) : String(d)]);
  // Translators: read out after the dice of a roll ("2 3 5 5 6: roll 2, held 5 5").
  const said = kept.size ? interpolate(gettext(": roll %(roll)s, held %(held)s"),
    { roll: f.roll, held: f.held.map((pos) => f.dice[pos]).join(" ") })
    // Translators: read out after the dice of a roll ("2 3 5 5 6: roll 1").
    : interpolate(gettext(": roll %(roll)s"), { roll: f.roll });
  return moveButton(i, [...dice, unsaid(said)]);
}

function scoreButton(i) {
  const f = frames[i];
  // Translators: a triple scorecard's column, short ("c2").
  const col = columns > 1 ? ` ${interpolate(gettext("c%(column)s"), { column: f.column + 1 })}` : "";
  // Translators: read out after a scored box and its points ("Chance 21: scored").
  const where = columns > 1 ? interpolate(gettext(": scored in column %(column)s"), { column: f.column + 1 })
    // Translators: read out after a scored box and its points ("Chance 21: scored").
    : gettext(": scored");
  return moveButton(i, [h("span", { class: "long" }, boxLabel(f.box)),
    h("span", { class: "short" }, boxShort(f.box), unsaid(` (${boxLabel(f.box)})`)),
    // Translators: "J" marks a box scored with the Joker rule (said out: "(Joker)").
    col, " ", h("strong", {}, f.points), f.joker ? [` ${gettext("J")}`, unsaid(` ${gettext("(Joker)")}`)] : "",
    unsaid(where)].flat());
}

function bonusButton(i) {
  const f = frames[i];
  const kind = f.bonus === "upper" ? gettext("Upper bonus")
    : interpolate(gettext("%(box)s bonus"), { box: boxLabel(RULESET.yahtzee_box) });
  return moveButton(i, [`+${f.points}`, unsaid(` ${kind}`)]);
}

function buildMoves() {
  const list = $("move-list");
  const shorts = shortNames(data.players);
  let round = null;
  let turns = null;
  let line = null;
  const items = [];
  frames.forEach((f, i) => {
    if (f.kind === "game_started") {
      // Shown "Start", read out as a whole sentence.
      items.push(h("li", { class: "move-edge" }, moveButton(i, [
        h("span", { "aria-hidden": "true" }, pgettext("move list", "Start")),
        unsaid(gettext("Start of the game"))])));
    } else if (f.kind === "turn_started") {
      if (f.round !== round) {
        round = f.round;
        turns = h("ol", { class: "turns" });
        items.push(h("li", { class: "round" },
          h("h3", { class: "round-title" }, interpolate(gettext("Round %(round)s"), { round })), turns));
      }
      line = h("span", { class: "turn-moves" });
      turns.append(h("li", { class: `turn p${f.player}`, dataset: { player: String(f.player) } },
        // The name is shown (whole, or short on phones); the sentence is what is read out.
        moveButton(i, [h("span", { class: "long", "aria-hidden": "true" }, who(f.player)),
          h("span", { class: "short", "aria-hidden": "true" }, shorts[f.player]),
          unsaid(interpolate(gettext("%(name)s’s turn, round %(round)s"),
            { name: who(f.player), round }))]), line));
    } else if (f.kind === "rolled") {
      line.append(rollButton(i));
    } else if (f.kind === "scored") {
      line.append(scoreButton(i));
    } else if (f.kind === "bonus") {
      line.append(bonusButton(i));
    } else if (f.kind === "game_finished") {
      items.push(h("li", { class: "move-edge" }, moveButton(i, gettext("Game over"))));
    }
  });
  replaceChildren(list, items);
  list.addEventListener("click", (e) => {
    const button = e.target.closest("button.move");
    if (button) go(Number(button.dataset.index));
  });
}

let shownMove = null;

function currentMove() {
  return $("move-list").querySelector(`button.move[data-index="${state.index}"]`);
}

function renderMoves() {
  if (shownMove) {
    shownMove.removeAttribute("aria-current");
    shownMove.tabIndex = -1;
  }
  shownMove = currentMove();
  if (!shownMove) return;
  shownMove.setAttribute("aria-current", "step");
  shownMove.tabIndex = 0;
  // Keep the current move in view inside the list, without scrolling the page.
  const list = $("move-list");
  const top = shownMove.getBoundingClientRect().top - list.getBoundingClientRect().top
    + list.scrollTop;
  if (top < list.scrollTop || top + shownMove.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = top - list.clientHeight / 2;
  }
}

// --- keys, buttons, the URL ------------------------------------------------------------------

const KEYS = {
  ArrowLeft: "prev", ArrowRight: "next", ArrowUp: "prev-turn", ArrowDown: "next-turn",
  Home: "first", End: "last",
};

document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
  const t = e.target;
  if (t instanceof HTMLElement && (t.isContentEditable || t.closest("input, textarea, select"))) {
    return;
  }
  if (e.key === "Escape" && tryIt && tryIt.active) {
    tryIt.stop();
    render();
    return;
  }
  const name = KEYS[e.key];
  if (!name) return;
  e.preventDefault();
  step(name);
});

for (const button of document.querySelectorAll(".replay-controls .step")) {
  button.addEventListener("click", () => step(button.dataset.step));
}
window.addEventListener("hashchange", () => go(indexFromHash(), { fromUser: false }));

// --- start ---------------------------------------------------------------------------------------

// --- the analysis beside the board: the chart, the filter of the moves, trying a choice ----

let tryIt = null;

/** The chart moves from the analysis to the side column, above the moves. */
function placeChart() {
  const figure = $("chart-figure");
  if (!figure) return;
  $("chart-slot").replaceChildren(figure);
  $("chart-slot").hidden = false;
}

/** A chart's moment picked: the board shows it (already in view beside the chart on a wide
 * screen and kept at the top on a phone; scrolled to where neither holds). */
function pickOnChart(index) {
  go(index);
  const box = $("replay-dice").getBoundingClientRect();
  if (box.top < 0 || box.bottom > window.innerHeight) {
    $("replay-dice").scrollIntoView({ block: "nearest" });
  }
}

function drawChart() {
  placeChart();
  review.drawChart($("analysis-chart"), $("chart-legend"), pickOnChart, $("chart-marks"));
}

/** The moves of turns with a slip of `player` alone (null: every move), the chart's marks too. */
function showOnly(player) {
  state.only = player;
  review.showOnly(player);
  const list = $("move-list");
  list.classList.toggle("filtered", player !== null);
  for (const turn of list.querySelectorAll("li.turn")) {
    const mine = Number(turn.dataset.player) === player
      && turn.querySelector(".move.g-inaccuracy, .move.g-mistake, .move.g-blunder");
    turn.hidden = player !== null && !mine;
  }
  for (const round of list.querySelectorAll("li.round")) {
    round.hidden = player !== null && !round.querySelector("li.turn:not([hidden])");
  }
  for (const edge of list.querySelectorAll("li.move-edge")) edge.hidden = player !== null;
  const found = player === null ? [] : slipsOf(review.list, player);
  const values = { name: player === null ? "" : data.players[player], slips: slipsText(found) };
  let note = "";
  if (player !== null && !found.length) {
    note = interpolate(player === you ? gettext("You made no mistakes: no turn is listed.")
      : gettext("%(name)s made no mistakes: no turn is listed."), values);
  } else if (player !== null) {
    note = interpolate(player === you
      ? gettext("Your mistakes: %(slips)s. Only those turns are listed.")
      : gettext("Mistakes of %(name)s: %(slips)s. Only those turns are listed."), values);
  }
  $("moves-filter-note").textContent = note;
  renderMoves();
}

/** "Only my mistakes" for a reader who played; a choice of player for anyone else. */
function buildFilter() {
  const box = $("moves-filter");
  if (you !== null) {
    const toggle = h("button", { type: "button", class: "btn-toggle only-mine",
      "aria-pressed": "false",
      onclick: () => {
        const on = toggle.getAttribute("aria-pressed") !== "true";
        toggle.setAttribute("aria-pressed", String(on));
        showOnly(on ? you : null);
      } }, gettext("Only my mistakes"));
    replaceChildren(box, toggle);
  } else {
    const select = h("select", { id: "mistakes-of", class: "mistakes-of",
      onchange: () => showOnly(select.value === "" ? null : Number(select.value)) },
    h("option", { value: "" }, gettext("Every move")),
    data.players.map((name, p) => h("option", { value: String(p) },
      interpolate(gettext("%(name)s’s mistakes"), { name }))));
    replaceChildren(box, h("label", { for: "mistakes-of", class: "visually-hidden" },
      gettext("Show the mistakes of")), select);
  }
  box.hidden = false;
}

/** Everything the analysis adds to the replay, once it is there. */
function withReview() {
  review.markMoves($("move-list"));
  drawChart();
  buildFilter();
  tryIt = new TryIt($("try-panel"), {
    frames, players: data.players, decisions: review.decisions,
    go, render, indexOf: (seq) => indexOfSeq.get(seq),
    url: (seq) => $("replay").dataset.try.replace(/0$/, String(seq)),
  });
}

const prepared = performance.now();
$("replay").hidden = frames.length === 0;
let built = prepared;
let charted = prepared;
if (frames.length) {
  buildMoves();
  charted = performance.now();
  if (review) withReview();
  built = performance.now();
  go(indexFromHash(), { fromUser: false });
  // Opened right at the end: the analysis fills in by itself when it is stored.
  if (!review && $("analysis").dataset.poll) {
    waitForAnalysis($("analysis"), () => {
      review = reviewOf(loadAnalysis());
      if (!review) return;
      withReview();
      render();
    });
  }
  if (location.hash && location.hash !== `#seq=${frames[state.index].seq}`) {
    history.replaceState(null, "", `#seq=${frames[state.index].seq}`);
  }
}
void document.body.offsetHeight; // the layout is part of drawing: count it
const ready = performance.now();
$("replay").dataset.ready = "true";
// For the end-to-end tests and curious people: where the replay is, and what drawing it cost.
window.yahtzeeReplay = {
  state, frames, go, showOnly,
  get tryIt() { return tryIt; },
  get review() { return review; },
  timing: {
    scriptMs: ready - started, prepareMs: prepared - started, movesMs: charted - prepared,
    chartMs: built - charted, drawMs: ready - built, startedAt: started, readyAt: ready,
  },
};
