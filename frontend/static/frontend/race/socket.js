// The race socket: ws(s)://<host>/ws/race/<code>/. The server sends {"type": "snapshot"} on
// connect and on {"type": "resync"}, {"type": "event"} for each change of the race (both carry
// the race's whole view with its version), and {"type": "progress"} for each racer's move (that
// racer's figures at their own version). The socket holds the race's view, merged from all of
// them and from the page's REST answers (view.js); a version skip, of the race or of a racer,
// asks for a snapshot. The socket reconnects by itself with backoff (its first message is a
// snapshot: that is the catch-up); 4404 (no such race) ends the retries.

import { applyProgress, mergeView } from "./view.js";

const PING_MS = 25000;
const MAX_BACKOFF_MS = 30000;
const CLOSE_NOT_FOUND = 4404;

export class RaceSocket {
  constructor(code, onRace) {
    this.code = code;
    this.onRace = onRace;
    this.race = null; // the view held
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

  resync() {
    this.send({ type: "resync", version: this.race ? this.race.version : 0 });
  }

  // A whole view from elsewhere (a REST answer): the view held now, or null when it is older.
  take(view) {
    const merged = mergeView(this.race, view);
    if (merged) this.race = merged;
    return merged;
  }

  receive(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (message.type === "progress" && message.racer) {
      if (!this.race) return;
      this.failures = 0;
      const { race, resync } = applyProgress(this.race, message.racer);
      if (resync) this.resync();
      if (race === this.race) return;
      this.race = race;
      this.onRace(race);
      return;
    }
    if (!message.race) return;
    this.failures = 0;
    if (message.type === "event" && this.race && message.race.version > this.race.version + 1) {
      this.resync();
    }
    const merged = this.take(message.race);
    if (merged) this.onRace(merged);
  }
}
