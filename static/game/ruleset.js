// The page's ruleset as the server describes it (Ruleset.to_dict in game/rules/rulesets.py,
// rendered by the template with json_script): boxes, sections, bonuses, columns. The pages
// read the rules from here; they never keep a copy of their own.

const node = document.getElementById("ruleset-data");

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
