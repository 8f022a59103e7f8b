// The scripts' words in the page's language: Django's JavaScript catalog (i18n/catalog.js,
// loaded by every page before the modules) defines `django.gettext` and its kin. Without it
// (Node's tests) every string is its English self. Numbers are written as the page's
// language writes them.

const catalog = globalThis.django;

/** The page's language ("sv"), English without a page (or with a test's stand-in document). */
export const LANGUAGE = globalThis.document?.documentElement?.lang || "en";

/** `message` in the page's language. */
export function gettext(message) {
  return catalog ? catalog.gettext(message) : message;
}

/** The singular or plural of a message for `count`, in the page's language. */
export function ngettext(singular, plural, count) {
  return catalog ? catalog.ngettext(singular, plural, count) : (count === 1 ? singular : plural);
}

/** `message` in the page's language where the same English words mean different things
 * (`context`, e.g. "box" for a scorecard's box names). */
export function pgettext(context, message) {
  return catalog ? catalog.pgettext(context, message) : message;
}

/** `format` with its named placeholders filled: interpolate("%(name)s rolled", {name}). */
export function interpolate(format, values) {
  return String(format).replace(/%\((\w+)\)s/g, (whole, key) =>
    (key in values ? String(values[key]) : whole));
}

const integers = new Intl.NumberFormat(LANGUAGE);
const decimals = new Map();

/** `value` written as the page's language writes numbers (1 234,5 in Swedish), with
 * `digits` decimals, rounded as toFixed rounds (the exact binary value: 17.275 → 17.27, as
 * the server's figures are; Intl alone would round its shortest decimal, 17.28). */
export function formatNumber(value, digits = 0) {
  value = Number(Number(value).toFixed(digits));
  if (digits === 0) return integers.format(value);
  if (!decimals.has(digits)) {
    decimals.set(digits, new Intl.NumberFormat(LANGUAGE, {
      minimumFractionDigits: digits, maximumFractionDigits: digits }));
  }
  return decimals.get(digits).format(value);
}
