// The room page: one socket, one state (store.js), and every part of the page drawn from that
// state after each frame and each click (render/*.js).

import { Coach } from "./coach.js";
import { Confirm, scoreWarning } from "./confirm.js";
import { Feeling } from "./feeling.js";
import { CommandSender, RoomConnection } from "./connection.js";
import { DiceTray } from "../shared/dice.js";
import { gettext, interpolate, ngettext } from "../shared/i18n.js";
import { loadHolds, saveHolds } from "./holds.js";
import { installShortcuts } from "./keyboard.js";
import { rulesTitle } from "../shared/labels.js";
import { offerCopy } from "../shared/share.js";
import { RULESET } from "../shared/ruleset.js";
import { holdStill } from "./steady.js";
import { firstColumn } from "../shared/scorecard.js";
import { renderStandings } from "./standings.js";
import {
  awayLeft, canHold, canRoll, commandGivenUp, commandSent, connectionChanged, emptyGame, errorSeen,
  firstRollOnOpen, hostAway, initialState, isConnected, isMyTurn, myPlayer, pageState, reduce,
  rollDrawn, showColumn, status, syncAsked, toggleHeld, turnLeft, turnLine,
} from "./store.js";
import { renderFairness } from "./render/fairness.js";
import {
  renderHostControls, renderInvite, renderJoin, renderWatchingNote, waitingLine,
} from "./render/host.js";
import { renderLog } from "./render/log.js";
import { renderResultPanel } from "./render/result.js";
import { renderSeats, renderWatchers } from "./render/seats.js";
import { ERROR_MS, renderConnection, renderError, renderPreparing } from "./render/status.js";
import { renderCards, renderDice, renderEmptyCards, scoreKey } from "./render/table.js";
import { renderClock, renderTableBeforeStart, renderTurn } from "./render/turn.js";

const root = document.getElementById("room");
const $ = (id) => document.getElementById(id);

let state = initialState({
  code: root.dataset.code,
  rules: root.dataset.rules,
  status: root.dataset.status,
  seat: root.dataset.seat === "" ? null : Number(root.dataset.seat),
  host: root.dataset.host === "1",
  joinForm: $("join") !== null,
  maxSeats: Number(root.dataset.maxSeats),
  dice: Number(root.dataset.dice),
});

const confirm = new Confirm($("confirm"));
const coach = new Coach(); // practice rooms: the advice after each of my rolls
const feeling = new Feeling(
  { banner: $("celebrate"), result: $("result"), soundBtn: $("sound-btn"),
    notifyBtn: $("notify-btn") },
  document.title);
const tray = new DiceTray($("dice"), state.page.dice, toggleHold);
const wsScheme = location.protocol === "https:" ? "wss" : "ws";
const conn = new RoomConnection(`${wsScheme}://${location.host}/ws/rooms/${state.page.code}/`, {
  onMessage: receive,
  onStatus: connectionStatus,
});
const sender = new CommandSender(conn, () => update(commandGivenUp(state)));

/** Set the state and draw the page from it. */
function update(next) {
  const before = state;
  state = next;
  // A game that starts or ends adds panels above the others and takes some away: they stay
  // where the reader sees them, and the window glides to the dice or to the result
  // (steady.js). A wide screen has its table set before the start: the columns stay.
  if (before.synced && phase(before) !== phase(state)) {
    // The panels in the page's flow; not the dice, which stay on top of the screen.
    const panels = [...document.querySelectorAll("#room > *, .room-grid > *")]
      .filter((el) => !el.matches(".room-grid, .table-panel, .confirm-bar, .celebrate"));
    // The players' lines change too (free seats go at the start; at the end the turn's tag
    // goes, the seat buttons come): they wait until the window is where it goes, or the
    // panels below them would jump.
    seatsHeld = true;
    holdStill(panels, redraw, state.game && state.game.finished ? $("result") : null, 8, () => {
      seatsHeld = false;
      redraw();
    });
  } else {
    redraw();
  }
}

/** The players' lines as they were, while the window glides to a game's result. */
let seatsHeld = false;

/** Which of the room's big panels show: none of a game, a game on (or starting: its table
 * set), a game over. */
function phase(st) {
  if (!st.game) return status(st) === "starting" ? "on" : "none";
  return st.game.finished ? "over" : "on";
}

// --- frames from the server -------------------------------------------------------------------

function receive(msg) {
  // Too fast: the command in flight goes again in a moment, with no error shown.
  if (msg.type === "error" && msg.code === "rate_limited" && sender.refused()) return;
  const before = state;
  let next = reduce(state, msg, frameContext());
  if (next.reload) {
    location.reload();
    return;
  }
  const applied = msg.type === "events" && next.seq !== before.seq;
  if (msg.type === "state" || applied || msg.type === "error") sender.settle();
  if (msg.type === "state") syncAnswered();
  // The dice or the turn changed: a question asked before is stale.
  if (msg.type === "state" || applied) confirm.cancel();
  if (msg.type === "advice") coach.update(msg, next.game);
  if (next.needsSync) {
    next = syncAsked(next);
    resync();
  }
  next = withColumnShown(next);
  if (applied) {
    for (const e of msg.events) feeling.onEvent(e.event || {}, next.game.players, myPlayer(next));
    saveHolds(next.page.code, next.game, next.held);
  }
  if (msg.type === "error") hideErrorLater(next.error);
  update(next);
  if (msg.type === "state") rollIfAsked();
  if (applied) {
    const kinds = msg.events.map((e) => (e.event || {}).kind);
    if (kinds.includes("turn_started") && isMyTurn(state)) feeling.yourTurn();
    // Without scrolling: the window glides to the result (update).
    if (kinds.includes("game_finished")) $("result-title").focus({ preventScroll: true });
  }
}

function frameContext() {
  return { now: Date.now(), savedHolds: (game) => loadHolds(state.page.code, game) };
}

/** Triple's columns: the first one shown is chosen once, for the width of the screen. */
function withColumnShown(next) {
  if (!next.game || next.column !== undefined || next.game.scorecards[0].columns.length < 2) {
    return next;
  }
  return showColumn(next, firstColumn(next.game, wide.matches));
}

/** The page is drawn at once from the room's state that the server wrote into it, and shown:
 * its socket's own state, a moment later, changes nothing that was not changed since. */
function drawPageState() {
  const el = $("room-state");
  if (!el) {
    redraw();
    return;
  }
  update(withColumnShown(pageState(state, JSON.parse(el.textContent), frameContext())));
  reveal();
}

// A notification's link (#roll) asks for the turn's first roll: made once, on the first state
// that allows it, and the fragment dropped so a reload or a shared link asks nothing.
let rollAsked = location.hash === "#roll";
function rollIfAsked() {
  if (!rollAsked || !state.game) return;
  rollAsked = false;
  history.replaceState(null, "", location.pathname + location.search);
  if (firstRollOnOpen(state)) roll();
}

function hideErrorLater(error) {
  setTimeout(() => { if (state.error === error) update(errorSeen(state)); }, ERROR_MS);
}

// One sync at a time: the state it brings covers every event until then. The server answers
// a few syncs at once, then one per 5 s (docs/protocol.md); one refused is asked again later.
let syncTimer = null;
function resync() {
  if (syncTimer !== null) return;
  conn.send("sync", {}, { command: false });
  syncTimer = setTimeout(() => { syncTimer = null; resync(); }, 6000);
}

function syncAnswered() {
  clearTimeout(syncTimer);
  syncTimer = null;
}

let backTimer = null;
function connectionStatus(what, detail) {
  clearTimeout(backTimer);
  if (what === "back") {
    backTimer = setTimeout(() => update(connectionChanged(state, "open")), 4000);
  }
  update(connectionChanged(state, what, detail.retryInMs || 0, Boolean(detail.liveAway)));
}

// --- commands -----------------------------------------------------------------------------------

function command(type, fields = {}) {
  if (state.busy) return;
  if (!sender.send(type, fields)) {
    receive({ type: "error", code: "offline",
      message: gettext("You are offline; the page reconnects by itself.") });
    return;
  }
  update(commandSent(state, type)); // until an answer, or until the sender gives up waiting
}

function roll() {
  if (!canRoll(state)) return;
  const g = state.game;
  const hold = g.dice ? [...state.held].sort() : [];
  const send = () => command("roll", { hold });
  const warning = g.dice && coach.rollWarning(g, hold, g.scorecards[0].columns.length);
  if (!warning) {
    send();
    return;
  }
  confirm.ask(`roll:${hold.join("")}`, warning, send);
}

function hint() {
  if (!coach.current(state.game) || !isMyTurn(state)) return;
  coach.hint = !coach.hint;
  redraw();
}

function toggleHold(i) {
  if (!canHold(state)) return;
  update(toggleHeld(state, i));
  saveHolds(state.page.code, state.game, state.held);
  conn.send("hold", { held: [...state.held].sort() }, { command: false });
}

function scoreBox(box, column) {
  if (!isMyTurn(state) || !state.game.dice || state.busy) return;
  const g = state.game;
  const option = (g.options || []).find((o) => o.box === box && o.column === column);
  const columns = g.scorecards[0].columns.length;
  const warning = coach.scoreWarning(g, box, column, columns)
    || (option && scoreWarning(option, g.options, columns));
  const send = () => command("score", { box, column });
  if (!warning) {
    send();
    return;
  }
  confirm.ask(scoreKey(box, column, columns), warning, send);
  redraw();
}

/** The host starts; free seats are dropped at the start, so that is asked first. */
function startGame(type) {
  const free = state.room.seats.filter((s) => !s.name).length;
  if (!free) {
    command(type);
    return;
  }
  confirm.ask(`start:${type}`, {
    message: interpolate(ngettext(
      "%(count)s seat is free: start without it? Free seats are removed when the game starts.",
      "%(count)s seats are free: start without them? Free seats are removed when the game starts.",
      free), { count: free }),
    yes: gettext("Start anyway"),
  }, () => command(type));
}

function seatCommand(type, fields = {}) {
  if (!isConnected(state) || state.busy) return;
  command(type, fields);
}

// --- drawing ------------------------------------------------------------------------------------

const baseTitle = document.title;
const els = {
  turn: { turn: $("turn"), rollBtn: $("roll-btn"), rollsLeft: $("rolls-left"), table: $("table"),
    playAway: $("play-away-btn") },
  host: {
    start: $("start-btn"), rematch: $("rematch-btn"), addSeat: $("add-seat-btn"),
    turnTimeField: $("turn-time-field"), turnTime: $("turn-time"),
    chancesField: $("chances-field"), chances: $("chances-option"),
    hostControls: $("host-controls"), turnTimeNote: $("turn-time-note"),
    waitingNote: $("waiting-note"),
  },
  fairness: {
    commitmentLabel: $("commitment-label"), commitment: $("commitment"),
    revealedLabel: $("revealed-label"), revealedRow: $("revealed-row"), revealed: $("revealed"),
    seeds: $("dice-seeds"), form: $("seed-form"), input: $("seed-input"),
  },
  cards: {
    switcher: $("column-switch"), jokerNote: $("joker-note"), scorecard: $("scorecard"),
    hintBtn: $("hint-btn"), coachRow: $("coach-row"), rulesHelp: $("rules-help"),
    rulesBoxes: $("rules-boxes"), rulesBonuses: $("rules-bonuses"),
  },
  result: { panel: $("result"), title: $("result-title"), detail: $("result-detail"),
    played: $("result-played"), body: $("result-body"), link: $("game-page-link") },
};
const table = {
  tray, dice: $("dice"), coach, feeling, confirm, onScore: scoreBox,
  onColumn: (c) => update(showColumn(state, c)),
};

/** Whether this room sends this page standings (docs/protocol.md): not in a daily, nor in
 * Triple (no table covers it); to watchers always, to players as the room's option says. */
function standingsExpected(st) {
  const seated = Boolean(st.you && st.you.seat !== null && st.you.seat !== undefined);
  return !root.dataset.daily && !(RULESET && RULESET.columns > 1)
    && (!seated || Boolean(st.room.chances_for_players));
}

/** The last roll this page showed, and its game's id. */
let lastRoll = null;

/** A wide screen: two columns (room.css), the invite in the side one. */
const wide = window.matchMedia("(min-width: 60rem)");
wide.addEventListener("change", () => redraw());

/** Every part of the page, from the state. */
function redraw() {
  const now = Date.now();
  const st = status(state);
  // A tab in the background still tells its player when it is their move.
  document.title = isMyTurn(state)
    ? interpolate(gettext("Your turn · %(title)s"), { title: baseTitle }) : baseTitle;
  root.dataset.status = st;
  root.dataset.synced = String(state.synced);
  if ($("rules-title")) $("rules-title").textContent = rulesTitle(state.page.rules);
  renderConnection(state, $("conn"), { retryNow: () => conn.retryNow() });
  renderError(state, $("error"), now);
  renderPreparing(state, $("preparing"));
  const side = wide.matches ? $("room-grid") : null;
  renderJoin(state, $("join"), side, $("watching-note"));
  renderWatchingNote(state, $("watching-note"));
  renderHostControls(state, els.host, now);
  renderInvite(state, { invite: $("invite"), result: $("result"), after: $("turn-time-note"),
    side });
  if (!seatsHeld) renderSeats(state, $("seats"), { seatCommand });
  renderWatchers(state, $("watchers"));
  // Before the first game its table is set (shown on a wide screen: room.css), so that the
  // start fills it in rather than rearranging the columns.
  const empty = !state.game && (st === "waiting" || st === "starting")
    ? emptyGame(state, RULESET) : null;
  const shownGame = state.game || (empty && empty.game);
  renderStandings($("standings"), state.standings, shownGame,
    shownGame ? shownGame.players : [], standingsExpected(state));
  // Triple has no chances to win: the note says what is exact there and what is estimated.
  $("triple-note").hidden = !(shownGame && !shownGame.finished && RULESET
    && RULESET.columns > 1);
  renderFairness(state, els.fairness);
  feeling.render(Boolean(state.you && state.you.seat !== null));
  const playing = Boolean(state.game);
  // Keyboard help only for those who have keys to press: a watcher has none.
  $("keys-help").hidden = (empty ? empty.me : myPlayer(state)) === null;
  // Kept after the game ("Game over"): the result comes above it, and nothing below moves.
  $("table").hidden = !shownGame;
  $("cards").hidden = !shownGame;
  renderClock($("turn-clock"), turnLeft(state, now));
  if (playing) {
    renderTurn(state, els.turn, now);
    // Once the game is over its table shows the last roll seen here (none on a page opened
    // after the end: no dice then).
    if (state.game.dice) lastRoll = { game: state.game.id, dice: state.game.dice };
    const last = state.game.finished && lastRoll && lastRoll.game === state.game.id
      ? lastRoll.dice : null;
    $("table").classList.toggle("no-dice", state.game.finished && !last);
    renderDice(last ? { ...state, game: { ...state.game, dice: last }, held: new Set(),
      lastHeld: new Set() } : state, table);
    state = rollDrawn(state);
    renderCards(state, els.cards, table);
  } else if (empty) {
    $("table").classList.remove("no-dice");
    renderTableBeforeStart(state, els.turn, st === "waiting" ? waitingLine(state, now) : null);
    renderDice({ ...state, game: empty.game, held: new Set(), lastHeld: new Set() }, table);
    // Triple's column as the game's start will choose it, unless the reader chose one.
    const column = state.column !== undefined ? state.column
      : firstColumn(empty.game, wide.matches);
    renderEmptyCards(empty, column, els.cards, table);
  }
  renderResultPanel(state, els.result);
  renderLog(state, $("log"));
  if (state.synced) reveal();
}

// The page as the server drew it waits unseen for the room's state (room.css), is drawn from
// it, and is shown a frame later: nothing moves under the reader's eyes as it loads. Shown
// after 3 s without a state too (a socket that cannot connect: the join form needs none).
let revealed = false;
function reveal() {
  if (revealed) return;
  revealed = true;
  requestAnimationFrame(() => requestAnimationFrame(() => { root.dataset.drawn = "true"; }));
}
setTimeout(reveal, 3000);

// The clock ticks on its own; at 0:00 the turn line says that the computer plays the turn,
// and while the player to move is away it counts down to the computer playing for them.
let clockLeft = null;
let awayShown = null;
let hostShown = null;
setInterval(() => {
  const now = Date.now();
  // The host away before the first game: the countdown to the role passing, then "Start".
  const host = hostAway(state, now);
  const hostLeft = host ? host.left : null;
  if (hostLeft !== hostShown) {
    renderHostControls(state, els.host, now);
    if (status(state) === "waiting") {
      renderTableBeforeStart(state, els.turn, waitingLine(state, now));
    }
  }
  hostShown = hostLeft;
  const left = turnLeft(state, now);
  renderClock($("turn-clock"), left);
  // The countdown, or "the computer plays it" once an absence is more than brief.
  const away = state.game && !state.game.finished
    ? `${awayLeft(state, now)}|${turnLine(state, now).autoplay}` : null;
  if ((left === 0 && clockLeft !== 0) || away !== awayShown) {
    if (state.game) renderTurn(state, els.turn, now);
  }
  clockLeft = left;
  awayShown = away;
}, 250);

// --- wiring -------------------------------------------------------------------------------------

installShortcuts({ toggle: toggleHold, roll, hint });
if ($("hint-btn")) $("hint-btn").addEventListener("click", hint);
if ($("coach-threshold")) {
  const select = $("coach-threshold");
  select.value = coach.threshold === Infinity ? "never" : String(coach.threshold);
  select.addEventListener("change", () => {
    coach.setThreshold(select.value === "never" ? Infinity : Number(select.value));
  });
}
$("seed-form").addEventListener("submit", (e) => {
  e.preventDefault();
  command("seed", { seed: $("seed-input").value });
});
$("roll-btn").addEventListener("click", roll);
$("play-away-btn").addEventListener("click", () => command("play_for_away"));
$("start-btn").addEventListener("click", () => startGame("start"));
$("rematch-btn").addEventListener("click", () => startGame("rematch"));
$("add-seat-btn").addEventListener("click", () => seatCommand("add_seat"));
$("turn-time").addEventListener("change", (e) => {
  seatCommand("room_options", { turn_time: Number(e.target.value) });
});
$("chances-option").addEventListener("change", (e) => {
  seatCommand("room_options", { chances: e.target.value });
});
offerCopy($("copy-link"), () => location.href, gettext("Link copied"));
window.addEventListener("pagehide", () => conn.close());
window.addEventListener("pageshow", (e) => { if (e.persisted) conn.connect(); });

drawPageState();
conn.connect();
// For the end-to-end tests and curious people: a peek at the client state (read-only).
// `receive` feeds a frame as if from the server (tests use it for rare states and seq gaps).
window.yahtzeeRoom = {
  get state() {
    return { ...state, connected: isConnected(state) };
  },
  seq: { get last() { return state.seq; } },
  receive,
  confirm,
};
