// What the page says about itself: the connection, the last error, a computer getting ready.

import { h, replaceChildren } from "../../shared/dom.js";
import { gettext, interpolate, ngettext } from "../../shared/i18n.js";

/** How long an error stays on screen. */
export const ERROR_MS = 8000;

/** actions: {retryNow()}. */
export function renderConnection(state, el, actions) {
  const { status, retryInMs, liveAway } = state.connection;
  // Drawn again only when it changed: a redraw must not replace the focused button.
  const key = `${status}/${retryInMs}/${liveAway}`;
  if (el.dataset.drawn === key) return;
  el.dataset.drawn = key;
  el.dataset.state = status;
  replaceChildren(el);
  if (status === "connecting") el.append(gettext("Connecting…"));
  else if (status === "reconnecting") el.append(gettext("Reconnecting…"));
  else if (status === "open") el.append(gettext("Connected"));
  else if (status === "back") el.append(gettext("Back online — the game is up to date."));
  else if (status === "lost") {
    const seconds = Math.max(1, Math.round(retryInMs / 1000));
    el.append(interpolate(liveAway
      ? ngettext("Connection to the live room lost — retrying in %(seconds)s\u00a0s. The game is safe.",
        "Connection to the live room lost — retrying in %(seconds)s\u00a0s. The game is safe.", seconds)
      : ngettext("Connection lost — trying again in %(seconds)s\u00a0s.",
        "Connection lost — trying again in %(seconds)s\u00a0s.", seconds), { seconds }),
      " ",
      h("button", { type: "button", class: "link-button", onclick: actions.retryNow },
        gettext("Reconnect now")));
  }
}

export function renderError(state, box, now) {
  const e = state.error;
  box.hidden = !e || now - e.at >= ERROR_MS;
  if (box.hidden) return;
  box.textContent = e.message;
  box.dataset.code = e.code;
}

export function renderPreparing(state, el) {
  const p = state.preparing;
  el.hidden = !p;
  if (!p) return;
  el.textContent = interpolate(gettext("%(name)s is getting ready (%(percent)s\u00a0%): its strategy table is built once, the first time it plays."),
    { name: p.name, percent: p.percent });
}
