// The room page: one socket, one state, and a render of it after every message.

import { RoomConnection, SeqTracker } from "./connection.js";
import { DiceTray } from "./dice.js";
import { h, replaceChildren } from "./dom.js";
import { bonusHelp, boxHelp } from "./help.js";
import { loadHolds, saveHolds as saveHoldsFor } from "./holds.js";
import { installShortcuts } from "./keyboard.js";
import { describeEvent, rulesTitle, slotLabel } from "./labels.js";
import { RULESET } from "./ruleset.js";
import { renderResult, renderScorecard, resultHeadline } from "./scorecard.js";

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
};

const seq = new SeqTracker();
const tray = new DiceTray($("dice"), toggleHold);
const wsScheme = location.protocol === "https:" ? "wss" : "ws";
const conn = new RoomConnection(`${wsScheme}://${location.host}/ws/rooms/${boot.code}/`, {
  onMessage: handleMessage,
  onStatus: showConnection,
});

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
    case "event": onEvent(msg); break;
    case "presence": onPresence(msg); break;
    case "error": onError(msg); break;
    default: break; // newer server, older page: ignore what we do not know
  }
}

function onState(msg) {
  state.busy = false;
  root.dataset.synced = "true"; // the page shows the server's state (tests wait for this)
  if (msg.room) state.room = { ...state.room, ...msg.room };
  if (msg.you) state.you = msg.you;
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

function onEvent(msg) {
  const event = msg.event || {};
  if (event.kind === "game_started") {
    seq.reset(msg.seq);             // a new game (or a rematch) numbers its events afresh
    state.held = new Set();
    state.lastHeld = new Set();
  } else {
    const where = seq.check(msg.seq);
    if (where === "duplicate") return;
    if (where === "gap") {
      conn.send("sync", {}, { command: false });
      return;
    }
    seq.reset(msg.seq);
  }
  state.busy = false;
  if (msg.game) state.game = msg.game;
  state.rolled = [];
  if (event.kind === "rolled") {
    const kept = new Set(event.held || []);
    state.rolled = [0, 1, 2, 3, 4].filter((i) => !kept.has(i));
    state.lastHeld = kept;
    if (event.player === myPlayer()) state.held = new Set(kept);
  } else if (event.kind === "turn_started" || event.kind === "game_finished") {
    state.held = new Set();
    state.lastHeld = new Set();
  }
  if (event.kind === "game_finished" || event.kind === "game_started") {
    state.room.status = event.kind === "game_finished" ? "finished" : "playing";
  }
  saveHolds();
  if (state.game) addLogLines(state.game.id, [msg]);
  render();
  if (event.kind === "game_finished") $("result-title").focus();
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

let errorTimer = null;
function onError(msg) {
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
  const id = conn.send(type, fields);
  if (id === null) {
    onError({ code: "offline", message: "You are offline; the page reconnects by itself." });
    return;
  }
  state.busy = true;
  // If the answer got lost, free the buttons again after a while.
  setTimeout(() => { if (state.busy) { state.busy = false; render(); } }, 4000);
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
  const hold = state.game.dice ? [...state.held].sort() : [];
  command("roll", { hold });
}

function toggleHold(i) {
  if (!canHold()) return;
  if (state.held.has(i)) state.held.delete(i);
  else state.held.add(i);
  saveHolds();
  renderDice();
  renderTurn();
}

function scoreBox(box, column) {
  if (!isMyTurn() || !state.game.dice || state.busy) return;
  command("score", { box, column });
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

installShortcuts({ toggle: toggleHold, roll });

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
  renderFairness(st);
  const playing = Boolean(state.game);
  $("table").hidden = !playing || state.game.finished;
  $("cards").hidden = !playing;
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
  }
  join.hidden = st !== "waiting" || (state.room.seats.length > 0 && free.size === 0)
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
  $("host-controls").hidden = start.hidden && rematch.hidden;
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
      s.name ? h("span", { class: "presence" }, away ? "away" : "here") : null,
      isCurrent ? h("span", { class: "tag tag-turn" }, "to play") : null),
    h("span", { class: "seat-total" }, total !== null ? String(total) : ""));
  }));
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
    turn.append(h("strong", {}, g.players[g.current_player]), "’s turn");
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
  }, scoreBox);
  replaceChildren($("scorecard"), table);
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
  replaceChildren($("result-body"), renderResult(g));
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
  let added = false;
  for (const { seq: at, event, by } of entries) {
    if (typeof at !== "number" || !event || hasLogLine(log, gameId, at)) continue;
    const text = describeEvent(event, state.game, by, me);
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

// --- wiring -------------------------------------------------------------------------------------

$("roll-btn").addEventListener("click", roll);
$("start-btn").addEventListener("click", () => command("start"));
$("rematch-btn").addEventListener("click", () => command("rematch"));
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
window.yahtzeeRoom = { state, seq, receive: handleMessage };
