// What the room page's tests share: the fixture the Python tests write (whole games played
// over the websocket: tests/js/test_room_frames.py) and the page's ruleset data, which the
// page modules read from the document at import (so: set it, then import them).

import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const FIXTURE = fileURLToPath(new URL("../../var/js-fixtures/room-frames.json", import.meta.url));

/** {games: [{rules, players, ruleset, frames: [{frame, game}], replay}]}: `game` is the
 * server's state of the game after an `events` frame (null after the other frames); `replay`
 * the game page's replay data of the same game (game/presenters/replay.py). */
export function loadFixture() {
  if (!existsSync(FIXTURE)) {
    throw new Error(`${FIXTURE} is missing: it is written by `
      + "`python -m pytest tests/js/test_room_frames.py` (make test runs it before node).");
  }
  return JSON.parse(readFileSync(FIXTURE, "utf8"));
}

/** Give the page modules imported after this the ruleset a room page of `ruleset` holds. */
export function usePageRuleset(ruleset) {
  globalThis.document = {
    getElementById: (id) => (id === "ruleset-data" ? { textContent: JSON.stringify(ruleset) } : null),
  };
}

/** The page's data of a room page: what room.js reads from #room. */
export function pageData(overrides = {}) {
  return { code: "abc", rules: "yahtzee", status: "waiting", seat: 0, host: true,
    joinForm: false, maxSeats: 6, dice: 5, ...overrides };
}
