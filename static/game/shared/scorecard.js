// Everyone's scorecard side by side: one column per player (three per player in triple),
// totals and bonuses, and for the player to move what each open box would score now.

import { h, replaceChildren } from "./dom.js";
import { boxHelp } from "./help.js";
import { gettext, interpolate } from "./i18n.js";
import { boxLabel, boxShort, slotLabel } from "./labels.js";
import { RULESET, sectionBoxes, slotName } from "./ruleset.js";

/**
 * Build the scorecard table.
 * view: {game, me (player index or null), columnsShown (array of column indexes),
 *        canScore (bool), names (array of display names), away (Set of player indexes),
 *        you (false: `me` is whose boxes may be picked, not the reader: no "(you)")}
 * onScore(box, column) is called when the player picks a box.
 */
export function renderScorecard(view, onScore) {
  const { game, me, columnsShown, canScore } = view;
  const upper = sectionBoxes("upper");
  const lower = sectionBoxes("lower");
  const columns = game.scorecards[0].columns.length;
  const multi = columns > 1;
  const current = game.finished ? null : game.current_player;
  const options = new Map((game.options || []).map((o) => [slotName(o.box, o.column, columns), o]));
  const hasYahtzeeBonus = RULESET.yahtzee_bonus > 0;

  const table = h("table", {
    class: `scorecard players-${game.players.length} cols-${columnsShown.length}`,
  });
  table.append(h("caption", { class: "visually-hidden" },
    multi ? gettext("Scorecards: one column per player and scorecard column")
      : gettext("Scorecards: one column per player")));

  // Header: player names (and the column multipliers in triple).
  const headRow = h("tr", {}, h("td", { class: "corner" }));
  const shorts = shortNames(game.players);
  game.players.forEach((name, p) => {
    headRow.append(h("th", {
      scope: "colgroup", colspan: columnsShown.length, title: name,
      class: cellClass(p, current, me, "player-head"),
    }, h("span", { class: "player-name long" }, name),
    h("span", { class: "player-name short" }, shorts[p]),
    p === me && view.you !== false ? h("span", { class: "you-tag" }, " ", gettext("(you)")) : null,
    view.away && view.away.has(p) ? h("span", { class: "away-tag" }, " ", gettext("away")) : null,
    // Translators: read out after the name of the player to move.
    p === current ? h("span", { class: "visually-hidden" }, gettext(", playing now")) : null));
  });
  const thead = h("thead", {}, headRow);
  if (multi) {
    const colRow = h("tr", {}, h("td", { class: "corner" }));
    game.players.forEach((_, p) => {
      for (const c of columnsShown) {
        colRow.append(h("th", { scope: "col", class: cellClass(p, current, me, "col-head") },
          `×${game.scorecards[p].columns[c].multiplier}`));
      }
    });
    thead.append(colRow);
  }
  table.append(thead);

  const boxRow = (box) => {
    const row = h("tr", { dataset: { box } },
      h("th", { scope: "row", title: boxHelp(box) },
        h("span", { class: "long" }, boxLabel(box)),
        h("span", { class: "short" }, boxShort(box))));
    game.players.forEach((name, p) => {
      for (const c of columnsShown) {
        row.append(boxCell({ game, box, p, c, current, me, options, canScore, columns, name,
          armed: view.armed }, onScore));
      }
    });
    return row;
  };
  const sumRow = (label, cls, value) => {
    const row = h("tr", { class: `sum ${cls}` }, h("th", { scope: "row" }, label));
    game.players.forEach((_, p) => {
      for (const c of columnsShown) {
        row.append(h("td", { class: cellClass(p, current, me, "num"), dataset: { col: String(c) } },
          value(game.scorecards[p].columns[c])));
      }
    });
    return row;
  };

  table.append(h("tbody", { class: "upper" }, upper.map(boxRow)));
  // The names of the sums are the same here, in the result and on the game page (TOTALS).
  table.append(h("tbody", { class: "subtotals" },
    sumRow(TOTALS.upper, "upper-total", (col) => `${col.upper_subtotal}`),
    sumRow(TOTALS.upperBonus, "upper-bonus", (col) => upperBonusText(col, upper))));
  table.append(h("tbody", { class: "lower" }, lower.map(boxRow)));
  const sums = h("tbody", { class: "totals" });
  if (hasYahtzeeBonus) {
    sums.append(sumRow(TOTALS.yahtzeeBonus, "y-bonus",
      (col) => (col.yahtzee_bonus ? `+${col.yahtzee_bonus}` : "")));
  }
  sums.append(sumRow(multi ? TOTALS.column : TOTALS.total, "total", (col) => `${col.total}`));
  if (multi) {
    // Triple: each column counts its multiplier times; these rows add up to the total.
    sums.append(sumRow(TOTALS.weighted, "weighted",
      (col) => `${col.total * col.multiplier}`));
    const row = h("tr", { class: "sum grand-total" }, h("th", { scope: "row" }, TOTALS.total));
    game.players.forEach((_, p) => {
      row.append(h("td", { colspan: columnsShown.length, class: cellClass(p, current, me, "num") },
        `${game.scorecards[p].total}`));
    });
    sums.append(row);
  }
  table.append(sums);
  return table;
}

/** The column a triple scorecard shows first (null: all three). All three fit a desktop for up
 * to three players; a phone, for up to `phonePlayers`: two on the room's page, none on a
 * finished game's page (which has always opened on one column there). */
export function firstColumn(game, wide, phonePlayers = 2) {
  return game.players.length <= (wide ? 3 : phonePlayers) ? null : 0;
}

/** The buttons that choose the scorecard column shown (`column`, null: all), for a triple
 * game's `game`; hidden with one column. */
export function renderColumnSwitch(switcher, game, column, onColumn) {
  const columns = game.scorecards[0].columns;
  switcher.hidden = columns.length <= 1;
  if (columns.length <= 1) return;
  const choices = [...columns.keys(), "all"];
  replaceChildren(switcher, choices.map((c) => h("button", {
    type: "button", class: "switch",
    "aria-pressed": String(c === "all" ? column === null : column === c),
    onclick: () => onColumn(c === "all" ? null : c),
  }, c === "all" ? gettext("All") : interpolate(gettext("Col. %(column)s ×%(multiplier)s"),
    { column: c + 1, multiplier: columns[c].multiplier }))));
}

/** One name for each sum, wherever a scorecard or a result shows it (looked up in the
 * catalog when read). */
export const TOTALS = {
  get upper() { return gettext("Upper section"); },
  get upperBonus() { return gettext("Upper bonus"); },
  get yahtzeeBonus() { return gettext("Yahtzee bonus"); },
  get lower() { return gettext("Lower section"); },
  get column() { return gettext("Column total"); },
  get weighted() { return gettext("Weighted"); },
  get total() { return gettext("Total"); },
};

/**
 * Names that tell players apart in a narrow column: the first word, or when several share it
 * (“Bot 1 (easy)”, “Bot 2 (easy)”) its initial and the next word (“B1”, “B2”).
 */
export function shortNames(players) {
  const firsts = players.map((name) => name.trim().split(/\s+/));
  return firsts.map((words, i) => {
    const shared = firsts.filter((w) => w[0] === words[0]).length > 1;
    if (!shared) return words[0];
    return `${[...words[0]][0]}${words[1] || i + 1}`;
  });
}

function upperBonusText(col, upper) {
  if (col.upper_bonus) return `+${col.upper_bonus}`;
  const open = upper.some((b) => col.boxes[b] === null);
  if (!open) return "0";
  const need = RULESET.upper_bonus_threshold - col.upper_subtotal;
  return need > 0 ? h("span", { class: "to-go",
    title: interpolate(gettext("%(points)s more for the bonus"), { points: need }) },
  interpolate(gettext("needs %(points)s more"), { points: need })) : "";
}

function cellClass(p, current, me, extra) {
  return [extra, p === current ? "current" : "", p === me ? "mine" : "", `p${p}`]
    .filter(Boolean).join(" ");
}

function boxCell(ctx, onScore) {
  const { game, box, p, c, current, me, options, canScore, columns, name } = ctx;
  const points = game.scorecards[p].columns[c].boxes[box];
  const td = h("td", { class: cellClass(p, current, me, "num"), dataset: { col: String(c) } });
  if (points !== null) {
    td.classList.add("filled");
    if (points === 0) td.classList.add("scratch");
    td.textContent = String(points);
    return td;
  }
  const option = p === current ? options.get(slotName(box, c, columns)) : undefined;
  if (!option) return td;
  const where = slotLabel(box, c, columns);
  if (!option.allowed) {
    td.classList.add("forbidden");
    td.append(h("span", { "aria-hidden": "true", title: gettext("The Joker rule forbids this box") }, "✕"),
      h("span", { class: "visually-hidden" },
        interpolate(gettext("%(box)s: the Joker rule forbids this box"), { box: where })));
    return td;
  }
  if (p === me && canScore) {
    // A choice waiting for its second tap (confirm.js) shows so on the box itself.
    const armed = Boolean(ctx.armed && ctx.armed(option));
    td.classList.add("option-cell");
    td.append(h("button", {
      type: "button",
      class: `option${option.points === 0 ? " zero" : ""}${armed ? " armed" : ""}`,
      dataset: { box, column: String(c) },
      "aria-label": interpolate(armed ? gettext("Confirm: score %(points)s in %(box)s")
        : gettext("Score %(points)s in %(box)s"), { points: option.points, box: where }),
      onclick: () => onScore(box, c),
    }, armed ? `${option.points}?` : String(option.points)));
  } else {
    td.classList.add("potential");
    td.append(h("span", { "aria-hidden": "true" }, String(option.points)),
      h("span", { class: "visually-hidden" },
        interpolate(gettext("%(name)s would score %(points)s"), { name, points: option.points })));
  }
  return td;
}

/**
 * The final result: one column per player, best first (like the scorecards, so it fits a
 * phone with six players), rows for the parts of each total — they add up to it.
 */
export function renderResult(game) {
  const multi = game.scorecards[0].columns.length > 1;
  const weighted = (card, key) => card.columns.reduce((s, col) => s + col.multiplier * col[key], 0);
  const players = game.players.map((name, p) => ({ p, name, card: game.scorecards[p] }))
    .sort((a, b) => b.card.total - a.card.total || a.p - b.p);
  const winners = new Set(game.winners);
  const rows = [
    [TOTALS.upper, (c) => `${weighted(c, "upper_subtotal")}`],
    [TOTALS.upperBonus, (c) => bonus(weighted(c, "upper_bonus"))],
  ];
  if (RULESET.yahtzee_bonus > 0) {
    rows.push([TOTALS.yahtzeeBonus, (c) => bonus(weighted(c, "yahtzee_bonus"))]);
  }
  rows.push([TOTALS.lower, (c) => `${weighted(c, "lower_subtotal")}`]);

  let rank = 0;
  let prev = null;
  const shorts = shortNames(game.players);
  const head = h("tr", {}, h("td", { class: "corner" }));
  players.forEach((r, i) => {
    if (r.card.total !== prev) rank = i + 1;
    prev = r.card.total;
    head.append(h("th", { scope: "col", class: winners.has(r.p) ? "winner" : "", title: r.name },
      h("span", { class: "rank" }, `${rank}.`), " ",
      h("span", { class: "result-name long" }, r.name),
      h("span", { class: "result-name short", "aria-hidden": "true" }, shorts[r.p]),
      winners.has(r.p) ? h("span", { class: "tag tag-winner" },
        // A star where six columns leave no room for the word (the word is still read out).
        h("span", { class: "winner-word" }, gettext("winner")),
        h("span", { class: "winner-star", "aria-hidden": "true" }, "★")) : null));
  });
  const body = rows.map(([label, value]) => h("tr", {}, h("th", { scope: "row" }, label),
    players.map((r) => h("td", { class: winners.has(r.p) ? "winner" : "" }, value(r.card)))));
  body.push(h("tr", { class: "total-row" }, h("th", { scope: "row" }, TOTALS.total),
    players.map((r) => h("td", { class: `total${winners.has(r.p) ? " winner" : ""}` },
      String(r.card.total)))));
  return h("div", {},
    h("table", { class: `result-table players-${players.length}` },
      h("caption", { class: "visually-hidden" }, gettext("Final scores, best first")),
      h("thead", {}, head), h("tbody", {}, body)),
    multi ? h("p", { class: "hint" },
      gettext("Triple: column 2 counts twice and column 3 three times; the figures above are weighted the same way."))
      : null);
}

function bonus(points) {
  return points ? `+${points}` : "0";
}
