// The browser's patch code against the server: applying every `events` frame of whole games
// to the state of the last `state` frame gives exactly the server's state after each.

import assert from "node:assert/strict";
import { test } from "node:test";

import { applyPatch } from "../../static/game/shared/patch.js";
import { loadFixture } from "./fixture.mjs";

const { games } = loadFixture();

for (const { rules, frames } of games) {
  test(`patches of a whole ${rules} game give the server's states`, () => {
    let held = null;
    let checked = 0;
    for (const { frame, game } of frames) {
      if (frame.type === "state") held = frame.game;
      if (frame.type !== "events") continue;
      const before = structuredClone(held);
      held = { ...applyPatch(held, frame.changes), seq: frame.events.at(-1).seq };
      assert.deepEqual(held, game, `after seq ${held.seq}`);
      assert.notDeepEqual(before, held);
      checked += 1;
    }
    assert.ok(checked > 20 && held.finished, `${checked} frames checked`);
  });
}

test("a patch reaches into objects and arrays and replaces everything else", () => {
  const value = { a: 1, list: [{ p: 1 }, { p: 2 }], dice: [1, 2], gone: { x: 1 } };
  const out = applyPatch(value, { list: { 1: { p: 3 } }, dice: [6, 6], gone: null });
  assert.deepEqual(out, { a: 1, list: [{ p: 1 }, { p: 3 }], dice: [6, 6], gone: null });
  assert.deepEqual(value.list[1], { p: 2 }); // the value patched is not changed
  assert.equal(out.list[0], value.list[0]); // what the patch does not name is shared
});
