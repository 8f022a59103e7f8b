// Where everyone stands after each turn (a `standings` frame, docs/protocol.md): one bar split
// by each player's chance to win, and for each player, in words, that chance and the final
// score they will likely reach, with a visible legend (no hover needed: phones have none).
import { h, replaceChildren } from "../shared/dom.js";
import { gettext, interpolate } from "../shared/i18n.js";

/** "46 %", ">99 %", "<1 %". */
export const pct = (x) => (x >= 0.995 ? gettext(">99 %") : x > 0 && x < 0.005 ? gettext("<1 %")
  : interpolate(gettext("%(percent)s %"), { percent: Math.round(x * 100) }));

/** The likely final score: from the 10th to the 90th percentile of its distribution (eight
 * games in ten end there: the distribution is skewed, so this is not the expectation ± a
 * spread); "245" once nothing is left to chance. */
export function likelyRange(percentiles) {
  const low = percentiles[0];
  const high = percentiles[percentiles.length - 1];
  return low === high ? `${low}` : `${low}–${high}`;
}

/** One player's line: "Ann: 46 % to win · likely 193–288" (alone: no chance to win). */
export function standingLine(name, player, alone) {
  const values = { name, chance: pct(player.chance), likely: likelyRange(player.percentiles) };
  return interpolate(alone ? gettext("%(name)s: likely %(likely)s")
    : gettext("%(name)s: %(chance)s to win · likely %(likely)s"), values);
}

/** Draw `msg` (or hide the panel when there is none for this game). `names[i]` is player i's.
 * `expected`: the room will send standings after the first turn; until then the panel holds
 * their place, names and "…", so that their coming does not push the scorecard down. */
export function renderStandings(el, msg, game, names, expected = false) {
  const running = Boolean(game && !game.finished);
  // Kept once the game is over (the last ones: who won, by how much): the end card comes
  // above the scorecards, and nothing in them moves.
  const show = Boolean(game && msg && msg.game === game.id
    && msg.players.length === names.length);
  el.hidden = !show && !(running && expected && names.length > 0);
  el.classList.toggle("standings-pending", !show);
  if (el.hidden) return;
  if (!show) {
    msg = { players: names.map(() => ({ chance: 1 / names.length, percentiles: [] })) };
  }
  const alone = names.length === 1;
  const bar = h("div", {
    class: "standings-bar", role: "img",
    "aria-label": msg.players.map((p, i) => `${names[i]} ${pct(p.chance)}`).join(", "),
  }, msg.players.map((p, i) => {
    const part = h("span", { class: `standings-part sp${i}` });
    part.style.flexGrow = String(Math.max(p.chance, 0.001)); // CSSOM: the CSP allows no style attributes
    return part;
  }));
  replaceChildren(el,
    h("h3", { class: "standings-title" },
      alone ? gettext("Your likely final score") : gettext("Chances to win")),
    alone ? null : bar,
    h("ol", { class: "standings-list" }, msg.players.map((p, i) => h("li", {
      class: "standings-row", dataset: { player: String(i) },
    },
    h("span", { class: `standings-dot sp${i}`, "aria-hidden": "true" }),
    h("span", { class: "standings-text" },
      show ? standingLine(names[i], p, alone) : `${names[i]}: …`)))),
    h("p", { class: "standings-legend" }, alone
      ? gettext("“Likely”: where eight games in ten end, with the best play from here.")
      : gettext("From where every card stands, with the best play from here. “Likely”: where eight games in ten end.")),
  );
}
