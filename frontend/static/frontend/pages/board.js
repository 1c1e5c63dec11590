// Board page: the day's leaderboard from the API, then live updates over the daily's socket.
import { api, element, format, jsonBlock } from "./api.js";

const config = jsonBlock("board-config");
const strings = jsonBlock("page-strings");
const body = document.getElementById("ranks-body");
const message = document.getElementById("board-message");
const totalText = document.getElementById("board-total");
const playingNow = document.getElementById("playing-now");
const feed = document.getElementById("race-feed");
const feedEmpty = document.getElementById("feed-empty");
const FEED_LENGTH = 12;

/**
 * Competition ranks ("1, 2, 2, 4"): rows come sorted; equal results share a rank. Rows that
 * carry a rank from the server keep it.
 */
export function competitionRanks(rows) {
  const same = (a, b) =>
    a.status === b.status && a.moves === b.moves && a.seconds === b.seconds &&
    a.foundation_cards === b.foundation_cards;
  const out = [];
  rows.forEach((row, index) => {
    let rank = row.rank;
    if (!Number.isInteger(rank)) {
      rank = index > 0 && same(rows[index - 1], row) ? out[index - 1].rank : index + 1;
    }
    out.push({ ...row, rank });
  });
  return out;
}

function duration(seconds) {
  if (seconds === null || seconds === undefined) return "–";
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

const MARKS = { won: "✓", resigned: "✗", stuck: "✗", playing: "…" };

function renderRows(rows) {
  const ranked = competitionRanks(rows);
  const counts = new Map();
  ranked.forEach((row) => counts.set(row.rank, (counts.get(row.rank) || 0) + 1));
  body.replaceChildren();
  ranked.forEach((row, index) => {
    const previous = ranked[index - 1];
    if (previous && row.rank > previous.rank + counts.get(previous.rank)) {
      // Rows were left out between these two (the top of the board, then the rows around you).
      const gap = element("tr", "gap");
      const cell = element("td");
      const dots = element("span", "", "⋯");
      dots.setAttribute("aria-hidden", "true");
      cell.append(dots, element("span", "visually-hidden", strings.gap || ""));
      cell.colSpan = 6;
      gap.append(cell);
      body.append(gap);
    }
    const tr = element("tr");
    if (row.you) {
      tr.className = "you";
      tr.setAttribute("aria-current", "true");
    }
    const rank = element("td", "rank", row.rank);
    if (counts.get(row.rank) > 1) {
      rank.append(element("span", "visually-hidden", ` (${strings.tied || "tied"})`));
      const tie = element("span", "tie", "=");
      tie.setAttribute("aria-hidden", "true");
      rank.prepend(tie);
    }
    const player = element("th", "player");
    player.scope = "row";
    player.append(document.createTextNode(row.player));
    if (row.you) player.append(" ", element("span", "you-badge", strings.you || "you"));
    const result = element("td", `result result-${row.status}`);
    result.append(element("span", "mark", MARKS[row.status] || ""));
    result.append(" ", strings[row.status] || row.status);
    result.firstChild.setAttribute("aria-hidden", "true");
    tr.append(
      rank,
      player,
      result,
      element("td", "num", row.moves ?? "–"),
      element("td", "num", duration(row.seconds)),
      element("td", "num", row.foundation_cards ?? "–"),
    );
    body.append(tr);
  });
  message.textContent = ranked.length ? "" : strings.empty;
}

function renderTotal(total) {
  if (typeof total === "number") totalText.textContent = format(strings.total, { total });
}

/**
 * The top of the board and, when you are further down, the rows around you, in rank order.
 * Display names are unique, so a player appears once (the top's row wins).
 */
export function mergeRows(top, around) {
  const names = new Set(top.map((row) => row.player));
  return [...top, ...around.filter((row) => !names.has(row.player))].sort(
    (a, b) => a.rank - b.rank,
  );
}

const state = { top: [], around: [], me: null };

function render() {
  // Live updates go to everyone watching, so they cannot say which row is yours: the name can.
  const rows = mergeRows(state.top, state.around).map((row) => ({
    ...row,
    you: Boolean(row.you) || (state.me !== null && row.player === state.me),
  }));
  renderRows(rows);
}

async function loadAround() {
  const around = await api("GET", config.api);
  const ok = around.status === 200 && around.data && Array.isArray(around.data.rows);
  if (ok && around.data.you) {
    state.me = around.data.you.player;
    state.around = around.data.rows;
  }
}

async function load() {
  const [top] = await Promise.all([api("GET", config.top), loadAround()]);
  if (top.status === 200 && top.data && Array.isArray(top.data.rows)) {
    state.top = top.data.rows;
    render();
    renderTotal(top.data.total);
    return true;
  }
  message.textContent = top.status === 404 ? strings.unavailable : strings.failed;
  return false;
}

let aroundTimer = 0;
function refreshAroundSoon() {
  if (state.me === null || state.top.some((row) => row.player === state.me)) return;
  window.clearTimeout(aroundTimer);
  aroundTimer = window.setTimeout(() => loadAround().then(render), 2000);
}

function feedLine(item) {
  const values = {
    player: item.player,
    moves: item.moves ?? 0,
    cards: item.foundation_cards ?? 0,
  };
  if (item.status === "won") return format(strings.feed_won, values);
  if (item.status === "stuck") return format(strings.feed_stuck, values);
  return format(strings.feed_progress, values);
}

function addFeed(items) {
  if (!feed || !Array.isArray(items) || !items.length) return;
  for (const item of items) {
    const li = element("li", `feed-${item.status || "playing"}`, feedLine(item));
    feed.prepend(li);
  }
  while (feed.children.length > FEED_LENGTH) feed.lastElementChild.remove();
  if (feedEmpty) feedEmpty.hidden = true;
}

function connect() {
  if (!config.socket || !("WebSocket" in window)) return;
  let version = -1;
  let asked = -1; // the version a resync was last asked from
  let tries = 0;
  const open = () => {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${window.location.host}${config.socket}`);
    let heartbeat = 0;
    socket.addEventListener("open", () => {
      tries = 0;
      asked = -1;
      // A silent socket is closed by the server after a minute: say we are here.
      heartbeat = window.setInterval(() => socket.send(JSON.stringify({ type: "ping" })), 25000);
      // After a reconnection, ask for what was missed since the last version seen.
      if (version >= 0) socket.send(JSON.stringify({ type: "resync", version }));
    });
    socket.addEventListener("message", (event) => {
      let data;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      if (typeof data.version === "number") {
        if (data.type === "update" && data.version <= version) return;
        if (data.type === "update" && version >= 0 && data.version > version + 1) {
          // An update went missing on its way: ask for what came after the last one seen
          // (this one among them), once per gap.
          if (asked !== version) socket.send(JSON.stringify({ type: "resync", version }));
          asked = version;
          return;
        }
        version = data.version;
      }
      if (data.board && Array.isArray(data.board.top)) {
        state.top = data.board.top;
        render();
        renderTotal(data.board.total);
        refreshAroundSoon();
      }
      if (playingNow && typeof data.playing_now === "number") {
        playingNow.textContent = String(data.playing_now);
      }
      addFeed(data.feed);
    });
    socket.addEventListener("close", () => {
      window.clearInterval(heartbeat);
      tries += 1;
      if (tries <= 5) window.setTimeout(open, Math.min(30000, 1000 * 2 ** tries));
    });
  };
  open();
}

load().then((ok) => {
  if (ok) connect();
});
