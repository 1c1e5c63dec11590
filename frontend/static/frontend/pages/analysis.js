// "Analyse my game": the solver's verdict on every position of a finished game, as the server
// reports it (POST /api/attempts/<id>/analysis/ asks once; GET every 2 s while it is queued or
// running). Once done: a summary against the par, a chart of the fewest moves still needed to
// win after each move (keys move a cursor along it), the same numbers as a table, the position
// of the point chosen on a table of its own with your move and the solver's, and the costliest
// stretches with the shorter way the solver found. Words come from pages/report.js.

import { el, jsonBlock, svg } from "../common/dom.js";
import { request } from "../common/http.js";
import { localTime } from "../common/text.js";
import { replayView } from "../game/end.js";
import { describeMove } from "../game/describe.js";
import { masterpiece } from "../game/masterpiece.js";
import { munger } from "../game/munger.js";
import { capitalise, cardName, t } from "../game/strings.js";
import { CHART, budgetWords, chartModel, distanceWords, keyStep, refusalWords, stretchWords, summaryLines } from "./report.js";

const LAYOUTS = { munger, masterpiece };
const POLL_MS = 2000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A move the solver names ({move, card, count}) from the position `before`, in words.
function solverMove(move, before) {
  if (!move) return null;
  if (move.move.startsWith("S>")) {
    return move.card ? capitalise(t("announce_draw", { card: cardName(move.card) })) : t("analysis_draw");
  }
  const said = describeMove(move.move, move.card, before, null);
  return move.count > 1 ? `${said} ${t("analysis_run", { n: move.count })}` : said;
}

class AnalysisPage {
  constructor(root, config) {
    this.root = root;
    this.config = config;
    this.url = config.api;
    this.status = el("p", { className: "analysis-status", role: "status", testid: "analysis-status" });
    this.again = el("button", { type: "button", className: "btn btn-primary", testid: "analysis-again", hidden: true, text: t("analysis_again") });
    this.again.addEventListener("click", () => this.load());
    this.body = el("div", { className: "analysis-body", testid: "analysis-report", hidden: true });
    root.append(el("div", { className: "analysis-state" }, this.status, this.again), this.body);
  }

  say(text, { busy = false } = {}) {
    this.status.textContent = text;
    this.status.dataset.busy = busy ? "true" : "false";
    this.root.setAttribute("aria-busy", busy ? "true" : "false");
  }

  // Ask once, then read the state every 2 s while the work is queued or running.
  async load() {
    this.again.hidden = true;
    this.say(t("analysis_asking"), { busy: true });
    let answer;
    try {
      answer = await request("POST", this.url, undefined, { retries: 2 });
      while (answer.status === "queued" || answer.status === "running" || answer.status === "none") {
        this.say(t(answer.status === "running" ? "analysis_running" : "analysis_queued"), { busy: true });
        await sleep(POLL_MS);
        answer = await request("GET", this.url, undefined, { retries: 3 });
        if (answer.status === "none") answer = await request("POST", this.url, undefined, { retries: 2 });
      }
    } catch (error) {
      this.refused(error);
      return;
    }
    if (answer.status === "done") this.show(answer);
    else {
      this.say(t("analysis_failed"));
      this.again.hidden = false;
    }
  }

  refused(error) {
    this.root.dataset.refusal = error.body && error.body.code ? error.body.code : String(error.status);
    this.say(refusalWords(error, localTime));
    // A refusal that time may lift is tried again by hand; "not your game" is not.
    this.again.hidden = error.status === 404 || error.status === 409;
  }

  show(report) {
    this.report = report;
    this.layout = LAYOUTS[report.game];
    this.views = [report.start, ...report.steps.map((step) => step.view)];
    this.last = report.points.length - 1;
    this.at = 0;
    this.say(t("analysis_ready"));
    this.root.dataset.state = "done";
    const title = this.config.games[report.game] || capitalise(report.game);
    const kind = report.ranked ? t("ranked") : t("practice");
    document.getElementById("analysis-subtitle").textContent = [title, report.date, kind].filter(Boolean).join(" · ");
    this.position = this.positionPanel();
    // The chart's units are about the screen's pixels, so its words stay readable on a phone.
    this.body.hidden = false;
    const room = this.body.clientWidth || CHART.width;
    this.size = { ...CHART, width: Math.max(320, Math.min(CHART.width, Math.round(room * (room >= 992 ? 0.6 : 1) - 24))) };
    const parts = [this.summary(), el("div", { className: "analysis-main" }, this.chart(), this.table()), this.position, this.stretches()];
    this.body.replaceChildren(...parts.filter(Boolean));
    this.select(0, { announce: false });
  }

  // The words of a position's move: the one played to reach it (null at the deal).
  playedWords(index) {
    const step = this.report.steps[index - 1];
    return step ? describeMove(step.move, step.card, this.views[index - 1], this.views[index]) : null;
  }

  summary() {
    const report = this.report;
    const list = el("ul", { className: "analysis-summary", testid: "analysis-summary" });
    for (const line of summaryLines(report)) list.append(el("li", { text: line }));
    if (report.lost_at && report.winning_move) {
      const before = this.views[report.lost_at - 1];
      list.append(
        el("li", { testid: "analysis-winning-move", text: t("analysis_winning_move", { k: report.lost_at, move: solverMove(report.winning_move, before) }) }),
      );
    }
    const notes = [];
    if (report.hidden_cards) notes.push(el("p", { className: "analysis-note", testid: "analysis-hidden", text: t("analysis_hidden_cards") }));
    notes.push(el("p", { className: "analysis-note muted", testid: "analysis-budget", text: budgetWords(report) }));
    return el("section", { className: "analysis-facts", "aria-labelledby": "analysis-summary-title" }, el("h2", { id: "analysis-summary-title", text: t("analysis_summary") }), list, ...notes);
  }

  // -- the chart -------------------------------------------------------------------------------

  chart() {
    const m = chartModel(this.report, this.size);
    this.model = m;
    const { size, plot, band } = m;
    const drawing = svg("svg", { viewBox: `0 0 ${size.width} ${size.height}`, class: "chart-svg analysis-chart", "aria-hidden": "true", focusable: "false" });
    // The costliest stretches first, under everything else.
    for (const s of m.stretches) {
      drawing.append(svg("rect", { x: s.from, y: plot.top, width: Math.max(2, s.to - s.from), height: plot.bottom - plot.top, class: "stretch" }));
      drawing.append(svg("text", { x: (s.from + s.to) / 2, y: plot.top + 12, class: "stretch-number", "text-anchor": "middle" }, s.number));
    }
    // The band over the numbers where positions with no win left sit.
    drawing.append(svg("rect", { x: plot.left, y: band.top, width: plot.right - plot.left, height: band.height, class: "no-win-band" }));
    drawing.append(svg("text", { x: plot.left - 6, y: band.middle + 4, class: "label", "text-anchor": "end" }, "∅"));
    for (const v of m.yTicks) {
      drawing.append(svg("line", { x1: plot.left, y1: m.y(v), x2: plot.right, y2: m.y(v), class: "grid" }));
      drawing.append(svg("text", { x: plot.left - 6, y: m.y(v) + 4, class: "label", "text-anchor": "end" }, v));
    }
    for (const v of m.xTicks) drawing.append(svg("text", { x: m.x(v), y: plot.bottom + 16, class: "label", "text-anchor": "middle" }, v));
    drawing.append(svg("line", { x1: plot.left, y1: plot.bottom, x2: plot.right, y2: plot.bottom, class: "axis" }));
    drawing.append(svg("line", { x1: plot.left, y1: band.top, x2: plot.left, y2: plot.bottom, class: "axis" }));
    drawing.append(svg("text", { x: (plot.left + plot.right) / 2, y: size.height - 2, class: "axis-title", "text-anchor": "middle" }, t("analysis_axis_moves")));
    if (m.par) {
      drawing.append(svg("line", { x1: plot.left, y1: m.par.y, x2: plot.right, y2: m.par.y, class: "par", "data-testid": "chart-par" }));
      drawing.append(svg("text", { x: plot.right, y: m.par.y - 4, class: "par-label", "text-anchor": "end" }, `${t("par")} ${m.par.value}`));
    }
    for (const b of m.bounds) {
      drawing.append(svg("line", { x1: b.x, y1: b.low, x2: b.x, y2: b.high, class: b.open ? "bound open" : "bound" }));
    }
    for (const run of m.runs) {
      if (run.length > 1) drawing.append(svg("polyline", { points: run.map(([x, y]) => `${x},${y}`).join(" "), class: "line" }));
    }
    this.report.points.forEach((p, i) => {
      if (p.status === "no_win") {
        const [x, y] = [m.x(i), m.band.middle];
        drawing.append(svg("path", { d: `M${x - 3},${y - 3}L${x + 3},${y + 3}M${x - 3},${y + 3}L${x + 3},${y - 3}`, class: "no-win-mark" }));
      } else {
        drawing.append(svg("circle", { cx: m.x(i), cy: m.yOf(p), r: p.status === "bounds" ? 2 : 2.5, class: p.status === "bounds" ? "dot bound-dot" : "dot" }));
      }
    });
    this.cursor = svg("line", { x1: 0, y1: band.top, x2: 0, y2: plot.bottom, class: "cursor" });
    this.cursorDot = svg("circle", { cx: 0, cy: 0, r: 5, class: "cursor-dot" });
    drawing.append(this.cursor, this.cursorDot);

    this.slider = el("div", {
      className: "analysis-chart-box",
      tabindex: "0",
      role: "slider",
      testid: "analysis-chart",
      "aria-label": t("analysis_chart_label"),
      "aria-valuemin": "0",
      "aria-valuemax": String(this.last),
      "aria-describedby": "analysis-chart-keys",
    });
    this.slider.append(drawing);
    this.slider.addEventListener("keydown", (event) => {
      const to = keyStep(event.key, this.at, this.last);
      if (to === null) return;
      event.preventDefault();
      this.select(to);
    });
    this.slider.addEventListener("click", (event) => {
      const box = drawing.getBoundingClientRect();
      if (!box.width) return;
      this.select(m.indexAt(((event.clientX - box.left) * size.width) / box.width));
      this.slider.focus({ preventScroll: true });
    });
    this.live = el("p", { className: "analysis-live", testid: "analysis-live", "aria-live": "polite", "aria-atomic": "true" });
    const swatch = (kind) => el("span", { className: `swatch swatch-${kind}`, "aria-hidden": "true" });
    const legend = el(
      "ul",
      { className: "analysis-legend", testid: "analysis-legend" },
      el("li", {}, swatch("line"), t("analysis_legend_exact")),
      m.bounds.length ? el("li", { testid: "legend-bounds" }, swatch("bound"), t("analysis_legend_bounds")) : null,
      m.noWin.length ? el("li", { testid: "legend-no-win" }, swatch("no-win"), t("analysis_legend_no_win")) : null,
      m.par ? el("li", {}, swatch("par"), t("analysis_legend_par")) : null,
      m.stretches.length ? el("li", {}, swatch("stretch"), t("analysis_legend_stretch")) : null,
    );
    return el(
      "figure",
      { className: "chart analysis-figure" },
      el("figcaption", { text: t("analysis_chart_title") }),
      this.slider,
      legend,
      el("p", { className: "analysis-keys muted", id: "analysis-chart-keys", text: t("analysis_chart_keys") }),
      this.live,
    );
  }

  // -- the table -------------------------------------------------------------------------------

  table() {
    const head = el(
      "tr",
      {},
      ...["analysis_col_move", "analysis_col_played", "analysis_col_distance", "analysis_col_best"].map((key) => el("th", { scope: "col", text: t(key) })),
    );
    this.rows = this.report.points.map((p, i) => {
      const button = el("button", { type: "button", className: "linkish", testid: "analysis-row-show", text: i ? String(i) : t("analysis_start"), "aria-label": i ? t("analysis_show_after", { i }) : t("analysis_show_start") });
      button.addEventListener("click", () => this.select(i));
      const best = p.best ? solverMove(p.best, this.views[i]) : "–";
      const row = el(
        "tr",
        { testid: "analysis-row", "data-index": String(i), className: `status-${p.status}` },
        el("th", { scope: "row" }, button),
        el("td", { text: this.playedWords(i) || "–" }),
        el("td", { className: "num", text: distanceWords(p) }),
        el("td", { text: best }),
      );
      row.addEventListener("click", (event) => {
        if (event.target !== button) this.select(i);
      });
      return row;
    });
    this.tableWrap = el(
      "div",
      { className: "table-wrap analysis-table-wrap", tabindex: "0", role: "region", "aria-labelledby": "analysis-table-caption" },
      el("table", { className: "analysis-table", testid: "analysis-table" }, el("caption", { id: "analysis-table-caption", text: t("analysis_table_caption") }), el("thead", {}, head), el("tbody", {}, ...this.rows)),
    );
    return this.tableWrap;
  }

  // -- the position chosen ---------------------------------------------------------------------

  positionPanel() {
    this.positionTitle = el("h2", { id: "analysis-position-title", testid: "analysis-position-title" });
    this.positionFacts = el("dl", { className: "end-facts analysis-position-facts", testid: "analysis-position" });
    this.replay = replayView(
      this.layout,
      this.report.game,
      this.report,
      { slider: t("analysis_replay_slider"), board: t("analysis_replay_board") },
      "analysis-replay",
      { onShow: (index) => this.replay && this.select(index, { from: "replay", announce: false }) },
    );
    return el("section", { className: "analysis-position", "aria-labelledby": "analysis-position-title" }, this.positionTitle, this.positionFacts, ...this.replay);
  }

  describePosition(index) {
    const p = this.report.points[index];
    const played = this.playedWords(index);
    const best = solverMove(p.best, this.views[index]);
    const next = this.playedWords(index + 1);
    let solver = best;
    if (!solver) solver = p.status === "won" ? t("analysis_solver_won") : p.status === "no_win" ? t("analysis_solver_none") : t("analysis_solver_unknown");
    return { point: p, played, next, solver };
  }

  // Go to a position: the chart's cursor, its announcement, the table's row and the table.
  select(index, { announce = true, from = "" } = {}) {
    if (!this.rows) return;
    const at = Math.max(0, Math.min(this.last, index));
    const { point, played, next, solver } = this.describePosition(at);
    this.at = at;
    const m = this.model;
    this.cursor.setAttribute("x1", m.x(at));
    this.cursor.setAttribute("x2", m.x(at));
    this.cursorDot.setAttribute("cx", m.x(at));
    this.cursorDot.setAttribute("cy", m.yOf(point));
    this.slider.setAttribute("aria-valuenow", String(at));
    this.slider.dataset.index = String(at);
    const where = at ? t("analysis_after_move", { i: at, n: this.last }) : t("analysis_start_position");
    this.slider.setAttribute("aria-valuetext", `${where}: ${distanceWords(point)}`);
    const sentence = [at ? `${where}: ${played}` : where, `${t("analysis_col_distance")}: ${distanceWords(point)}.`, `${t("analysis_col_best")}: ${solver}`];
    if (announce) this.live.textContent = sentence.join(" ");
    for (const row of this.rows) row.removeAttribute("aria-current");
    const row = this.rows[at];
    row.setAttribute("aria-current", "true");
    // The row in sight inside its own scrolling box, the page left where it is.
    const wrap = this.tableWrap;
    if (row.offsetTop < wrap.scrollTop + 40 || row.offsetTop + row.offsetHeight > wrap.scrollTop + wrap.clientHeight) {
      wrap.scrollTop = Math.max(0, row.offsetTop - wrap.clientHeight / 2);
    }
    this.positionTitle.textContent = at ? t("analysis_position_after", { i: at }) : t("analysis_position_start");
    const facts = [
      [t("analysis_col_distance"), distanceWords(point), "analysis-position-distance"],
      [t("analysis_your_next"), next || t("analysis_game_ended"), "analysis-position-played"],
      [t("analysis_col_best"), solver, "analysis-position-best"],
    ];
    this.positionFacts.replaceChildren(...facts.flatMap(([term, value, testid]) => [el("dt", { text: term }), el("dd", { text: value, testid })]));
    if (from !== "replay") this.replay.show(at);
  }

  // -- the costliest stretches -----------------------------------------------------------------

  stretches() {
    const list = this.report.stretches || [];
    if (!list.length) return null;
    const items = list.map((stretch, k) => {
      const go = el("button", { type: "button", className: "btn", testid: "stretch-show", text: t("analysis_stretch_show") });
      go.addEventListener("click", () => {
        this.select(stretch.from - 1);
        this.slider.focus();
      });
      const better = stretch.better;
      const parts = better && better.steps && better.steps.length
        ? [
            el("p", { className: "solution-note", text: t("analysis_better_intro", { from: stretch.from, moves: t("n_moves", { n: better.steps.length }) }) }),
            ...replayView(this.layout, this.report.game, better, { slider: t("analysis_better_slider"), board: t("analysis_better_board"), start: t("analysis_better_start", { from: stretch.from }) }, `better-${k + 1}`),
          ]
        : [];
      return el(
        "li",
        { className: "analysis-stretch", testid: "analysis-stretch" },
        el("h3", { text: `${k + 1}. ${stretchWords(stretch)}` }),
        el("p", {}, go),
        ...parts,
      );
    });
    return el(
      "section",
      { className: "analysis-stretches", testid: "analysis-stretches", "aria-labelledby": "analysis-stretches-title" },
      el("h2", { id: "analysis-stretches-title", text: t("analysis_stretches_title") }),
      el("ol", { className: "analysis-stretch-list" }, ...items),
    );
  }
}

const root = document.getElementById("analysis");
if (root) new AnalysisPage(root, jsonBlock("analysis-config")).load();
