// The room page's reducer: whole games' frames give the server's states, and each kind of
// frame changes what it should and nothing else.

import assert from "node:assert/strict";
import { test } from "node:test";

import { loadFixture, pageData, usePageRuleset } from "./fixture.mjs";

const { games } = loadFixture();
usePageRuleset(games[0].ruleset);
const {
  BRIEF_ABSENCE_MS, LOG_LIMIT, awayLeft, awayPlayers, canHold, commandGivenUp, commandSent,
  connectionChanged, emptyGame, firstRollOnOpen, hostAway, initialState, isMyTurn, mayStart,
  pageState, reduce, status, toggleHeld, turnLine,
} = await import("../../static/game/room/store.js");

const ctx = { now: 1_000_000, savedHolds: () => new Set() };

/** Apply `frames` from the page's first state; call `each(state, frame, game)` after each. */
function play(frames, page = pageData(), each = () => {}) {
  let state = connectionChanged(initialState(page), "open");
  for (const { frame, game } of frames) {
    state = reduce(state, frame, ctx);
    each(state, frame, game);
  }
  return state;
}

/** The state just after the first `events` frame that leaves `pred(game)` true. */
function stateWhere(frames, pred) {
  let found = null;
  play(frames, pageData(), (state, frame) => {
    if (!found && frame.type === "events" && pred(state.game)) found = state;
  });
  assert.ok(found, "no such moment in the fixture");
  return found;
}

const twoPlayers = games.find((g) => g.players.length === 2);

for (const { rules, frames } of games) {
  test(`the reducer follows a whole ${rules} game to the server's states`, () => {
    let checked = 0;
    const end = play(frames, pageData({ rules }), (state, frame, game) => {
      if (frame.type !== "events") return;
      assert.deepEqual(state.game, game, `after seq ${frame.events.at(-1).seq}`);
      assert.equal(state.seq, game.seq);
      assert.equal(state.needsSync, false);
      checked += 1;
    });
    assert.ok(checked > 20);
    assert.equal(end.room.status, "finished");
    assert.equal(end.turnEnds, null);
    assert.match(end.log[0].text, /^Game over: /);
    const seqs = end.log.map((l) => l.seq);
    assert.deepEqual(seqs, [...seqs].sort((a, b) => b - a)); // newest first
    assert.equal(new Set(seqs).size, seqs.length); // each event once
  });
}

test("a presence change reaches the turn line: the computer plays for a person away", () => {
  const bobToMove = stateWhere(twoPlayers.frames, (g) => g.current_player === 1 && !g.finished);
  assert.equal(turnLine(bobToMove, ctx.now).autoplay, false);
  const away = reduce(bobToMove, { type: "presence", seats: [{ seat: 1, connected: false }],
    watchers: 0 }, ctx);
  assert.deepEqual([...awayPlayers(away)], [1]);
  assert.equal(turnLine(away, ctx.now).autoplay, false); // gone a moment: a reload, perhaps
  assert.deepEqual(turnLine(away, ctx.now + BRIEF_ABSENCE_MS), { mine: false, name: "Bob",
    bot: false, autoplay: true, awayLeft: null, round: bobToMove.game.round, rounds: 13 });
  assert.equal(bobToMove.room.seats[1].connected, true); // the state before is not changed
  const back = reduce(away, { type: "presence", seats: [{ seat: 1, connected: true }] }, ctx);
  assert.equal(turnLine(back, ctx.now).autoplay, false);
  assert.equal(back.room.watchers, 0); // a presence frame without watchers keeps the count
});

test("the countdown to the computer playing for an away player goes on from the frames", () => {
  const bobToMove = stateWhere(twoPlayers.frames, (g) => g.current_player === 1 && !g.finished);
  assert.equal(awayLeft(bobToMove, ctx.now), null); // Bob is here
  const left = reduce(bobToMove, { type: "presence",
    seats: [{ seat: 1, connected: false, autoplay_in: 52.3 }] }, ctx);
  assert.equal(awayLeft(left, ctx.now), null); // not yet: a brief absence shows nothing
  assert.equal(awayLeft(left, ctx.now + BRIEF_ABSENCE_MS), 48);
  assert.equal(turnLine(left, ctx.now + BRIEF_ABSENCE_MS + 1000).awayLeft, 47);
  assert.equal(awayLeft(left, ctx.now + 52_300), 0); // "now", never below
  assert.equal(awayLeft(left, ctx.now + 90_000), 0);
  // The turn's own time ends sooner: that is when the computer plays.
  assert.equal(awayLeft({ ...left, turnEnds: ctx.now + 10_000 }, ctx.now + BRIEF_ABSENCE_MS), 5);
  // A full state brings it too, counted from the state's arrival.
  const later = { ...ctx, now: ctx.now + 5000 };
  const state = { type: "state", seq: bobToMove.seq, game: bobToMove.game, you: bobToMove.you,
    room: { ...bobToMove.room, seats: bobToMove.room.seats.map((s) => (s.seat === 1
      ? { ...s, connected: false, autoplay_in: 20 } : { ...s, autoplay_in: null })) } };
  const again = reduce(left, state, later);
  assert.equal(awayLeft(again, later.now), 20);
  // Bob is back: no countdown.
  const back = reduce(left, { type: "presence",
    seats: [{ seat: 1, connected: true, autoplay_in: null }] }, ctx);
  assert.equal(awayLeft(back, ctx.now), null);
  assert.equal(turnLine(back, ctx.now).autoplay, false);
});

test("no away countdown on my own turn or a computer's", () => {
  const annToMove = stateWhere(twoPlayers.frames, (g) => g.current_player === 0 && !g.finished
    && g.round > 1);
  const away = reduce(annToMove, { type: "presence",
    seats: [{ seat: 0, connected: false, autoplay_in: 30 }] }, ctx);
  assert.equal(awayLeft(away, ctx.now), null); // the page of Ann, seat 0
  const bobToMove = stateWhere(twoPlayers.frames, (g) => g.current_player === 1 && !g.finished);
  const bot = reduce(bobToMove, { type: "presence",
    seats: [{ seat: 1, kind: "bot", connected: false, autoplay_in: 30 }] }, ctx);
  assert.equal(awayLeft(bot, ctx.now), null);
});

test("a computer's turn is named so, never played 'for' it", () => {
  const bobToMove = stateWhere(twoPlayers.frames, (g) => g.current_player === 1 && !g.finished);
  const bot = reduce(bobToMove, { type: "presence",
    seats: [{ seat: 1, kind: "bot", name: "Bot 1", connected: false }] }, ctx);
  assert.deepEqual([...awayPlayers(bot)], []);
  const line = turnLine(bot, ctx.now);
  assert.equal(line.bot, true);
  assert.equal(line.autoplay, false);
});

test("a turn out of time is played by the computer", () => {
  const bobToMove = stateWhere(twoPlayers.frames, (g) => g.current_player === 1 && !g.finished);
  const timed = { ...bobToMove, turnEnds: ctx.now + 1500 };
  assert.equal(turnLine(timed, ctx.now).autoplay, false);
  assert.equal(turnLine(timed, ctx.now + 1500).autoplay, true);
});

test("events after a gap or of another game change nothing but ask for the state", () => {
  const mid = stateWhere(twoPlayers.frames, (g) => g.round === 3);
  const at = mid.game.seq;
  const event = { kind: "rolled", player: mid.game.current_player, dice: [1, 2, 3, 4, 5],
    held: [], roll: 1 };
  const gap = reduce(mid, { type: "events", game: mid.game.id, by: "human",
    events: [{ seq: at + 2, event }], changes: { dice: [1, 2, 3, 4, 5] } }, ctx);
  assert.equal(gap.needsSync, true);
  assert.equal(gap.game, mid.game);
  assert.equal(gap.seq, at);
  const other = reduce(mid, { type: "events", game: mid.game.id + 1, by: "human",
    events: [{ seq: at + 1, event }], changes: {} }, ctx);
  assert.equal(other.needsSync, true);
  assert.equal(other.game, mid.game);
  // Events a state already brought: nothing at all.
  const old = reduce(mid, { type: "events", game: mid.game.id, by: "human",
    events: [{ seq: at, event }], changes: { dice: [6, 6, 6, 6, 6] } }, ctx);
  assert.equal(old, mid);
});

test("a roll animates the dice thrown and keeps my holds; a new turn clears them", () => {
  let sawMine = false;
  let sawTheirs = false;
  play(twoPlayers.frames, pageData(), (state, frame) => {
    if (frame.type !== "events") return;
    const roll = frame.events.map((e) => e.event).find((e) => e.kind === "rolled");
    const last = frame.events.at(-1).event;
    if (last.kind === "turn_started") {
      assert.equal(state.held.size + state.lastHeld.size, 0);
    } else if (roll) {
      const kept = new Set(roll.held);
      assert.deepEqual(state.rolled, [0, 1, 2, 3, 4].filter((i) => !kept.has(i)));
      assert.deepEqual([...state.lastHeld], roll.held);
      if (roll.player === 0) {
        assert.deepEqual([...state.held], roll.held);
        sawMine = true;
      } else {
        assert.equal(state.held.size, 0);
        sawTheirs = true;
      }
    }
  });
  assert.ok(sawMine && sawTheirs);
});

test("the mover's holds show to the others, never echo back, only at the same moment", () => {
  let theirs = 0;
  let before = null;
  play(twoPlayers.frames, pageData(), (state, frame) => {
    if (frame.type === "holding") {
      if (frame.player === 1) {
        assert.deepEqual([...state.lastHeld], frame.held);
        theirs += 1;
      } else {
        assert.equal(state.lastHeld, before.lastHeld); // my own echo
      }
    }
    before = state;
  });
  assert.ok(theirs > 0);
  const mid = stateWhere(twoPlayers.frames, (g) => g.current_player === 1 && g.dice !== null);
  const stale = reduce(mid, { type: "holding", game: mid.game.id, seq: mid.game.seq - 1,
    player: 1, held: [0] }, ctx);
  assert.equal(stale, mid);
});

test("a state replaces the game, keeps the log's lines once, and restores my saved holds", () => {
  const frames = twoPlayers.frames;
  const mine = stateWhere(frames, (g) => g.current_player === 0 && g.dice !== null
    && g.rolls_left > 0);
  const sync = { type: "state", seq: mine.game.seq, room: {}, you: { seat: 0, host: true },
    game: mine.game, turn_ends_in: 30,
    recent: mine.log.slice(0, 3).map((l) => ({ seq: l.seq, event: { kind: "rolled", player: 0,
      dice: [1, 1, 1, 1, 1], held: [], roll: 1 }, by: "human" })) };
  const saved = new Set([1, 3]);
  const after = reduce({ ...mine, busy: true }, sync,
    { now: ctx.now, savedHolds: (game) => (game === mine.game ? saved : new Set()) });
  assert.equal(after.log.length, mine.log.length);
  assert.deepEqual(after.held, saved);
  assert.equal(after.busy, false);
  assert.equal(after.turnEnds, ctx.now + 30_000);
  assert.equal(after.synced, true);
  // A watcher's page holds nothing.
  const watcher = reduce({ ...mine, you: { seat: null, host: false } },
    { ...sync, you: { seat: null, host: false } }, ctx);
  assert.equal(watcher.reload, true); // the page was a player's: it reloads as a watcher's
  const watching = reduce(initialState(pageData({ seat: null, joinForm: true })),
    { ...sync, you: { seat: null, host: false } }, ctx);
  assert.equal(watching.reload, false);
  assert.equal(watching.held.size, 0);
  assert.equal(isMyTurn(watching), false);
});

test("the log keeps the newest lines, games apart", () => {
  let state = initialState(pageData());
  const game = { ...stateWhere(twoPlayers.frames, () => true).game };
  for (let id = 1; id <= 2; id += 1) {
    const recent = [];
    for (let seq = 1; seq <= LOG_LIMIT; seq += 1) {
      recent.push({ seq, event: { kind: "turn_started", player: 1, round: seq }, by: "system" });
    }
    state = reduce(state, { type: "state", seq: 5, room: {}, you: { seat: 0, host: true },
      game: { ...game, id }, recent }, ctx);
  }
  assert.equal(state.log.length, LOG_LIMIT);
  assert.ok(state.log.every((l) => l.game === 2));
  assert.equal(state.log[0].seq, LOG_LIMIT);
  assert.equal(state.log[0].text, `Round ${LOG_LIMIT}: Bob’s turn.`);
});

test("standings: the latest position of a game wins", () => {
  let state = initialState(pageData());
  state = reduce(state, { type: "standings", game: 4, seq: 10, players: [] }, ctx);
  const older = reduce(state, { type: "standings", game: 4, seq: 8, players: [] }, ctx);
  assert.equal(older, state);
  const next = reduce(state, { type: "standings", game: 5, seq: 2, players: [] }, ctx);
  assert.equal(next.standings.game, 5);
});

test("errors free the buttons; preparing counts up and hides at 100 %", () => {
  let state = { ...initialState(pageData()), busy: true };
  state = reduce(state, { type: "error", code: "not_your_turn", message: "Wait." }, ctx);
  assert.deepEqual(state.error, { code: "not_your_turn", message: "Wait.", at: ctx.now });
  assert.equal(state.busy, false);
  state = reduce(state, { type: "preparing", name: "Bot 1", percent: 42.7 }, ctx);
  assert.deepEqual(state.preparing, { name: "Bot 1", percent: 42 });
  assert.equal(reduce(state, { type: "preparing", percent: 100 }, ctx).preparing, null);
  assert.equal(reduce(state, { type: "news", text: "?" }, ctx), state); // unknown: ignored
});

test("holding dice: only the player to move, between rolls, within the dice", () => {
  const mine = stateWhere(twoPlayers.frames, (g) => g.current_player === 0 && g.dice !== null
    && g.rolls_left > 0);
  assert.equal(canHold(mine), true);
  const one = toggleHeld({ ...mine, held: new Set() }, 2);
  assert.deepEqual([...one.held], [2]);
  assert.deepEqual([...toggleHeld(one, 2).held], []);
  assert.equal(toggleHeld(one, 5), one);
  const offline = connectionChanged(one, "lost", 1000);
  assert.equal(toggleHeld(offline, 3), offline);
  const theirs = stateWhere(twoPlayers.frames, (g) => g.current_player === 1 && g.dice !== null);
  assert.equal(toggleHeld(theirs, 0), theirs);
});

test("a room opened from a notification rolls only my turn's first roll", () => {
  const before = stateWhere(twoPlayers.frames, (g) => g.current_player === 0 && g.dice === null);
  assert.equal(firstRollOnOpen(before), true);
  assert.equal(firstRollOnOpen({ ...before, busy: true }), false);
  assert.equal(firstRollOnOpen(connectionChanged(before, "lost", 1000)), false);
  const rolled = stateWhere(twoPlayers.frames, (g) => g.current_player === 0 && g.dice !== null
    && g.rolls_left > 0);
  assert.equal(firstRollOnOpen(rolled), false); // a roll after it is a choice
  const theirs = stateWhere(twoPlayers.frames, (g) => g.current_player === 1 && g.dice === null);
  assert.equal(firstRollOnOpen(theirs), false);
});

test("a socket closed for want of the live room says so until it is back", () => {
  const one = stateWhere(twoPlayers.frames, (g) => g.current_player === 0);
  const away = connectionChanged(one, "lost", 2000, true);
  assert.deepEqual(away.connection, { status: "lost", retryInMs: 2000, liveAway: true });
  assert.equal(away.synced, false);
  const back = connectionChanged(away, "back");
  assert.equal(back.connection.liveAway, false);
  assert.equal(connectionChanged(one, "lost", 2000).connection.liveAway, false);
});

test("the turns the computer played for a person: from the state, then one per box it scored", () => {
  // Bob's turns played by the computer (away): the frames of his scores say `by: "autoplay"`.
  const frames = twoPlayers.frames.map(({ frame, game }) => ({ game, frame:
    frame.type === "events" && frame.events.some((e) => e.event.kind === "scored"
      && e.event.player === 1) ? { ...frame, by: "autoplay" } : frame }));
  const end = play(frames);
  assert.equal(end.game.finished, true);
  assert.deepEqual(end.autoplayed, [0, end.game.rounds]);
  // A state brings the count so far (a page opened mid-game), and the events add to it.
  const first = frames.findIndex(({ frame }) => frame.type === "events" && frame.by === "autoplay");
  const before = frames[first - 1].game;
  let state = reduce(connectionChanged(initialState(pageData()), "open"),
    { type: "state", seq: before.seq, game: before, autoplayed: [0, 5],
      room: { status: "playing", seats: [] }, you: { seat: 0, host: true } }, ctx);
  assert.deepEqual(state.autoplayed, [0, 5]);
  state = reduce(state, frames[first].frame, ctx);
  assert.deepEqual(state.autoplayed, [0, 6]);
  // Its own turns a person played: nothing counted.
  const ann = frames.slice(first + 1).find(({ frame }) => frame.type === "events"
    && frame.by !== "autoplay" && frame.events.some((e) => e.event.kind === "scored"));
  assert.ok(ann);
});

test("a host gone before the start: everyone counts down, then a seated friend may start", () => {
  const seats = [
    { seat: 0, name: "Ann", kind: "human", connected: true, host: true, host_passes_in: null },
    { seat: 1, name: "Bob", kind: "human", connected: true, host: false, host_passes_in: null },
  ];
  const waiting = (you) => reduce(connectionChanged(initialState(pageData({ seat: you.seat,
    host: false })), "open"), { type: "state", seq: 0, game: null, you,
    room: { status: "waiting", seats, watchers: 0 } }, ctx);
  const bob = waiting({ seat: 1, host: false });
  assert.equal(hostAway(bob, ctx.now), null); // Ann is here
  assert.equal(mayStart(bob, ctx.now), false);
  const left = { type: "presence", watchers: 0, seats: [
    { seat: 0, connected: false, autoplay_in: null, host_passes_in: 59.2 },
    { seat: 1, connected: true, autoplay_in: null, host_passes_in: null }] };
  const gone = reduce(bob, left, ctx);
  assert.equal(hostAway(gone, ctx.now), null); // gone a moment: nothing shown yet
  assert.deepEqual(hostAway(gone, ctx.now + BRIEF_ABSENCE_MS),
    { seat: gone.room.seats[0], left: 55 });
  assert.equal(hostAway(gone, ctx.now + 30_000).left, 30);
  assert.equal(mayStart(gone, ctx.now + 30_000), false);
  assert.equal(hostAway(gone, ctx.now + 59_200).left, 0);
  assert.equal(mayStart(gone, ctx.now + 59_200), true);
  // A watcher reads the countdown too, and never gets the button.
  const watcher = reduce(waiting({ seat: null, host: false }), left, ctx);
  assert.equal(hostAway(watcher, ctx.now + BRIEF_ABSENCE_MS).left, 55);
  assert.equal(mayStart(watcher, ctx.now + 90_000), false);
  // Ann is back: nothing to count.
  const back = reduce(gone, { type: "presence", watchers: 0, seats: [
    { seat: 0, connected: true, autoplay_in: null, host_passes_in: null }] }, ctx);
  assert.equal(hostAway(back, ctx.now + 90_000), null);
  assert.equal(mayStart(back, ctx.now + 90_000), false);
});

test("the page's own state draws the room before its socket opens, and is never synced", () => {
  const first = twoPlayers.frames.find(({ frame }) => frame.type === "state").frame;
  const drawn = pageState(initialState(pageData()), first, ctx);
  assert.equal(drawn.synced, false); // tests and the away logic wait for the socket's state
  assert.deepEqual(drawn.game, reduce(initialState(pageData()), first, ctx).game);
  assert.equal(drawn.seq, first.seq);
  assert.equal(firstRollOnOpen(drawn), false); // nothing is sent before the socket opens
  const socket = reduce(connectionChanged(drawn, "open"), first, ctx);
  assert.equal(socket.synced, true);
  assert.deepEqual(socket.log, drawn.log); // the same lines are not logged twice
});

test("a host who reloads is never shown as gone; one gone before the page came is, at once", () => {
  const seats = [
    { seat: 0, name: "Ann", kind: "human", connected: true, host: true, host_passes_in: null },
    { seat: 1, name: "Bob", kind: "human", connected: true, host: false, host_passes_in: null },
  ];
  const first = (room) => reduce(connectionChanged(initialState(pageData({ seat: 1,
    host: false })), "open"), { type: "state", seq: 0, game: null, you: { seat: 1, host: false },
    room: { status: "waiting", seats: room, watchers: 0 } }, ctx);
  const bob = first(seats);
  const gone = reduce(bob, { type: "presence", seats: [
    { seat: 0, connected: false, autoplay_in: null, host_passes_in: 59 }] }, ctx);
  const soon = { ...ctx, now: ctx.now + 800 };
  const back = reduce(gone, { type: "presence", seats: [
    { seat: 0, connected: true, autoplay_in: null, host_passes_in: null }] }, soon);
  for (const at of [ctx.now, soon.now, ctx.now + 60_000]) {
    assert.equal(hostAway(at < soon.now ? gone : back, at), null);
  }
  // A whole state while she is still away keeps when she left (not a new brief absence).
  const restated = reduce(gone, { type: "state", seq: 0, game: null, you: { seat: 1, host: false },
    room: { status: "waiting", watchers: 0, seats: [{ ...seats[0], connected: false,
      host_passes_in: 50 }, seats[1]] } }, { ...ctx, now: ctx.now + 9000 });
  assert.equal(hostAway(restated, ctx.now + 9000).left, 50);
  // Away already in the page's first state: the countdown shows from the start.
  const late = first([{ ...seats[0], connected: false, host_passes_in: 40 }, seats[1]]);
  assert.equal(hostAway(late, ctx.now).left, 40);
});

test("before the start, the table set for the game is the game's first, with the seated only", () => {
  for (const { rules, ruleset, players, frames } of games) {
    // A free seat between the players: dropped at the start, as the server drops it.
    const seats = players.flatMap((name, i) => [
      { seat: 2 * i, name, kind: "human", connected: true, host: i === 0 },
      { seat: 2 * i + 1, name: null, kind: "human", connected: false, host: false }]);
    const waiting = (seat) => reduce(connectionChanged(initialState(pageData({ seat, rules })),
      "open"), { type: "state", seq: 0, game: null, you: { seat, host: seat === 0 },
      room: { status: "waiting", seats, watchers: 0 } }, ctx);
    const first = frames.find((f) => f.game).game;
    const last = players.length - 1;
    const { game, me } = emptyGame(waiting(2 * last), ruleset);
    assert.deepEqual(game.players, first.players, rules);
    assert.equal(me, last, rules); // the last seated player, seats between them free
    assert.equal(emptyGame(waiting(null), ruleset).me, null, rules);
    assert.equal(game.current_player, null);
    assert.equal(game.dice, null);
    // Every box of every column open, the sums 0: the start's own cards before a box scored.
    const opened = first.scorecards.map((card) => ({ total: 0, columns: card.columns.map(
      (col) => ({ ...col, boxes: Object.fromEntries(Object.keys(col.boxes).map((b) => [b, null])),
        upper_subtotal: 0, upper_bonus: 0, yahtzee_bonus: 0, lower_subtotal: 0, total: 0 })) }));
    assert.deepEqual(game.scorecards, opened, rules);
    assert.ok(first.scorecards.every((card) => card.columns.every(
      (col, c) => col.multiplier === ruleset.multipliers[c])), rules);
  }
});

test("the start asked shows the game's table at once; a refusal or no answer brings the wait back", () => {
  const waiting = reduce(connectionChanged(initialState(pageData()), "open"), { type: "state",
    seq: 0, game: null, you: { seat: 0, host: true }, room: { status: "waiting", seats: [
      { seat: 0, name: "Ann", kind: "human", connected: true, host: true }], watchers: 0 } }, ctx);
  assert.equal(status(waiting), "waiting");
  const asked = commandSent(waiting, "start");
  assert.equal(status(asked), "starting");
  assert.equal(status(commandSent(waiting, "add_seat")), "waiting");
  assert.equal(status(commandGivenUp(asked)), "waiting");
  assert.equal(status(reduce(asked, { type: "error", code: "not_enough_players" }, ctx)), "waiting");
  const first = games[0].frames.find((f) => f.game).game;
  assert.equal(status({ ...asked, game: first }), "playing");
});
