// Which dice a player holds lives only in their page until the next roll. Keep it in
// sessionStorage so a reload (or a reconnect) in the middle of a turn finds the holds as they were.

/** Identifies the position in a turn: the holds of another turn or roll never come back. */
export function turnKey(game) {
  return game && game.dice
    ? `${game.round}/${game.current_player}/${game.rolls_left}/${game.dice.join("")}`
    : null;
}

export function saveHolds(code, game, held) {
  try {
    const entry = { turn: turnKey(game), held: [...held] };
    sessionStorage.setItem(`holds:${code}`, JSON.stringify(entry));
  } catch (err) { /* storage full or disabled: holds are a convenience */ }
}

/** The holds saved for exactly this position of the turn, or an empty set. */
export function loadHolds(code, game) {
  try {
    const saved = JSON.parse(sessionStorage.getItem(`holds:${code}`) || "null");
    const key = turnKey(game);
    if (key && saved && saved.turn === key && Array.isArray(saved.held)) {
      return new Set(saved.held.filter((i) => Number.isInteger(i) && i >= 0 && i < game.dice.length));
    }
  } catch (err) { /* a damaged entry: start afresh */ }
  return new Set();
}
