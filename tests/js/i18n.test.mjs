// The scripts' catalog functions without a catalog (Node, and any page before its catalog):
// every message is its English self, plurals follow English, numbers are written in English.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  LANGUAGE, formatNumber, gettext, interpolate, ngettext, pgettext,
} from "../../static/game/shared/i18n.js";

test("without a catalog the language is English and messages are themselves", () => {
  assert.equal(LANGUAGE, "en");
  assert.equal(gettext("Roll"), "Roll");
  assert.equal(pgettext("box", "Full house"), "Full house");
});

test("ngettext falls back to the English singular for one, the plural otherwise", () => {
  assert.equal(ngettext("%(count)s roll left", "%(count)s rolls left", 1), "%(count)s roll left");
  assert.equal(ngettext("%(count)s roll left", "%(count)s rolls left", 0), "%(count)s rolls left");
  assert.equal(ngettext("%(count)s roll left", "%(count)s rolls left", 2), "%(count)s rolls left");
});

test("interpolate fills named placeholders, any number of times, and leaves unknown ones", () => {
  assert.equal(interpolate("%(name)s scored %(points)s in %(box)s", { name: "Ann", points: 25,
    box: "Full house" }), "Ann scored 25 in Full house");
  assert.equal(interpolate("%(a)s and %(a)s", { a: 0 }), "0 and 0");
  assert.equal(interpolate("%(missing)s %", {}), "%(missing)s %");
});

test("formatNumber writes numbers as English does, with the decimals asked for", () => {
  assert.equal(formatNumber(12.5, 1), "12.5");
  assert.equal(formatNumber(0.01, 2), "0.01");
  assert.equal(formatNumber(2.3456, 2), "2.35");
  assert.equal(formatNumber(245), "245");
  assert.equal(formatNumber(1234), "1,234");
});

test("formatNumber rounds as toFixed does (the exact binary value), not Intl's decimal", () => {
  assert.equal(formatNumber(17.275, 2), (17.275).toFixed(2));
  assert.equal(formatNumber(1.005, 2), "1.00");
  assert.equal(formatNumber(2.5, 0), "3");
});
