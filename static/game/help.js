// What each box scores, in a sentence (docs/rules.md): shown as the row headers' tooltips and
// in the "How boxes score" panel of the room page. The figures of the bonuses come from the
// page's ruleset; the sentences about boxes are prose, one set per ruleset.

import { RULESET, rulesetBox, sectionBoxes } from "./ruleset.js";

const UPPER = {
  ones: "the sum of the 1s", twos: "the sum of the 2s", threes: "the sum of the 3s",
  fours: "the sum of the 4s", fives: "the sum of the 5s", sixes: "the sum of the 6s",
};

const YAHTZEE = {
  ...UPPER,
  three_of_a_kind: "the sum of all dice, with at least three the same",
  four_of_a_kind: "the sum of all dice, with at least four the same",
  full_house: "25 for three of one number and two of another",
  small_straight: "30 for four in a row (1-2-3-4, 2-3-4-5 or 3-4-5-6)",
  large_straight: "40 for five in a row",
  yahtzee: "50 for five of a kind",
  chance: "the sum of all dice",
};

const YATZY = {
  ...UPPER,
  one_pair: "the sum of the two highest matching dice",
  two_pairs: "the sum of two pairs of different numbers",
  three_of_a_kind: "the sum of three matching dice",
  four_of_a_kind: "the sum of four matching dice",
  small_straight: "15 for exactly 1-2-3-4-5",
  large_straight: "20 for exactly 2-3-4-5-6",
  full_house: "the sum of all dice, for three of one number and two of another",
  chance: "the sum of all dice",
  yatzy: "50 for five of a kind",
};

// Triple Yahtzee's boxes are Yahtzee's.
const SENTENCES = { yahtzee: YAHTZEE, yatzy: YATZY, triple: YAHTZEE };

const NUMBERS = ["", "One", "Two", "Three", "Four", "Five", "Six"];

/** What `box` scores in the page's ruleset ("" if unknown). */
export function boxHelp(box) {
  return (RULESET && (SENTENCES[RULESET.name] || {})[box]) || "";
}

/** The sentences about the bonuses and special rules of the page's ruleset. */
export function bonusHelp() {
  const r = RULESET;
  if (!r) return [];
  const label = (name) => rulesetBox(name).label;
  const lines = [];
  if (r.columns > 1) {
    const kind = r.yahtzee_box ? `${label(r.yahtzee_box)} ` : "";
    lines.push(`${NUMBERS[r.columns] || r.columns} ${kind}columns at once; each has its own `
      + `bonuses${r.joker ? " and Joker rule" : ""}.`);
    const weighted = r.multipliers.map((m, c) => (m === 1 ? `column ${c + 1}`
      : `${m} × column ${c + 1}`));
    lines.push(`Final total: ${weighted.join(" + ")}.`);
  }
  const upper = sectionBoxes("upper");
  lines.push(`Upper bonus: ${r.upper_bonus} when ${label(upper[0])} to `
    + `${label(upper[upper.length - 1])} add up to ${r.upper_bonus_threshold} or more.`);
  if (r.yahtzee_box && r.yahtzee_bonus) {
    const y = rulesetBox(r.yahtzee_box);
    lines.push(`${y.label} bonus: ${r.yahtzee_bonus} for each further ${y.label} while the `
      + `${y.label} box holds ${y.max_points}.`);
  }
  if (r.joker === "forced") {
    lines.push(`Joker rule: another ${label(r.yahtzee_box)} after the ${label(r.yahtzee_box)} `
      + "box is filled must go in its upper box if open; else any lower box (full house and "
      + "straights score in full); else any upper box for 0.");
  } else if (r.joker === "free") {
    lines.push(`Joker rule: another ${label(r.yahtzee_box)} after the ${label(r.yahtzee_box)} `
      + "box is filled may go in any open box; full house and straights score in full once "
      + "its upper box is filled.");
  }
  return lines;
}
