// Between games: the join form of a watcher, the host's controls (start, rematch, seats,
// turn time) and the notes that say what the room waits for.

import { h } from "../../shared/dom.js";
import { formatNumber, gettext, interpolate } from "../../shared/i18n.js";
import { hostAway, isConnected, isHost, mayStart, status } from "../store.js";

/** The join form (watchers only): shown while the room waits and has a free seat; it offers
 * only the seats still free. */
export function renderJoin(state, join) {
  // Until the room's state comes, the form stays as the server drew it (no flash of it).
  if (!join || !state.synced) return;
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

/** The invite: while the room waits, above everything (the page's first job); after a game
 * only with someone to invite it for (a free seat, or another person: never against
 * computers alone), below the result and "Play again". els: {invite, result, after}. */
export function renderInvite(state, els) {
  const { invite } = els;
  if (!invite) return;
  const st = status(state);
  if (st !== "finished") {
    if (invite.nextElementSibling !== els.result) els.result.before(invite);
    invite.hidden = false; // room.css hides it during a game and from watchers
    return;
  }
  if (els.after.nextElementSibling !== invite) els.after.after(invite);
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
  const note = els.waitingNote;
  const away = host ? null : hostAway(state, now);
  note.classList.toggle("notice", Boolean(st === "waiting" && away));
  if (st === "waiting" && away) {
    note.hidden = false;
    note.textContent = hostAwayNote(state, away);
  } else if (st === "waiting") {
    note.hidden = false;
    note.textContent = host
      ? gettext("Invite friends with the room's link; start the game when everyone has a seat.")
      : gettext("Waiting for the host to start the game…");
  } else if (st === "finished" && !host) {
    note.hidden = false;
    note.textContent = gettext("Anyone at the table can start a rematch in this room.");
  } else {
    note.hidden = true;
  }
}
