// A finished game's page: the replay. The page carries every stored event with what it
// changed in the game's state (game/presenters/replay.py), folded as the room folds its
// frames (moments.js); this module draws the moment chosen by the buttons, the keys, the move
// list or the URL (#seq=N), with the room's scorecard, column switch and dice (shared/). It
// scores nothing itself: every figure comes from the rules engine on the server.

import { diceItems } from "../shared/dice.js";
import { h, replaceChildren } from "../shared/dom.js";
import { gettext, interpolate, pgettext } from "../shared/i18n.js";
import { boxLabel, boxShort, describeEvent } from "../shared/labels.js";
import { RULESET } from "../shared/ruleset.js";
import { firstColumn, renderColumnSwitch, renderScorecard, shortNames } from "../shared/scorecard.js";
import { waitForAnalysis } from "./analysis_wait.js";
import {
  changedCells, diceShown, followColumn, foldReplay, frameOf, indexOfHash, positionLine, steps,
} from "./moments.js";
import { Review, loadAnalysis, slipsOf, slipsText } from "./review.js";
import { TryIt } from "./tryit.js";

// Scorecard rows of the sums, by the key the state's scorecards use for them.
const TOTAL_ROWS = {
  upper_subtotal: "upper-total", upper_bonus: "upper-bonus", yahtzee_bonus: "y-bonus",
  total: "total", grand_total: "grand-total",
};

export function startReplay() {
  const started = performance.now();
  const $ = (id) => document.getElementById(id);
  const data = JSON.parse($("replay-data").textContent);
  const moments = foldReplay(data);
  const frames = moments.map(frameOf);
  const last = frames.length - 1;
  const diceCount = Number($("replay").dataset.dice);

  const state = { index: last, column: undefined, only: null };
  // The seat of the reader's own player in this game, if they played it (views.game_detail).
  const you = $("replay").dataset.you === undefined ? null : Number($("replay").dataset.you);
  // The stored review of the decisions (review.js), once the game has one.
  let review = reviewOf(loadAnalysis());

  function reviewOf(analysis) {
    return analysis && frames.length ? new Review(analysis, frames, data.players) : null;
  }

  const indexOfSeq = new Map(frames.map((f, i) => [f.seq, i]));
  const STEPS = steps(frames);
  const columns = RULESET.columns;

  // --- moving ------------------------------------------------------------------------------------

  function clamp(i) {
    return Math.min(Math.max(i, 0), last);
  }

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
    renderDice(diceShown(frames, i));
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
    const position = interpolate(gettext("Move %(move)s of %(moves)s"), { move: i + 1, moves: frames.length });
    replaceChildren($("replay-position"), position);
    // A turn's start says no more than the heading above it ("Round 7 of 13 · Ann’s turn").
    const sentence = frame.kind === "turn_started" ? ""
      : describeEvent(frame, moments[i].game, frame.autoplay ? "autoplay" : null) || "";
    // While trying, the game's own choice and its grade wait for the reader's choice.
    const verdict = review && !(tryIt && tryIt.active) ? review.verdictParts(i) : [];
    replaceChildren($("replay-status"), h("strong", {}, positionLine(frame, moments[i].game)),
      h("span", { class: "visually-hidden" }, `. ${position}. `), h("br"), sentence,
      verdict.length ? h("span", { class: "verdict" }, verdict.map((part) => [" ",
        h("span", { class: "verdict-part" }, part)]).flat()) : null);
  }

  function renderDice(shown) {
    const trying = Boolean(tryIt && tryIt.active);
    $("replay-dice").classList.toggle("trying", trying);
    $("replay").classList.toggle("trying", trying);
    replaceChildren($("replay-dice"), trying ? tryIt.dice()
      : diceItems(shown.dice, new Set(shown.held), { count: diceCount }));
  }

  function renderCards(frame, i) {
    const { game } = moments[i];
    const changed = changedCells(moments[i].changes);
    const columns = game.scorecards[0].columns.length;
    if (columns > 1) {
      if (state.column === undefined) {
        state.column = firstColumn(game, window.matchMedia("(min-width: 60rem)").matches, 0);
      }
      state.column = followColumn(state.column, changed);
    }
    renderColumnSwitch($("replay-switch"), game, state.column,
      (column) => { state.column = column; render(); });
    const shown = state.column === null || state.column === undefined
      ? [...Array(columns).keys()] : [state.column];
    const trying = tryIt && tryIt.active;
    // What was played, not what each open box would score: the options are a try's alone.
    const view = { ...game, options: trying ? tryIt.options() : [],
      finished: frame.kind === "game_finished" };
    const table = renderScorecard({ game: view, me: trying ? frame.player : null, you: false,
      columnsShown: shown, canScore: trying }, (box, column) => tryIt.pickBox(box, column));
    for (const [p, c, key] of changed) {
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
  window.addEventListener("hashchange", () => go(indexOfHash(frames, location.hash), { fromUser: false }));

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
    go(indexOfHash(frames, location.hash), { fromUser: false });
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
}
