// What each box scores, in a sentence, per ruleset (docs/rules.md): shown as the row
// headers' tooltips and in the "How boxes score" panel of the room page.

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

const BONUSES = {
  yahtzee: [
    "Upper bonus: 35 when Ones to Sixes add up to 63 or more.",
    "Yahtzee bonus: 100 for each further Yahtzee while the Yahtzee box holds 50.",
    "Joker rule: another Yahtzee after the Yahtzee box is filled must go in its upper box "
      + "if open; else any lower box (full house and straights score in full); else any "
      + "upper box for 0.",
  ],
  yatzy: ["Upper bonus: 50 when Ones to Sixes add up to 63 or more."],
};
BONUSES.triple = [
  "Three Yahtzee columns at once; each has its own bonuses and Joker rule.",
  "Final total: column 1 + 2 × column 2 + 3 × column 3.",
  ...BONUSES.yahtzee,
];

/** What ``box`` scores under ``rules`` ("" if unknown). */
export function boxHelp(rules, box) {
  return ((rules === "yatzy" ? YATZY : YAHTZEE)[box]) || "";
}

/** The sentences about bonuses and special rules of ``rules``. */
export function bonusHelp(rules) {
  return BONUSES[rules] || [];
}
