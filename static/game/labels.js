// Words shown to people: box names, short names for narrow screens, event sentences.

const LABELS = {
  ones: ["Ones", "1s"],
  twos: ["Twos", "2s"],
  threes: ["Threes", "3s"],
  fours: ["Fours", "4s"],
  fives: ["Fives", "5s"],
  sixes: ["Sixes", "6s"],
  one_pair: ["One pair", "Pair"],
  two_pairs: ["Two pairs", "2 pairs"],
  three_of_a_kind: ["Three of a kind", "3 kind"],
  four_of_a_kind: ["Four of a kind", "4 kind"],
  full_house: ["Full house", "Full h."],
  small_straight: ["Small straight", "Sm. str."],
  large_straight: ["Large straight", "Lg. str."],
  yahtzee: ["Yahtzee", "Yahtzee"],
  yatzy: ["Yatzy", "Yatzy"],
  chance: ["Chance", "Chance"],
};

export const UPPER_BOXES = ["ones", "twos", "threes", "fours", "fives", "sixes"];

export const RULE_TITLES = { yahtzee: "Yahtzee", yatzy: "Yatzy", triple: "Triple Yahtzee" };

/** The full label of a box ("Full house"). */
export function boxLabel(box) {
  return (LABELS[box] || [fallback(box)])[0];
}

/** A short label for phones ("Full h."). */
export function boxShort(box) {
  const entry = LABELS[box];
  return entry ? entry[1] : fallback(box);
}

function fallback(name) {
  const words = String(name).replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "Full house" or "Full house (column 2)" in triple. */
export function slotLabel(box, column, columns) {
  return columns > 1 ? `${boxLabel(box)} (column ${column + 1})` : boxLabel(box);
}

/** A sentence for one game event, or null for events not worth a line. */
export function describeEvent(event, game, by, me = null) {
  const players = game ? game.players : [];
  const name = (i) => (players[i] !== undefined ? players[i] : `Player ${i + 1}`);
  const columns = game && game.scorecards.length ? game.scorecards[0].columns.length : 1;
  const auto = by === "autoplay" ? " (played for them while away)" : "";
  switch (event.kind) {
    case "game_started":
      return `A new game of ${RULE_TITLES[event.rules] || event.rules} started.`;
    case "turn_started":
      return event.player === me
        ? `Round ${event.round}: your turn, ${name(event.player)}.`
        : `Round ${event.round}: ${name(event.player)}'s turn.`;
    case "rolled": {
      const kept = event.held && event.held.length ? `, keeping ${event.held.length}` : "";
      const dice = event.dice.join(" ");
      return `${name(event.player)} rolled ${dice} (roll ${event.roll} of 3${kept})${auto}.`;
    }
    case "scored": {
      const joker = event.joker ? " as a Joker" : "";
      const where = slotLabel(event.box, event.column, columns);
      const what = event.points === 0
        ? `scratched ${where} (0)` : `scored ${event.points} in ${where}`;
      return `${name(event.player)} ${what}${joker}${auto}.`;
    }
    case "bonus": {
      const kind = event.bonus === "upper" ? "upper-section bonus" : "Yahtzee bonus";
      const col = columns > 1 ? ` in column ${event.column + 1}` : "";
      return `${name(event.player)} earned the ${kind}${col}: +${event.points}.`;
    }
    case "game_finished": {
      const winners = (event.winners || []).map(name);
      const best = Math.max(...(event.totals || [0]));
      return winners.length > 1
        ? `Game over: a tie between ${winners.join(" and ")} with ${best}.`
        : `Game over: ${winners[0]} wins with ${best}.`;
    }
    default:
      return null;
  }
}
