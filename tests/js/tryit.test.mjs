// The game page's analysis board: which decision the reader may try from a position, the
// option their choice is (looked up in the server's valuation of every option), its verdict in
// words, and the slips the chart marks and the "only my mistakes" filter keeps.

import assert from "node:assert/strict";
import { test } from "node:test";

import { loadFixture, usePageRuleset } from "./fixture.mjs";

usePageRuleset(loadFixture().games.find((g) => g.rules === "yahtzee").ruleset);
const { decisionToTry, optionText, playedText, triedVerdict } =
  await import("../../static/game/game/tryit.js");
const { fromAdvice, fromTried } = await import("../../static/game/shared/options.js");
const { slipsOf, slipsText } = await import("../../static/game/game/review.js");

// What GET /games/<id>/try/<seq> answers (presenters/review.py tried_view): a known position,
// 1 3 3 5 6 on an empty card with two rolls left (docs/ai.md).
const TRIED = {
  seq: 4, player: 0, dice: [3, 1, 5, 3, 6], rolls_left: 2, chosen: [], best: [3, 3],
  expected_best: 251.405,
  holds: [
    { keep: [3, 3], expected: 251.405, loss: 0, grade: "best" },
    { keep: [], expected: 249.472, loss: 1.933, grade: "mistake" },
    { keep: [3], expected: 250.1, loss: 1.305, grade: "mistake" },
    { keep: [1, 3, 3], expected: 250.9, loss: 0.505, grade: "inaccuracy" },
  ],
  boxes: [
    { box: "chance", points: 18, expected: 238.2, loss: 13.205, grade: "blunder" },
    { box: "threes", points: 6, expected: 246.0, loss: 5.405, grade: "blunder" },
  ],
};

// Frames as the replay has them: a turn, its first roll, a re-roll (a decision), a score.
const FRAMES = [
  { seq: 1, kind: "game_started", player: 0 },
  { seq: 2, kind: "turn_started", player: 0, round: 1 },
  { seq: 3, kind: "rolled", player: 0, round: 1, roll: 1, dice: [3, 1, 5, 3, 6], held: [] },
  { seq: 4, kind: "rolled", player: 0, round: 1, roll: 2, dice: [2, 4, 1, 6, 5], held: [] },
  { seq: 5, kind: "scored", player: 0, round: 1, box: "chance", column: 0, points: 18,
    dice: [2, 4, 1, 6, 5], held: [] },
];
const DECISIONS = new Map([
  [4, { seq: 4, grade: "mistake", loss: 1.933, best: [3, 3] }],
  [5, { seq: 5, grade: "best", loss: 0 }],
]);

test("the decision to try is the one made on the dice on the board, never another", () => {
  assert.equal(decisionToTry(FRAMES, 1, DECISIONS), null); // a turn's start: no decision next
  assert.deepEqual(decisionToTry(FRAMES, 2, DECISIONS), { seq: 4, at: 2 });
  assert.deepEqual(decisionToTry(FRAMES, 3, DECISIONS), { seq: 5, at: 3 });
  // After a box is scored its dice were decided on already: nothing to try from here.
  assert.equal(decisionToTry(FRAMES, 4, DECISIONS), null);
  assert.equal(decisionToTry(FRAMES, 0, new Map()), null);
});

test("held dice are looked up as the kept values, whatever their positions", () => {
  const options = fromTried(TRIED);
  assert.equal(options.hold(new Set([0, 3])).loss, 0); // the two 3s
  assert.equal(options.hold(new Set([3, 0])).grade, "best");
  assert.equal(options.hold(new Set()).loss, 1.933); // re-roll all five
  assert.equal(options.hold(new Set([1, 0, 3])).grade, "inaccuracy");
  assert.equal(options.hold(new Set([0, 1, 2, 3, 4])), null); // all five: score instead
  assert.equal(options.box("chance", 0).loss, 13.205);
  assert.equal(options.box("yahtzee", 0), null); // not a legal box for these dice
  assert.equal(options.best().kind, "hold");
  assert.deepEqual(options.best().keep, [3, 3]);
});

test("the coach's advice and a try's answer are the same options once read", () => {
  // The same position as TRIED, as a practice room's `advice` frame says it.
  const advice = {
    type: "advice", game: 1, seq: 3, player: 0, rolls_left: 2,
    boxes: [{ box: "threes", column: 0, value: 246.0 }, { box: "chance", column: 0, value: 238.2 }],
    holds: [{ hold: [0, 3], dice: [3, 3], value: 251.405 }, { hold: [0, 1, 3], dice: [1, 3, 3], value: 250.9 },
      { hold: [0], dice: [3], value: 250.1 }, { hold: [], dice: [], value: 249.472 }],
  };
  const coach = fromAdvice(advice, TRIED.dice);
  const tried = fromTried(TRIED);
  for (const held of [[0, 3], [3, 0], [], [1, 0, 3], [3]]) {
    const a = coach.hold(new Set(held));
    const t = tried.hold(new Set(held));
    assert.deepEqual([a.kind, a.keep, a.value], [t.kind, t.keep, t.value]);
    assert.ok(Math.abs(a.loss - t.loss) < 1e-9, `${held}: ${a.loss} against ${t.loss}`);
  }
  assert.deepEqual(coach.hold(new Set([0, 3])).positions, [0, 3]); // the frame says which dice
  for (const box of ["threes", "chance"]) {
    const a = coach.box(box, 0);
    const t = tried.box(box, 0);
    assert.deepEqual([a.kind, a.box, a.column, a.value], [t.kind, t.box, t.column, t.value]);
    assert.ok(Math.abs(a.loss - t.loss) < 1e-9);
  }
  assert.deepEqual(coach.best(), { kind: "hold", keep: [3, 3], positions: [0, 3], value: 251.405, loss: 0 });
  // A box before a hold only when it is worth more; with no roll left, the best box.
  assert.equal(fromAdvice({ ...advice, holds: [] }, TRIED.dice).best().box, "threes");
  // A triple try's slot names are read as a box and a column.
  const triple = fromTried({ ...TRIED, boxes: [{ box: "chance@3", points: 18, expected: 1, loss: 2, grade: "blunder" }] });
  assert.deepEqual([triple.box("chance", 2).points, triple.box("chance", 0)], [18, null]);
});

test("the verdict names the choice, its grade, what it gave up and the game's choice", () => {
  const options = fromTried(TRIED);
  const best = triedVerdict(options.hold(new Set([0, 3])), options, 1);
  assert.equal(best.grade, "best");
  assert.equal(best.title, "Keep 3 3: the best choice");
  assert.match(best.detail, /^No choice is worth more here\. Expected final score 251\.4\.$/);

  const played = playedText(FRAMES[3], DECISIONS.get(4));
  assert.equal(played, "Held nothing, a mistake (1.93 lost)");
  const blunder = triedVerdict(options.box("chance", 0), options, 1, played);
  assert.equal(blunder.title, "Score Chance (18): a blunder ??");
  assert.equal(blunder.detail, "13.21 points behind the best, keep 3 3. Expected final score "
    + "238.2. In the game: Held nothing, a mistake (1.93 lost).");
  assert.equal(optionText({ kind: "hold", keep: [] }), "re-roll all five");
});

test("the slips: graded ones only, autoplay's left out, one player's or everyone's", () => {
  const decisions = [
    { seq: 4, player: 0, grade: "mistake", loss: 1.9 },
    { seq: 5, player: 0, grade: "best", loss: 0 },
    { seq: 9, player: 1, grade: "blunder", loss: 7 },
    { seq: 10, player: 1, grade: "inaccuracy", loss: 0.2, autoplay: true },
    { seq: 12, player: 1, grade: "inaccuracy", loss: 0.3 },
    { seq: 14, player: 1, grade: "inaccuracy", loss: 0.4 },
  ];
  assert.deepEqual(slipsOf(decisions).map((d) => d.seq), [4, 9, 12, 14]);
  assert.deepEqual(slipsOf(decisions, 0).map((d) => d.seq), [4]);
  assert.equal(slipsText(slipsOf(decisions, 1)), "1 blunder, 2 inaccuracies");
  assert.equal(slipsText(slipsOf(decisions, 0)), "1 mistake");
  assert.equal(slipsText([]), "no mistakes");
});
