// The words the room page and the game's page show people: the end card for each reader, the
// chances in plain words, what the coach says a box costs, the review's waiting line and its
// bounded back-off.

import assert from "node:assert/strict";
import { test } from "node:test";

import { waitingText, pollDelays } from "../../static/game/game/analysis_wait.js";
import { costText } from "../../static/game/room/coach.js";
import { endCard, ordinal, placeOf, playedFor } from "../../static/game/room/ending.js";
import { likelyRange, pct, standingLine } from "../../static/game/room/standings.js";

const game = (players, totals, winners) => ({
  players, winners, scorecards: totals.map((total) => ({ total })),
});

test("a win is celebrated; a loss is a calm card with the place and the score", () => {
  const g = game(["Bot 1 (medium)", "Ann"], [221, 165], [0]);
  assert.deepEqual(endCard(g, 1), {
    kind: "loss", title: "You finished 2nd — 165", detail: "Bot 1 (medium) wins with 221 points." });
  assert.deepEqual(endCard(g, 0), {
    kind: "win", title: "You win!", detail: "221 points, 56 points ahead." });
  assert.deepEqual(endCard(g, null), { kind: "over", title: "Bot 1 (medium) wins — 221", detail: "" });
});

test("more than two players: the place says of how many; a tie is shared", () => {
  const g = game(["Ann", "Bob", "Cy"], [200, 230, 230], [1, 2]);
  assert.equal(endCard(g, 0).title, "You finished 3rd of 3 — 200");
  assert.equal(endCard(g, 0).detail, "Bob and Cy share the win with 230 points.");
  assert.deepEqual(endCard(g, 1), {
    kind: "win", title: "A shared win!", detail: "You and Cy: 230 points." });
  assert.equal(endCard(g, null).title, "Bob and Cy share the win — 230");
});

test("alone at the table the end is still a win; one point ahead is singular", () => {
  assert.deepEqual(endCard(game(["Ann"], [245], [0]), 0),
    { kind: "win", title: "Game over — 245 points", detail: "" });
  assert.equal(endCard(game(["Ann", "Bob"], [201, 200], [0]), 0).detail,
    "201 points, 1 point ahead.");
  assert.equal(endCard(game(["Ann", "Bob"], [0, 0], []), 0).kind, "over");
});

test("places and ordinals", () => {
  assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22, 111].map(ordinal),
    ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "111th"]);
  assert.equal(placeOf([230, 250, 230], 2), 2); // a tie shares the better place
});

test("the chances in words: to win, and the likely final score", () => {
  const ann = { chance: 0.4612, expected: 251.2, sd: 20.3, percentiles: [228, 247, 281] };
  assert.equal(standingLine("Ann", ann, false), "Ann: 46 % to win · likely 228–281");
  assert.equal(standingLine("Ann", { ...ann, chance: 1 }, true), "Ann: likely 228–281");
  // From the 10th to the 90th percentile, not the expectation ± a spread.
  assert.equal(likelyRange([172, 231, 318]), "172–318");
  assert.equal(likelyRange([245, 245, 245]), "245"); // nothing left to chance
  assert.deepEqual([0.999, 0.001, 0, 0.5].map(pct), [">99 %", "<1 %", "0 %", "50 %"]);
});

test("the coach says 'best' or what a box costs", () => {
  assert.equal(costText(0), "best");
  assert.equal(costText(0.04), "best");
  assert.equal(costText(2.3), "−2.3");
  assert.equal(costText(0.06), "−0.1");
});

test("the review's back-off grows, is capped and ends", () => {
  const delays = pollDelays();
  assert.equal(delays[0], 1000);
  assert.ok(delays.every((d, i) => i === 0 || d >= delays[i - 1]));
  assert.equal(Math.max(...delays), 8000);
  const total = delays.reduce((a, b) => a + b, 0);
  assert.ok(total <= 120000 && total > 100000, total);
  // The analysis is stored 1.5–2.2 s after the end: the first asks come that soon.
  assert.ok(delays[0] + delays[1] <= 2500);
  assert.match(waitingText(3.2), /3 s/);
  assert.match(waitingText(0, true), /reload the page later/);
});

test("the review says the chance to win a decision gave up in points of percent", async () => {
  const { chancePoints, CHANCE_MARK } = await import("../../static/game/game/review.js");
  assert.equal(chancePoints(0.0123), "1.2\u00a0%");
  assert.equal(chancePoints(0.0004), "under 0.1\u00a0%");
  assert.equal(chancePoints(0), "0\u00a0%");
  assert.equal(CHANCE_MARK, 0.005);
});

test("the end card says who played whose turns", () => {
  const g = { ...game(["Ann", "Bob", "Bot 1 (easy)"], [240, 180, 150], [0]), rounds: 13 };
  assert.deepEqual(playedFor(g, 0, [7, 1, 0]), [
    "The computer played 7 of your 13 turns.",
    "The computer played 1 of Bob’s 13 turns."]);
  assert.deepEqual(playedFor(g, null, [7, 0, 0]), ["The computer played 7 of Ann’s 13 turns."]);
  assert.deepEqual(playedFor(g, 0, [0, 0, 0]), []);
  assert.deepEqual(playedFor(g, 0, []), []); // an old server's state: nothing said
});
