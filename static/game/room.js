// The room page: one socket, one state, and a render of it after every message.

import { Coach, THRESHOLDS } from "./coach.js";
import { Confirm, scoreWarning } from "./confirm.js";
import { Feeling } from "./feeling.js";
import { CommandSender, RoomConnection, SeqTracker } from "./connection.js";
import { DiceTray } from "./dice.js";
import { h, replaceChildren } from "./dom.js";
import { bonusHelp, boxHelp } from "./help.js";
import { loadHolds, saveHolds as saveHoldsFor } from "./holds.js";
import { applyPatch } from "./patch.js";
import { installShortcuts } from "./keyboard.js";
import { describeEvent, rulesTitle, slotLabel } from "./labels.js";
import { RULESET } from "./ruleset.js";
import { placeLine, renderResult, renderScorecard, resultHeadline } from "./scorecard.js";
import { renderStandings } from "./standings.js";

const LOG_LIMIT = 200;
const root = document.getElementById("room");
const $ = (id) => document.getElementById(id);

const boot = {
  code: root.dataset.code,
  rules: root.dataset.rules,
  seat: root.dataset.seat === "" ? null : Number(root.dataset.seat),
  host: root.dataset.host === "1",
};

const state = {
  room: { status: root.dataset.status, seats: [], watchers: 0 },
  you: { seat: boot.seat, host: boot.host },
  game: null,
  held: new Set(),          // my holds for the next roll
  lastHeld: new Set(),      // what the player to move kept on their last roll (for everyone)
  rolled: [],               // positions that just rolled: animate them once
  busy: false,              // a command is on its way; avoid double sends
  column: undefined,        // triple: which scorecard column is shown (null = all)
  connected: false,
  standings: null,          // the last `standings` frame: where everyone stands
  turnEnds: null,           // Date.now() when the turn's time runs out (rooms with a turn time)
};

const seq = new SeqTracker();
const confirm = new Confirm($("confirm"));
const coach = new Coach(); // practice rooms: the advice after each of my rolls
const feeling = new Feeling(
  { banner: $("celebrate"), soundBtn: $("sound-btn"), notifyBtn: $("notify-btn") },
  document.title);
const tray = new DiceTray($("dice"), toggleHold);
const wsScheme = location.protocol === "https:" ? "wss" : "ws";
const conn = new RoomConnection(`${wsScheme}://${location.host}/ws/rooms/${boot.code}/`, {
  onMessage: handleMessage,
  onStatus: showConnection,
});
const sender = new CommandSender(conn, () => { state.busy = false; render(); });

// --- who am I -------------------------------------------------------------------------

/** My player index in the game, or null for a watcher. */
function myPlayer() {
  const you = state.you || {};
  if (typeof you.player === "number") return you.player;
  return playerOfSeat(you.seat);
}

// During a game seat i is player i (free seats are dropped at the start; docs/protocol.md).
function playerOfSeat(seat) {
  const g = state.game;
  return g && typeof seat === "number" && seat >= 0 && seat < g.players.length ? seat : null;
}

function seatOfPlayer(p) {
  return state.room.seats.find((s) => s.seat === p) || null;
}

function isMyTurn() {
  const g = state.game;
  return Boolean(g) && !g.finished && g.current_player === myPlayer() && myPlayer() !== null;
}

function status() {
  if (state.game) return state.game.finished ? "finished" : "playing";
  return state.room.status === "playing" ? "starting" : state.room.status;
}

// --- messages from the server ------------------------------------------------------------

function handleMessage(msg) {
  switch (msg.type) {
    case "state": onState(msg); break;
    case "events": onEvents(msg); break;
    case "presence": onPresence(msg); break;
    case "holding": onHolding(msg); break;
    case "standings": onStandings(msg); break;
    case "advice": coach.update(msg, state.game); render(); break;
    case "error": onError(msg); break;
    case "preparing": onPreparing(msg); break;
    default: break; // newer server, older page: ignore what we do not know
  }
  if (msg.type === "state" || msg.type === "events") $("preparing").hidden = true;
}

// A computer player waits for its strategy table, built once per install: say how far it is.
function onPreparing(msg) {
  const el = $("preparing");
  const percent = Math.max(0, Math.min(100, Math.floor(Number(msg.percent) || 0)));
  el.textContent = `${msg.name || "The computer"} is getting ready (${percent}\u00a0%): `
    + "its strategy table is built once, the first time it plays.";
  el.hidden = percent >= 100;
}

// One sync at a time: the state it brings covers every event until then. The server answers
// a few syncs at once, then one per 5 s (docs/protocol.md); one refused is asked again later.
let syncTimer = null;
function resync() {
  if (syncTimer !== null) return;
  conn.send("sync", {}, { command: false });
  syncTimer = setTimeout(() => { syncTimer = null; resync(); }, 6000);
}

function onState(msg) {
  clearTimeout(syncTimer);
  syncTimer = null;
  sender.settle();
  state.busy = false;
  root.dataset.synced = "true"; // the page shows the server's state (tests wait for this)
  if (msg.room) state.room = { ...state.room, ...msg.room };
  if (msg.you && msg.you.seat === null && boot.seat !== null && !$("join")) {
    // I left my seat: the page of a watcher has the join form (rendered by the server).
    location.reload();
    return;
  }
  if (msg.you) state.you = msg.you;
  state.turnEnds = typeof msg.turn_ends_in === "number"
    ? Date.now() + msg.turn_ends_in * 1000 : null;
  confirm.cancel();
  const before = state.game;
  state.game = msg.game || null;
  // The game's last events: after a reload, a reconnect or a gap the log shows what happened
  // (and a new game's first lines); lines already shown are not added again.
  if (state.game && Array.isArray(msg.recent)) addLogLines(state.game.id, msg.recent);
  seq.reset(typeof msg.seq === "number" ? msg.seq : (msg.game ? msg.game.seq : null));
  if (!sameTurn(before, state.game)) {
    state.lastHeld = new Set();
  }
  restoreHolds();
  state.rolled = [];
  render();
}

// One command's events, in seq order, each with what it changed in the state.
// One command's events, in seq order, and what they changed in the state together: the
// changes turn the state just before the first event into the state after the last, so they
// apply only to that state (same game). A new game comes as a `state`; else ask for it.
function onEvents(msg) {
  const events = msg.events || [];
  if (!events.length) return;
  const first = events[0].seq;
  const last = events[events.length - 1].seq;
  if (seq.last !== null && last <= seq.last) return; // a `state` already brought them
  if (seq.check(first) !== "next" || !state.game || state.game.id !== msg.game
      || state.game.seq !== first - 1) {
    resync();
    return;
  }
  seq.reset(last);
  sender.settle();
  state.busy = false;
  state.game = { ...applyPatch(state.game, msg.changes || {}), seq: last };
  state.rolled = [];
  confirm.cancel(); // the dice or the turn changed: a question asked before is stale
  for (const e of events) onEvent({ seq: e.seq, event: e.event || {}, by: msg.by });
  saveHolds();
  render();
  const kinds = events.map((e) => (e.event || {}).kind);
  if (kinds.includes("turn_started") && isMyTurn()) feeling.yourTurn();
  if (kinds.includes("game_finished")) $("result-title").focus();
}

/** What one event means beyond the state: the log, the dice that rolled, the holds. */
function onEvent(msg) {
  const { event } = msg;
  if (event.kind === "turn_started" && state.room.turn_seconds) {
    state.turnEnds = Date.now() + state.room.turn_seconds * 1000;
  } else if (event.kind === "game_finished") {
    state.turnEnds = null;
  }
  if (event.kind === "rolled") {
    const kept = new Set(event.held || []);
    state.rolled = [0, 1, 2, 3, 4].filter((i) => !kept.has(i));
    state.lastHeld = kept;
    if (event.player === myPlayer()) state.held = new Set(kept);
  } else if (event.kind === "turn_started" || event.kind === "game_finished") {
    state.held = new Set();
    state.lastHeld = new Set();
  }
  if (event.kind === "game_finished") state.room.status = "finished";
  addLogLines(state.game.id, [msg]);
  feeling.onEvent(event, state.game.players, myPlayer());
}

function onPresence(msg) {
  for (const change of msg.seats || []) {
    const seat = state.room.seats.find((s) => s.seat === change.seat);
    if (seat) Object.assign(seat, change);
    else state.room.seats.push({ ...change });
  }
  if (typeof msg.watchers === "number") state.room.watchers = msg.watchers;
  renderSeats();
  renderWatchers();
  if (state.game) renderCards();
}

// Standings are computed on the server's threads and may cross: the latest position wins.
function onStandings(msg) {
  const known = state.standings;
  if (known && known.game === msg.game && known.seq > msg.seq) return;
  state.standings = msg;
  render();
}

// The player to move shows which dice they hold as they change them (not stored; the roll
// carries the hold that counts). Our own echo is ignored: quick clicks must not flicker.
function onHolding(msg) {
  const g = state.game;
  if (!g || g.finished || msg.game !== g.id || msg.seq !== g.seq) return; // another moment
  if (msg.player !== g.current_player || msg.player === myPlayer()) return;
  state.lastHeld = new Set(msg.held);
  renderDice();
}

let errorTimer = null;
function onError(msg) {
  // Too fast: the command in flight goes again in a moment, with no error shown.
  if (msg.code === "rate_limited" && sender.refused()) return;
  sender.settle();
  state.busy = false;
  const box = $("error");
  box.textContent = msg.message || `Something went wrong (${msg.code}).`;
  box.dataset.code = msg.code || "";
  box.hidden = false;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => { box.hidden = true; }, 8000);
  render();
}

// --- connection status -------------------------------------------------------------------

let backTimer = null;
function showConnection(what, detail) {
  const el = $("conn");
  clearTimeout(backTimer);
  state.connected = what === "open" || what === "back";
  if (!state.connected) root.dataset.synced = "false";
  el.dataset.state = what;
  replaceChildren(el);
  if (what === "connecting") el.append("Connecting…");
  else if (what === "reconnecting") el.append("Reconnecting…");
  else if (what === "open") el.append("Connected");
  else if (what === "back") {
    el.append("Back online — the game is up to date.");
    backTimer = setTimeout(() => {
      el.dataset.state = "open";
      el.textContent = "Connected";
    }, 4000);
  } else if (what === "lost") {
    const secs = Math.max(1, Math.round(detail.retryInMs / 1000));
    el.append(`Connection lost — trying again in ${secs} s. `,
      h("button", { type: "button", class: "link-button", onclick: () => conn.retryNow() },
        "Reconnect now"));
  }
  render();
}

// --- commands -----------------------------------------------------------------------------------

function command(type, fields = {}) {
  if (state.busy) return;
  if (!sender.send(type, fields)) {
    onError({ code: "offline", message: "You are offline; the page reconnects by itself." });
    return;
  }
  state.busy = true; // until an answer, or until the sender gives up waiting for one
  render();
}

function canRoll() {
  return state.connected && isMyTurn() && state.game.rolls_left > 0 && !state.busy;
}

function canHold() {
  return state.connected && isMyTurn() && state.game.dice !== null && state.game.rolls_left > 0;
}

function roll() {
  if (!canRoll()) return;
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
  if (!coach.current(state.game) || !isMyTurn()) return;
  coach.hint = !coach.hint;
  render();
}

function toggleHold(i) {
  if (!canHold()) return;
  if (state.held.has(i)) state.held.delete(i);
  else state.held.add(i);
  saveHolds();
  conn.send("hold", { held: [...state.held].sort() }, { command: false });
  renderDice();
  renderTurn();
}

function scoreBox(box, column) {
  if (!isMyTurn() || !state.game.dice || state.busy) return;
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
  confirm.ask(`score:${box}@${column}`, warning, send);
  renderCards();
}

/** The host starts; free seats are dropped at the start, so that is asked first. */
function startGame(type) {
  const free = state.room.seats.filter((s) => !s.name).length;
  if (!free) {
    command(type);
    return;
  }
  const seats = free === 1 ? "1 seat is free" : `${free} seats are free`;
  confirm.ask(`start:${type}`, {
    message: `${seats}: start without ${free === 1 ? "it" : "them"}? `
      + `Free seats are removed when the game starts.`,
    yes: "Start anyway",
  }, () => command(type));
}

function seatCommand(type, fields = {}) {
  if (!state.connected || state.busy) return;
  command(type, fields);
}

function saveHolds() {
  saveHoldsFor(boot.code, state.game, state.held);
}

function restoreHolds() {
  state.held = isMyTurn() ? loadHolds(boot.code, state.game) : new Set();
}

function sameTurn(a, b) {
  return Boolean(a && b) && a.round === b.round && a.current_player === b.current_player;
}

installShortcuts({ toggle: toggleHold, roll, hint });
if ($("hint-btn")) $("hint-btn").addEventListener("click", hint);
if ($("coach-threshold")) {
  const select = $("coach-threshold");
  select.value = coach.threshold === Infinity ? "never" : String(coach.threshold);
  select.addEventListener("change", () => {
    coach.setThreshold(select.value === "never" ? Infinity : Number(select.value));
  });
}

// --- rendering ----------------------------------------------------------------------------------

const baseTitle = document.title;

function render() {
  const st = status();
  // A tab in the background still tells its player when it is their move.
  document.title = isMyTurn() ? `Your turn · ${baseTitle}` : baseTitle;
  root.dataset.status = st;
  $("rules-title") && ($("rules-title").textContent = rulesTitle(boot.rules));
  renderJoin(st);
  const watchingNote = $("watching-note");
  if (watchingNote) watchingNote.hidden = st === "waiting" || myPlayer() !== null;
  renderHostControls(st);
  renderSeats();
  renderWatchers();
  renderStandings($("standings"), state.standings, state.game,
    state.game ? state.game.players : []);
  renderFairness(st);
  feeling.render(Boolean(state.you && state.you.seat !== null));
  const playing = Boolean(state.game);
  // Keyboard help only for those who have keys to press: a watcher has none.
  $("keys-help").hidden = myPlayer() === null;
  $("table").hidden = !playing || state.game.finished;
  $("cards").hidden = !playing;
  renderClock();
  if (playing) {
    renderTurn();
    renderDice();
    renderCards();
  }
  renderResultPanel();
}

/** The join form (watchers only): shown while the room waits and has a free seat; it offers
 * only the seats still free. */
function renderJoin(st) {
  const join = $("join");
  if (!join) return;
  const free = new Set(state.room.seats.filter((s) => !s.name).map((s) => s.seat));
  const select = join.querySelector("select[name=seat]");
  if (select && state.room.seats.length) {
    for (const option of [...select.options]) {
      if (!free.has(Number(option.value))) option.remove();
    }
    // A seat the host added between games: offer it too.
    const offered = new Set([...select.options].map((o) => Number(o.value)));
    for (const seat of [...free].sort((a, b) => a - b)) {
      if (!offered.has(seat)) select.append(h("option", { value: String(seat) }, `Seat ${seat + 1}`));
    }
  }
  // Between games too: a friend who came late takes a free seat for the rematch.
  join.hidden = st === "playing" || st === "starting"
    || (state.room.seats.length > 0 && free.size === 0)
    || (select !== null && select.options.length === 0);
}

function renderHostControls(st) {
  const host = Boolean(state.you && state.you.host);
  const start = $("start-btn");
  const rematch = $("rematch-btn");
  start.hidden = !(host && st === "waiting");
  start.disabled = !state.connected || state.busy || !state.room.seats.some((s) => s.name);
  rematch.hidden = !(host && st === "finished");
  rematch.disabled = !state.connected || state.busy;
  // Between games the host sets the seats and the options of the next one.
  const between = host && (st === "waiting" || st === "finished");
  const add = $("add-seat-btn");
  add.hidden = !between || state.room.seats.length >= 6;
  add.disabled = !state.connected || state.busy;
  $("turn-time-field").hidden = !between;
  const select = $("turn-time");
  if (document.activeElement !== select) select.value = String(state.room.turn_time || 0);
  select.disabled = !state.connected || state.busy;
  const chances = chancesSelect();
  chances.parentElement.hidden = !between;
  if (document.activeElement !== chances) chances.value = state.room.chances || "auto";
  chances.disabled = !state.connected || state.busy;
  $("host-controls").hidden = start.hidden && rematch.hidden && !between;
  const timeNote = $("turn-time-note");
  const minutes = (state.room.turn_time || 0) / 60;
  timeNote.hidden = between || !minutes || st === "playing";
  timeNote.textContent = `Turn time: ${minutes} min; then the computer plays the turn.`;
  const note = $("waiting-note");
  if (st === "waiting") {
    note.hidden = false;
    note.textContent = host
      ? "Invite friends with the room's link; start the game when everyone has a seat."
      : "Waiting for the host to start the game…";
  } else if (st === "finished" && !host) {
    note.hidden = false;
    note.textContent = "The host can start a rematch in this room.";
  } else {
    note.hidden = true;
  }
}

function renderSeats() {
  const list = $("seats");
  const g = state.game;
  const me = state.you ? state.you.seat : null;
  const current = g && !g.finished ? seatOfPlayer(g.current_player) : null;
  replaceChildren(list, state.room.seats.slice().sort((a, b) => a.seat - b.seat).map((s) => {
    const away = s.name && s.kind !== "bot" && !s.connected;
    const p = playerOfSeat(s.seat);
    const total = g && p !== null && g.scorecards[p] ? g.scorecards[p].total : null;
    const isCurrent = current && current.seat === s.seat;
    return h("li", {
      class: ["seat", isCurrent ? "current" : "", s.name ? "" : "empty", away ? "away" : "",
        s.seat === me ? "mine" : ""].filter(Boolean).join(" "),
      dataset: { seat: String(s.seat) },
    },
    h("span", { class: `dot ${!s.name ? "none" : away ? "off" : "on"}`, "aria-hidden": "true" }),
    h("span", { class: "seat-line" },
      h("span", { class: "seat-name" }, s.name || "Free seat"),
      s.seat === me ? h("span", { class: "tag tag-you" }, "you") : null,
      s.host ? h("span", { class: "tag" }, "host") : null,
      s.kind === "bot" ? h("span", { class: "tag" }, "computer") : null,
      // A computer is always there: "here" is for people.
      s.name && s.kind !== "bot" ? h("span", { class: "presence" }, away ? "away" : "here") : null,
      isCurrent ? h("span", { class: "tag tag-turn" }, "to play") : null),
    h("span", { class: "seat-total" }, total !== null ? String(total) : ""),
    seatActions(s, away));
  }));
}

/** Between games: "Leave seat" for my own seat; for the host, a computer for a free seat or
 * an absent person's, and "Remove". Null while a game runs. */
function seatActions(s, away) {
  const st = status();
  if (st !== "waiting" && st !== "finished") return null;
  const host = Boolean(state.you && state.you.host);
  const mine = state.you && s.seat === state.you.seat;
  const buttons = [];
  if (mine) {
    buttons.push(h("button", { type: "button", class: "btn btn-small seat-leave",
      onclick: () => seatCommand("leave_seat") }, "Leave seat"));
  }
  if (host && !mine && (!s.name || away || s.kind === "bot")) {
    if (s.kind !== "bot") {
      buttons.push(h("button", { type: "button", class: "btn btn-small seat-bot",
        onclick: () => seatCommand("seat_bot", { seat: s.seat, level: "optimal" }) },
      "Computer"));
    }
    if (state.room.seats.length > 1) {
      buttons.push(h("button", { type: "button", class: "btn btn-small seat-remove",
        onclick: () => seatCommand("remove_seat", { seat: s.seat }) }, "Remove"));
    }
  }
  return buttons.length ? h("span", { class: "seat-actions" }, buttons) : null;
}

/** The commitment of the running game's server seed (or the next game's), the seed once
 * revealed, and every player's seed; a seated player may change theirs between games. */
function renderFairness(st) {
  const g = state.game;
  const running = g && !g.finished;
  const fair = g && g.fairness;
  const commitment = running ? (fair ? fair.commitment : null) : state.room.commitment;
  $("commitment-label").textContent = running
    ? "This game’s server seed commitment (SHA-256)"
    : "Next game’s server seed commitment (SHA-256)";
  $("commitment").textContent = commitment || "—";
  const revealed = g && g.finished && fair && fair.server_seed;
  $("revealed-label").hidden = !revealed;
  $("revealed-row").hidden = !revealed;
  if (revealed) {
    $("revealed-label").textContent = "Last game’s server seed (revealed)";
    $("revealed").textContent = fair.server_seed;
  }
  const rows = running && fair
    ? g.players.map((name, i) => [name, fair.client_seeds[i]])
    : state.room.seats.filter((s) => s.name).map((s) => [s.name, s.seed]);
  replaceChildren($("dice-seeds"), rows.map(([name, seed]) => h("li", {},
    h("span", { class: "seed-owner" }, name), " ", h("code", { class: "seed" }, seed || "—"))));
  const form = $("seed-form");
  const mine = state.room.seats.find((s) => state.you && s.seat === state.you.seat);
  form.hidden = !mine || st === "playing" || st === "starting";
  const input = $("seed-input");
  if (!form.hidden && document.activeElement !== input) input.value = mine.seed || "";
}

$("seed-form").addEventListener("submit", (e) => {
  e.preventDefault();
  command("seed", { seed: $("seed-input").value });
});

function renderWatchers() {
  const n = state.room.watchers || 0;
  $("watchers").textContent = `${n} watching`;
}

function renderTurn() {
  const g = state.game;
  const turn = $("turn");
  const rollBtn = $("roll-btn");
  const left = $("rolls-left");
  const mine = isMyTurn();
  replaceChildren(turn);
  if (mine) {
    let hint = " — roll the dice.";
    if (g.dice && g.rolls_left === 0) hint = " — pick a box for this roll.";
    else if (g.dice) hint = " — hold dice and roll again, or pick a box.";
    turn.append(h("strong", {}, "Your turn"), hint);
  } else {
    // A computer's turn is never labelled as a person's; a person away or out of time has
    // theirs played by the computer, which says so.
    const seat = seatOfPlayer(g.current_player);
    const bot = seat && seat.kind === "bot";
    const autoplay = !bot && (awayPlayers().has(g.current_player) || turnLeft() === 0);
    turn.append(h("strong", {}, g.players[g.current_player]),
      bot ? "’s turn (computer)" : "’s turn");
    if (autoplay) turn.append(h("span", { class: "autoplay" }, " — the computer plays it"));
  }
  turn.append(h("span", { class: "round" }, ` · round ${g.round} of ${g.rounds}`));
  turn.classList.toggle("mine", mine);
  $("table").classList.toggle("mine", mine);
  rollBtn.hidden = !mine;
  rollBtn.disabled = !canRoll() || (g.dice !== null && state.held.size === 5);
  const free = 5 - state.held.size;
  if (g.dice === null) rollBtn.textContent = "Roll";
  else if (g.rolls_left === 0) rollBtn.textContent = "No rolls left";
  else rollBtn.textContent = `Roll ${free} ${free === 1 ? "die" : "dice"}`;
  left.textContent = g.rolls_left === 1 ? "1 roll left" : `${g.rolls_left} rolls left`;
  left.dataset.left = String(g.rolls_left);
}

/** Seconds left of the current turn (rooms with a turn time), or null. */
function turnLeft() {
  const g = state.game;
  if (state.turnEnds === null || !g || g.finished) return null;
  return Math.max(0, Math.ceil((state.turnEnds - Date.now()) / 1000));
}

/** The turn's countdown, the same for everyone in the room; ticks on its own. */
function renderClock() {
  const clock = $("turn-clock");
  const left = turnLeft();
  clock.hidden = left === null;
  if (left === null) return;
  const text = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  if (clock.dataset.left !== String(left)) {
    clock.dataset.left = String(left);
    replaceChildren(clock, h("span", { class: "visually-hidden" }, "Time left for this turn: "),
      text, h("span", { "aria-hidden": "true" }, " left"));
  }
  clock.classList.toggle("urgent", left <= 10);
}
setInterval(renderClock, 250);

/** Practice rooms: each box I may score shows what it is worth; the hint marks the best
 * choice (a box here, the dice to keep in renderDice). */
function renderCoach(table) {
  const g = state.game;
  const advice = isMyTurn() ? coach.current(g) : null;
  const best = advice && coach.hint ? coach.best(g) : null;
  for (const button of table.querySelectorAll("button.option")) {
    const column = Number(button.dataset.column);
    const value = advice ? coach.boxValue(g, button.dataset.box, column) : null;
    if (value === null) continue;
    button.append(h("span", { class: "coach-value", title: "expected final score" },
      `≈ ${value.toFixed(1)}`));
    if (best && best.kind === "box" && best.box === button.dataset.box && best.column === column) {
      button.classList.add("coach-best");
    }
  }
  const hintBtn = $("hint-btn");
  if (hintBtn) {
    hintBtn.hidden = !advice;
    hintBtn.setAttribute("aria-pressed", String(Boolean(advice && coach.hint)));
  }
  if ($("coach-row")) $("coach-row").hidden = !isMyTurn();
}

function renderDice() {
  const g = state.game;
  const mine = isMyTurn();
  tray.update({
    dice: g.dice,
    held: mine ? state.held : state.lastHeld,
    canHold: canHold(),
    rolled: state.rolled,
  });
  state.rolled = [];
  $("dice").classList.toggle("watching", !mine);
  // The coach's hint: the dice its best hold keeps.
  const best = mine && coach.hint ? coach.best(g) : null;
  const keep = new Set(best && best.kind === "hold" ? best.hold : []);
  $("dice").querySelectorAll(".die").forEach((die, i) => die.classList.toggle("hint", keep.has(i)));
  $("dice").classList.toggle("hint-nothing", Boolean(best && best.kind === "hold" && !keep.size));
}

function renderCards() {
  const g = state.game;
  const columns = g.scorecards[0].columns.length;
  const switcher = $("column-switch");
  if (columns > 1) {
    if (state.column === undefined) {
      // All three columns of everyone fit a desktop for up to three players; else one at a time.
      const wide = window.matchMedia("(min-width: 60rem)").matches;
      state.column = wide && g.players.length <= 3 ? null : 0;
    }
    switcher.hidden = false;
    const choices = [...Array(columns).keys(), "all"];
    replaceChildren(switcher, choices.map((c) => h("button", {
      type: "button", class: "switch",
      "aria-pressed": String(c === "all" ? state.column === null : state.column === c),
      onclick: () => { state.column = c === "all" ? null : c; renderCards(); },
    }, c === "all" ? "All" : `Col. ${c + 1} ×${c + 1}`)));
  } else {
    switcher.hidden = true;
  }
  const forbidden = (g.options || []).filter((o) => !o.allowed);
  const note = $("joker-note");
  note.hidden = forbidden.length === 0;
  if (forbidden.length) {
    const allowed = g.options.filter((o) => o.allowed)
      .map((o) => slotLabel(o.box, o.column, columns));
    note.textContent = `Joker rule: this Yahtzee may only go in ${allowed.join(", ")}; `
      + "boxes marked ✕ are not allowed.";
  }
  const shown = state.column === null || state.column === undefined
    ? [...Array(columns).keys()] : [state.column];
  const focused = document.activeElement;
  const focusKey = focused && focused.classList && focused.classList.contains("option")
    ? `${focused.dataset.box}@${focused.dataset.column}` : null;
  const table = renderScorecard({
    game: g, me: myPlayer(), columnsShown: shown, away: awayPlayers(),
    canScore: isMyTurn() && g.dice !== null && state.connected && !state.busy,
    armed: (o) => confirm.pending(`score:${o.box}@${o.column}`),
  }, scoreBox);
  replaceChildren($("scorecard"), table);
  renderCoach(table);
  feeling.markScored(table);
  renderRulesHelp(g);
  if (focusKey) {
    const [box, column] = focusKey.split("@");
    const again = table.querySelector(`button.option[data-box="${box}"][data-column="${column}"]`)
      || table.querySelector("button.option");
    if (again) again.focus();
  }
}

/** The "How boxes score" panel, filled once per ruleset. */
function renderRulesHelp(g) {
  const panel = $("rules-help");
  if (panel.dataset.rules === g.rules) return;
  panel.dataset.rules = g.rules;
  replaceChildren($("rules-boxes"), RULESET.boxes.flatMap((box) => [
    h("dt", {}, box.label), h("dd", {}, boxHelp(box.name))]));
  replaceChildren($("rules-bonuses"), bonusHelp().map((line) => h("li", {}, line)));
}

function awayPlayers() {
  const away = new Set();
  for (const s of state.room.seats) {
    const p = playerOfSeat(s.seat);
    if (p !== null && s.kind !== "bot" && !s.connected) away.add(p);
  }
  return away;
}

function renderResultPanel() {
  const g = state.game;
  const panel = $("result");
  if (!g || !g.finished) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  $("result-title").textContent = resultHeadline(g, myPlayer());
  const link = $("game-page-link");
  link.href = link.dataset.template.replace(/\/0\/$/, `/${g.id}/`);
  replaceChildren($("result-body"), placeLine(g, myPlayer()), renderResult(g));
}

// --- log ----------------------------------------------------------------------------------------

// Newest line first. Each line is one event, keyed by its game's id and its seq, so live
// events and the `recent` of a state fill the same list without duplicates; a divider
// separates the games of the room.

/** Add a line for each of `entries` ({seq, event, by}: an `event` message or an item of a
 * state's `recent`) of game `gameId` that the log does not show yet, in its place. */
function addLogLines(gameId, entries) {
  const log = $("log");
  const me = myPlayer();
  const computers = new Set(state.room.seats.filter((s) => s.kind === "bot")
    .map((s) => playerOfSeat(s.seat)));
  let added = false;
  for (const { seq: at, event, by } of entries) {
    if (typeof at !== "number" || !event || hasLogLine(log, gameId, at)) continue;
    const text = describeEvent(event, state.game, by, me, computers);
    if (!text) continue;
    const mine = event.player !== undefined && event.player === me;
    const li = h("li", {
      class: `log-${event.kind}${mine ? " log-mine" : ""}`,
      dataset: { game: String(gameId), seq: String(at) },
    }, text);
    const after = [...log.children].find((el) => el.dataset.seq !== undefined
      && isOlder(Number(el.dataset.game), Number(el.dataset.seq), gameId, at));
    log.insertBefore(li, after || null);
    added = true;
  }
  if (!added) return;
  placeDividers(log);
  while (log.children.length > LOG_LIMIT || log.lastElementChild.dataset.seq === undefined) {
    log.lastElementChild.remove();
  }
}

function hasLogLine(log, gameId, at) {
  return log.querySelector(`li[data-game="${gameId}"][data-seq="${at}"]`) !== null;
}

// Game ids grow with each new game of a room; within a game, seq orders the events.
function isOlder(game, at, thanGame, thanAt) {
  return game < thanGame || (game === thanGame && at < thanAt);
}

function placeDividers(log) {
  for (const el of log.querySelectorAll("li.log-divider")) el.remove();
  const lines = [...log.children];
  for (let i = 1; i < lines.length; i += 1) {
    if (lines[i].dataset.game !== lines[i - 1].dataset.game) {
      log.insertBefore(h("li", { class: "log-divider", "aria-hidden": "true" }), lines[i]);
    }
  }
}

/** The host's "chances shown to players" option (`room.chances`; `room_options` in
 * docs/protocol.md), made once beside the turn time. */
function chancesSelect() {
  let select = $("chances-option");
  if (select) return select;
  const label = document.createElement("label");
  label.className = "turn-time-field";
  label.append("Chances shown to players ");
  select = document.createElement("select");
  select.id = "chances-option";
  for (const [value, text] of [["auto", "With computer players"], ["on", "Always"], ["off", "Never"]]) {
    select.append(new Option(text, value));
  }
  select.addEventListener("change", (e) => seatCommand("room_options", { chances: e.target.value }));
  label.append(select);
  $("host-controls").append(label);
  return select;
}

// --- wiring -------------------------------------------------------------------------------------

$("roll-btn").addEventListener("click", roll);
$("start-btn").addEventListener("click", () => startGame("start"));
$("rematch-btn").addEventListener("click", () => startGame("rematch"));
$("add-seat-btn").addEventListener("click", () => seatCommand("add_seat"));
$("turn-time").addEventListener("change", (e) => {
  seatCommand("room_options", { turn_time: Number(e.target.value) });
});
$("copy-link").addEventListener("click", async () => {
  const button = $("copy-link");
  try {
    await navigator.clipboard.writeText(location.href);
    button.textContent = "Link copied";
  } catch (err) {
    button.textContent = location.href;
  }
  setTimeout(() => { button.textContent = "Copy invite link"; }, 3000);
});
window.addEventListener("pagehide", () => conn.close());
window.addEventListener("pageshow", (e) => { if (e.persisted) conn.connect(); });

render();
conn.connect();
// For the end-to-end tests and curious people: a peek at the client state.
// `receive` feeds a message as if from the server (tests use it for rare states and seq gaps).
window.yahtzeeRoom = { state, seq, receive: handleMessage, confirm };
