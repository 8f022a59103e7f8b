// What each box scores, in a sentence (docs/rules.md): shown as the row headers' tooltips and
// in the "How boxes score" panel of the room page. The sentences are the server's
// (game/presenters/rules_text.py, the same as the rules page's), rendered in the page's
// language into #rules-text by the template: {boxes: {name: sentence}, bonuses: [sentence]}.

const node = globalThis.document ? document.getElementById("rules-text") : null;
const TEXT = node ? JSON.parse(node.textContent) : { boxes: {}, bonuses: [] };

/** What `box` scores in the page's ruleset ("" if unknown). */
export function boxHelp(box) {
  return (TEXT.boxes && TEXT.boxes[box]) || "";
}

/** The sentences about the bonuses and special rules of the page's ruleset. */
export function bonusHelp() {
  return TEXT.bonuses || [];
}
