// help.js reads the sentences the server rendered into #rules-text (the rules page's own,
// game/presenters/rules_text.py) and keeps no copy of its own.
import assert from "node:assert/strict";
import { test } from "node:test";

const TEXT = {
  boxes: { full_house: "25 pour un brelan et une paire." },
  bonuses: ["Prime du haut : 35 à partir de 63."],
};
globalThis.document = {
  getElementById: (id) => (id === "rules-text" ? { textContent: JSON.stringify(TEXT) } : null),
};
const { boxHelp, bonusHelp } = await import("../../static/game/shared/help.js");

test("a box's sentence and the bonus lines are the page's", () => {
  assert.equal(boxHelp("full_house"), "25 pour un brelan et une paire.");
  assert.equal(boxHelp("no_such_box"), "");
  assert.deepEqual(bonusHelp(), TEXT.bonuses);
});
