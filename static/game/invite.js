// The room page's invite panel (copying the link is room.js's).
// Sharing: the system share sheet where the browser has one (phones), else the button stays
// hidden and the QR code (drawn by the server) and "Copy" do the job.

const share = document.getElementById("share-link");
const url = document.getElementById("invite-url");
if (share && url && typeof navigator.share === "function") {
  share.hidden = false;
  share.addEventListener("click", async () => {
    try {
      await navigator.share({ title: document.title, url: url.textContent.trim() });
    } catch {
      // the player closed the share sheet: nothing to do
    }
  });
}
