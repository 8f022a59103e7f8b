// The site's service worker, at /sw.js for the whole site (game/views/app.py serves it, with a
// first line `self.swConfig = {...}`: the offline page's URL, its cache's name, the files that
// page needs, the notification icon, the site's name). A classic script: every browser runs
// it; tests/js/sw.test.mjs runs the same file in Node with stand-ins for the browser's parts.
//
// - push: a notice from the server (game/services/push.py: {title, body, url, tag}) shown
//   with its tag, so a game's new notice replaces its last one;
// - notificationclick: the notice's page, in a tab already open on it or a new one;
// - a page opened while offline: the offline page, cached when the worker installed.

const CACHE_PREFIX = "yahtzee-offline";

function settings(config) {
  return {
    offline: "/offline",
    cache: CACHE_PREFIX,
    assets: [],
    icon: "",
    name: "",
    ...(config || {}),
  };
}

// A URL of this site to open: anything else (another origin, a script URL) opens the start.
function siteUrl(url, origin) {
  let target;
  try {
    target = new URL(typeof url === "string" && url ? url : "/", origin);
  } catch {
    return new URL("/", origin).href;
  }
  if (target.origin !== origin) return new URL("/", origin).href;
  return target.href;
}

// The notification of a push message's data (the parsed JSON, or null if it was none).
function notificationOf(data, config, origin) {
  const d = data && typeof data === "object" ? data : {};
  const tag = typeof d.tag === "string" ? d.tag : "";
  const options = {
    body: typeof d.body === "string" ? d.body : "",
    data: { url: siteUrl(d.url, origin) },
  };
  if (config.icon) options.icon = config.icon;
  if (tag) {
    options.tag = tag;
    options.renotify = true; // a new turn of the same game alerts again
  }
  const title = typeof d.title === "string" && d.title ? d.title : config.name;
  return { title, options };
}

function parsePush(data) {
  if (!data) return null;
  try {
    return data.json();
  } catch {
    return null;
  }
}

function withoutHash(url) {
  return url.split("#")[0];
}

// Focus a window already showing `url`, or open one.
async function openOrFocus(clients, url) {
  const windows = await clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows.find((w) => withoutHash(w.url) === withoutHash(url));
  if (open) return open.focus();
  return clients.openWindow(url);
}

async function installOffline(caches, config) {
  const cache = await caches.open(config.cache);
  // Fetched afresh (not from the HTTP cache), with the browser's cookies: the offline page
  // in the language the person reads the site in.
  await cache.addAll([config.offline, ...config.assets].map(
    (url) => new Request(url, { cache: "reload", credentials: "same-origin" })));
}

async function dropOldCaches(caches, config) {
  const names = await caches.keys();
  await Promise.all(names
    .filter((name) => name.startsWith(CACHE_PREFIX) && name !== config.cache)
    .map((name) => caches.delete(name)));
}

// A page: from the network (the navigation preload's answer when there is one); the offline
// page when there is no network. The server's own answers, errors included, pass unchanged.
async function navigate(event, fetch, caches, config) {
  try {
    const preloaded = await event.preloadResponse;
    if (preloaded) return preloaded;
    return await fetch(event.request);
  } catch (error) {
    const offline = await caches.match(config.offline, { cacheName: config.cache });
    if (offline) return offline;
    throw error;
  }
}

// The offline page's own files (its styles, its icon): the network first, the cache offline.
async function offlineAsset(request, fetch, caches, config) {
  try {
    return await fetch(request);
  } catch (error) {
    const cached = await caches.match(request, { cacheName: config.cache });
    if (cached) return cached;
    throw error;
  }
}

function isOfflineAsset(url, config, origin) {
  return config.assets.some((asset) => new URL(asset, origin).href === url);
}

if (typeof self !== "undefined" && typeof self.addEventListener === "function") {
  const config = settings(self.swConfig);
  const origin = self.location.origin;

  self.addEventListener("install", (event) => {
    event.waitUntil(installOffline(self.caches, config).then(() => self.skipWaiting()));
  });

  self.addEventListener("activate", (event) => {
    event.waitUntil((async () => {
      await dropOldCaches(self.caches, config);
      if (self.registration.navigationPreload) {
        await self.registration.navigationPreload.enable();
      }
      await self.clients.claim();
    })());
  });

  self.addEventListener("fetch", (event) => {
    const request = event.request;
    if (request.method !== "GET") return;
    if (request.mode === "navigate") {
      event.respondWith(navigate(event, self.fetch.bind(self), self.caches, config));
    } else if (isOfflineAsset(request.url, config, origin)) {
      event.respondWith(offlineAsset(request, self.fetch.bind(self), self.caches, config));
    }
  });

  self.addEventListener("push", (event) => {
    const { title, options } = notificationOf(parsePush(event.data), config, origin);
    event.waitUntil(self.registration.showNotification(title, options));
  });

  self.addEventListener("notificationclick", (event) => {
    event.notification.close();
    const url = siteUrl(event.notification.data && event.notification.data.url, origin);
    event.waitUntil(openOrFocus(self.clients, url));
  });
}
