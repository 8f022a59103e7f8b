// Between games: the join form of a watcher, the host's controls (start, rematch, seats,
// turn time) and the notes that say what the room waits for.

import { h } from "../../shared/dom.js";
import { formatNumber, gettext, interpolate } from "../../shared/i18n.js";
import { hostAway, isConnected, isHost, mayStart, status } from "../store.js";

/** The join form (watchers only): shown while the room waits and has a free seat; it offers
 * only the seats still free. On a wide screen at the top of the side column (`side`, the
 * room's grid; null on a phone), where its going at the start moves only that column;
 * `before`: its place on a phone. */
export function renderJoin(state, join, side, before) {
  if (!join) return;
  if (side && join.parentElement !== side) side.prepend(join);
  else if (!side && join.nextElementSibling !== before) before.before(join);
  // Until the room's state comes, the form stays as the server drew it (no flash of it).
  if (!state.synced) return;
  const st = status(state);
  const free = new Set(state.room.seats.filter((s) => !s.name).map((s) => s.seat));
  const select = join.querySelector("select[name=seat]");
  if (select && state.room.seats.length) {
    for (const option of [...select.options]) {
      if (!free.has(Number(option.value))) option.remove();
    }
    // A seat the host added between games: offer it too.
    const offered = new Set([...select.options].map((o) => Number(o.value)));
    for (const seat of [...free].sort((a, b) => a - b)) {
      if (!offered.has(seat)) select.append(h("option", { value: String(seat) }, interpolate(gettext("Seat %(number)s"), { number: seat + 1 })));
    }
  }
  // Between games too: a friend who came late takes a free seat for the rematch.
  join.hidden = st === "playing" || st === "starting"
    || (state.room.seats.length > 0 && free.size === 0)
    || (select !== null && select.options.length === 0);
}

/** What happens while the host is away before the first game, and when. */
function hostAwayNote(state, away) {
  const seated = Boolean(state.you && typeof state.you.seat === "number");
  const values = { name: away.seat.name, time: clock(away.left) };
  if (away.left > 0) {
    return interpolate(seated
      ? gettext("%(name)s, the host, left. Not back in %(time)s, and you can start the game yourself.")
      : gettext("%(name)s, the host, left. Not back in %(time)s, and anyone seated can start the game."),
    values);
  }
  return interpolate(seated
    ? gettext("%(name)s, the host, is gone: start the game when everyone has a seat.")
    : gettext("%(name)s, the host, is gone: anyone seated can start the game."), values);
}

/** The invite: while the room waits, above everything on a phone (the page's first job), at
 * the top of the side column on a wide screen (where its going at the start moves only that
 * column); after a game only with someone to invite it for (a free seat, or another person:
 * never against computers alone), on a phone below the result and "Play again".
 * els: {invite, result, after, side (a wide screen's grid, or null)}. */
export function renderInvite(state, els) {
  const { invite, side } = els;
  if (!invite) return;
  const st = status(state);
  if (side) {
    if (invite.parentElement !== side) side.prepend(invite);
  } else if (st !== "finished") {
    if (invite.nextElementSibling !== els.result) els.result.before(invite);
  } else if (els.after.nextElementSibling !== invite) {
    els.after.after(invite);
  }
  if (st !== "finished") {
    invite.hidden = false; // room.css hides it during a game and from watchers
    return;
  }
  const me = state.you ? state.you.seat : null;
  invite.hidden = !state.room.seats.some((s) => s.kind !== "bot" && s.seat !== me);
}

/** A watcher's note: shown to whoever has no seat, before, during and after a game (it does
 * not come and go above the table as a game starts). */
export function renderWatchingNote(state, note) {
  if (note && state.synced) note.hidden = Boolean(state.you && state.you.seat !== null && state.you.seat !== undefined);
}

/** "1:05": a countdown's seconds as a clock. */
export function clock(seconds) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** els: {start, rematch, addSeat, turnTimeField, turnTime, chancesField, chances, hostControls,
 * turnTimeNote, waitingNote}. */
export function renderHostControls(state, els, now = Date.now()) {
  const st = status(state);
  const host = isHost(state);
  const idle = isConnected(state) && !state.busy;
  // A seated friend may start once the host is gone (the server checks it again).
  els.start.hidden = !(st === "waiting" && mayStart(state, now));
  els.start.disabled = !idle || !state.room.seats.some((s) => s.name);
  // Any seated player may offer the rematch, not only the host.
  els.rematch.hidden = !((host || (state.you && state.you.seat != null)) && st === "finished");
  els.rematch.disabled = !idle;
  // Between games the host sets the seats and the options of the next one.
  const between = host && (st === "waiting" || st === "finished");
  els.addSeat.hidden = !between || state.room.seats.length >= state.page.maxSeats;
  els.addSeat.disabled = !idle;
  // Over days each move has days: the live turn time is not an option there.
  els.turnTimeField.hidden = !between || state.room.pace === "days";
  if (document.activeElement !== els.turnTime) els.turnTime.value = String(state.room.turn_time || 0);
  els.turnTime.disabled = !idle;
  els.chancesField.hidden = !between;
  if (document.activeElement !== els.chances) els.chances.value = state.room.chances || "auto";
  els.chances.disabled = !idle;
  els.hostControls.hidden = els.start.hidden && els.rematch.hidden && !between;
  const minutes = (state.room.turn_time || 0) / 60;
  els.turnTimeNote.hidden = between || !minutes || st === "playing";
  els.turnTimeNote.textContent = interpolate(
    gettext("Turn time: %(minutes)s min; then the computer plays the turn."),
    { minutes: formatNumber(minutes, Number.isInteger(minutes) ? 0 : 1) });
  const line = waitingLine(state, now);
  const note = els.waitingNote;
  note.hidden = line === null;
  note.classList.toggle("notice", Boolean(line && line.notice));
  if (line) note.textContent = line.text;
}

/** What the room waits for, as a line: {text, notice (the host is away: something to act
 * on)}, or null while a game is on. Above the host's controls, and on a wide screen on the
 * table set for the first game (room.css). */
export function waitingLine(state, now) {
  const st = status(state);
  const host = isHost(state);
  const away = host ? null : hostAway(state, now);
  if (st === "waiting" && away) return { text: hostAwayNote(state, away), notice: true };
  if (st === "waiting") {
    return { notice: false, text: host
      ? gettext("Invite friends with the room’s link; start the game when everyone has a seat.")
      : gettext("Waiting for the host to start the game…") };
  }
  if (st === "finished" && !host) {
    return { notice: false, text: gettext("Anyone at the table can start a rematch in this room.") };
  }
  return null;
}
