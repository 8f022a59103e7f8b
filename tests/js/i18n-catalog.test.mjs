// The scripts' words with a catalog, as a German page has them (a stand-in for Django's
// i18n/catalog.js, set before the modules load, as the page's classic script does): the
// catalog's messages, its plural, German decimals, lists and ordinals.

import assert from "node:assert/strict";
import { test } from "node:test";

const GERMAN = {
  "Roll %(count)s die": ["%(count)s Würfel werfen", "%(count)s Würfel werfen"],
  "%(percent)s %": "%(percent)s\u00a0%",
  "box\u0004Full house": "Full House",
  "ordinal other\u0004%(n)sth": "%(n)s.",
};
globalThis.document = { documentElement: { lang: "de" }, getElementById: () => null };
globalThis.django = {
  gettext: (m) => (typeof GERMAN[m] === "string" ? GERMAN[m] : m),
  ngettext: (s, p, n) => (GERMAN[s] ? GERMAN[s][n === 1 ? 0 : 1] : (n === 1 ? s : p)),
  pgettext: (c, m) => GERMAN[`${c}\u0004${m}`] || m,
};

const { LANGUAGE, formatNumber, interpolate, ngettext, pgettext } =
  await import("../../static/game/shared/i18n.js");
const { chancePoints } = await import("../../static/game/game/review.js");
const { joinNames } = await import("../../static/game/shared/labels.js");
const { ordinal } = await import("../../static/game/room/ending.js");

test("the page's language and its catalog", () => {
  assert.equal(LANGUAGE, "de");
  assert.equal(pgettext("box", "Full house"), "Full House");
  assert.equal(interpolate(ngettext("Roll %(count)s die", "Roll %(count)s dice", 3), { count: 3 }),
    "3 Würfel werfen");
});

test("decimals, lists and ordinals as German writes them", () => {
  assert.equal(formatNumber(12.5, 1), "12,5");
  assert.equal(chancePoints(0.0123), "1,2\u00a0%");
  assert.equal(joinNames(["Ann", "Bob", "Cy"]), "Ann, Bob und Cy");
  assert.equal(ordinal(2), "2.");
});
