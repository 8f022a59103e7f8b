// Small enhancements for every page; each page works without them.

// Lobby: show only as many "who sits where" choices as the room will have seats.
const createForm = document.querySelector(".create-form");
if (createForm) {
  const count = createForm.querySelector("[name=seats]");
  const rows = [...createForm.querySelectorAll("select[name^=seat_]")]
    .map((el) => el.closest(".field"));
  const update = () => {
    const n = Number(count.value);
    rows.forEach((row, i) => {
      if (row) row.hidden = i >= n;
    });
  };
  if (count) {
    count.addEventListener("change", update);
    update();
  }
}

// Dice seed fields (lobby, join form): a random seed of the browser's own, which the player
// may replace with anything they like (docs/fairness.md).
export function randomSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}
for (const input of document.querySelectorAll("input.dice-seed")) {
  if (!input.value) input.value = randomSeed();
}

// The language switcher takes effect as soon as a language is picked.
const languageForm = document.querySelector(".language-form");
if (languageForm) {
  languageForm.querySelector(".language-go").hidden = true;
  languageForm.querySelector("select").addEventListener("change", () => languageForm.submit());
}
