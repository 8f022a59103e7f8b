// The service worker (static/game/shared/sw.js) run in Node as the browser runs it: the same file,
// with the line of settings the server puts before it, against stand-ins for the worker's
// globals (caches, clients, the registration). tests/browser/test_installable.py runs it in
// Chromium.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import vm from "node:vm";

const SOURCE = readFileSync(new URL("../../static/game/shared/sw.js", import.meta.url), "utf8");
const ORIGIN = "https://yahtzee.example";
const CONFIG = {
  offline: "/offline", cache: "yahtzee-offline-en-abc", icon: "/static/game/shared/icons/icon-192.png",
  assets: ["/static/game/shared/site.css"], name: "Yahtzee with friends",
};

class FakeCaches {
  constructor() { this.stores = new Map(); }
  async open(name) {
    if (!this.stores.has(name)) this.stores.set(name, new Map());
    const store = this.stores.get(name);
    return {
      addAll: async (requests) => {
        for (const r of requests) store.set(new URL(r.url, ORIGIN).pathname, `copy of ${r.url}`);
      },
    };
  }
  async keys() { return [...this.stores.keys()]; }
  async delete(name) { return this.stores.delete(name); }
  async match(request, { cacheName }) {
    const url = typeof request === "string" ? request : request.url;
    return this.stores.get(cacheName)?.get(new URL(url, ORIGIN).pathname);
  }
}

function worker({ windows = [] } = {}) {
  const handlers = {};
  const shown = [];
  const opened = [];
  const self = {
    swConfig: CONFIG,
    location: new URL("/sw.js?lang=en", ORIGIN),
    caches: new FakeCaches(),
    addEventListener: (type, handler) => { handlers[type] = handler; },
    skipWaiting: async () => {},
    registration: {
      showNotification: async (title, options) => { shown.push({ title, options }); },
      navigationPreload: { enable: async () => {} },
    },
    clients: {
      claim: async () => {},
      matchAll: async () => windows,
      openWindow: async (url) => { opened.push(url); return { url }; },
    },
    fetch: async () => { throw new TypeError("Failed to fetch"); },
  };
  const context = vm.createContext({ self, URL, Request: class {
    constructor(url, init) { this.url = url; Object.assign(this, init); }
  }, console });
  vm.runInContext(SOURCE, context);
  return { self, context, handlers, shown, opened };
}

// Runs an event through its handler; the promises it handed to waitUntil/respondWith.
async function dispatch(handler, event) {
  const waits = [];
  let response;
  await handler({
    ...event,
    waitUntil: (p) => waits.push(p),
    respondWith: (p) => { response = p; },
  });
  await Promise.all(waits);
  return response && (await response);
}

test("only this site's pages are opened from a notice", () => {
  const { context } = worker();
  assert.equal(context.siteUrl("/r/abc123/", ORIGIN), `${ORIGIN}/r/abc123/`);
  assert.equal(context.siteUrl("https://evil.example/r/x/", ORIGIN), `${ORIGIN}/`);
  assert.equal(context.siteUrl("javascript:alert(1)", ORIGIN), `${ORIGIN}/`);
  assert.equal(context.siteUrl(undefined, ORIGIN), `${ORIGIN}/`);
  assert.equal(context.siteUrl("//evil.example/x", ORIGIN), `${ORIGIN}/`);
});

test("a push shows its notice with the game's tag, replacing the last one", async () => {
  const { handlers, shown } = worker();
  const data = { json: () => ({ title: "Your turn", body: "Ann scored.", url: "/r/abc/",
                                 tag: "game-7" }) };
  await dispatch(handlers.push, { data });
  assert.equal(shown.length, 1);
  assert.equal(shown[0].title, "Your turn");
  assert.deepEqual(JSON.parse(JSON.stringify(shown[0].options)), {
    body: "Ann scored.", tag: "game-7", renotify: true, icon: CONFIG.icon,
    data: { url: `${ORIGIN}/r/abc/` },
  });
});

test("a push that is not JSON still shows the site's notice (browsers require one)", async () => {
  const { handlers, shown } = worker();
  await dispatch(handlers.push, { data: { json: () => { throw new SyntaxError("bad"); } } });
  assert.equal(shown[0].title, "Yahtzee with friends");
  assert.equal(shown[0].options.tag, undefined); // renotify without a tag is an error
  assert.equal(shown[0].options.renotify, undefined);
});

test("a click focuses the game's open tab, or opens one", async () => {
  const focused = [];
  const tab = { url: `${ORIGIN}/r/abc/#log`, focus: async () => focused.push("abc") };
  const other = { url: `${ORIGIN}/`, focus: async () => focused.push("lobby") };
  let closed = false;
  const notification = { data: { url: `${ORIGIN}/r/abc/` }, close: () => { closed = true; } };
  const open = worker({ windows: [other, tab] });
  await dispatch(open.handlers.notificationclick, { notification });
  assert.deepEqual(focused, ["abc"]);
  assert.deepEqual(open.opened, []);
  assert.ok(closed);

  const none = worker({ windows: [other] });
  await dispatch(none.handlers.notificationclick, { notification });
  assert.deepEqual(none.opened, [`${ORIGIN}/r/abc/`]);
});

test("installing caches the offline page and its files; activating drops older caches",
  async () => {
    const { self, handlers } = worker();
    await self.caches.open("yahtzee-offline-sv-old");
    await self.caches.open("someone-elses");
    await dispatch(handlers.install, {});
    await dispatch(handlers.activate, {});
    assert.deepEqual(await self.caches.keys(), ["someone-elses", CONFIG.cache]);
    const store = self.caches.stores.get(CONFIG.cache);
    assert.deepEqual([...store.keys()], ["/offline", "/static/game/shared/site.css"]);
  });

test("a page opened offline gets the offline page; online, the server's answer", async () => {
  const { self, handlers } = worker();
  await dispatch(handlers.install, {});
  const request = { method: "GET", mode: "navigate", url: `${ORIGIN}/r/abc/` };
  assert.equal(await dispatch(handlers.fetch, { request, preloadResponse: Promise.resolve() }),
    "copy of /offline");
  self.fetch = async () => "the room's page";
  assert.equal(await dispatch(handlers.fetch, { request, preloadResponse: Promise.resolve() }),
    "the room's page");
  // The navigation preload's answer is used when there is one.
  assert.equal(await dispatch(handlers.fetch, { request,
    preloadResponse: Promise.resolve("preloaded") }), "preloaded");
  // Neither other requests nor other methods are touched.
  assert.equal(await dispatch(handlers.fetch, { request: { ...request, method: "POST" } }),
    undefined);
  assert.equal(await dispatch(handlers.fetch, {
    request: { method: "GET", mode: "cors", url: `${ORIGIN}/lobby/rooms` } }), undefined);
  // The offline page's stylesheet: from the cache when the network fails.
  self.fetch = async () => { throw new TypeError("offline"); };
  assert.equal(await dispatch(handlers.fetch, {
    request: { method: "GET", mode: "no-cors", url: `${ORIGIN}/static/game/shared/site.css` } }),
    "copy of /static/game/shared/site.css");
});
