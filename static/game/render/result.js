// The result panel of a finished game.

import { replaceChildren } from "../dom.js";
import { placeLine, renderResult, resultHeadline } from "../scorecard.js";
import { myPlayer } from "../store.js";

/** els: {panel, title, body, link}. */
export function renderResultPanel(state, els) {
  const g = state.game;
  els.panel.hidden = !g || !g.finished;
  if (els.panel.hidden) return;
  const me = myPlayer(state);
  els.title.textContent = resultHeadline(g, me);
  els.link.href = els.link.dataset.template.replace(/\/0\/$/, `/${g.id}/`);
  replaceChildren(els.body, placeLine(g, me), renderResult(g));
}
