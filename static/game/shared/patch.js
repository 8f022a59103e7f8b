// What changed in the game's state: an `event` frame carries `changes`, a patch against the
// state at the previous seq (docs/protocol.md; game/rules/patches.py makes them).
// An object applied to an object patches its keys; an object applied to an array patches the
// elements at its indexes; anything else replaces the value.

/** `value` with `patch` applied, as a new value: unchanged parts are shared, never mutated. */
export function applyPatch(value, patch) {
  if (!isObject(patch)) return patch;
  if (Array.isArray(value)) {
    const out = value.slice();
    for (const [key, part] of Object.entries(patch)) out[Number(key)] = applyPatch(out[Number(key)], part);
    return out;
  }
  if (!isObject(value)) return patch;
  const out = { ...value };
  for (const [key, part] of Object.entries(patch)) out[key] = applyPatch(value[key], part);
  return out;
}

function isObject(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
