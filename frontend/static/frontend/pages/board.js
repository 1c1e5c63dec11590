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

/** The top of the board and, when you are further down, the rows around you, in rank order. */
export function mergeRows(top, around) {
  const seen = new Set();
  const rows = [];
  for (const row of [...top, ...around]) {
    const key = `${row.rank}|${row.player}`;
    if (seen.has(key)) continue;
    seen.add(key);
    rows.push(row);
  }
  return rows.sort((a, b) => a.rank - b.rank);
}

async function load() {
  const [top, around] = await Promise.all([api("GET", config.top), api("GET", config.api)]);
  const ok = (answer) => answer.status === 200 && answer.data && Array.isArray(answer.data.rows);
  if (ok(top)) {
    const mine = ok(around) && around.data.you ? around.data.rows : [];
    renderRows(mergeRows(top.data.rows, mine));
    renderTotal(top.data.total);
    return true;
  }
  message.textContent = top.status === 404 ? strings.unavailable : strings.failed;
  return false;
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
  let tries = 0;
  const open = () => {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${window.location.host}${config.socket}`);
    socket.addEventListener("open", () => {
      tries = 0;
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
        version = data.version;
      }
      if (data.board && Array.isArray(data.board.top)) {
        renderRows(data.board.top);
        renderTotal(data.board.total);
      }
      if (playingNow && typeof data.playing_now === "number") {
        playingNow.textContent = String(data.playing_now);
      }
      addFeed(data.feed);
    });
    socket.addEventListener("close", () => {
      tries += 1;
      if (tries <= 5) window.setTimeout(open, Math.min(30000, 1000 * 2 ** tries));
    });
  };
  open();
}

load().then((ok) => {
  if (ok) connect();
});
