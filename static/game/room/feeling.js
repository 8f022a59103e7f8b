// What makes a room feel alive, for players and watchers alike: the box just scored lights up,
// a Yahtzee, an upper bonus and my own win get a short celebration (still, for people who asked
// for reduced motion), optional sounds made on the spot (Web Audio: no files) behind a mute
// switch remembered per browser, and "your turn" reaching a player looking at another tab (the
// tab title, a sound, and a notification where they allowed it).

import { h, replaceChildren } from "../shared/dom.js";
import { gettext, interpolate } from "../shared/i18n.js";

const SOUND_KEY = "room-sound";
const SCORED_MS = 1600; // as long as the just-scored animation (room.css)
const CONFETTI_MS = 2600; // the confetti's animation (room.css), and a moment still

export class Feeling {
  /** els: {banner, result (the result panel), soundBtn, notifyBtn}; room: the room's page title for notifications. */
  constructor(els, room) {
    this.els = els;
    this.room = room;
    this.audio = null;
    this.lastScored = null; // {player, box, column}: lit up in the next render
    this.bannerTimer = null;
    const saved = localStorage.getItem(SOUND_KEY);
    this.soundChoice = saved === "on" || saved === "off" ? saved : null;
    els.soundBtn.addEventListener("click", () => this.toggleSound());
    els.notifyBtn.addEventListener("click", () => this.askNotifications());
  }

  // --- sound ----------------------------------------------------------------------------------

  /** On by default for players, off for watchers, unless this browser chose. */
  soundOn(isPlayer) {
    return this.soundChoice ? this.soundChoice === "on" : isPlayer;
  }

  toggleSound() {
    this.soundChoice = this.soundOn(this.isPlayer) ? "off" : "on";
    try {
      localStorage.setItem(SOUND_KEY, this.soundChoice);
    } catch (err) { /* storage disabled: the choice lasts this page */ }
    this.render(this.isPlayer);
    if (this.soundChoice === "on") this.play("score");
  }

  render(isPlayer) {
    this.isPlayer = isPlayer;
    const on = this.soundOn(isPlayer);
    this.els.soundBtn.setAttribute("aria-pressed", String(on));
    this.els.soundBtn.textContent = on ? gettext("Sound: on") : gettext("Sound: off");
    const canAsk = isPlayer && "Notification" in window && Notification.permission === "default";
    this.els.notifyBtn.hidden = !canAsk;
  }

  /** A short sound: "roll", "score", "turn" or "celebrate". */
  play(kind) {
    if (!this.soundOn(this.isPlayer)) return;
    try {
      this.audio = this.audio || new AudioContext();
    } catch (err) {
      return; // no Web Audio here
    }
    const notes = {
      roll: [[220, 0, 0.04], [260, 0.05, 0.04], [200, 0.1, 0.05]],
      score: [[660, 0, 0.09], [880, 0.1, 0.12]],
      turn: [[523, 0, 0.12], [784, 0.15, 0.18]],
      celebrate: [[523, 0, 0.1], [659, 0.1, 0.1], [784, 0.2, 0.1], [1047, 0.3, 0.3]],
    }[kind] || [];
    const t0 = this.audio.currentTime;
    for (const [freq, start, length] of notes) {
      const osc = this.audio.createOscillator();
      const gain = this.audio.createGain();
      osc.type = kind === "roll" ? "square" : "triangle";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t0 + start);
      gain.gain.exponentialRampToValueAtTime(kind === "roll" ? 0.04 : 0.12, t0 + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + start + length);
      osc.connect(gain).connect(this.audio.destination);
      osc.start(t0 + start);
      osc.stop(t0 + start + length + 0.02);
    }
  }

  // --- your turn --------------------------------------------------------------------------------

  async askNotifications() {
    if (!("Notification" in window)) return;
    await Notification.requestPermission();
    this.render(this.isPlayer);
  }

  yourTurn() {
    this.play("turn");
    if (document.hidden && "Notification" in window && Notification.permission === "granted") {
      const note = new Notification(gettext("Your turn"), { body: this.room, tag: "yahtzee-turn" });
      note.onclick = () => { window.focus(); note.close(); };
    }
  }

  // --- events -----------------------------------------------------------------------------------

  /** A live event (not a replayed state): names[i] is player i's, me is mine (or null). */
  onEvent(event, names, me) {
    const mine = event.player === me;
    const values = { name: names[event.player] || gettext("Someone"), points: event.points };
    if (event.kind === "rolled") this.play("roll");
    if (event.kind === "scored") {
      this.lastScored = { player: event.player, box: event.box, column: event.column || 0,
        at: performance.now() };
      if (event.box === "yahtzee" && event.points > 0) {
        this.celebrate("yahtzee", gettext("Yahtzee!"),
          interpolate(mine ? gettext("You scored %(points)s.")
            : gettext("%(name)s scored %(points)s."), values));
      } else {
        this.play("score");
      }
    } else if (event.kind === "bonus") {
      if (event.bonus === "upper") {
        this.celebrate("bonus", gettext("Upper bonus!"), interpolate(mine
          ? gettext("You: +%(points)s.") : gettext("%(name)s: +%(points)s."), values));
      } else if (event.bonus === "yahtzee") {
        this.celebrate("yahtzee", gettext("Another Yahtzee!"), interpolate(mine
          ? gettext("You: +%(points)s.") : gettext("%(name)s: +%(points)s."), values));
      }
    } else if (event.kind === "game_finished" && (event.winners || []).includes(me)) {
      this.confetti();
    }
  }

  /** Confetti behind the result panel's end card (which says the rest): only for a win of
   * mine; a loss or a watcher's end has none. */
  confetti() {
    const panel = this.els.result;
    panel.querySelector(".confetti")?.remove();
    const burst = h("span", { class: "confetti", "aria-hidden": "true" });
    panel.prepend(burst);
    this.play("celebrate");
    setTimeout(() => burst.remove(), CONFETTI_MS);
  }

  celebrate(kind, title, detail) {
    const banner = this.els.banner;
    replaceChildren(banner,
      h("span", { class: "celebrate-burst", "aria-hidden": "true" }),
      h("span", { class: "celebrate-card" },
        h("strong", { class: "celebrate-title" }, title),
        detail ? h("span", { class: "celebrate-detail" }, detail) : null));
    banner.dataset.kind = kind;
    banner.hidden = false;
    banner.classList.remove("go");
    void banner.offsetWidth; // restart the animation
    banner.classList.add("go");
    this.play("celebrate");
    clearTimeout(this.bannerTimer);
    this.bannerTimer = setTimeout(() => { banner.hidden = true; }, 2600);
  }

  /** After the scorecards were drawn (again): the box just scored stays lit for its
   * animation, which goes on where it was when the table is redrawn meanwhile. */
  markScored(table) {
    const s = this.lastScored;
    if (!s) return;
    const age = performance.now() - s.at;
    if (age > SCORED_MS) {
      this.lastScored = null;
      return;
    }
    const cell = table.querySelector(`tr[data-box="${s.box}"] td.p${s.player}[data-col="${s.column}"]`);
    if (!cell) return;
    cell.classList.add("just-scored");
    cell.style.animationDelay = `-${Math.round(age)}ms`; // CSSOM: allowed by the CSP
  }
}
