// Board page: the day's leaderboard from the API, then live updates over the daily's socket.
import { el, jsonBlock } from "../common/dom.js";
import { request } from "../common/http.js";
import { clock, t } from "../common/text.js";
import { feedLine, gapBefore, mergeRows, rankCounts } from "./rows.js";

const config = jsonBlock("board-config");
const body = document.getElementById("ranks-body");
const message = document.getElementById("board-message");
const totalText = document.getElementById("board-total");
const playingNow = document.getElementById("playing-now");
const liveState = document.getElementById("live-state");
const liveWord = document.getElementById("live-word");
const feed = document.getElementById("race-feed");
const feedEmpty = document.getElementById("feed-empty");
const playersCount = document.getElementById("players-count");
const winnersCount = document.getElementById("winners-count");
const FEED_LENGTH = 12;
const ratingsBox = document.getElementById("show-ratings");
const ratingHead = document.getElementById("rating-head");
// The reader's choice, kept in this browser: the board's rows with their players' ratings.
const RATINGS_KEY = "patience-board-ratings";

const MARKS = { won: "✓", resigned: "✗", playing: "…", left: "–" };
// A quiet board is asked again after this long: "playing now" and a row's `left` change with
// time alone, with no event to say so.
const REFRESH_MS = 60000;

// The moves, and the undos among them when there were any ("84 · 2 undos").
function movesCell(row) {
  const cell = el("td", { className: "num", text: row.moves ?? "–" });
  if (row.undos) cell.append(" ", el("span", { className: "undos", testid: "row-undos", text: `· ${t("undos_note", { n: row.undos })}` }));
  return cell;
}

function renderRows(rows) {
  const counts = rankCounts(rows);
  body.replaceChildren();
  rows.forEach((row, index) => {
    if (gapBefore(rows[index - 1], row, counts)) {
      const dots = el("span", { "aria-hidden": "true", text: "⋯" });
      const cell = el("td", { colspan: ratings.shown ? "7" : "6" }, dots, el("span", { className: "visually-hidden", text: t("gap") }));
      body.append(el("tr", { className: "gap" }, cell));
    }
    const rank = el("td", { className: "rank", text: row.rank });
    if (counts.get(row.rank) > 1) {
      rank.prepend(el("span", { className: "tie", "aria-hidden": "true", text: "=" }));
      rank.append(el("span", { className: "visually-hidden", text: ` (${t("tied")})` }));
    }
    const player = el("th", { className: "player", scope: "row" }, row.player);
    if (row.you) player.append(" ", el("span", { className: "you-badge", text: t("you") }));
    // An unfinished game whose player made no move for a while has been left (for now).
    const status = row.status === "playing" && row.left ? "left" : row.status;
    const result = el(
      "td",
      { className: `result result-${status}`, testid: "row-result" },
      el("span", { className: "mark", "aria-hidden": "true", text: MARKS[status] || "" }),
      " ",
      t(status),
    );
    const tr = el(
      "tr",
      row.you ? { className: "you", "aria-current": "true" } : {},
      rank,
      player,
      result,
      movesCell(row),
      el("td", { className: "num", text: clock(row.seconds) }),
      el("td", { className: "num", text: row.foundation_cards ?? "–" }),
    );
    if (ratings.shown) tr.append(ratingCell(row));
    body.append(tr);
  });
  message.textContent = rows.length ? "" : t("empty");
}

// The players' ratings, when the reader asks for them: by display name (unique, and all a row
// says of its player), each asked for once.
const ratings = { shown: false, known: new Map(), asking: new Set(), timer: 0 };

function ratingCell(row) {
  const known = ratings.known.get(row.player);
  if (!known) return el("td", { className: "num muted", testid: "row-rating", text: "…" });
  // A provisional rating is marked "?" (as chess sites do), and said in words.
  const text = known.provisional ? `${known.rating}?` : String(known.rating);
  const words = known.provisional ? t("rating_provisional", { rating: known.rating }) : String(known.rating);
  return el("td", { className: "num", testid: "row-rating", "aria-label": words, text });
}

// Asks the server for the ratings of the rows shown that it was not asked for yet.
function askRatings() {
  window.clearTimeout(ratings.timer);
  ratings.timer = window.setTimeout(async () => {
    const rows = mergeRows(state.top, state.around);
    const names = rows.map((row) => row.player).filter((name) => !ratings.known.has(name) && !ratings.asking.has(name));
    if (!ratings.shown || !names.length) return;
    names.forEach((name) => ratings.asking.add(name));
    const query = new URLSearchParams(names.slice(0, 100).map((name) => ["player", name]));
    try {
      const answer = await request("GET", `${config.ratings}?${query}`);
      for (const item of answer.ratings) ratings.known.set(item.player, item);
      render();
    } catch {
      /* the board shows "…" and asks again with its next change */
    } finally {
      names.forEach((name) => ratings.asking.delete(name));
    }
  }, 200);
}

function showRatings(shown) {
  ratings.shown = shown;
  ratingHead.hidden = !shown;
  try {
    window.localStorage.setItem(RATINGS_KEY, shown ? "1" : "0");
  } catch {
    /* a browser that keeps nothing: the choice lasts for this page */
  }
  render();
}

function renderTotal(total) {
  if (typeof total === "number") totalText.textContent = t("total", { n: total });
}

// The day's counters beside the board, as the live events count them.
function renderCounts(counts) {
  if (!counts) return;
  if (playersCount && typeof counts.players === "number") playersCount.textContent = String(counts.players);
  if (winnersCount && typeof counts.winners === "number") winnersCount.textContent = String(counts.winners);
}

const state = { top: [], around: [], me: null };

function render() {
  // Live updates go to everyone watching, so they cannot say which row is yours: the name can.
  const rows = mergeRows(state.top, state.around).map((row) => ({
    ...row,
    you: Boolean(row.you) || (state.me !== null && row.player === state.me),
  }));
  renderRows(rows);
  if (ratings.shown) askRatings();
}

async function loadAround() {
  try {
    const around = await request("GET", config.api);
    if (around && around.you && Array.isArray(around.rows)) {
      state.me = around.you.player;
      state.around = around.rows;
    }
  } catch {
    /* the top of the board still shows */
  }
}

async function load() {
  try {
    const [top] = await Promise.all([request("GET", config.top), loadAround()]);
    state.top = top.rows;
    render();
    renderTotal(top.total);
    return true;
  } catch (error) {
    message.textContent = error.status === 404 ? t("unavailable") : t("failed");
    return false;
  }
}

let aroundTimer = 0;
function refreshAroundSoon() {
  if (state.me === null || state.top.some((row) => row.player === state.me)) return;
  window.clearTimeout(aroundTimer);
  aroundTimer = window.setTimeout(() => loadAround().then(render), 2000);
}

// The feed's lines: newest first, and never the same line twice in a row for one player (a
// snapshot may already hold a move that the next update carries again).
const feedSeen = new Map();

function addFeed(items, { replace = false } = {}) {
  if (!feed || !Array.isArray(items)) return;
  if (replace) {
    feed.replaceChildren();
    feedSeen.clear();
  }
  // Items come newest first: prepended oldest first, the newest ends on top.
  for (const item of [...items].reverse()) {
    const key = `${item.moves}:${item.undos}:${item.foundation_cards}:${item.status}`;
    if (feedSeen.get(item.player) === key) continue;
    feedSeen.set(item.player, key);
    feed.prepend(el("li", { className: `feed-${item.status || "playing"}`, testid: "feed-line", text: feedLine(item, t) }));
  }
  while (feed.children.length > FEED_LENGTH) feed.lastElementChild.remove();
  if (feedEmpty) feedEmpty.hidden = feed.children.length > 0;
}

// Whether the board is live: the socket is open, or the board shown is the last one loaded.
function showLive(open) {
  if (!liveState) return;
  liveState.dataset.state = open ? "open" : "closed";
  liveWord.textContent = open ? t("live") : t("offline");
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
    let quiet = 0;
    // No event for a while: the board as it stands now (who has left, who plays now).
    const refreshLater = () => {
      window.clearTimeout(quiet);
      quiet = window.setTimeout(() => {
        if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "refresh" }));
        refreshLater();
      }, REFRESH_MS);
    };
    socket.addEventListener("open", () => {
      showLive(true);
      asked = -1;
      // A silent socket is closed by the server after a minute: say we are here.
      heartbeat = window.setInterval(() => socket.send(JSON.stringify({ type: "ping" })), 25000);
      // After a reconnection, ask for what was missed since the last version seen.
      if (version >= 0) socket.send(JSON.stringify({ type: "resync", version }));
      refreshLater();
    });
    socket.addEventListener("message", (event) => {
      let data;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      // Tries count again from here: a refused socket opens, then closes at once.
      tries = 0;
      if (data.type === "snapshot" || data.type === "update") refreshLater();
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
      if (playingNow && typeof data.playing_now === "number") playingNow.textContent = String(data.playing_now);
      renderCounts(data.counts);
      addFeed(data.feed, { replace: data.type === "snapshot" });
    });
    socket.addEventListener("close", (event) => {
      showLive(false);
      window.clearInterval(heartbeat);
      window.clearTimeout(quiet);
      // 4403 (another site's page) and 4404 (no such daily): trying again will not help.
      if (event.code === 4403 || event.code === 4404) return;
      tries += 1;
      if (tries <= 5) window.setTimeout(open, Math.min(30000, 1000 * 2 ** tries));
    });
  };
  open();
}

let remembered = false;
try {
  remembered = window.localStorage.getItem(RATINGS_KEY) === "1";
} catch {
  /* nothing kept */
}
ratingsBox.checked = remembered;
ratings.shown = remembered;
ratingHead.hidden = !remembered;
ratingsBox.addEventListener("change", () => showRatings(ratingsBox.checked));

load().then((ok) => {
  if (ok) connect();
});
