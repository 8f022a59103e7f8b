// A game's page opened right at the end: its analysis is stored a few seconds later. The page
// asks for its analysis part again (GET data-poll) with a growing pause, a bounded number of
// times, and swaps it in when it is ready; meanwhile it says how long it has been waiting.

import { gettext, interpolate } from "../shared/i18n.js";

/** The pauses (ms) between asks: 1 s growing by half up to 8 s each, about 2 minutes in all. */
export function pollDelays({ first = 1000, factor = 1.5, most = 8000, total = 120000 } = {}) {
  const delays = [];
  let wait = first;
  let sum = 0;
  while (sum + wait <= total) {
    delays.push(wait);
    sum += wait;
    wait = Math.min(most, Math.round(wait * factor));
  }
  return delays;
}

/** What the waiting line says after `seconds`, or after giving up. */
export function waitingText(seconds, gaveUp = false) {
  if (gaveUp) return gettext("The analysis is taking longer than usual: reload the page later to see it.");
  return interpolate(gettext("Analysing every decision… %(seconds)s s (it appears here by itself)."),
    { seconds: Math.round(seconds) });
}

/**
 * Ask `section.dataset.poll` until the answer's section is ready, then put it in the page in
 * place of `section` and call onReady(newSection). Resolves to the new section or null.
 */
export async function waitForAnalysis(section, onReady, delays = pollDelays()) {
  const url = section.dataset.poll;
  const line = section.querySelector("#analysis-wait");
  const started = Date.now();
  const tick = setInterval(() => {
    if (line) line.textContent = waitingText((Date.now() - started) / 1000);
  }, 1000);
  try {
    for (const delay of delays) {
      await new Promise((resolve) => { setTimeout(resolve, delay); });
      const fresh = await fetchSection(url);
      if (fresh && fresh.dataset.state === "ready") {
        section.replaceWith(fresh);
        onReady(fresh);
        return fresh;
      }
    }
  } finally {
    clearInterval(tick);
  }
  if (line) line.textContent = waitingText(0, true);
  return null;
}

async function fetchSection(url) {
  try {
    const response = await fetch(url, { headers: { Accept: "text/html" } });
    if (!response.ok) return null;
    const doc = new DOMParser().parseFromString(await response.text(), "text/html");
    return document.importNode(doc.getElementById("analysis"), true);
  } catch (err) {
    return null; // offline a moment: the next ask may work
  }
}
