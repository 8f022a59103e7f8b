// The room page's one state and the reducer that applies every server frame to it (like
// lila's round UI: the data, then a redraw of everything from it). Nothing here touches the
// page: room.js feeds the frames in, then draws every part from the new state, so no frame can
// leave a part of the page stale. docs/protocol.md describes the frames.

import { gettext, interpolate } from "../shared/i18n.js";
import { describeEvent, shownName } from "../shared/labels.js";
import { applyPatch } from "../shared/patch.js";

/** Log lines kept (newest first). */
export const LOG_LIMIT = 200;
/** A person gone for less than this (a reload, a phone's network changing hands) is not
 * shown as away: their page would flash a notice and move everyone's page under it. */
export const BRIEF_ABSENCE_MS = 5000;

/**
 * The state before any frame. page: what the server rendered into the page:
 * {code, rules, seat (or null), host, status, joinForm (the page has the join form),
 *  maxSeats, dice}.
 */
export function initialState(page) {
  return {
    page,
    room: { status: page.status, seats: [], watchers: 0 },
    you: { seat: page.seat, host: page.host },
    game: null,
    seq: null,              // the last seq applied (null: none, or a gap to be synced)
    held: new Set(),        // my holds for the next roll
    lastHeld: new Set(),    // what the player to move kept on their last roll (for everyone)
    rolled: [],             // positions that just rolled: animated once
    busy: false,            // a command is on its way; avoid double sends
    starting: false,        // this page asked for the first game's start: it shows its table
    connection: { status: "connecting", retryInMs: 0, liveAway: false },
    synced: false,          // the page shows the server's state (tests wait for this)
    needsSync: false,       // a gap, or patches for another game: ask for the state
    reload: false,          // I left my seat: the page of a watcher has the join form
    standings: null,        // the last `standings` frame
    autoplayed: [],         // per player of the game: the turns the computer played for them
    turnEnds: null,         // when the turn's time runs out (ms, same clock as `now`)
    preparing: null,        // {name, percent}: a computer waits for its strategy table
    error: null,            // {code, message, at}
    log: [],                // [{game, seq, kind, mine, text}], newest first
    column: undefined,      // triple: the scorecard column shown (null = all, undefined = not chosen)
  };
}

// --- what the state says ------------------------------------------------------------------

// During a game seat i is player i (free seats are dropped at the start; docs/protocol.md).
export function playerOfSeat(state, seat) {
  const g = state.game;
  return g && typeof seat === "number" && seat >= 0 && seat < g.players.length ? seat : null;
}

export function seatOfPlayer(state, p) {
  return state.room.seats.find((s) => s.seat === p) || null;
}

/** My player index in the game, or null for a watcher. */
export function myPlayer(state) {
  const you = state.you || {};
  if (typeof you.player === "number") return you.player;
  return playerOfSeat(state, you.seat);
}

export function isMyTurn(state) {
  const g = state.game;
  const me = myPlayer(state);
  return Boolean(g) && !g.finished && me !== null && g.current_player === me;
}

/** "waiting", "starting", "playing" or "finished". */
export function status(state) {
  if (state.game) return state.game.finished ? "finished" : "playing";
  return state.room.status === "playing" || state.starting ? "starting" : state.room.status;
}

export function isHost(state) {
  return Boolean(state.you && state.you.host);
}

export function isConnected(state) {
  return state.connection.status === "open" || state.connection.status === "back";
}

/** The players whose person is not connected (a computer is always there). */
export function awayPlayers(state) {
  const away = new Set();
  for (const s of state.room.seats) {
    const p = playerOfSeat(state, s.seat);
    if (p !== null && s.kind !== "bot" && !s.connected) away.add(p);
  }
  return away;
}

export function computerPlayers(state) {
  return new Set(state.room.seats.filter((s) => s.kind === "bot")
    .map((s) => playerOfSeat(state, s.seat)));
}

/** Seconds until the computer plays the turn of the player to move, a person who is away
 * (the server's countdown, or the turn's own time if that ends sooner), or null: they are
 * here, it is a computer's turn or mine, or the server sent no countdown. */
export function awayLeft(state, now) {
  const g = state.game;
  if (!g || g.finished || isMyTurn(state)) return null;
  const seat = seatOfPlayer(state, g.current_player);
  if (!seat || seat.kind === "bot" || !awayFor(seat, now)
      || typeof seat.autoplayAt !== "number") {
    return null;
  }
  const left = Math.max(0, Math.ceil((seat.autoplayAt - now) / 1000));
  const turn = turnLeft(state, now);
  return turn === null ? left : Math.min(left, turn);
}

/** Whether a seat's person is away, and was for longer than a brief absence. */
function awayFor(seat, now) {
  return !seat.connected && !(now - seat.awaySince < BRIEF_ABSENCE_MS);
}

/** The host's seat while its person is away and the room waits for its first game, with the
 * seconds until the role passes (0: anyone seated may start now), or null. */
export function hostAway(state, now) {
  if (status(state) !== "waiting") return null;
  const seat = state.room.seats.find((s) => s.host && s.kind !== "bot" && awayFor(s, now)
    && typeof s.hostPassesAt === "number");
  if (!seat) return null;
  return { seat, left: Math.max(0, Math.ceil((seat.hostPassesAt - now) / 1000)) };
}

/** Whether this page may start the first game: the host, or anyone seated once the host is
 * gone (the server decides; this only shows the button). */
export function mayStart(state, now) {
  if (isHost(state)) return true;
  const away = hostAway(state, now);
  return Boolean(away && away.left === 0 && state.you && typeof state.you.seat === "number");
}

/**
 * Before the first game, the game as its table will show it: the seated players in seat order
 * (free seats are dropped at the start) with empty scorecards of `ruleset` (RULESET), and
 * `me`, the reader's player in it (null for a watcher). Drawn where the game will be, so that
 * its start fills the table in rather than rearranging the page.
 */
export function emptyGame(state, ruleset) {
  const seated = state.room.seats.filter((s) => s.name);
  const boxes = Object.fromEntries(ruleset.boxes.map((b) => [b.name, null]));
  const column = (multiplier) => ({ boxes: { ...boxes }, upper_subtotal: 0, upper_bonus: 0,
    yahtzee_bonus: 0, lower_subtotal: 0, total: 0, multiplier });
  const mine = state.you ? seated.findIndex((s) => s.seat === state.you.seat) : -1;
  return {
    game: {
      rules: ruleset.name, players: seated.map((s) => s.name), finished: false,
      current_player: null, dice: null, options: [],
      scorecards: seated.map(() => ({ columns: ruleset.multipliers.map(column), total: 0 })),
    },
    me: mine >= 0 ? mine : null,
  };
}

/** Seconds left of the current turn (rooms with a turn time), or null. */
export function turnLeft(state, now) {
  const g = state.game;
  if (state.turnEnds === null || !g || g.finished) return null;
  return Math.max(0, Math.ceil((state.turnEnds - now) / 1000));
}

export function canRoll(state) {
  return isConnected(state) && isMyTurn(state) && state.game.rolls_left > 0 && !state.busy;
}

/** Whether a room opened from a "your turn" notification (its link ends in #roll) rolls the
 * turn's first roll by itself: only my turn, before its first roll (which has no choice in it). */
export function firstRollOnOpen(state) {
  return canRoll(state) && state.game.dice === null;
}

export function canHold(state) {
  return isConnected(state) && isMyTurn(state) && state.game.dice !== null
    && state.game.rolls_left > 0;
}

export function canScore(state) {
  return isMyTurn(state) && state.game.dice !== null && isConnected(state) && !state.busy;
}

/** The turn line: whose turn, and whether the computer plays it for a person who is away or
 * out of time (a computer's own turn is never labelled as a person's). */
export function turnLine(state, now) {
  const g = state.game;
  const mine = isMyTurn(state);
  const seat = seatOfPlayer(state, g.current_player);
  const bot = Boolean(seat && seat.kind === "bot");
  return {
    mine,
    name: g.players[g.current_player],
    bot,
    autoplay: !mine && !bot && (Boolean(seat && awayFor(seat, now)) || turnLeft(state, now) === 0),
    awayLeft: awayLeft(state, now),
    round: g.round,
    rounds: g.rounds,
  };
}

// --- frames ---------------------------------------------------------------------------------

/**
 * The state after server frame `msg`. ctx: {now (ms), savedHolds(game) → Set (the holds this
 * browser kept for exactly that position)}. Frames of unknown types change nothing.
 */
export function reduce(state, msg, ctx) {
  const next = REDUCERS[msg.type];
  return next ? next(state, msg, ctx) : state;
}

const REDUCERS = {
  state: onState,
  events: onEvents,
  presence: onPresence,
  holding: onHolding,
  standings: onStandings,
  preparing: onPreparing,
  error: onError,
};

/** The room's first `state`, drawn into the page by the server: the page is drawn from it
 * before its socket opens. Not synced: that waits for the socket's own state. */
export function pageState(state, frame, ctx) {
  return { ...onState(state, frame, ctx), synced: false };
}

function onState(state, msg, ctx) {
  if (msg.you && msg.you.seat === null && state.page.seat !== null && !state.page.joinForm) {
    return { ...state, reload: true };
  }
  const room = msg.room ? { ...state.room, ...msg.room } : state.room;
  if (msg.room && Array.isArray(msg.room.seats)) {
    room.seats = msg.room.seats.map((s) => withAwaySince(
      withAutoplayAt(s, ctx.now), state.room.seats.find((b) => b.seat === s.seat),
      state.room.seats.length ? ctx.now : -Infinity));
  }
  // Computer players' names in the reader's language (the frames carry them as stored).
  const game = withShownNames(msg.game || null);
  const autoplayed = game && Array.isArray(msg.autoplayed)
    ? game.players.map((_, p) => Number(msg.autoplayed[p]) || 0) : [];
  let next = {
    ...state,
    room,
    you: msg.you || state.you,
    game,
    seq: typeof msg.seq === "number" ? msg.seq : (game ? game.seq : null),
    autoplayed,
    turnEnds: typeof msg.turn_ends_in === "number" ? ctx.now + msg.turn_ends_in * 1000 : null,
    lastHeld: sameTurn(state.game, game) ? state.lastHeld : new Set(),
    rolled: [],
    busy: false,
    synced: true,
    needsSync: false,
    preparing: null,
  };
  next = { ...next, held: isMyTurn(next) ? ctx.savedHolds(game) : new Set() };
  // The game's last events: after a reload, a reconnect or a gap the log shows what happened
  // (and a new game's first lines); lines already shown are not added again.
  if (game && Array.isArray(msg.recent)) next = withLogLines(next, game.id, msg.recent);
  return next;
}

// One command's events, in seq order, and what they changed in the state together: the
// changes turn the state just before the first event into the state after the last, so they
// apply only to that state (same game). A new game comes as a `state`; else ask for it.
function onEvents(state, msg, ctx) {
  const events = msg.events || [];
  if (!events.length) return state;
  const first = events[0].seq;
  const last = events[events.length - 1].seq;
  if (state.seq !== null && last <= state.seq) return state; // a `state` already brought them
  const g = state.game;
  if (state.seq === null || first !== state.seq + 1 || !g || g.id !== msg.game
      || g.seq !== first - 1) {
    return { ...state, needsSync: true };
  }
  let next = {
    ...state,
    game: { ...applyPatch(g, msg.changes || {}), seq: last },
    seq: last,
    busy: false,
    rolled: [],
    preparing: null,
    room: { ...state.room },
  };
  for (const e of events) next = onEvent(next, { seq: e.seq, event: e.event || {}, by: msg.by }, ctx);
  // A turn the computer played for a person (away, or out of time) ends with its box.
  const played = events.filter((e) => msg.by === "autoplay" && (e.event || {}).kind === "scored");
  if (played.length) {
    const autoplayed = next.game.players.map((_, p) => state.autoplayed[p] || 0);
    for (const e of played) if (e.event.player in autoplayed) autoplayed[e.event.player] += 1;
    next = { ...next, autoplayed };
  }
  return next;
}

/** What one event means beyond the game's state: the clock, the dice that rolled, the holds,
 * the log. */
function onEvent(state, entry, ctx) {
  const { event } = entry;
  const next = { ...state };
  if (event.kind === "turn_started" && state.room.turn_seconds) {
    next.turnEnds = ctx.now + state.room.turn_seconds * 1000;
  } else if (event.kind === "game_finished") {
    next.turnEnds = null;
    next.room = { ...next.room, status: "finished" };
  }
  if (event.kind === "rolled") {
    const kept = new Set(event.held || []);
    next.rolled = [...Array(state.page.dice).keys()].filter((i) => !kept.has(i));
    next.lastHeld = kept;
    if (event.player === myPlayer(state)) next.held = new Set(kept);
  } else if (event.kind === "turn_started" || event.kind === "game_finished") {
    next.held = new Set();
    next.lastHeld = new Set();
  }
  return withLogLines(next, state.game.id, [entry]);
}

// When the page learned that a seat's person left (`since`; -Infinity on the page's first
// state: away before the page came), kept while they stay away.
function withAwaySince(seat, before, since) {
  if (!("connected" in seat)) return seat;
  if (seat.connected) return { ...seat, awaySince: null };
  const known = before && !before.connected && typeof before.awaySince === "number";
  return { ...seat, awaySince: known ? before.awaySince : since };
}

// A seat's `autoplay_in` and `host_passes_in` (seconds from the frame's arrival) kept as times
// on the page's clock, so the countdowns go on between frames.
function withAutoplayAt(seat, now) {
  const at = (left) => (typeof left === "number" ? now + left * 1000 : null);
  let next = seat;
  if (typeof seat.name === "string") next = { ...next, name: shownName(seat.name) };
  if ("autoplay_in" in seat) next = { ...next, autoplayAt: at(seat.autoplay_in) };
  if ("host_passes_in" in seat) next = { ...next, hostPassesAt: at(seat.host_passes_in) };
  return next;
}

/** `game` with its players' names as the reader reads them (the same object if none
 * changes). */
function withShownNames(game) {
  if (!game || !Array.isArray(game.players)) return game;
  const players = game.players.map(shownName);
  return players.every((name, i) => name === game.players[i]) ? game : { ...game, players };
}

function onPresence(state, msg, ctx) {
  const seats = state.room.seats.map((s) => ({ ...s }));
  for (const frameSeat of msg.seats || []) {
    const seat = seats.find((s) => s.seat === frameSeat.seat);
    const change = withAwaySince(withAutoplayAt(frameSeat, ctx.now), seat, ctx.now);
    if (seat) Object.assign(seat, change);
    else seats.push({ ...change });
  }
  const watchers = typeof msg.watchers === "number" ? msg.watchers : state.room.watchers;
  return { ...state, room: { ...state.room, seats, watchers } };
}

// The player to move shows which dice they hold as they change them (not stored; the roll
// carries the hold that counts). Our own echo is ignored: quick clicks must not flicker.
function onHolding(state, msg) {
  const g = state.game;
  if (!g || g.finished || msg.game !== g.id || msg.seq !== g.seq) return state; // another moment
  if (msg.player !== g.current_player || msg.player === myPlayer(state)) return state;
  return { ...state, lastHeld: new Set(msg.held) };
}

// Standings are computed on the server's threads and may cross: the latest position wins.
function onStandings(state, msg) {
  const known = state.standings;
  if (known && known.game === msg.game && known.seq > msg.seq) return state;
  return { ...state, standings: msg };
}

function onPreparing(state, msg) {
  const percent = Math.max(0, Math.min(100, Math.floor(Number(msg.percent) || 0)));
  return { ...state, preparing: percent >= 100 ? null : { name: shownName(msg.name) || gettext("The computer"), percent } };
}

function onError(state, msg, ctx) {
  return {
    ...state,
    busy: false,
    starting: false,
    error: { code: msg.code || "", message: msg.message
      || interpolate(gettext("Something went wrong (%(code)s)."), { code: msg.code }),
      at: ctx.now },
  };
}

function sameTurn(a, b) {
  return Boolean(a && b) && a.round === b.round && a.current_player === b.current_player;
}

// --- the log -----------------------------------------------------------------------------------

// Each line is one event, keyed by its game's id and its seq, so live events and the `recent`
// of a state fill the same list without duplicates. Game ids grow with each new game of a
// room; within a game, seq orders the events.

/** The state with a line for each of `entries` ({seq, event, by}) of game `gameId` that the
 * log does not hold yet, in its place. */
function withLogLines(state, gameId, entries) {
  const me = myPlayer(state);
  const computers = computerPlayers(state);
  const known = new Set(state.log.map((l) => `${l.game}/${l.seq}`));
  const added = [];
  for (const { seq: at, event, by } of entries) {
    if (typeof at !== "number" || !event || known.has(`${gameId}/${at}`)) continue;
    const text = describeEvent(event, state.game, by, me, computers);
    if (!text) continue;
    known.add(`${gameId}/${at}`);
    added.push({ game: gameId, seq: at, kind: event.kind,
      mine: event.player !== undefined && event.player === me, text });
  }
  if (!added.length) return state;
  const log = [...state.log, ...added]
    .sort((a, b) => b.game - a.game || b.seq - a.seq)
    .slice(0, LOG_LIMIT);
  return { ...state, log };
}

// --- the page's own changes --------------------------------------------------------------------

/** The socket's status: "connecting", "reconnecting", "open", "back" or "lost"; `liveAway`
 * when the server closed it because it cannot reach the live room itself. */
export function connectionChanged(state, status, retryInMs = 0, liveAway = false) {
  const connected = status === "open" || status === "back";
  return { ...state, connection: { status, retryInMs, liveAway },
    synced: connected && state.synced };
}

export function commandSent(state, type = null) {
  // The first game's start shows its table at once ("starting"), under the tap that asked.
  return { ...state, busy: true, starting: type === "start" && status(state) === "waiting" };
}

/** The command in flight was answered by nothing: its buttons work again. */
export function commandGivenUp(state) {
  return { ...state, busy: false, starting: false };
}

export function syncAsked(state) {
  return { ...state, needsSync: false };
}

/** Hold or release die `i` (only while I may hold). */
export function toggleHeld(state, i) {
  if (!canHold(state) || !(i >= 0 && i < state.page.dice)) return state;
  const held = new Set(state.held);
  if (held.has(i)) held.delete(i);
  else held.add(i);
  return { ...state, held };
}

/** Triple: show scorecard column `column` (null: all of them). */
export function showColumn(state, column) {
  return { ...state, column };
}

export function errorSeen(state) {
  return { ...state, error: null };
}

/** The dice just rolled were drawn rolling once: not again on the next redraw. */
export function rollDrawn(state) {
  return state.rolled.length ? { ...state, rolled: [] } : state;
}
