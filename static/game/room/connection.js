// The room's websocket: reconnects with exponential backoff, numbers commands with unique ids,
// sends a command again until it is answered, and notices gaps in the event sequence (then
// asks the server for the full state again).

const BACKOFF_START_MS = 500;
const BACKOFF_MAX_MS = 15000;
/** The server's close code when it cannot reach the live room (its Redis is away; see
 * docs/protocol.md): the page says so rather than blame the player's network. */
export const LIVE_ROOM_AWAY = 4503;

export class RoomConnection {
  /**
   * handlers: onMessage(msg), onStatus(status, detail) where status is
   * "connecting" | "open" | "lost" | "back"; detail.retryInMs while lost, and
   * detail.liveAway when the server closed the socket for want of its live room.
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
    socket.addEventListener("close", (e) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.lostSince === null) this.lostSince = Date.now();
      this.scheduleRetry(e.code === LIVE_ROOM_AWAY);
    });
  }

  scheduleRetry(liveAway = false) {
    // 0.5 s, 1 s, 2 s, 4 s … capped at 15 s, with ±20 % jitter so a crowd does not stampede.
    const base = Math.min(BACKOFF_MAX_MS, BACKOFF_START_MS * 2 ** this.attempt);
    const delay = Math.round(base * (0.8 + Math.random() * 0.4));
    this.attempt += 1;
    this.handlers.onStatus("lost", { retryInMs: delay, attempt: this.attempt, liveAway });
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

  /** Send a message; commands get a unique `id` (or `id`: the same command again). Returns
   * the id, or null when offline. */
  send(type, fields = {}, { command = true, id = null } = {}) {
    if (!this.isOpen) return null;
    const msg = { type, ...fields };
    if (command) msg.id = id || randomId();
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

/** How long an answer may take before the same command goes again. */
const ANSWER_WAIT_MS = 4000;
/** After `rate_limited` the socket's budget refills (8 frames/s): then the command goes again. */
const REFUSED_WAIT_MS = 1000;
/** Sends of one command, the first included, before the page gives up on an answer. */
const MAX_SENDS = 3;
/** The commands whose id the server applies once (docs/protocol.md): only these go again. A
 * seat or start command sent twice could act twice. */
const RESENDABLE = new Set(["roll", "score"]);

/**
 * The one command in flight. A roll or a score is sent again with the same id until something
 * answers it: the server applies its id once (docs/protocol.md), so a press the server refused
 * for speed or dropped in a flood (`rate_limited`), or left unanswered, is never lost nor done
 * twice. Other commands are sent once; without an answer the page gives up as before.
 */
export class CommandSender {
  /** onGiveUp(): no answer after the last send (the page frees its buttons). */
  constructor(conn, onGiveUp) {
    this.conn = conn;
    this.onGiveUp = onGiveUp;
    this.pending = null;
    this.timer = null;
  }

  /** Send a command; false when offline (then nothing is pending). */
  send(type, fields = {}) {
    this.settle();
    const sends = RESENDABLE.has(type) ? MAX_SENDS : 1;
    this.pending = { type, fields, id: randomId(), sends: 0, maxSends: sends };
    return this.transmit();
  }

  transmit() {
    const p = this.pending;
    if (this.conn.send(p.type, p.fields, { id: p.id }) === null) {
      this.settle();
      return false;
    }
    p.sends += 1;
    this.wait(ANSWER_WAIT_MS);
    return true;
  }

  wait(ms) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.pending.sends >= this.pending.maxSends || !this.transmit()) {
        this.settle();
        this.onGiveUp();
      }
    }, ms);
  }

  /** The server refused one of this socket's frames for speed: it may have been the pending
   * command (or a frame before it, and the command was dropped). True when it goes again. */
  refused() {
    if (this.pending === null || this.pending.sends >= this.pending.maxSends) return false;
    this.wait(REFUSED_WAIT_MS);
    return true;
  }

  /** Something answered (events, a state, an error): nothing is pending any more. */
  settle() {
    clearTimeout(this.timer);
    this.timer = null;
    this.pending = null;
  }
}

/** A fresh random command id (the server drops a repeated id: it must never restart at 1). */
export function randomId() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes); // works on plain http too, unlike crypto.randomUUID
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}
