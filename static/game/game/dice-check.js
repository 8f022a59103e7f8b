// The fair-dice check itself (docs/fairness.md), apart from the page: redo every roll of a
// game from its revealed server seed and the players' seeds, with Web Crypto (the browser's,
// or Node's for the unit tests). verify.js shows the result.

const DICE = 5; // a roll always shows five dice: any other count is a mismatch
const REJECT_FROM = 252; // bytes 252–255 are skipped: 252 = 6 × 42, no modulo bias

function hexToBytes(hex) {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(hex.substr(i * 2, 2), 16);
  return bytes;
}

function bytesToHex(buffer) {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The first `count` faces of the stream HMAC-SHA256(seed, "<head…>\n<counter>"). */
async function faces(key, head, count) {
  const out = [];
  for (let counter = 0; out.length < count; counter += 1) {
    const message = new TextEncoder().encode([...head, counter].join("\n"));
    const block = new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
    for (const b of block) if (b < REJECT_FROM) out.push((b % 6) + 1);
  }
  return out.slice(0, count);
}

/** Each roll with the dice the seeds give (`expected`) and whether the stored ones are those
 * (`ok`): held dice are the previous roll's, the others are drawn in position order. */
async function checkRolls(key, data) {
  const results = [];
  let previous = null; // the roll before, as derived: a roll that holds dice re-rolls it
  for (const roll of data.rolls) {
    const held = new Set(roll.held);
    // a daily challenge's game: its tape's stream of that turn and roll (docs/fairness.md)
    const head = data.daily
      ? ["daily", data.rules, data.daily, roll.turn, roll.roll]
      : [...data.client_seeds, roll.k];
    const drawn = await faces(key, head, DICE); // a prefix of the same stream
    const expected = Array.from({ length: DICE },
      (_, i) => (held.has(i) && previous ? previous[i] : drawn.shift()));
    const ok = roll.dice.length === DICE && expected.every((d, i) => d === roll.dice[i]);
    results.push({ ...roll, expected, ok });
    previous = expected; // held dice follow from the seeds too: a changed die fails one roll
  }
  return results;
}

/** The whole check of a game's dice data (`server_seed`, `commitment`, `client_seeds`,
 * `rolls` as in dice.json; a daily game's `rules`, `daily` and each roll's `turn` and
 * `roll`): whether the seed matches its commitment, and every roll. */
export async function checkGame(data) {
  const seed = hexToBytes(data.server_seed);
  const hash = bytesToHex(await crypto.subtle.digest("SHA-256", seed));
  const key = await crypto.subtle.importKey(
    "raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return {
    commitmentOk: hash === data.commitment,
    rolls: await checkRolls(key, data),
  };
}
