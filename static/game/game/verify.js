// "Verify the dice" on a game's page: redo every roll in this browser, with Web Crypto, from
// the revealed server seed and the players' seeds (dice-check.js; docs/fairness.md has the
// scheme). Nothing here trusts the server's own check: the dice come from #fairness-data as
// stored.

import { checkGame } from "./dice-check.js";
import { fill, h, replaceChildren } from "../shared/dom.js";
import { gettext, interpolate, ngettext } from "../shared/i18n.js";
import { playerNumber } from "../shared/labels.js";

const $ = (id) => document.getElementById(id);
const data = JSON.parse($("fairness-data").textContent);
const button = $("verify-btn");

function showRoll(r) {
  const values = { k: r.k, name: data.players[r.player] || playerNumber(r.player),
    dice: r.dice.join(" "), expected: r.expected.join(" ") };
  const label = interpolate(r.ok ? gettext("Roll %(k)s (%(name)s): %(dice)s — matches")
    : gettext("Roll %(k)s (%(name)s): stored %(dice)s, the seeds give %(expected)s"), values);
  return h("li", {
    class: `verify-roll ${r.ok ? "ok" : "bad"}`,
    dataset: { k: String(r.k), seq: String(r.seq), ok: r.ok ? "true" : "false" },
    title: label,
    "aria-label": label,
  }, h("span", { class: "mark", "aria-hidden": "true" }, r.ok ? "✓" : "✗"),
  h("span", { class: "k" }, String(r.k)),
  h("span", { class: "faces" }, r.dice.join("")));
}

async function verify() {
  const result = $("verify-result");
  if (!(window.crypto && crypto.subtle)) {
    result.textContent = gettext("This browser offers no Web Crypto here (it needs https): use the script in the project’s docs/fairness.md instead.");
    result.dataset.state = "error";
    return;
  }
  button.disabled = true;
  result.dataset.state = "running";
  result.textContent = gettext("Checking…");
  const { commitmentOk, rolls: results } = await checkGame(data);
  replaceChildren($("verify-rolls"), results.map(showRoll));
  const bad = results.filter((r) => !r.ok);
  const parts = [];
  parts.push(commitmentOk
    ? gettext("The revealed seed matches its commitment.")
    : gettext("The revealed seed does NOT match the commitment published before the game."));
  const counts = { bad: bad.length, count: results.length, rolls: bad.map((r) => r.k).join(", ") };
  parts.push(bad.length === 0
    ? interpolate(ngettext("All %(count)s roll matches the seeds.", "All %(count)s rolls match the seeds.",
      results.length), counts)
    : interpolate(ngettext("%(bad)s of %(count)s rolls does NOT match: roll %(rolls)s.",
      "%(bad)s of %(count)s rolls do NOT match: rolls %(rolls)s.", bad.length), counts));
  result.textContent = parts.join(" ");
  // Each mismatch in words, with a link to that moment of the replay above.
  replaceChildren($("verify-mismatches"), bad.map((r) => h("li", {},
    ...fill(gettext("%(roll)s by %(name)s: stored %(dice)s, the seeds give %(expected)s."), {
      roll: h("a", { href: `#seq=${r.seq}` }, interpolate(gettext("Roll %(k)s"), { k: r.k })),
      name: data.players[r.player] || playerNumber(r.player),
      dice: r.dice.join(" "), expected: r.expected.join(" ") }))));
  result.dataset.state = commitmentOk && bad.length === 0 ? "ok" : "bad";
  result.dataset.verified = String(results.length - bad.length);
  button.disabled = false;
}

if (button) button.addEventListener("click", () => { verify(); });
