// The dice drawn as SVG with pips: the room's tray (each die a real toggle button,
// aria-pressed = held, updated in place) and the dice of a finished game's board (drawn anew
// for each move: read-only, or buttons while the reader tries a choice).

import { h, svg } from "./dom.js";
import { gettext, interpolate, pgettext } from "./i18n.js";

const LO = 27, MID = 50, HI = 73;
const PIPS = {
  1: [[MID, MID]],
  2: [[LO, LO], [HI, HI]],
  3: [[LO, LO], [MID, MID], [HI, HI]],
  4: [[LO, LO], [HI, LO], [LO, HI], [HI, HI]],
  5: [[LO, LO], [HI, LO], [MID, MID], [LO, HI], [HI, HI]],
  6: [[LO, LO], [HI, LO], [LO, MID], [HI, MID], [LO, HI], [HI, HI]],
};
/** Each face in words, for the names of the dice. */
const FACE_NAMES = [
  () => "",
  () => pgettext("die face", "one"),
  () => pgettext("die face", "two"),
  () => pgettext("die face", "three"),
  () => pgettext("die face", "four"),
  () => pgettext("die face", "five"),
  () => pgettext("die face", "six"),
];

/** A die's name for screen readers: "Die 2: five, held", "Die 1: not rolled yet". `value`
 * null: not rolled yet. */
export function dieName(position, value, held) {
  const values = { position: position + 1,
    face: value === null ? gettext("not rolled yet") : FACE_NAMES[value]() };
  return interpolate(held ? gettext("Die %(position)s: %(face)s, held")
    : gettext("Die %(position)s: %(face)s"), values);
}

/** An SVG die face; `value` null draws a blank die (before the first roll). */
export function dieFace(value) {
  const face = svg("svg", { viewBox: "0 0 100 100", class: "die-face", "aria-hidden": "true",
    focusable: "false" });
  face.append(svg("rect", { x: 4, y: 4, width: 92, height: 92, rx: 18, class: "die-body" }));
  for (const [cx, cy] of PIPS[value] || []) {
    face.append(svg("circle", { cx, cy, r: 9.5, class: "die-pip" }));
  }
  return face;
}

/** The tag under a held die (shown by the stylesheet on a held die only). */
export function heldTag() {
  // Translators: the tag under a held die, on a 320 px phone too: 5 letters at most.
  return h("span", { class: "die-held-tag", "aria-hidden": "true" }, pgettext("die tag", "Held"));
}

/**
 * The dice of a position as list items, drawn anew: `dice` (values, or null before the first
 * roll: `count` blank dice), `held` (a Set of positions). Read-only, each named in hidden text;
 * with `onToggle(position)`, each a toggle button named by its label.
 */
export function diceItems(dice, held, { count = dice ? dice.length : 0, onToggle = null } = {}) {
  return [...Array(dice ? dice.length : count).keys()].map((pos) => {
    const value = dice ? dice[pos] : null;
    const kept = value !== null && held.has(pos);
    const data = { value: value === null ? "" : String(value) };
    if (onToggle) {
      return h("li", {}, h("button", {
        type: "button", class: `die${kept ? " held" : ""}`, "aria-pressed": String(kept),
        dataset: data, "aria-label": dieName(pos, value, kept), onclick: () => onToggle(pos),
      }, dieFace(value), heldTag()));
    }
    return h("li", { class: `die${value === null ? " blank" : ""}${kept ? " held" : ""}`,
      dataset: data },
    dieFace(value), heldTag(), h("span", { class: "visually-hidden" }, dieName(pos, value, kept)));
  });
}

/** The dice tray: one button per die, created once and updated in place so focus survives. */
export class DiceTray {
  /** count: how many dice the game rolls (the page's data). */
  constructor(container, count, onToggle) {
    this.buttons = [];
    this.values = Array(count).fill(null);
    for (let i = 0; i < count; i += 1) {
      const button = h("button", {
        type: "button", class: "die", "aria-pressed": "false", dataset: { pos: String(i) },
        onclick: () => onToggle(i),
      });
      button.append(dieFace(null), h("span", { class: "die-key", "aria-hidden": "true" }, i + 1),
        heldTag());
      container.append(button);
      this.buttons.push(button);
    }
  }

  /**
   * Draw `dice` (an array of values, one per die, or null), `held` (Set of positions), whether holding is
   * possible now, and which positions just rolled (they get the roll animation).
   */
  update({ dice, held, canHold, rolled = [] }) {
    this.buttons.forEach((button, i) => {
      const value = dice ? dice[i] : null;
      if (value !== this.values[i]) {
        button.replaceChild(dieFace(value), button.querySelector(".die-face"));
        this.values[i] = value;
      }
      const isHeld = Boolean(dice) && held.has(i);
      button.setAttribute("aria-pressed", String(isHeld));
      button.classList.toggle("held", isHeld);
      button.classList.toggle("blank", !dice);
      button.disabled = !canHold;
      button.dataset.value = value === null ? "" : String(value);
      button.setAttribute("aria-label", dieName(i, value, isHeld));
      if (rolled.includes(i)) {
        // Restart the CSS animation (none under prefers-reduced-motion, see room.css).
        button.classList.remove("rolling");
        void button.offsetWidth;
        button.classList.add("rolling");
      }
    });
  }
}
