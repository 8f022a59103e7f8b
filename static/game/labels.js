// Words shown to people: box names, short names for narrow screens, event sentences.

import { RULESET, rulesetBox } from "./ruleset.js";

// Short names for narrow screens; the full labels come with the ruleset.
const SHORT = {
  ones: "1s",
  twos: "2s",
  threes: "3s",
  fours: "4s",
  fives: "5s",
  sixes: "6s",
  one_pair: "Pair",
  two_pairs: "2 pairs",
  three_of_a_kind: "3 kind",
  four_of_a_kind: "4 kind",
  full_house: "Full h.",
  small_straight: "Sm. str.",
  large_straight: "Lg. str.",
};

/** A countdown's seconds as a clock reads them: 52 → "0:52", 125 → "2:05". */
export function clockText(seconds) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** What waits for an away player, `left` seconds before the computer plays for them. */
export function awayNote(left) {
  return `the computer plays their turn ${left > 0 ? `in ${clockText(left)}` : "now"}`;
}

/** The title of ruleset `name` ("Triple Yahtzee"). */
export function rulesTitle(name) {
  return RULESET && RULESET.name === name ? RULESET.title : String(name);
}

/** The full label of a box ("Full house"). */
export function boxLabel(box) {
  const entry = rulesetBox(box);
  return entry ? entry.label : fallback(box);
}

/** A short label for phones ("Full h."). */
export function boxShort(box) {
  return SHORT[box] || boxLabel(box);
}

function fallback(name) {
  const words = String(name).replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "Full house" or "Full house (column 2)" in triple. */
export function slotLabel(box, column, columns) {
  return columns > 1 ? `${boxLabel(box)} (column ${column + 1})` : boxLabel(box);
}

/** A sentence for one game event, or null for events not worth a line. `computers`: the
 * player indexes of computer players (their turns are not called a person's). */
export function describeEvent(event, game, by, me = null, computers = new Set()) {
  const players = game ? game.players : [];
  const name = (i) => (players[i] !== undefined ? players[i] : `Player ${i + 1}`);
  const columns = game && game.scorecards.length ? game.scorecards[0].columns.length : 1;
  // Autoplay: the computer played a person's move (away, or out of turn time).
  const auto = by === "autoplay" ? " (played by the computer)" : "";
  switch (event.kind) {
    case "game_started":
      return `A new game of ${rulesTitle(event.rules)} started.`;
    case "turn_started":
      if (event.player === me) return `Round ${event.round}: your turn, ${name(event.player)}.`;
      return computers.has(event.player)
        ? `Round ${event.round}: ${name(event.player)}'s turn (computer).`
        : `Round ${event.round}: ${name(event.player)}'s turn.`;
    case "rolled": {
      // `held` holds positions; a held die keeps its position, so its face is in `dice`.
      const held = (event.held || []).map((i) => event.dice[i]);
      const kept = held.length ? `, held ${held.join(" ")}` : "";
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
