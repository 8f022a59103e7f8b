// A finished game's page: its replay folded with the room's patch code reaches, at every move,
// the state the live room reached at the same seq (whole games of the fixture); what the board
// and the buttons make of a moment; and where the review's chart marks each slip.

import assert from "node:assert/strict";
import { test } from "node:test";

import { loadFixture, usePageRuleset } from "./fixture.mjs";

const { games } = loadFixture();
usePageRuleset(games[0].ruleset);
const {
  changedCells, diceShown, followColumn, foldReplay, frameOf, indexOfHash, positionLine, steps, turnEnds,
} = await import("../../static/game/game/moments.js");
const { Review, chartScale, markPlaces, valueAt } = await import("../../static/game/game/review.js");
const { firstColumn } = await import("../../static/game/shared/scorecard.js");

/** The room's state as the replay holds it: no open boxes' points, no room-side id and seq. */
function asReplayHolds(game) {
  const { options, id, seq, ...rest } = game;
  return rest;
}

/** Every state the room's page reached: seq → the server's state after that `events` frame. */
function roomStates(frames) {
  return new Map(frames.filter((f) => f.frame.type === "events")
    .map((f) => [f.game.seq, asReplayHolds(f.game)]));
}

for (const { rules, frames, replay } of games) {
  test(`the replay of a whole ${rules} game reaches every state the room reached`, () => {
    const moments = foldReplay(replay);
    assert.deepEqual(moments.map((m) => m.seq), [...moments.keys()].map((i) => i + 1));
    const room = roomStates(frames);
    assert.ok(room.size > 20);
    let compared = 0;
    for (const m of moments) {
      if (!room.has(m.seq)) continue; // within a command: the room never held that state
      assert.deepEqual(m.game, room.get(m.seq), `at seq ${m.seq}`);
      compared += 1;
    }
    assert.equal(compared, room.size);
    assert.ok(moments.at(-1).game.finished);
  });

  test(`a ${rules} replay's end shows the dice of the last box scored, not an empty tray`, () => {
    const seen = foldReplay(replay).map(frameOf);
    const end = seen.length - 1;
    assert.equal(seen[end].kind, "game_finished");
    assert.equal(seen[end].dice, null);
    const scored = seen.findLast((f) => f.kind === "scored");
    assert.deepEqual(diceShown(seen, end), { dice: scored.dice, held: [] });
    // Elsewhere the frame's own dice, blank before a turn's first roll.
    const start = seen.findIndex((f) => f.kind === "turn_started");
    assert.deepEqual(diceShown(seen, start), { dice: null, held: [] });
    const roll = seen.findIndex((f) => f.kind === "rolled" && f.held.length > 0);
    assert.deepEqual(diceShown(seen, roll), { dice: seen[roll].dice, held: seen[roll].held });
  });

  test(`a ${rules} replay's frames say whose turn, the roll and the dice kept, move by move`, () => {
    const moments = foldReplay(replay);
    const seen = moments.map(frameOf);
    let held = [];
    seen.forEach((f, i) => {
      const { event, game } = moments[i];
      assert.equal(f.kind, event.kind);
      assert.equal(f.player, game.current_player);
      assert.deepEqual(f.dice, game.dice);
      if (f.kind === "rolled") {
        held = event.held;
        assert.equal(f.roll, event.roll);
        assert.equal(f.player, event.player);
      } else if (f.kind === "turn_started") {
        held = [];
        assert.equal(f.roll, 0);
        assert.equal(f.dice, null);
      }
      assert.deepEqual(f.held, f.kind === "game_finished" ? [] : held);
      if (f.kind === "scored") {
        const cells = changedCells(moments[i].changes);
        assert.ok(cells.some(([p, c, key]) => p === f.player && c === f.column && key === f.box));
        assert.ok(cells.every(([p]) => p === f.player));
        // One column shown: it follows the move to the column just written in.
        assert.equal(followColumn(0, cells), f.column);
        assert.equal(followColumn(null, cells), null);
      } else if (f.kind !== "bonus") {
        assert.deepEqual(changedCells(moments[i].changes), []);
      }
    });
    assert.equal(seen.at(-1).kind, "game_finished");
    assert.equal(seen.at(-1).player, null);
  });

  test(`a ${rules} replay's buttons go by move and by turn`, () => {
    const seen = foldReplay(replay).map(frameOf);
    const last = seen.length - 1;
    const go = steps(seen);
    const ends = turnEnds(seen);
    assert.equal(ends.at(-1), last);
    for (const end of ends.slice(0, -1)) assert.equal(seen[end + 1].kind, "turn_started");
    const firstRoll = seen.findIndex((f) => f.kind === "rolled");
    assert.equal(go["next-turn"](firstRoll), ends.find((e) => e > firstRoll));
    assert.equal(go["prev-turn"](firstRoll), 0);
    assert.equal(go["next-turn"](last), last);
    assert.deepEqual([go.first(), go.last(), go.prev(5), go.next(5)], [0, last, 4, 6]);
    // #seq=N: that move, the nearest one, or the end.
    assert.equal(indexOfHash(seen, `#seq=${seen[7].seq}`), 7);
    assert.equal(indexOfHash(seen, "#seq=100000"), last);
    assert.equal(indexOfHash(seen, "#seq=-3"), 0);
    assert.equal(indexOfHash(seen, "#anything"), last);
  });
}

test("the board's heading says the round, whose turn and the roll", () => {
  const { replay } = games.find((g) => g.rules === "yahtzee");
  const moments = foldReplay(replay);
  const line = (kind) => {
    const i = moments.findIndex((m) => m.event.kind === kind);
    return positionLine(frameOf(moments[i]), moments[i].game);
  };
  assert.equal(line("game_started"), "Before the first turn");
  assert.equal(line("turn_started"), "Round 1 of 13 · Ann’s turn · before the first roll");
  assert.equal(line("rolled"), "Round 1 of 13 · Ann’s turn · roll 1 of 3");
  assert.equal(line("game_finished"), "Final scores");
});

test("a triple scorecard opens on all three columns on a desktop, one on the game page's phone", () => {
  const game = (n) => ({ players: Array(n).fill("x") });
  assert.equal(firstColumn(game(3), true), null);
  assert.equal(firstColumn(game(4), true), 0);
  assert.equal(firstColumn(game(2), false), null); // the room on a phone
  assert.equal(firstColumn(game(3), false), 0);
  assert.equal(firstColumn(game(1), false, 0), 0); // the game page on a phone
  assert.equal(firstColumn(game(3), true, 0), null);
});

test("the chart marks each slip at its moment on its player's line, one player's or all", () => {
  const { replay, players } = games.find((g) => g.rules === "yahtzee");
  const frames = foldReplay(replay).map(frameOf);
  const decisions = frames.filter((f) => f.kind === "rolled" || f.kind === "scored");
  const grades = ["best", "inaccuracy", "good", "mistake", "blunder"];
  const analysis = {
    decisions: decisions.map((f, k) => ({ seq: f.seq, grade: grades[k % grades.length],
      loss: k % grades.length, autoplay: k === 3 })), // the fourth, a mistake by autoplay
    luck: [],
    // Each player's expected final score: a step line that climbs by the move.
    series: players.map((_, p) => frames.filter((f, i) => i % 4 === p)
      .map((f, i) => [f.seq, 200 + 3 * i + 10 * p])),
  };
  const review = new Review(analysis, frames, players);
  const marked = review.markedSlips();
  const slips = analysis.decisions.filter((d) => ["inaccuracy", "mistake", "blunder"].includes(d.grade)
    && !d.autoplay);
  assert.deepEqual(marked.map((d) => d.seq), slips.map((d) => d.seq));
  for (const d of marked) {
    // At the moment of its dice: the move before the decision.
    assert.equal(frames[d.index + 1].seq, d.seq);
    assert.equal(d.at, frames[d.index].seq);
    assert.equal(d.player, frames[d.index].player);
    assert.match(d.label, new RegExp(`^(Inaccuracy|Mistake|Blunder) by ${players[d.player]} `
      + `in round ${frames[d.index].round}: `));
  }
  review.showOnly(1);
  assert.ok(review.markedSlips().length > 0);
  assert.ok(review.markedSlips().every((d) => d.player === 1));

  const scale = chartScale(analysis.series, frames, 600);
  assert.deepEqual([scale.width, scale.height], [600, 260]);
  assert.equal(chartScale(analysis.series, frames, 100).width, 280); // never narrower
  const places = markPlaces(marked, analysis.series, scale);
  for (const d of places) {
    // On its line: the line's value at the moment of its dice, where the x axis has it.
    assert.ok(Math.abs((d.left / 100) * scale.width - scale.x(d.at)) < 1e-9);
    const value = valueAt(analysis.series[d.player], d.at);
    assert.ok(Math.abs((d.top / 100) * scale.height - scale.y(value)) < 1e-9);
    assert.ok(d.left > 0 && d.left < 100 && d.top > 0 && d.top < 100);
  }
  // Later moments further right; a higher expected score higher up.
  const seqs = places.map((d) => d.left);
  assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b));
  assert.ok(scale.y(250) < scale.y(200));
});
