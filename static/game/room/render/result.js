// The result panel of a finished game: the end card (a win, a calm loss, or who won for a
// watcher), then everyone's totals.

import { replaceChildren } from "../../shared/dom.js";
import { endCard, playedFor } from "../ending.js";
import { renderResult } from "../../shared/scorecard.js";
import { myPlayer } from "../store.js";

/** els: {panel, title, detail, played, body, link}. */
export function renderResultPanel(state, els) {
  const g = state.game;
  els.panel.hidden = !g || !g.finished;
  if (els.panel.hidden) return;
  const card = endCard(g, myPlayer(state));
  els.panel.dataset.kind = card.kind;
  els.title.textContent = card.title;
  els.detail.textContent = card.detail;
  els.detail.hidden = !card.detail;
  // Who played whose turns: a win the computer helped with says so.
  const played = playedFor(g, myPlayer(state), state.autoplayed);
  els.played.textContent = played.join(" ");
  els.played.hidden = !played.length;
  els.link.href = els.link.dataset.template.replace(/\/0\/$/, `/${g.id}/`);
  replaceChildren(els.body, renderResult(g));
}
