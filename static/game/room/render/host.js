// Between games: the join form of a watcher, the host's controls (start, rematch, seats,
// turn time) and the notes that say what the room waits for.

import { h } from "../../shared/dom.js";
import { formatNumber, gettext, interpolate } from "../../shared/i18n.js";
import { isConnected, isHost, status } from "../store.js";

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

/** A watcher's note: shown to whoever has no seat, before, during and after a game (it does
 * not come and go above the table as a game starts). */
export function renderWatchingNote(state, note) {
  if (note && state.synced) note.hidden = Boolean(state.you && state.you.seat !== null && state.you.seat !== undefined);
}

/** els: {start, rematch, addSeat, turnTimeField, turnTime, chancesField, chances, hostControls,
 * turnTimeNote, waitingNote}. */
export function renderHostControls(state, els) {
  const st = status(state);
  const host = isHost(state);
  const idle = isConnected(state) && !state.busy;
  els.start.hidden = !(host && st === "waiting");
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
  if (st === "waiting") {
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
