// "Your games": the button that turns on notifications of one's turn on this device.
import { gettext } from "../shared/i18n.js";
import { disablePush, enablePush, pushState } from "../shared/notify.js";

const button = document.getElementById("push-btn");
const note = document.getElementById("push-note");

const WORDS = {
  unsupported: () => gettext("This browser cannot show notifications from the site. On an iPhone, add the site to your home screen first (Share, then Add to Home Screen)."),
  denied: () => gettext("Notifications are blocked for this site in the browser’s settings."),
  prompt: () => gettext("Get a notification on this device when it is your turn."),
  off: () => gettext("Get a notification on this device when it is your turn."),
  on: () => gettext("This device gets a notification when it is your turn."),
};

async function show() {
  const state = await pushState();
  note.textContent = WORDS[state]();
  button.hidden = state === "unsupported" || state === "denied";
  button.textContent = state === "on" ? gettext("Stop notifications on this device")
    : gettext("Notify me on this device");
  button.dataset.state = state;
}

if (button && note) {
  button.addEventListener("click", async () => {
    button.disabled = true;
    const done = button.dataset.state === "on" ? await disablePush() : await enablePush();
    button.disabled = false;
    await show();
    if (!done.ok && done.message) note.textContent = done.message;
    else if (!done.ok && done.error === "failed") {
      note.textContent = gettext("The browser’s notification service did not answer; try again later.");
    }
  });
  show();
}
