// A daily challenge's result page: its share text, by the share sheet or the clipboard.
import { gettext } from "../shared/i18n.js";
import { offerCopy, offerShare } from "../shared/share.js";

const text = document.getElementById("share-text");
if (text) {
  const body = () => text.textContent.trim();
  offerShare(document.getElementById("share-btn"), () => ({ title: document.title, text: body() }));
  offerCopy(document.getElementById("copy-share"), body, gettext("Copied"));
}
