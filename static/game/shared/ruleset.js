// The page's ruleset as the server describes it (Ruleset.to_dict in game/rules/rulesets.py,
// rendered by the template with json_script): boxes, sections, bonuses, columns. The pages
// read the rules from here; they never keep a copy of their own.

const node = globalThis.document ? document.getElementById("ruleset-data") : null;

/** {name, title, columns, multipliers, boxes: [{name, label, section, max_points,
 *  joker_points}], upper_bonus, upper_bonus_threshold, yahtzee_box, yahtzee_bonus, joker} */
export const RULESET = node ? JSON.parse(node.textContent) : null;

/** The box called `name` of the page's ruleset, or undefined. */
export function rulesetBox(name) {
  return RULESET ? RULESET.boxes.find((b) => b.name === name) : undefined;
}

/** Names of the boxes of one section ("upper" or "lower"), in scorecard order. */
export function sectionBoxes(section) {
  return RULESET ? RULESET.boxes.filter((b) => b.section === section).map((b) => b.name) : [];
}

/** A box in a column as text, the form the server writes (`Slot` in game/rules/scorecard.py,
 * docs/protocol.md): "chance" with one column, "chance@2" (columns counted from 1) with
 * several. `columns`: how many columns the scorecards have. */
export function slotName(box, column, columns) {
  return columns > 1 ? `${box}@${column + 1}` : box;
}

/** {box, column} (column from 0) of a slotName. */
export function parseSlot(name) {
  const [box, column] = String(name).split("@");
  return { box, column: column ? Number(column) - 1 : 0 };
}
