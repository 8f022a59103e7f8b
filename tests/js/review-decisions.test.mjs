// A finished game's review speaks of one decision at a time: a mistake's mark on the chart goes
// to the moment of the dice the decision was made on, and there the board's words and Try it
// yourself name that same decision (whole games of the fixture, every move a decision).

import assert from "node:assert/strict";
import { test } from "node:test";

import { loadFixture, usePageRuleset } from "./fixture.mjs";

const { games } = loadFixture();
usePageRuleset(games[0].ruleset);
const { foldReplay, frameOf } = await import("../../static/game/game/moments.js");
const { Review, chosenText, decisionText, luckText } = await import("../../static/game/game/review.js");
const { decisionToTry } = await import("../../static/game/game/tryit.js");

const GRADES = ["inaccuracy", "mistake", "blunder", "best", "good"];

/** A review where every real decision (a re-roll, a box) is graded, slips of every grade. */
function reviewOf(frames, players) {
  const decided = frames.filter((f) => (f.kind === "rolled" && f.roll > 1) || f.kind === "scored");
  const decisions = decided.map((f, k) => {
    const grade = GRADES[k % GRADES.length];
    const d = { seq: f.seq, grade, loss: [0.4, 2.5, 8.23, 0, 0.004][k % GRADES.length] };
    if (grade !== "best") d.best = f.kind === "scored" ? "chance" : [6, 6];
    return d;
  });
  const series = players.map((_, p) => [[frames[0].seq, 250 - p]]);
  return { review: new Review({ decisions, luck: [], series }, frames, players), decisions };
}

for (const { rules, replay } of games.filter((g) => g.rules !== "triple")) {
  test(`${rules}: every mark opens its own decision on its own dice, words and try alike`, () => {
    const frames = foldReplay(replay).map(frameOf);
    const { review, decisions } = reviewOf(frames, replay.players);
    const marked = review.markedSlips();
    assert.equal(marked.length, decisions.filter((d) => ["inaccuracy", "mistake", "blunder"]
      .includes(d.grade)).length);
    for (const mark of marked) {
      const board = frames[mark.index]; // what the board shows once the mark is clicked
      const made = frames[frames.findIndex((f) => f.seq === mark.seq)]; // the decision's move
      assert.equal(board.player, made.player);
      assert.equal(board.kind, "rolled"); // the dice it was made on: a roll's
      if (made.kind === "scored") {
        assert.deepEqual(board.dice, made.dice);
      } else {
        // The dice kept for the re-roll are those of the board, where they were.
        for (const pos of made.held) assert.equal(made.dice[pos], board.dice[pos]);
      }
      const words = review.verdict(mark.index);
      assert.ok(words.startsWith(`Choice: ${chosenText(made, 1)} — `), words);
      assert.ok(words.includes(`${mark.loss.toFixed(2)} points lost`), words);
      assert.deepEqual(decisionToTry(frames, mark.index, review.decisions),
        { seq: mark.seq, at: mark.index });
    }
  });

  test(`${rules}: at every moment the words and Try it yourself speak of the same decision`, () => {
    const frames = foldReplay(replay).map(frameOf);
    const { review } = reviewOf(frames, replay.players);
    frames.forEach((frame, i) => {
      const at = review.decisionAt(i);
      const tried = decisionToTry(frames, i, review.decisions);
      assert.equal(at ? at.decision.seq : null, tried ? tried.seq : null, `frame ${i}`);
      const words = review.verdict(i);
      if (at) assert.ok(words.includes(chosenText(at.frame, 1)), words);
      else assert.equal(words, null); // no luck given here, no decision made on these dice
    });
  });
}

test("a decision in plain words: the choice, its grade, the points it lost, the best", () => {
  const frame = { kind: "rolled", dice: [1, 3, 3, 4, 6], held: [1, 2] };
  assert.equal(decisionText({ grade: "blunder", loss: 8.234, best: [3, 4] }, frame, 1),
    "Choice: Held 3 3 — a blunder ??, 8.23 points lost; best: keep 3 4.");
  assert.equal(decisionText({ grade: "best", loss: 0 }, frame, 1),
    "Choice: Held 3 3 — the best choice.");
  assert.equal(decisionText({ grade: "good", loss: 0.004, best: [3, 3, 4] }, frame, 1),
    "Choice: Held 3 3 — a good choice, under 0.01 points lost; best: keep 3 3 4.");
  assert.equal(decisionText({ grade: "inaccuracy", loss: 1, best: [] }, frame, 1),
    "Choice: Held 3 3 — an inaccuracy ?!, 1.00 point lost; best: re-roll all five.");
  assert.equal(decisionText({ grade: "mistake", loss: 2, best: [3], autoplay: true }, frame, 1),
    "The computer’s choice (while away): Held 3 3, not graded; 2.00 points lost, best: keep 3.");
  assert.equal(decisionText({ grade: "mistake", loss: 2, best: [3], chance_loss: 0.041,
    best_to_win: [3, 3, 4] }, frame, 1),
  "Choice: Held 3 3 — a mistake ?, 2.00 points lost; best: keep 3. "
    + "Chance to win given up: 4.1\u00a0%; best to win: keep 3 3 4.");
  assert.equal(decisionText({ grade: "best", loss: 0, chance_loss: 0.0004 }, frame, 1),
    "Choice: Held 3 3 — the best choice. Chance to win given up: under 0.1\u00a0%.");
});

test("a roll's luck in plain words, singular and plural", () => {
  assert.equal(luckText(1.823), "This roll: 1.82 points better than expected.");
  assert.equal(luckText(-1), "This roll: 1.00 point worse than expected.");
  assert.equal(luckText(0.001), "This roll: as good as expected.");
});
