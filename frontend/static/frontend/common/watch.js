// Watching a daily live (ws/daily/<game>/<date>/, docs/api.md "The daily socket") for a page
// that only needs to know *that* something happened: each snapshot and update is handed to
// `onEvent`; the socket says it is alive every 25 s (a silent one is closed by the server after
// a minute) and comes back after a drop, waiting longer each time, up to five tries in a row.
// Returns a function that stops it. Pages that draw the board itself keep their own reader
// (pages/board.js: versions, resyncs).

const HEARTBEAT_MS = 25000;

export function watchDaily(path, onEvent, { tries: most = 5 } = {}) {
  if (!("WebSocket" in window)) return () => {};
  let stopped = false;
  let socket = null;
  let tries = 0;
  const open = () => {
    if (stopped) return;
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${window.location.host}${path}`);
    let heartbeat = 0;
    socket.addEventListener("open", () => {
      heartbeat = window.setInterval(() => socket.send(JSON.stringify({ type: "ping" })), HEARTBEAT_MS);
    });
    socket.addEventListener("message", (event) => {
      let data;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      tries = 0;
      if (data.type === "snapshot" || data.type === "update") onEvent(data);
    });
    socket.addEventListener("close", (event) => {
      window.clearInterval(heartbeat);
      // 4403 (another site's page) and 4404 (no such daily): trying again will not help.
      if (stopped || event.code === 4403 || event.code === 4404) return;
      tries += 1;
      if (tries <= most) window.setTimeout(open, Math.min(30000, 1000 * 2 ** tries));
    });
  };
  open();
  return () => {
    stopped = true;
    if (socket) socket.close();
  };
}
