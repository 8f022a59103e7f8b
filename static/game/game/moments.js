// A finished game's replay as data: the page's replay (game/presenters/replay.py) folded with
// the room's own patch code into the state after each stored event, and what the board, the
// move list and the buttons make of it. Nothing here touches the page (replay.js draws), so
// Node's tests run all of it.

import { applyPatch } from "../shared/patch.js";
import { gettext, interpolate } from "../shared/i18n.js";

/** Rolls in a turn (game.rules.game.ROLLS_PER_TURN). */
const ROLLS_PER_TURN = 3;

/**
 * One moment per stored event: {seq, event, game (the state after it: the room's state at
 * that seq, without the open boxes' points), held (the positions the turn's last roll kept),
 * changes (the event's patch, or null), autoplay}.
 */
export function foldReplay(data) {
  let game = null;
  let held = [];
  return data.frames.map((frame, i) => {
    game = i === 0 ? data.start : applyPatch(game, frame.changes || {});
    const { kind } = frame.event;
    if (kind === "rolled") held = frame.event.held;
    else if (kind === "turn_started" || kind === "game_finished") held = [];
    return { seq: frame.seq, event: frame.event, game, held, changes: frame.changes || null,
      autoplay: Boolean(frame.autoplay) };
  });
}

/**
 * A moment as the move list, the review and "Try it yourself" read it: the event's own fields
 * and, after it, whose turn it is (`player`, null once the game is over), the `round`, the
 * rolls used (`roll`), the `dice` and the positions `held`.
 */
export function frameOf(moment) {
  const g = moment.game;
  const frame = { seq: moment.seq, ...moment.event, player: g.current_player, round: g.round,
    roll: ROLLS_PER_TURN - g.rolls_left, dice: g.dice, held: moment.held };
  if (moment.autoplay) frame.autoplay = true;
  return frame;
}

/** The scorecard cells a patch changed, [player, column, key]: `key` a box or one of a
 * column's sums (column null, key "grand_total": a triple card's weighted total). */
export function changedCells(changes) {
  const cells = [];
  for (const [p, card] of Object.entries((changes && changes.scorecards) || {})) {
    for (const [c, column] of Object.entries(card.columns || {})) {
      for (const [key, part] of Object.entries(column)) {
        if (key === "boxes") {
          for (const box of Object.keys(part)) cells.push([Number(p), Number(c), box]);
        } else {
          cells.push([Number(p), Number(c), key]);
        }
      }
    }
    if ("total" in card) cells.push([Number(p), null, "grand_total"]);
  }
  return cells;
}

/** The last frame of each turn (its score, its bonuses), and the very end. */
export function turnEnds(frames) {
  const last = frames.length - 1;
  return frames.map((f, i) => i).filter((i) => i === last
    || (i > 0 && frames[i + 1].kind === "turn_started"));
}

/** Where each button and key goes from frame `i`, given the turns' ends. */
export function steps(frames) {
  const last = frames.length - 1;
  const ends = turnEnds(frames);
  return {
    first: () => 0,
    last: () => last,
    prev: (i) => i - 1,
    next: (i) => i + 1,
    "prev-turn": (i) => [...ends].reverse().find((t) => t < i) ?? 0,
    "next-turn": (i) => ends.find((t) => t > i) ?? last,
  };
}

/** The frame for a URL's hash: #seq=N goes to that event, or the nearest one; anything else
 * to the end. */
export function indexOfHash(frames, hash) {
  const last = frames.length - 1;
  const m = /^#seq=(-?\d{1,9})$/.exec(hash);
  if (!m) return last;
  const seq = Number(m[1]);
  const exact = frames.findIndex((f) => f.seq === seq);
  if (exact >= 0) return exact;
  let best = last;
  frames.forEach((f, i) => {
    if (Math.abs(f.seq - seq) < Math.abs(frames[best].seq - seq)) best = i;
  });
  return best;
}

/** The dice the board shows at frame `i`, and which of them are held: the frame's own, but at
 * the game's end the dice its last box was scored with (an empty tray would read as a fault). */
export function diceShown(frames, i) {
  const frame = frames[i];
  if (frame.dice === null && frame.kind === "game_finished") {
    const last = frames.slice(0, i).reverse().find((f) => f.dice !== null);
    if (last) return { dice: last.dice, held: [] };
  }
  return { dice: frame.dice, held: frame.held || [] };
}

/** The board's heading for a frame: "Round 3 of 13 · Ann’s turn · roll 2 of 3". */
export function positionLine(frame, game) {
  if (frame.kind === "game_finished") return gettext("Final scores");
  if (!(frame.round > 0)) return gettext("Before the first turn");
  return [
    interpolate(gettext("Round %(round)s of %(rounds)s"), { round: frame.round, rounds: game.rounds }),
    interpolate(gettext("%(name)s’s turn"), { name: game.players[frame.player] ?? "" }),
    frame.roll ? interpolate(gettext("roll %(roll)s of 3"), { roll: frame.roll })
      : gettext("before the first roll"),
  ].join(" · ");
}

/** The column shown after a move: with one column shown, the one the move wrote in, so that
 * the change just made is in view; else as it was (null: all). */
export function followColumn(column, cells) {
  const moved = cells.find((c) => c[1] !== null);
  return column !== null && moved ? moved[1] : column;
}
