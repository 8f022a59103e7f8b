// static/game/game/dice-check.js, the check behind "Verify the dice": every roll of a game redone
// from its seeds. The fixture is a game's dice.json made by game.rules (the Python check of
// tests/rules/test_dice_file_lengths.py reads the same file).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { checkGame } from "../../static/game/game/dice-check.js";

const game = () => JSON.parse(readFileSync(new URL("./dice-check.fixture.json", import.meta.url)));

test("every roll of an untouched game matches, and the seed its commitment", async () => {
  const data = game();
  const { commitmentOk, rolls } = await checkGame(data);
  assert.equal(commitmentOk, true);
  assert.equal(rolls.length, data.rolls.length);
  assert.deepEqual(rolls.filter((r) => !r.ok), []);
});

test("a changed die fails its roll and no other", async () => {
  const data = game();
  const roll = data.rolls[4];
  const free = [0, 1, 2, 3, 4].find((i) => !roll.held.includes(i));
  roll.dice[free] = (roll.dice[free] % 6) + 1;
  const { rolls } = await checkGame(data);
  assert.deepEqual(rolls.filter((r) => !r.ok).map((r) => r.k), [roll.k]);
});

test("a roll that lost its last die is a mismatch", async () => {
  const data = game();
  data.rolls[0].dice.pop();
  const { rolls } = await checkGame(data);
  assert.deepEqual(rolls.filter((r) => !r.ok).map((r) => r.k), [1]);
  assert.equal(rolls[0].expected.length, 5);
});

test("a roll of six dice is a mismatch, and the check goes on", async () => {
  const data = game();
  const roll = data.rolls[2]; // one that holds dice of the roll before
  assert.ok(roll.held.length > 0);
  roll.dice.push(6);
  roll.held.push(5);
  const { rolls } = await checkGame(data);
  assert.deepEqual(rolls.filter((r) => !r.ok).map((r) => r.k), [roll.k]);
});

test("a seed that does not match its commitment is said so", async () => {
  const data = game();
  data.commitment = "0".repeat(64);
  const { commitmentOk } = await checkGame(data);
  assert.equal(commitmentOk, false);
});

// A daily challenge's game (docs/fairness.md, "The daily challenge's tape"): its dice file,
// made by game.rules (tests/rules/test_dice_file_lengths.py checks the same file).
const dailyGame = () => JSON.parse(
  readFileSync(new URL("./dice-check-daily.fixture.json", import.meta.url)));

test("every roll of a daily game matches its day's tape", async () => {
  const data = dailyGame();
  assert.equal(data.client_seeds.length, 0);
  const { commitmentOk, rolls } = await checkGame(data);
  assert.equal(commitmentOk, true);
  assert.equal(rolls.length, data.rolls.length);
  assert.deepEqual(rolls.filter((r) => !r.ok), []);
});

test("a daily roll is read from its turn and roll: moved to another turn, it fails", async () => {
  const data = dailyGame();
  const roll = data.rolls.find((r) => r.roll === 1 && r.turn === 3);
  roll.turn = 4;
  const { rolls } = await checkGame(data);
  assert.deepEqual(rolls.filter((r) => !r.ok).map((r) => r.k), [roll.k]);
});
