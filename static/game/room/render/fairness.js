// The commitment of the running game's server seed (or the next game's), the seed once
// revealed, and every player's seed; a seated player may change theirs between games.

import { h, replaceChildren } from "../../shared/dom.js";
import { gettext } from "../../shared/i18n.js";
import { status } from "../store.js";

/** els: {commitmentLabel, commitment, revealedLabel, revealedRow, revealed, seeds, form,
 * input}. */
export function renderFairness(state, els) {
  const g = state.game;
  const st = status(state);
  const running = g && !g.finished;
  const fair = g && g.fairness;
  if (fair && fair.daily) { // one seed for everyone's day, revealed when the day is over
    els.commitmentLabel.textContent = gettext("The day’s seed commitment (SHA-256), published before the day");
    els.commitment.textContent = fair.commitment;
    els.revealedLabel.hidden = true;
    els.revealedRow.hidden = true;
    els.seeds.hidden = true;
    els.form.hidden = true;
    return;
  }
  const commitment = running ? (fair ? fair.commitment : null) : state.room.commitment;
  els.commitmentLabel.textContent = running
    ? gettext("This game’s server seed commitment (SHA-256)")
    : gettext("Next game’s server seed commitment (SHA-256)");
  els.commitment.textContent = commitment || "—";
  const revealed = g && g.finished && fair && fair.server_seed;
  els.revealedLabel.hidden = !revealed;
  els.revealedRow.hidden = !revealed;
  if (revealed) {
    els.revealedLabel.textContent = gettext("Last game’s server seed (revealed)");
    els.revealed.textContent = fair.server_seed;
  }
  const rows = running && fair
    ? g.players.map((name, i) => [name, fair.client_seeds[i]])
    : state.room.seats.filter((s) => s.name).map((s) => [s.name, s.seed]);
  replaceChildren(els.seeds, rows.map(([name, seed]) => h("li", {},
    h("span", { class: "seed-owner" }, name), " ", h("code", { class: "seed" }, seed || "—"))));
  const mine = state.room.seats.find((s) => state.you && s.seat === state.you.seat);
  els.form.hidden = !mine || st === "playing" || st === "starting";
  if (!els.form.hidden && document.activeElement !== els.input) els.input.value = mine.seed || "";
}
