// The seats (who plays, who is here, whose turn, the totals), the host's seat buttons between
// games, and how many watch.

import { h, replaceChildren } from "../../shared/dom.js";
import { gettext, interpolate, ngettext, pgettext } from "../../shared/i18n.js";
import { isHost, playerOfSeat, seatOfPlayer, status } from "../store.js";

/** actions: {seatCommand(type, fields)}. */
export function renderSeats(state, list, actions) {
  const g = state.game;
  const me = state.you ? state.you.seat : null;
  const current = g && !g.finished ? seatOfPlayer(state, g.current_player) : null;
  // Before the first game the lines hold the game's tag and total unseen: its start wraps none.
  const st = status(state);
  const before = !g && (st === "waiting" || st === "starting");
  replaceChildren(list, state.room.seats.slice().sort((a, b) => a.seat - b.seat).map((s) => {
    const away = s.name && s.kind !== "bot" && !s.connected;
    const p = playerOfSeat(state, s.seat);
    const total = g && p !== null && g.scorecards[p] ? g.scorecards[p].total : null;
    const isCurrent = current && current.seat === s.seat;
    return h("li", {
      class: ["seat", isCurrent ? "current" : "", s.name ? "" : "empty", away ? "away" : "",
        s.seat === me ? "mine" : ""].filter(Boolean).join(" "),
      dataset: { seat: String(s.seat) },
    },
    h("span", { class: `dot ${!s.name ? "none" : away ? "off" : "on"}`, "aria-hidden": "true" }),
    h("span", { class: "seat-line" },
      h("span", { class: "seat-name" }, s.name || gettext("Free seat")),
      // Translators: a tag beside my own seat's name.
      s.seat === me ? h("span", { class: "tag tag-you" }, gettext("you")) : null,
      s.host ? h("span", { class: "tag" }, gettext("host")) : null,
      s.kind === "bot" ? h("span", { class: "tag" }, gettext("computer")) : null,
      // A computer is always there: "here" is for people.
      s.name && s.kind !== "bot"
        ? h("span", { class: "presence" }, away ? gettext("away") : gettext("here")) : null,
      // During a game every player's line holds the tag's room (unseen but on the line to
      // play): a line does not wrap and unwrap as the turn goes round.
      (current || before) && s.name
        ? h("span", { class: `tag tag-turn${isCurrent ? "" : " off-turn"}` }, gettext("to play"))
        : null),
    before && s.name ? h("span", { class: "seat-total off-turn" }, "0")
      : h("span", { class: "seat-total" }, total !== null ? String(total) : ""),
    seatActions(state, s, away, actions));
  }));
}

/** The computer players' levels (game.ai.LEVELS), as the lobby names them. */
const LEVELS = [
  ["easy", pgettext("computer level", "Easy")],
  ["medium", pgettext("computer level", "Medium")],
  ["optimal", pgettext("computer level", "Optimal")],
  ["to_win", pgettext("computer level", "Plays to win")],
];

/** Between games: "Leave seat" for my own seat; for the host, a computer (the optimal one)
 * for a free seat or an absent person's, a computer's level to change, and "Remove". Null
 * while a game runs. */
function seatActions(state, s, away, actions) {
  const st = status(state);
  if (st !== "waiting" && st !== "finished") return null;
  const mine = state.you && s.seat === state.you.seat;
  const buttons = [];
  if (mine) {
    buttons.push(h("button", { type: "button", class: "btn btn-small seat-leave",
      onclick: () => actions.seatCommand("leave_seat") }, gettext("Leave seat")));
  }
  if (isHost(state) && !mine && (!s.name || away || s.kind === "bot")) {
    if (s.kind !== "bot") {
      buttons.push(h("button", { type: "button", class: "btn btn-small seat-bot",
        onclick: () => actions.seatCommand("seat_bot", { seat: s.seat, level: "optimal" }) },
      gettext("Computer")));
    } else {
      // Chosen, it is sent at once: nothing waits in a menu for a re-render to lose it.
      buttons.push(h("select", {
        class: "seat-bot-level", "aria-label": gettext("Computer level"),
        onchange: (e) => actions.seatCommand("seat_bot", { seat: s.seat, level: e.target.value }),
      }, LEVELS.map(([level, label]) => h("option", { value: level, selected: level === s.level },
        label))));
    }
    if (state.room.seats.length > 1) {
      buttons.push(h("button", { type: "button", class: "btn btn-small seat-remove",
        onclick: () => actions.seatCommand("remove_seat", { seat: s.seat }) }, gettext("Remove")));
    }
  }
  return buttons.length ? h("span", { class: "seat-actions" }, buttons) : null;
}

export function renderWatchers(state, el) {
  const count = state.room.watchers || 0;
  el.textContent = interpolate(ngettext("%(count)s watching", "%(count)s watching", count), { count });
}
