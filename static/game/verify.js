// "Verify the dice" on a game's page: redo every roll in this browser, with Web Crypto, from
// the revealed server seed and the players' seeds (dice-check.js; docs/fairness.md has the
// scheme). Nothing here trusts the server's own check: the dice come from #fairness-data as
// stored.

import { checkGame } from "./dice-check.js";
import { h, replaceChildren } from "./dom.js";

const $ = (id) => document.getElementById(id);
const data = JSON.parse($("fairness-data").textContent);
const button = $("verify-btn");

function showRoll(r) {
  const who = data.players[r.player] || `Player ${r.player + 1}`;
  const label = r.ok
    ? `Roll ${r.k} (${who}): ${r.dice.join(" ")} — matches`
    : `Roll ${r.k} (${who}): stored ${r.dice.join(" ")}, the seeds give ${r.expected.join(" ")}`;
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
    result.textContent = "This browser offers no Web Crypto here (it needs https): use the "
      + "script in the project's docs/fairness.md instead.";
    result.dataset.state = "error";
    return;
  }
  button.disabled = true;
  result.dataset.state = "running";
  result.textContent = "Checking…";
  const { commitmentOk, rolls: results } = await checkGame(data);
  replaceChildren($("verify-rolls"), results.map(showRoll));
  const bad = results.filter((r) => !r.ok);
  const parts = [];
  parts.push(commitmentOk
    ? "The revealed seed matches its commitment."
    : "The revealed seed does NOT match the commitment published before the game.");
  parts.push(bad.length === 0
    ? `All ${results.length} rolls match the seeds.`
    : `${bad.length} of ${results.length} rolls ${bad.length > 1 ? "do" : "does"} NOT match: `
      + `roll${bad.length > 1 ? "s" : ""} `
      + `${bad.map((r) => r.k).join(", ")}.`);
  result.textContent = parts.join(" ");
  // Each mismatch in words, with a link to that moment of the replay above.
  replaceChildren($("verify-mismatches"), bad.map((r) => h("li", {},
    h("a", { href: `#seq=${r.seq}` }, `Roll ${r.k}`),
    ` by ${data.players[r.player] || `player ${r.player + 1}`}: stored ${r.dice.join(" ")}, `
    + `the seeds give ${r.expected.join(" ")}.`)));
  result.dataset.state = commitmentOk && bad.length === 0 ? "ok" : "bad";
  result.dataset.verified = String(results.length - bad.length);
  button.disabled = false;
}

if (button) button.addEventListener("click", () => { verify(); });
