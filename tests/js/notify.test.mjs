// notify.js against stand-ins for the browser's Push API (headless Chromium cannot subscribe:
// it has no push service to reach): what enablePush() asks of the browser and posts to the
// server, and each way it fails.
import assert from "node:assert/strict";
import { test } from "node:test";

const KEY = "BNc" + "A".repeat(84); // base64url of 65 bytes
const posted = [];
let permission = "default";
let existing = null;
let subscribeAnswer;

function fakeSubscription(keyBytes, endpoint = "https://fcm.googleapis.com/fcm/send/abc") {
  return {
    endpoint,
    options: { applicationServerKey: keyBytes && keyBytes.buffer },
    unsubscribed: false,
    async unsubscribe() { this.unsubscribed = true; return true; },
    toJSON() { return { endpoint, expirationTime: null, keys: { p256dh: "p", auth: "a" } }; },
  };
}

const registration = {
  pushManager: {
    getSubscription: async () => existing,
    subscribe: (options) => subscribeAnswer(options),
  },
};
globalThis.window = { PushManager: function PushManager() {}, Notification: function N() {},
  addEventListener: () => {} };
globalThis.Notification = window.Notification;
Object.defineProperty(Notification, "permission", { get: () => permission });
Notification.requestPermission = async () => permission;
Object.defineProperty(globalThis, "navigator", { value: { serviceWorker: {
  register: async () => registration,
  ready: Promise.resolve(registration),
  getRegistration: async () => registration,
} } });
globalThis.document = {
  readyState: "loading",
  documentElement: { lang: "en" },
  cookie: "",
  querySelector: (sel) => (sel === "input[name=csrfmiddlewaretoken]" ? { value: "tok" } : null),
};
globalThis.fetch = async (url, init = {}) => {
  if (url === "/push/key") return { ok: true, json: async () => ({ key: KEY }) };
  posted.push({ url, headers: init.headers, body: JSON.parse(init.body) });
  return { ok: true, status: 201, json: async () => ({ subscribed: true }) };
};

const notify = await import("../../static/game/shared/notify.js");

test("the state follows the permission and the browser's subscription", async () => {
  permission = "default";
  assert.equal(await notify.pushState(), "prompt");
  permission = "denied";
  assert.equal(await notify.pushState(), "denied");
  permission = "granted";
  existing = null;
  assert.equal(await notify.pushState(), "off");
  existing = fakeSubscription(notify.keyBytes(KEY));
  assert.equal(await notify.pushState(), "on");
});

test("enabling subscribes with the site's key and posts the subscription", async () => {
  permission = "granted";
  existing = null;
  posted.length = 0;
  let asked;
  subscribeAnswer = async (options) => {
    asked = options;
    return fakeSubscription(options.applicationServerKey);
  };
  assert.deepEqual(await notify.enablePush(), { ok: true, subscribed: true });
  assert.equal(asked.userVisibleOnly, true);
  assert.deepEqual([...asked.applicationServerKey], [...notify.keyBytes(KEY)]);
  assert.equal(asked.applicationServerKey.length, 65);
  assert.equal(posted[0].url, "/push/subscribe");
  assert.equal(posted[0].headers["x-csrftoken"], "tok");
  assert.equal(posted[0].body.endpoint, "https://fcm.googleapis.com/fcm/send/abc");
});

test("a subscription made for another key is replaced", async () => {
  permission = "granted";
  const old = fakeSubscription(new Uint8Array(65).fill(7), "https://fcm.googleapis.com/old");
  existing = old;
  posted.length = 0;
  subscribeAnswer = async (options) => fakeSubscription(options.applicationServerKey);
  assert.equal((await notify.enablePush()).ok, true);
  assert.ok(old.unsubscribed);
  assert.equal(posted[0].body.endpoint, "https://fcm.googleapis.com/fcm/send/abc");
});

test("refused, or a push service that never answers, is said so", async () => {
  permission = "denied";
  assert.equal((await notify.enablePush()).error, "denied");
  permission = "granted";
  existing = null;
  subscribeAnswer = () => new Promise(() => {}); // headless Chromium: no push service
  const started = Date.now();
  const result = await notify.enablePush({ timeout: 100 });
  assert.equal(result.error, "failed");
  assert.ok(Date.now() - started < 1000);
});
