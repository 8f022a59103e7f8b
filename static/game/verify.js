// "Verify the dice" on a game's page: redo every roll in this browser, with Web Crypto, from
// the revealed server seed and the players' seeds (docs/fairness.md has the scheme). Nothing
// here trusts the server's own check: the dice come from #fairness-data as stored.

import { h, replaceChildren } from "./dom.js";

const $ = (id) => document.getElementById(id);
const data = JSON.parse($("fairness-data").textContent);
const button = $("verify-btn");
const REJECT_FROM = 252; // bytes 252–255 are skipped: 252 = 6 × 42, no modulo bias

function hexToBytes(hex) {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(hex.substr(i * 2, 2), 16);
  return bytes;
}

function bytesToHex(buffer) {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The first `count` faces of roll k: HMAC-SHA256(seed, "<seeds…>\n<k>\n<counter>"). */
async function faces(key, clientSeeds, k, count) {
  const out = [];
  for (let counter = 0; out.length < count; counter += 1) {
    const message = new TextEncoder().encode([...clientSeeds, k, counter].join("\n"));
    const block = new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
    for (const b of block) if (b < REJECT_FROM) out.push((b % 6) + 1);
  }
  return out.slice(0, count);
}

/** Each roll with the dice the seeds give: held dice are the previous roll's, the others are
 * drawn in position order. */
async function check(key) {
  const results = [];
  let previous = null; // the roll before, as derived: a roll that holds dice re-rolls it
  for (const roll of data.rolls) {
    const held = new Set(roll.held);
    const drawn = await faces(key, data.client_seeds, roll.k, roll.dice.length - held.size);
    const expected = roll.dice.map((_, i) => (held.has(i) && previous ? previous[i] : drawn.shift()));
    const ok = expected.every((d, i) => d === roll.dice[i]);
    results.push({ ...roll, expected, ok });
    previous = expected; // held dice follow from the seeds too: a changed die fails one roll
  }
  return results;
}

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
  const seed = hexToBytes(data.server_seed);
  const hash = bytesToHex(await crypto.subtle.digest("SHA-256", seed));
  const commitmentOk = hash === data.commitment;
  const key = await crypto.subtle.importKey(
    "raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const results = await check(key);
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
