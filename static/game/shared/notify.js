// Notices on this device (Web Push) and the site's service worker, for every page.
//
// Loaded by every page (base.html): it registers the service worker (/sw.js: the offline page,
// the notices), after the page has loaded. A page with a "notify me" button imports:
//
//   pushState()   -> "unsupported" | "denied" | "prompt" | "off" | "on"
//     what the browser says now: no Web Push here; notifications blocked for the site; not
//     asked yet; allowed but this browser is not subscribed; subscribed.
//   enablePush({timeout = 20000}) -> {ok: true} | {ok: false, error, message}
//     call it from a click (browsers ask for permission only on a person's gesture): asks,
//     subscribes with the site's key, hands the subscription to the server. `error`: one of
//     "unsupported", "denied" (not allowed), "failed" (the browser's push service refused or
//     did not answer within `timeout` ms), "network" (the site did not answer), or the
//     server's code (docs/protocol.md, "Web Push"), with its sentence in `message`.
//   disablePush() -> {ok: true} | {ok: false, error, message}
//     unsubscribes this browser, here and on the server.
//
// Words are the page's to write: this module returns codes (and the server's sentences).

const WORKER = "/sw.js";

export function pushSupported() {
  return "serviceWorker" in navigator && typeof window.PushManager === "function"
    && typeof window.Notification === "function";
}

// The worker's URL names the page's language: a page in another language makes the browser
// install it again, and with it the offline page in that language.
function workerUrl() {
  const lang = document.documentElement.lang || "";
  return lang ? `${WORKER}?lang=${encodeURIComponent(lang)}` : WORKER;
}

export function registerWorker() {
  if (!("serviceWorker" in navigator)) return Promise.resolve(null);
  return navigator.serviceWorker.register(workerUrl(), { scope: "/" }).catch((error) => {
    console.warn(error); // the pages work without it
    return null;
  });
}

async function ready() {
  await registerWorker();
  return navigator.serviceWorker.ready;
}

export async function pushState() {
  if (!pushSupported()) return "unsupported";
  if (Notification.permission === "denied") return "denied";
  if (Notification.permission === "default") return "prompt";
  const registration = await navigator.serviceWorker.getRegistration("/");
  const subscription = registration && await registration.pushManager.getSubscription();
  return subscription ? "on" : "off";
}

function csrfToken() {
  const field = document.querySelector("input[name=csrfmiddlewaretoken]");
  if (field) return field.value;
  const cookie = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="));
  return cookie ? decodeURIComponent(cookie.slice("csrftoken=".length)) : "";
}

async function post(url, data) {
  let response;
  try {
    response = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json", "x-csrftoken": csrfToken() },
      body: JSON.stringify(data),
    });
  } catch (error) {
    return { ok: false, error: "network", message: String(error) };
  }
  let body = {};
  try {
    body = await response.json();
  } catch {
    // not JSON: a proxy's page; the status says enough
  }
  if (response.ok) return { ok: true, ...body };
  return { ok: false, error: body.error || `http_${response.status}`, message: body.message || "" };
}

export function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

function sameKey(buffer, bytes) {
  if (!buffer) return false;
  const a = new Uint8Array(buffer);
  return a.length === bytes.length && a.every((b, i) => b === bytes[i]);
}

// A promise that gives up after `ms`: a browser that cannot reach its push service may never
// answer a subscription (headless Chromium without network waits for ever).
function within(promise, ms) {
  let timer;
  const late = new Promise((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error("timeout")), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

export async function enablePush({ timeout = 20000 } = {}) {
  if (!pushSupported()) return { ok: false, error: "unsupported", message: "" };
  // Asked first, before anything else is awaited: some browsers allow the question only
  // while the click that led here is still being handled.
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return { ok: false, error: "denied", message: "" };
  let subscription;
  try {
    subscription = await within((async () => {
      const [registration, keyResponse] = await Promise.all([ready(), fetch("/push/key")]);
      const key = keyBytes((await keyResponse.json()).key);
      const existing = await registration.pushManager.getSubscription();
      if (existing && sameKey(existing.options.applicationServerKey, key)) return existing;
      if (existing) await existing.unsubscribe(); // made for a key the site no longer has
      return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
    })(), timeout);
  } catch (error) {
    return { ok: false, error: "failed", message: String(error) };
  }
  return post("/push/subscribe", subscription.toJSON());
}

export async function disablePush() {
  if (!pushSupported()) return { ok: true };
  const registration = await navigator.serviceWorker.getRegistration("/");
  const subscription = registration && await registration.pushManager.getSubscription();
  if (!subscription) return { ok: true };
  const endpoint = subscription.endpoint;
  await subscription.unsubscribe();
  return post("/push/unsubscribe", { endpoint });
}

// Every page: the worker, once the page has what it needs.
if (document.readyState === "complete") registerWorker();
else window.addEventListener("load", () => registerWorker(), { once: true });
