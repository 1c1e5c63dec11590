// The end panel's parts after the result itself: what the fair-play review says, your rank,
// the day's histogram of winning move counts with your place marked, the offer to race friends
// on the deal, and, for a day that is over, the solver's line as a step-by-step replay. Each
// part shows what the server sent.

import { el } from "../common/dom.js";
import { localTime } from "../common/text.js";
import { api } from "./api.js";
import { describeMove } from "./describe.js";
import { t } from "./strings.js";

function held(state) {
  return state.review === "held" && !state.disqualified_reason;
}

// "Under review" (off the public board until a reviewer approves it) or "Disqualified" with
// the reviewer's reason; null for any other result.
export function reviewNotice(state) {
  if (state.disqualified_reason) {
    return el(
      "div",
      { className: "end-review review-disqualified", testid: "end-review", "data-review": "disqualified" },
      el("strong", { className: "review-word", text: t("review_disqualified") }),
      " ",
      el("span", { text: t("review_reason", { reason: state.disqualified_reason }) }),
    );
  }
  if (held(state)) {
    return el(
      "div",
      { className: "end-review review-held", testid: "end-review", "data-review": "held" },
      el("strong", { className: "review-word", text: t("review_held") }),
      " ",
      el("span", { text: t("review_held_note") }),
    );
  }
  return null;
}

// Fills `dd` with your rank on the day's board ("3 of 12"), or says why there is none.
export async function rankInto(dd, state, game, date) {
  if (!state.ranked || !date) dd.textContent = t("rank_practice");
  else if (state.disqualified_reason) dd.textContent = t("rank_disqualified");
  else if (held(state)) dd.textContent = t("rank_held");
  else {
    dd.textContent = t("end_loading");
    try {
      const board = await api.board(game, date);
      dd.textContent = board.you ? t("rank_of", { rank: board.you.rank, total: board.total }) : t("rank_none");
    } catch {
      dd.textContent = t("rank_failed");
    }
  }
}

// The buckets of the day's wins, widened so that your own count has a bar. The width of a
// bucket is read from the server's first bucket.
export function withYours(buckets, mine) {
  const list = buckets.map((b) => ({ ...b }));
  if (mine === null || !list.length || list.some((b) => b.from <= mine && mine <= b.to)) return list;
  const width = list[0].to - list[0].from + 1;
  while (mine < list[0].from) list.unshift({ from: list[0].from - width, to: list[0].from - 1, count: 0 });
  while (mine > list[list.length - 1].to) {
    const last = list[list.length - 1];
    list.push({ from: last.to + 1, to: last.to + width, count: 0 });
  }
  return list;
}

// The day's histogram of winning move counts, your bar marked in words (not colour alone).
export function histogram(state, game, date) {
  const list = el("ol", { className: "histogram", testid: "histogram-bars" });
  const note = el("p", { className: "histogram-note", text: t("end_loading") });
  const figure = el(
    "figure",
    { className: "end-histogram", testid: "histogram" },
    el("figcaption", { text: t("histogram_title") }),
    note,
    list,
  );
  const mine = state.status === "won" ? state.moves_played : null;
  api.distribution(game, date).then(
    (data) => {
      const buckets = withYours(data.buckets || [], mine);
      note.textContent = buckets.length ? "" : t("histogram_empty");
      note.hidden = Boolean(buckets.length);
      const most = Math.max(1, ...buckets.map((b) => b.count));
      for (const b of buckets) {
        const yours = mine !== null && b.from <= mine && mine <= b.to;
        const bar = el("span", { className: "histogram-bar" });
        bar.style.setProperty("--share", String((100 * b.count) / most));
        const row = el(
          "li",
          { className: yours ? "histogram-row yours" : "histogram-row", "data-yours": yours ? "true" : null },
          el("span", { className: "histogram-label", "aria-hidden": "true", text: `${b.from}–${b.to}` }),
          el("span", { className: "histogram-track", "aria-hidden": "true" }, bar),
          el("span", { className: "histogram-count", "aria-hidden": "true", text: String(b.count) }),
          el("span", { className: "visually-hidden", text: t("histogram_row", { low: b.from, high: b.to, n: b.count }) }),
        );
        if (yours) row.append(" ", el("strong", { className: "histogram-you", testid: "histogram-you", text: t("histogram_you") }));
        list.append(row);
      }
    },
    () => {
      note.textContent = t("histogram_failed");
    },
  );
  return figure;
}

// "Analyse my game" once the server would analyse it now (`analysis.available` in the attempt's
// state), or when a ranked day's analysis opens (its `opens_at`, in the reader's local time);
// null when neither (a game still played, a race still running).
export function analysisLink(state, testid = "end-analysis") {
  const analysis = state.analysis || {};
  if (analysis.available) {
    return el("p", { className: "analysis-link", testid }, el("a", { className: "btn", href: `/analysis/${state.id}/`, text: t("analysis_link") }));
  }
  if (analysis.opens_at) {
    return el("p", { className: "analysis-link muted", testid, text: t("analysis_opens", { time: localTime(analysis.opens_at) }) });
  }
  return null;
}

// The leagues "Your week" names (a player may be in twenty); the share text names the first.
const LEAGUES_SHOWN = 3;

// The lines of "Your week" for today's result in `game` (a pure function of the server's
// outlook, `/api/players/me/week/`), and the league standing a share text may carry (null when
// the player is in no league).
export function weekLines(outlook, game) {
  const points = (n) => t("n_points", { n });
  const lines = [];
  const today = outlook.today.find((r) => r.game === game);
  if (today && today.status === "held") lines.push(t("week_today_held"));
  else if (today && today.points !== null) {
    lines.push(t("week_today", { rank: today.rank, players: today.players, points: points(today.points) }));
  }
  if (outlook.rank === null) lines.push(t("week_none_yet"));
  else lines.push(t("week_so_far", { points: points(outlook.points), rank: outlook.rank, players: outlook.players }));
  if (outlook.rank_with_today !== null && outlook.points_with_today !== outlook.points) {
    lines.push(t("week_with_today", { points: points(outlook.points_with_today), rank: outlook.rank_with_today }));
  }
  for (const league of outlook.leagues.slice(0, LEAGUES_SHOWN)) {
    lines.push(t("week_league", { name: league.name, rank: league.rank, members: league.members, rank_today: league.rank_with_today }));
  }
  const first = outlook.leagues[0];
  const share = first ? t("share_league", { name: first.name, rank: first.rank_with_today, members: first.members }) : null;
  return { lines, share };
}

// "Your week": what today's ranked result does to the week's points, overall and in the
// player's leagues, read once the game is over; `onShare(line)` receives the league standing
// for the share text.
export function weekOutlook(game, onShare) {
  const list = el("ul", { className: "end-week-lines" });
  const section = el(
    "section",
    { className: "end-week", testid: "end-week", "aria-labelledby": "end-week-title" },
    el("h3", { id: "end-week-title", text: t("week_title") }),
    list,
  );
  list.append(el("li", { text: t("end_loading") }));
  api.week().then(
    (outlook) => {
      const { lines, share } = weekLines(outlook, game);
      list.replaceChildren(...lines.map((line) => el("li", { text: line })));
      if (share) onShare(share);
    },
    () => list.replaceChildren(el("li", { text: t("week_failed") })),
  );
  return section;
}

// "Challenge a friend on this deal", offered only when the server says a race may use this
// game's deal (a past daily's, or a certified deal played in practice; never a daily still
// played for the boards): the button makes the race and takes the player to its lobby.
export function raceOffer(state, game) {
  const box = el("p", { className: "end-race", testid: "end-race", hidden: true });
  api.raceOffer(state.id).then(
    (offer) => {
      if (!offer.raceable) return;
      const button = el("button", { type: "button", className: "btn btn-primary", testid: "end-race-make", text: t("race_offer") });
      const note = el("span", { className: "end-race-note", role: "status" });
      button.addEventListener("click", async () => {
        button.disabled = true;
        try {
          const race = await api.raceMake(game, state.id);
          window.location.assign(`/challenge/${race.code}/`);
        } catch {
          button.disabled = false;
          note.textContent = t("race_offer_failed");
        }
      });
      box.append(button, " ", note);
      box.hidden = false;
    },
    () => {}, // no offer: the rest of the panel is what matters
  );
  return box;
}

// The solver's line of a day that is over, move by move on a table of its own (`replayView`).
export function solutionReplay(layout, game, date) {
  const status = el("p", { className: "solution-note", text: t("end_loading") });
  const section = el(
    "section",
    { className: "end-solution", testid: "solution", "aria-labelledby": "solution-title" },
    el("h3", { id: "solution-title", text: t("solution_title") }),
    status,
  );
  api.solution(game, date).then(
    (data) => {
      status.textContent = t("solution_intro", { n: (data.steps || []).length });
      section.append(...replayView(layout, game, data, { slider: t("solution_slider"), board: t("solution_board") }));
    },
    () => {
      status.textContent = t("solution_failed");
    },
  );
  return section;
}

// A line played from a deal, as the server sent it ({start, steps: [{move, card, view}]}: the
// position after each move, as its player saw it), on a table of its own that the viewer steps
// through: first, previous, next, last and a slider, the move in words. The page only shows
// the positions. labels: {slider, board, start?}, the names of the slider and of the table (and
// of the first position, when it is not the deal's: "the deal, before the first move"); testid:
// the prefix of the parts' test ids; onShow(index), told of each position shown. Returns the
// parts: the controls, the words, the table, and `show(index)` to go to a position.
export function replayView(layout, game, data, labels, testid = "solution", { onShow = null } = {}) {
  const steps = data.steps || [];
  const views = [data.start, ...steps.map((step) => step.view)];
  const last = steps.length;
  const button = (text, id) => el("button", { type: "button", className: "btn", testid: `${testid}-${id}`, text });
  const first = button(t("solution_first"), "first");
  const previous = button(t("solution_previous"), "previous");
  const next = button(t("solution_next"), "next");
  const end = button(t("solution_last"), "last");
  const slider = el("input", {
    type: "range",
    min: "0",
    max: String(last),
    value: "0",
    testid: `${testid}-slider`,
    "aria-label": labels.slider,
  });
  const where = el("p", { className: "solution-step", testid: `${testid}-step`, "aria-live": "polite", "aria-atomic": "true" });
  const table = el("div", {
    className: `board board-${game} solution-board`,
    testid: `${testid}-board`,
    role: "region",
    "aria-label": labels.board,
  });
  let at = 0;
  const show = (index) => {
    at = Math.max(0, Math.min(last, index));
    table.replaceChildren();
    layout.render(table, views[at]);
    // The live table's test hooks and tab stops stay unique to it.
    for (const node of table.querySelectorAll("[data-pile]")) node.removeAttribute("data-pile");
    table.dataset.step = String(at);
    slider.value = String(at);
    slider.setAttribute("aria-valuetext", at ? t("solution_step", { i: at, n: last }) : labels.start || t("solution_start"));
    const step = steps[at - 1];
    where.textContent = step
      ? `${t("solution_step", { i: at, n: last })}: ${describeMove(step.move, step.card, views[at - 1], views[at])}`
      : labels.start || t("solution_start");
    first.disabled = previous.disabled = at === 0;
    next.disabled = end.disabled = at === last;
    if (onShow) onShow(at);
  };
  first.addEventListener("click", () => show(0));
  previous.addEventListener("click", () => show(at - 1));
  next.addEventListener("click", () => show(at + 1));
  end.addEventListener("click", () => show(last));
  slider.addEventListener("input", () => show(Number(slider.value)));
  show(0);
  const controls = el("div", { className: "solution-controls" }, first, previous, next, end, slider);
  return Object.assign([controls, where, table], { show });
}
