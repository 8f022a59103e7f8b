// A computer player's name, stored and sent in English ("Bot 2 (to win)"), is read in the
// reader's language; a person's name is never touched, even one that looks almost so.

import assert from "node:assert/strict";
import { test } from "node:test";

import { shownName } from "../../static/game/shared/labels.js";

test("a computer player's name is the catalog's; any other name stays as it is", () => {
  // No catalog in Node: the English words, as stored (tests/browser/test_narrow_languages.py
  // reads them in every language).
  assert.equal(shownName("Bot 2 (to win)"), "Bot 2 (to win)");
  assert.equal(shownName("Bot 1 (easy)"), "Bot 1 (easy)");
  for (const name of ["Ann", "Bot 1 (hard)", "Bot 1 (easy) ", "My Bot 1 (easy)", "", null]) {
    assert.equal(shownName(name), name);
  }
});
