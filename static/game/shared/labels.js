// Words shown to people: box names, short names for narrow screens, event sentences.

import { LANGUAGE, gettext, interpolate, ngettext, pgettext } from "./i18n.js";
import { RULESET, rulesetBox } from "./ruleset.js";

// Short names for narrow screens; the full labels come with the ruleset (translated by the
// server). Functions: each is looked up in the catalog when shown.
const SHORT = {
  ones: () => pgettext("box short", "1s"),
  twos: () => pgettext("box short", "2s"),
  threes: () => pgettext("box short", "3s"),
  fours: () => pgettext("box short", "4s"),
  fives: () => pgettext("box short", "5s"),
  sixes: () => pgettext("box short", "6s"),
  one_pair: () => pgettext("box short", "Pair"),
  two_pairs: () => pgettext("box short", "2 pairs"),
  three_of_a_kind: () => pgettext("box short", "3 kind"),
  four_of_a_kind: () => pgettext("box short", "4 kind"),
  full_house: () => pgettext("box short", "Full h."),
  small_straight: () => pgettext("box short", "Sm. str."),
  large_straight: () => pgettext("box short", "Lg. str."),
};

// A computer player's name as a room seats it and a game keeps it ("Bot 2 (to win)"), sent so
// in every frame (docs/protocol.md); no person's name can read so.
const COMPUTER = /^Bot (\d+) \((easy|medium|optimal|to win)\)$/;
const COMPUTER_NAMES = {
  easy: () => pgettext("computer player", "Bot %(number)s (easy)"),
  medium: () => pgettext("computer player", "Bot %(number)s (medium)"),
  optimal: () => pgettext("computer player", "Bot %(number)s (optimal)"),
  to_win: () => pgettext("computer player", "Bot %(number)s (to win)"),
};

/** A player's name as the reader reads it: a computer player's in their language, any other
 * as it is. */
export function shownName(name) {
  const found = typeof name === "string" ? COMPUTER.exec(name) : null;
  return found ? interpolate(COMPUTER_NAMES[found[2].replace(" ", "_")](), { number: found[1] })
    : name;
}

/** A countdown's seconds as a clock reads them: 52 → "0:52", 125 → "2:05", 7384 →
 * "2:03:04"; a move over days in days and hours: 180000 → "2 d 2 h". */
export function clockText(seconds) {
  const two = (n) => String(n).padStart(2, "0");
  if (seconds >= 86400) {
    return interpolate(gettext("%(days)s d %(hours)s h"), {
      days: Math.floor(seconds / 86400), hours: Math.floor((seconds % 86400) / 3600) });
  }
  if (seconds >= 3600) {
    return `${Math.floor(seconds / 3600)}:${two(Math.floor((seconds % 3600) / 60))}:${two(seconds % 60)}`;
  }
  return `${Math.floor(seconds / 60)}:${two(seconds % 60)}`;
}

/** What waits for an away player, `left` seconds before the computer plays for them. */
export function awayNote(left) {
  if (left <= 0) return gettext("the computer plays their turn now");
  return interpolate(gettext("the computer plays their turn in %(time)s"), { time: clockText(left) });
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
  return SHORT[box] ? SHORT[box]() : boxLabel(box);
}

function fallback(name) {
  const words = String(name).replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "Full house" or "Full house (column 2)" in triple. */
export function slotLabel(box, column, columns) {
  if (columns <= 1) return boxLabel(box);
  return interpolate(gettext("%(box)s (column %(column)s)"), { box: boxLabel(box), column: column + 1 });
}

/** Names as a list in the page's language: "Ann and Bob", "Ann, Bob and Cy". */
export function joinNames(names) {
  if (names.length < 2) return names[0] || "";
  return new Intl.ListFormat(LANGUAGE, { type: "conjunction" }).format(names);
}

/** "Player 3": a player whose name the page does not know. */
export function playerNumber(i) {
  return interpolate(gettext("Player %(number)s"), { number: i + 1 });
}

/** A sentence for one game event, or null for events not worth a line. `computers`: the
 * player indexes of computer players (their turns are not called a person's). */
export function describeEvent(event, game, by, me = null, computers = new Set()) {
  const players = game ? game.players : [];
  const name = (i) => (players[i] !== undefined ? players[i] : playerNumber(i));
  const columns = game && game.scorecards.length ? game.scorecards[0].columns.length : 1;
  // Autoplay: the computer played a person's move (away, or out of turn time).
  const auto = by === "autoplay";
  switch (event.kind) {
    case "game_started":
      return interpolate(gettext("A new game of %(rules)s started."), { rules: rulesTitle(event.rules) });
    case "turn_started": {
      const values = { round: event.round, name: name(event.player) };
      if (event.player === me) return interpolate(gettext("Round %(round)s: your turn, %(name)s."), values);
      return interpolate(computers.has(event.player)
        ? gettext("Round %(round)s: %(name)s’s turn (computer).")
        : gettext("Round %(round)s: %(name)s’s turn."), values);
    }
    case "rolled":
      return rolledSentence(event, name(event.player), auto);
    case "scored":
      return scoredSentence(event, name(event.player), slotLabel(event.box, event.column, columns),
        auto);
    case "bonus": {
      const values = { name: name(event.player), column: event.column + 1, points: event.points };
      if (event.bonus === "upper") {
        return interpolate(columns > 1
          ? gettext("%(name)s earned the upper-section bonus in column %(column)s: +%(points)s.")
          : gettext("%(name)s earned the upper-section bonus: +%(points)s."), values);
      }
      return interpolate(columns > 1
        ? gettext("%(name)s earned the Yahtzee bonus in column %(column)s: +%(points)s.")
        : gettext("%(name)s earned the Yahtzee bonus: +%(points)s."), values);
    }
    case "game_finished": {
      const winners = (event.winners || []).map(name);
      const best = Math.max(...(event.totals || [0]));
      // Alone at the table (a solo game, the daily): a score, not a win.
      if ((event.totals || []).length === 1) {
        return interpolate(gettext("Game over: %(name)s scored %(points)s."), { name: name(0), points: best });
      }
      return winners.length > 1
        ? interpolate(gettext("Game over: a tie between %(names)s with %(points)s."),
          { names: joinNames(winners), points: best })
        : interpolate(gettext("Game over: %(name)s wins with %(points)s."),
          { name: winners[0], points: best });
    }
    default:
      return null;
  }
}

// `held` holds positions; a held die keeps its position, so its face is in `dice`.
function rolledSentence(event, name, auto) {
  const held = (event.held || []).map((i) => event.dice[i]);
  const values = { name, dice: event.dice.join(" "), roll: event.roll, held: held.join(" ") };
  let format;
  if (held.length) {
    format = auto
      ? gettext("%(name)s rolled %(dice)s (roll %(roll)s of 3, held %(held)s) (played by the computer).")
      : gettext("%(name)s rolled %(dice)s (roll %(roll)s of 3, held %(held)s).");
  } else {
    format = auto
      ? gettext("%(name)s rolled %(dice)s (roll %(roll)s of 3) (played by the computer).")
      : gettext("%(name)s rolled %(dice)s (roll %(roll)s of 3).");
  }
  return interpolate(format, values);
}

function scoredSentence(event, name, box, auto) {
  const values = { name, box, points: event.points };
  let format;
  if (event.points === 0) {
    if (event.joker) {
      format = auto
        ? gettext("%(name)s scratched %(box)s (0) as a Joker (played by the computer).")
        : gettext("%(name)s scratched %(box)s (0) as a Joker.");
    } else {
      format = auto
        ? gettext("%(name)s scratched %(box)s (0) (played by the computer).")
        : gettext("%(name)s scratched %(box)s (0).");
    }
  } else if (event.joker) {
    format = auto
      ? gettext("%(name)s scored %(points)s in %(box)s as a Joker (played by the computer).")
      : gettext("%(name)s scored %(points)s in %(box)s as a Joker.");
  } else {
    format = auto
      ? gettext("%(name)s scored %(points)s in %(box)s (played by the computer).")
      : gettext("%(name)s scored %(points)s in %(box)s.");
  }
  return interpolate(format, values);
}
