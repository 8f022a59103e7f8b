// The words at the end of a game, for each reader: a win is celebrated, a loss gets a calm
// card with the place and the score, a watcher reads who won. Pure: no page access.

/** "1st", "2nd", "11th". */
export function ordinal(n) {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${{ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th"}`;
}

/** My place among `totals` (ties share the better place). */
export function placeOf(totals, me) {
  return 1 + totals.filter((t) => t > totals[me]).length;
}

const joinNames = (names) => (names.length > 1
  ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names[0] || "");

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
  if (!winners.length) return { kind: "over", title: "Game over", detail: "" };
  if (seated && winners.includes(me)) {
    if (totals.length === 1) return { kind: "win", title: `Game over — ${best} points`, detail: "" };
    if (winners.length > 1) {
      return { kind: "win", title: "A shared win!", detail: `You and ${others}: ${best} points.` };
    }
    const second = Math.max(...totals.filter((_, p) => p !== me));
    return { kind: "win", title: "You win!",
      detail: `${best} points, ${plural(best - second, "point")} ahead.` };
  }
  if (seated) {
    const won = winners.length > 1 ? `${others} share the win` : `${others} wins`;
    const of = totals.length > 2 ? ` of ${totals.length}` : "";
    return { kind: "loss", title: `You finished ${ordinal(placeOf(totals, me))}${of} — ${totals[me]}`,
      detail: `${won} with ${best} points.` };
  }
  return winners.length > 1
    ? { kind: "over", title: `${others} share the win — ${best}`, detail: "" }
    : { kind: "over", title: `${others} wins — ${best}`, detail: "" };
}

/** "1 point", "3 points": the count and the noun, singular for one. */
export function plural(n, noun, nouns = `${noun}s`) {
  return `${n} ${n === 1 ? noun : nouns}`;
}
