// The room's websocket: reconnects with exponential backoff, numbers commands with unique ids,
// and notices gaps in the event sequence (then asks the server for the full state again).

const BACKOFF_START_MS = 500;
const BACKOFF_MAX_MS = 15000;

export class RoomConnection {
  /**
   * handlers: onMessage(msg), onStatus(status, detail) where status is
   * "connecting" | "open" | "lost" | "back"; detail.retryInMs while lost.
   */
  constructor(url, handlers) {
    this.url = url;
    this.handlers = handlers;
    this.socket = null;
    this.attempt = 0;
    this.everOpened = false;
    this.lostSince = null;
    this.retryTimer = null;
  }

  connect() {
    clearTimeout(this.retryTimer);
    this.handlers.onStatus(this.everOpened ? "reconnecting" : "connecting", {});
    let socket;
    try {
      socket = new WebSocket(this.url);
    } catch (err) {
      this.scheduleRetry();
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.attempt = 0;
      const wasLost = this.lostSince !== null;
      this.lostSince = null;
      this.everOpened = true;
      this.handlers.onStatus(wasLost ? "back" : "open", {});
    });
    socket.addEventListener("message", (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch (err) {
        return; // the server only sends JSON; ignore anything else
      }
      if (msg && typeof msg === "object") this.handlers.onMessage(msg);
    });
    socket.addEventListener("close", () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.lostSince === null) this.lostSince = Date.now();
      this.scheduleRetry();
    });
  }

  scheduleRetry() {
    // 0.5 s, 1 s, 2 s, 4 s … capped at 15 s, with ±20 % jitter so a crowd does not stampede.
    const base = Math.min(BACKOFF_MAX_MS, BACKOFF_START_MS * 2 ** this.attempt);
    const delay = Math.round(base * (0.8 + Math.random() * 0.4));
    this.attempt += 1;
    this.handlers.onStatus("lost", { retryInMs: delay, attempt: this.attempt });
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  /** Try again at once (the "Reconnect now" button). */
  retryNow() {
    if (this.socket) return;
    this.connect();
  }

  get isOpen() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  /** Send a message; commands get a unique `id`. Returns the id, or null when offline. */
  send(type, fields = {}, { command = true } = {}) {
    if (!this.isOpen) return null;
    const msg = { type, ...fields };
    if (command) msg.id = randomId();
    this.socket.send(JSON.stringify(msg));
    return msg.id || null;
  }

  /** Close for good (tests and page unload). */
  close() {
    clearTimeout(this.retryTimer);
    const socket = this.socket;
    this.socket = null;
    if (socket) socket.close();
  }
}

/** A fresh random command id (the server drops a repeated id: it must never restart at 1). */
export function randomId() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes); // works on plain http too, unlike crypto.randomUUID
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Tracks the last seen `seq`; says whether an event is next, old or after a gap. */
export class SeqTracker {
  constructor() {
    this.last = null;
  }

  reset(seq) {
    this.last = typeof seq === "number" ? seq : null;
  }

  /** "next", "duplicate" or "gap" for an incoming event's seq. */
  check(seq) {
    if (this.last === null) return "gap";
    if (seq === this.last + 1) return "next";
    if (seq <= this.last) return "duplicate";
    return "gap";
  }
}
