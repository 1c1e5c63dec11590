// The race socket: ws(s)://<host>/ws/race/<code>/. The server sends {"type": "snapshot"} on
// connect and on {"type": "resync"}, then {"type": "event"} for each change; both carry the
// race's whole view with its version. A view older than the one held is dropped; a version
// skip asks for a snapshot. The socket reconnects by itself with backoff (its first message is
// a snapshot: that is the catch-up); 4404 (no such race) ends the retries.

const PING_MS = 25000;
const MAX_BACKOFF_MS = 30000;
const CLOSE_NOT_FOUND = 4404;

export class RaceSocket {
  constructor(code, onRace) {
    this.code = code;
    this.onRace = onRace;
    this.version = 0;
    this.failures = 0;
    this.ws = null;
    this.pingTimer = null;
  }

  connect() {
    if (typeof WebSocket === "undefined") return;
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${window.location.host}/ws/race/${this.code}/`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), PING_MS);
    });
    ws.addEventListener("message", (event) => this.receive(event.data));
    ws.addEventListener("close", (event) => {
      clearInterval(this.pingTimer);
      if (event.code === CLOSE_NOT_FOUND) return;
      this.failures += 1;
      const wait = Math.min(MAX_BACKOFF_MS, 500 * 2 ** Math.min(this.failures, 6));
      setTimeout(() => this.connect(), wait);
    });
  }

  send(message) {
    if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify(message));
  }

  receive(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (!message.race) return;
    this.failures = 0;
    const version = message.race.version;
    if (message.type === "event" && version > this.version + 1 && this.version) {
      this.send({ type: "resync", version: this.version });
    }
    if (version <= this.version) return;
    this.version = version;
    this.onRace(message.race);
  }
}
