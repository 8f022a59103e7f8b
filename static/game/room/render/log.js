// The room's log, newest line first: one line per event of the state's log, keyed by game and
// seq, a divider between the games of the room. Lines already shown stay in place (a live
// region announces only what is added). On screen the newest line is at the bottom
// (room.css), and the box keeps to its bottom unless its reader scrolled up: a new line
// takes the room below the others, never pushing them.

import { h } from "../../shared/dom.js";

export function renderLog(state, log) {
  const shown = new Map();
  for (const li of log.querySelectorAll("li[data-seq]")) shown.set(`${li.dataset.game}/${li.dataset.seq}`, li);
  const lines = state.log.map((line) => {
    const key = `${line.game}/${line.seq}`;
    const li = shown.get(key) || h("li", {
      class: `log-${line.kind}${line.mine ? " log-mine" : ""}`,
      dataset: { game: String(line.game), seq: String(line.seq) },
    }, line.text);
    shown.delete(key);
    return li;
  });
  if (!shown.size && lines.length === log.querySelectorAll("li[data-seq]").length) return;
  const box = log.parentElement;
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 4;
  for (const li of shown.values()) li.remove();
  for (const el of log.querySelectorAll("li.log-divider")) el.remove();
  let at = log.firstElementChild;
  lines.forEach((li, i) => {
    if (i > 0 && li.dataset.game !== lines[i - 1].dataset.game) {
      log.insertBefore(h("li", { class: "log-divider", "aria-hidden": "true" }), at);
    }
    if (li === at) at = at.nextElementSibling;
    else log.insertBefore(li, at);
  });
  if (atBottom) box.scrollTop = box.scrollHeight;
}
