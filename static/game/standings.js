// Where everyone stands after each turn (a `standings` frame, docs/protocol.md): one bar split
// by each player's chance to win, and each player's expected final score ± its spread.
import { h, replaceChildren } from "./dom.js";

const pct = (x) => (x >= 0.995 ? ">99 %" : x > 0 && x < 0.005 ? "<1 %" : `${Math.round(x * 100)} %`);

/** Draw `msg` (or hide the panel when there is none for this game). `names[i]` is player i's. */
export function renderStandings(el, msg, game, names) {
  const show = Boolean(msg && game && !game.finished && msg.game === game.id
    && msg.players.length === names.length);
  el.hidden = !show;
  if (!show) return;
  const alone = names.length === 1;
  const bar = h("div", {
    class: "standings-bar", role: "img",
    "aria-label": msg.players.map((p, i) => `${names[i]} ${pct(p.chance)}`).join(", "),
  }, msg.players.map((p, i) => {
    const part = h("span", { class: `standings-part sp${i}`, title: `${names[i]}: ${pct(p.chance)}` });
    part.style.flexGrow = String(Math.max(p.chance, 0.001)); // CSSOM: the CSP allows no style attributes
    return part;
  }));
  replaceChildren(el,
    h("h3", { class: "standings-title" }, alone ? "Expected final score" : "Chances to win"),
    alone ? null : bar,
    h("ol", { class: "standings-list" }, msg.players.map((p, i) => h("li", {
      class: "standings-row", dataset: { player: String(i) },
    },
    h("span", { class: `standings-dot sp${i}`, "aria-hidden": "true" }),
    h("span", { class: "standings-name" }, names[i]),
    alone ? null : h("span", { class: "standings-chance" }, pct(p.chance)),
    h("span", { class: "standings-expected", title: "expected final score ± standard deviation" },
      p.sd > 0 ? `≈ ${Math.round(p.expected)} ± ${Math.round(p.sd)}` : `${Math.round(p.expected)}`)))),
  );
}
