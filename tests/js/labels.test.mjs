// Words of the room page (labels.js) and the one textual form of a box in a column
// (ruleset.js), read with the data of a Triple Yahtzee page.

import assert from "node:assert/strict";
import { test } from "node:test";

import { loadFixture, usePageRuleset } from "./fixture.mjs";

const triple = loadFixture().games.find((g) => g.rules === "triple");
usePageRuleset(triple.ruleset);
const { awayNote, boxLabel, boxShort, clockText, describeEvent, rulesTitle, slotLabel } =
  await import("../../static/game/shared/labels.js");
const { parseSlot, slotName } = await import("../../static/game/shared/ruleset.js");

test("a box in a column is written as the server writes it, and read back", () => {
  assert.equal(slotName("chance", 0, 1), "chance");
  assert.equal(slotName("chance", 0, 3), "chance@1");
  assert.equal(slotName("full_house", 2, 3), "full_house@3");
  assert.deepEqual(parseSlot("chance"), { box: "chance", column: 0 });
  assert.deepEqual(parseSlot("full_house@3"), { box: "full_house", column: 2 });
  for (const [box, column, columns] of [["ones", 0, 1], ["yahtzee", 1, 3], ["sixes", 0, 3]]) {
    assert.deepEqual(parseSlot(slotName(box, column, columns)), { box, column });
  }
});

test("box labels come from the page's ruleset", () => {
  assert.equal(rulesTitle("triple"), triple.ruleset.title);
  assert.equal(rulesTitle("yatzy"), "yatzy"); // not this page's: its name
  assert.equal(boxLabel("full_house"), "Full house");
  assert.equal(boxShort("full_house"), "Full h.");
  assert.equal(boxShort("chance"), "Chance");
  assert.equal(slotLabel("chance", 1, 3), "Chance (column 2)");
  assert.equal(slotLabel("chance", 0, 1), "Chance");
});

test("each event reads as a sentence, from the reader's side", () => {
  const game = { players: ["Ann", "Bob"], scorecards: [{ columns: [{}, {}, {}] }] };
  const say = (event, by = "human", me = 0, computers = new Set()) =>
    describeEvent(event, game, by, me, computers);
  assert.equal(say({ kind: "turn_started", player: 0, round: 4 }), "Round 4: your turn, Ann.");
  assert.equal(say({ kind: "turn_started", player: 1, round: 4 }, "system", 0, new Set([1])),
    "Round 4: Bob’s turn (computer).");
  assert.equal(say({ kind: "rolled", player: 1, dice: [2, 2, 5, 6, 6], held: [0, 1], roll: 2 },
    "autoplay"), "Bob rolled 2 2 5 6 6 (roll 2 of 3, held 2 2) (played by the computer).");
  assert.equal(say({ kind: "scored", player: 0, box: "chance", column: 2, points: 0 }),
    "Ann scratched Chance (column 3) (0).");
  assert.equal(say({ kind: "scored", player: 0, box: "full_house", column: 0, points: 25,
    joker: true }), "Ann scored 25 in Full house (column 1) as a Joker.");
  assert.equal(say({ kind: "bonus", player: 1, bonus: "upper", column: 1, points: 35 }),
    "Bob earned the upper-section bonus in column 2: +35.");
  assert.equal(say({ kind: "game_finished", winners: [0, 1], totals: [250, 250] }),
    "Game over: a tie between Ann and Bob with 250.");
  assert.equal(say({ kind: "hold_changed" }), null);
});

test("the fixture's events all read as sentences", () => {
  const game = { players: triple.players, scorecards: [{ columns: [{}, {}, {}] }] };
  const kinds = new Set();
  for (const { frame } of triple.frames) {
    for (const { event } of frame.type === "events" ? frame.events : []) {
      const text = describeEvent(event, game, "human", 0, new Set());
      assert.ok(text && !text.includes("undefined"), JSON.stringify(event));
      kinds.add(event.kind);
    }
  }
  assert.ok(kinds.has("rolled") && kinds.has("scored") && kinds.has("game_finished"));
});

test("countdowns read as a clock; the computer playing for someone away says when", () => {
  assert.equal(clockText(52), "0:52");
  assert.equal(clockText(125), "2:05");
  assert.equal(clockText(0), "0:00");
  assert.equal(clockText(7384), "2:03:04");  // a long turn time
  assert.equal(clockText(180000), "2 d 2 h");  // a move over days
  assert.equal(clockText(86399), "23:59:59");
  assert.equal(awayNote(52), "the computer plays their turn in 0:52");
  assert.equal(awayNote(1), "the computer plays their turn in 0:01");
  assert.equal(awayNote(0), "the computer plays their turn now");
});
