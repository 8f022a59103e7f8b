// Keyboard play: 1–5 hold or release a die, R rolls, H asks a practice room's coach for a hint,
// S jumps to the first open box and the
// arrow keys move between boxes (Enter or Space scores: they are buttons).

const OPTION = "#scorecard button.option";

/** actions: {toggle(i), roll(), hint()?} */
export function installShortcuts(actions) {
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t instanceof HTMLElement && (t.isContentEditable || t.closest("input, textarea, select"))) {
      return; // typing a nickname is not playing
    }
    if (t instanceof HTMLElement && t.matches(OPTION)
        && (e.key === "ArrowDown" || e.key === "ArrowUp")) {
      moveBetweenOptions(t, e.key === "ArrowDown" ? 1 : -1);
      e.preventDefault();
      return;
    }
    const key = e.key.toLowerCase();
    if (/^[1-5]$/.test(key)) {
      actions.toggle(Number(key) - 1);
      e.preventDefault();
    } else if (key === "r") {
      actions.roll();
      e.preventDefault();
    } else if (key === "h" && actions.hint) {
      actions.hint();
      e.preventDefault();
    } else if (key === "s") {
      const first = document.querySelector(OPTION);
      if (first) {
        first.focus();
        e.preventDefault();
      }
    }
  });
}

function moveBetweenOptions(from, step) {
  const all = [...document.querySelectorAll(OPTION)];
  const next = all[all.indexOf(from) + step];
  if (next) next.focus();
}
