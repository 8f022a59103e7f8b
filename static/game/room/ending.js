// The words at the end of a game, for each reader: a win is celebrated, a loss gets a calm
// card with the place and the score, a watcher reads who won. Pure: no page access.

import { LANGUAGE, gettext, interpolate, ngettext, pgettext } from "../shared/i18n.js";
import { joinNames } from "../shared/labels.js";

// An ordinal's form by its plural category in the page's language (Intl.PluralRules): English
// has four (1st, 2nd, 3rd, 4th), Swedish and French two (1:a 3:e, 1er 2e), German one (1.).
const ORDINALS = {
  // Translators: an ordinal number whose form is "one" in your language (1st, 21st; 1:a; 1er).
  one: () => pgettext("ordinal one", "%(n)sst"),
  // Translators: an ordinal number whose form is "two" in your language (English 2nd, 22nd).
  two: () => pgettext("ordinal two", "%(n)snd"),
  // Translators: an ordinal number whose form is "few" in your language (English 3rd, 23rd).
  few: () => pgettext("ordinal few", "%(n)srd"),
  // Translators: any other ordinal number (4th, 11th; 3:e; 2e; 4.).
  other: () => pgettext("ordinal other", "%(n)sth"),
};

/** "1st", "2nd", "11th" (in the page's language: "1:a", "2.", "2e"). */
export function ordinal(n) {
  const category = new Intl.PluralRules(LANGUAGE, { type: "ordinal" }).select(n);
  return interpolate((ORDINALS[category] || ORDINALS.other)(), { n });
}

/** My place among `totals` (ties share the better place). */
export function placeOf(totals, me) {
  return 1 + totals.filter((t) => t > totals[me]).length;
}

/**
 * Who played whose turns: a line for each person the computer played turns for (away, or out
 * of time), `autoplayed` their counts by player. Pure.
 */
export function playedFor(game, me, autoplayed) {
  const turns = game.rounds;
  return (autoplayed || []).flatMap((count, p) => {
    if (!count || p >= game.players.length) return [];
    const values = { count, turns, name: game.players[p] };
    return [interpolate(p === me
      ? ngettext("The computer played %(count)s of your %(turns)s turns.",
        "The computer played %(count)s of your %(turns)s turns.", count)
      : ngettext("The computer played %(count)s of %(name)s’s %(turns)s turns.",
        "The computer played %(count)s of %(name)s’s %(turns)s turns.", count), values)];
  });
}

/**
 * The end card of a finished game for player `me` (null: a watcher).
 * game: {players, winners, scorecards: [{total}]}.
 * → {kind: "win" | "loss" | "over", title, detail}; only "win" is celebrated.
 */
export function endCard(game, me) {
  const totals = game.scorecards.map((c) => c.total);
  const winners = game.winners || [];
  const best = winners.length ? totals[winners[0]] : Math.max(0, ...totals);
  const seated = me !== null && me !== undefined && me >= 0 && me < totals.length;
  const others = joinNames(winners.filter((p) => p !== me).map((p) => game.players[p]));
  const shared = winners.length > 1;
  if (!winners.length) return { kind: "over", title: gettext("Game over"), detail: "" };
  if (seated && winners.includes(me)) {
    if (totals.length === 1) {
      return { kind: "win", detail: "",
        title: interpolate(ngettext("Game over — %(points)s point", "Game over — %(points)s points",
          best), { points: best }) };
    }
    if (shared) {
      return { kind: "win", title: gettext("A shared win!"),
        detail: interpolate(ngettext("You and %(names)s: %(points)s point.",
          "You and %(names)s: %(points)s points.", best), { names: others, points: best }) };
    }
    const ahead = best - Math.max(...totals.filter((_, p) => p !== me));
    return { kind: "win", title: gettext("You win!"),
      detail: interpolate(ngettext("%(points)s, %(ahead)s point ahead.",
        "%(points)s, %(ahead)s points ahead.", ahead),
      { points: interpolate(ngettext("%(count)s point", "%(count)s points", best),
        { count: best }), ahead }) };
  }
  if (seated) {
    const values = { place: ordinal(placeOf(totals, me)), players: totals.length,
      points: totals[me], names: others, best };
    const title = totals.length > 2
      ? interpolate(gettext("You finished %(place)s of %(players)s — %(points)s"), values)
      : interpolate(gettext("You finished %(place)s — %(points)s"), values);
    const detail = shared
      ? interpolate(ngettext("%(names)s share the win with %(best)s point.",
        "%(names)s share the win with %(best)s points.", best), values)
      : interpolate(ngettext("%(names)s wins with %(best)s point.",
        "%(names)s wins with %(best)s points.", best), values);
    return { kind: "loss", title, detail };
  }
  const values = { names: others, points: best };
  return { kind: "over", detail: "", title: shared
    ? interpolate(gettext("%(names)s share the win — %(points)s"), values)
    : interpolate(gettext("%(names)s wins — %(points)s"), values) };
}
