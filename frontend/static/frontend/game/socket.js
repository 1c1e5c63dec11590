// The play socket: ws(s)://<host>/ws/play/<attempt id>/.
// The page sends its moves, its finishing request and its resignation over it. The server
// sends {"type": "state", "state": {...}} on connect, after each change of the attempt (to
// every tab of it) and on {"type": "resync"}; {"type": "error", ...} when a request is refused.
// While the socket is not open the page plays over REST; the socket reconnects by itself with
// backoff; the first message after each connection is the full state, so it catches up by itself.
// Close codes 4403 (another site, or signed out) and 4404 (no such attempt, or not yours) end
// the retries; any other close (4503 the server's live side is down, 4408 idle, 4429 flooding,
// a drop) is tried again with backoff. A refused socket opens, then closes at once with its code, so the
// backoff starts again only once a state has arrived, not at "open".

const PING_MS = 25000;
const MOVE_TIMEOUT_MS = 8000;
const MAX_BACKOFF_MS = 60000;
const CLOSE_FORBIDDEN = 4403;
const CLOSE_NOT_FOUND = 4404;

export class PlaySocket {
  constructor(attemptId, { onState, onStatus } = {}) {
    this.attemptId = attemptId;
    this.onState = onState || (() => {});
    this.onStatus = onStatus || (() => {});
    this.ws = null;
    this.open = false;
    this.failures = 0;
    this.pending = null; // {seq, resolve, reject, timer}
    this.lastSeq = null;
    this.closed = false;
    this.pingTimer = null;
    this.retryTimer = null;
  }

  get url() {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${window.location.host}/ws/play/${this.attemptId}/`;
  }

  connect() {
    if (this.closed || typeof WebSocket === "undefined") return;
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.open = true;
      this.onStatus(true);
      // The server's first message is the full state: that is the resync after a reconnect.
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), PING_MS);
    });
    ws.addEventListener("message", (event) => this.receive(event.data));
    ws.addEventListener("close", (event) => {
      const wasOpen = this.open;
      this.open = false;
      clearInterval(this.pingTimer);
      this.failPending(new Error("socket closed"));
      if (wasOpen) this.onStatus(false);
      // Not this player's attempt, or no such attempt: trying again will not help.
      if (event && (event.code === CLOSE_FORBIDDEN || event.code === CLOSE_NOT_FOUND)) {
        this.closed = true;
        return;
      }
      this.scheduleReconnect();
    });
    ws.addEventListener("error", () => {
      // "close" follows and schedules the reconnection.
    });
  }

  scheduleReconnect() {
    if (this.closed) return;
    this.failures += 1;
    const base = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(this.failures - 1, 6));
    const delay = base / 2 + Math.random() * (base / 2);
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  send(message) {
    if (!this.open || !this.ws) return false;
    try {
      this.ws.send(JSON.stringify(message));
      return true;
    } catch {
      return false;
    }
  }

  receive(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (message.type === "state" && message.state) {
      // Only this attempt's states: anything else is not this board's to draw.
      if (message.state.id !== this.attemptId) return;
      this.failures = 0;
      this.lastSeq = message.state.seq;
      const pending = this.pending;
      if (pending && pending.answers(message.state)) {
        this.settle(pending, () => pending.resolve(message.state));
        return; // the caller draws the state it awaited
      }
      this.onState(message.state);
    } else if (message.type === "error") {
      const pending = this.pending;
      if (pending) this.settle(pending, () => pending.reject(message));
    }
  }

  settle(pending, action) {
    clearTimeout(pending.timer);
    this.pending = null;
    action();
  }

  failPending(error) {
    if (this.pending) {
      const pending = this.pending;
      this.settle(pending, () => pending.reject(error));
    }
  }

  // Sends one request over the socket: resolves with the first state that `answers` it, rejects
  // with the server's error message ({type: "error", code, detail, ...}) or with an Error when
  // the socket could not carry it. The caller then sends it over REST, which is safe: a move
  // and a finish name their seq, and a second resignation is refused as finished.
  ask(message, answers) {
    if (!this.open || this.pending) return Promise.reject(new Error("socket not ready"));
    return new Promise((resolve, reject) => {
      const pending = { answers, resolve, reject, timer: null };
      pending.timer = setTimeout(() => this.settle(pending, () => reject(new Error("timeout"))), MOVE_TIMEOUT_MS);
      this.pending = pending;
      if (!this.send(message)) this.settle(pending, () => reject(new Error("send failed")));
    });
  }

  // A move, answered by the state after it.
  move(seq, move) {
    return this.ask({ type: "move", seq, move }, (state) => state.seq > seq);
  }

  // The finishing foundation moves, played by the server from `seq`: answered by the state after them.
  finish(seq) {
    return this.ask({ type: "finish", seq }, (state) => state.seq > seq);
  }

  // Resigning, answered by the attempt's state once it has ended.
  resign() {
    return this.ask({ type: "resign" }, (state) => state.status !== "playing");
  }

  resync(seq) {
    return this.send({ type: "resync", seq, version: seq });
  }

  close() {
    this.closed = true;
    clearInterval(this.pingTimer);
    clearTimeout(this.retryTimer);
    if (this.ws) this.ws.close();
  }
}
