// The play socket's requests (frontend/static/frontend/game/socket.js) against a stand-in for the
// browser's WebSocket: each request is answered by the state that answers it, not by a state
// pushed by another tab; the server's refusal rejects it; a socket that cannot carry it rejects
// at once, so the page sends it over REST.
import assert from "node:assert/strict";
import test from "node:test";

class FakeWebSocket {
  static last = null;

  constructor(url) {
    this.url = url;
    this.sent = [];
    this.listeners = {};
    FakeWebSocket.last = this;
  }

  addEventListener(kind, listener) {
    (this.listeners[kind] ||= []).push(listener);
  }

  emit(kind, event = {}) {
    for (const listener of this.listeners[kind] || []) listener(event);
  }

  send(text) {
    this.sent.push(JSON.parse(text));
  }

  close() {}
}

globalThis.window = { location: { protocol: "http:", host: "example.test" } };
globalThis.WebSocket = FakeWebSocket;
const { PlaySocket } = await import("../../../frontend/static/frontend/game/socket.js");

// An open socket on attempt 7, closed when the test ends (its timers stopped).
function opened(t, onState = () => {}) {
  const socket = new PlaySocket(7, { onState });
  t.after(() => socket.close());
  socket.connect();
  const ws = FakeWebSocket.last;
  ws.emit("open");
  const state = (fields) => ws.emit("message", { data: JSON.stringify({ type: "state", state: { id: 7, ...fields } }) });
  return { socket, ws, state };
}

test("a move is answered by the state after it; an earlier state is drawn as pushed", async (t) => {
  const drawn = [];
  const { socket, ws, state } = opened(t, (s) => drawn.push(s.seq));
  const answer = socket.move(4, "T1>T2");
  assert.deepEqual(ws.sent.at(-1), { type: "move", seq: 4, move: "T1>T2" });
  state({ seq: 4, status: "playing" });
  state({ seq: 5, status: "playing" });
  assert.equal((await answer).seq, 5);
  assert.deepEqual(drawn, [4]);
});

test("a resignation is answered by the ended state, not by another tab's move", async (t) => {
  const drawn = [];
  const { socket, ws, state } = opened(t, (s) => drawn.push(s.status));
  const answer = socket.resign();
  assert.deepEqual(ws.sent.at(-1), { type: "resign" });
  state({ seq: 6, status: "playing" });
  state({ seq: 6, status: "resigned" });
  assert.equal((await answer).status, "resigned");
  assert.deepEqual(drawn, ["playing"]);
});

test("finishing is answered by the state after the server's moves", async (t) => {
  const { socket, ws, state } = opened(t);
  const answer = socket.finish(30);
  assert.deepEqual(ws.sent.at(-1), { type: "finish", seq: 30 });
  state({ seq: 38, status: "won" });
  assert.equal((await answer).status, "won");
});

test("the server's refusal rejects the request with its message", async (t) => {
  const { socket, ws } = opened(t);
  const answer = socket.resign();
  ws.emit("message", { data: JSON.stringify({ type: "error", code: "attempt_finished", detail: "over" }) });
  await assert.rejects(answer, (error) => error.type === "error" && error.code === "attempt_finished");
});

test("a socket that cannot carry a request rejects at once, and one request waits for its answer", async (t) => {
  const closed = new PlaySocket(7);
  await assert.rejects(closed.resign(), /socket not ready/);
  const { socket, ws } = opened(t);
  const first = socket.move(0, "S>W");
  await assert.rejects(socket.resign(), /socket not ready/);
  ws.emit("close", { code: 1006 });
  await assert.rejects(first, /socket closed/);
});
