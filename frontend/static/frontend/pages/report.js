// What the analysis of a game says, in the page's language, and where its chart puts each
// position (pure functions of the server's report, no page: pages/analysis.js draws them). A
// position's value is the solver's: the fewest moves still needed to win from it ("exact"), two
// bounds when its time ran out ("bounds", the upper one may be unknown), or "no_win"; "won" is
// the last position of a win.

import { t } from "../common/text.js";

// "88", "at least 98", "98 to 104", "no win left", "won": a position's value in words.
export function distanceWords(point) {
  if (!point) return "–";
  if (point.status === "won") return t("analysis_distance_won");
  if (point.status === "no_win") return t("analysis_distance_no_win");
  if (point.status === "bounds") {
    if (point.upper === null || point.upper === undefined || point.upper === point.lower) {
      return t("analysis_distance_at_least", { n: point.lower });
    }
    return t("analysis_distance_between", { lower: point.lower, upper: point.upper });
  }
  return String(point.distance);
}

// Whether the report's positions say no win was left from the deal itself.
function lostFromTheStart(report) {
  return Boolean(report.points.length) && report.points[0].status === "no_win";
}

// The lines of the summary, in order: how the game ended against the par, where the win slipped
// away (for a game that was not won), and what the solver's search could settle.
export function summaryLines(report) {
  const lines = [];
  const moves = t("n_moves", { n: report.moves });
  if (report.outcome === "won") lines.push(t("analysis_won", { moves }));
  else if (report.outcome === "resigned") lines.push(t("analysis_resigned", { moves }));
  else lines.push(t("analysis_unfinished_game", { moves }));
  if (report.par !== null && report.par !== undefined) {
    lines.push(t(report.par_proven ? "analysis_par_proven" : "analysis_par_known", { par: report.par }));
  }
  // A par not proven the fewest, which this analysis beat or bounded from the deal itself.
  const first = report.points[0];
  if (!report.par_proven && first && (first.status === "bounds" || (first.status === "exact" && first.distance !== report.par))) {
    lines.push(t("analysis_from_deal", { value: distanceWords(first) }));
  }
  if (report.outcome === "won" && report.over_par !== null && report.over_par !== undefined) {
    lines.push(report.over_par > 0 ? t("analysis_over_par", { n: report.over_par }) : t("analysis_on_par"));
  }
  if (report.outcome !== "won") {
    const last = report.points[report.points.length - 1];
    if (lostFromTheStart(report)) lines.push(t("analysis_never_winnable"));
    else if (report.lost_at) lines.push(t("analysis_lost_at", { k: report.lost_at }));
    else if (last && last.status === "exact") lines.push(t("analysis_still_winnable", { n: last.distance }));
    else if (last && last.status === "bounds") lines.push(t("analysis_maybe_winnable"));
  }
  return lines;
}

// What the solver could settle in its time: every position, or how many were only bounded.
export function budgetWords(report) {
  const seconds = Math.round(report.seconds || 0);
  const total = report.points.length;
  if (!report.bounded) return t("analysis_budget_all", { n: total, seconds });
  return t("analysis_budget_some", { bounded: report.bounded, total, seconds });
}

// "Moves 12–23: 6 moves lost" ("at least 6" when the count is a bound).
export function stretchWords(stretch) {
  const lost = t(stretch.exact ? "analysis_lost_moves" : "analysis_lost_at_least", { n: stretch.wasted });
  return t("analysis_stretch", { from: stretch.from, to: stretch.to, lost });
}

// Where the arrow keys take the cursor along `last + 1` positions (null: a key it ignores).
export function keyStep(key, at, last) {
  const to = { ArrowLeft: at - 1, ArrowDown: at - 1, ArrowRight: at + 1, ArrowUp: at + 1, Home: 0, End: last, PageUp: at + 10, PageDown: at - 10 }[key];
  return to === undefined ? null : Math.max(0, Math.min(last, to));
}

// A refusal of the analysis in words, from the server's code: {text, code}. `when` turns the
// ISO time the day's analysis opens at into the reader's local time.
export function refusalWords(error, when) {
  const body = error.body || {};
  if (error.status === 404) return t("analysis_not_found");
  if (body.code === "analysis_not_yet") {
    return body.opens_at ? t("analysis_not_yet", { time: when(body.opens_at) }) : t("analysis_not_yet_soon");
  }
  if (body.code === "analysis_unfinished") return t("analysis_unfinished");
  if (body.code === "analysis_race") return t("analysis_race");
  if (error.status === 429) return t("analysis_throttled");
  if (error.status === 0) return t("analysis_network");
  return t("analysis_error");
}

// -- the chart -------------------------------------------------------------------------------

export const CHART = { width: 640, height: 280, left: 44, right: 16, top: 34, bottom: 34, band: 22 };

// A round step for about `count` ticks over 0..max: 1, 2, 5, 10, 20, 50...
export function tickStep(max, count) {
  const raw = Math.max(1, max / Math.max(1, count));
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((step) => step >= raw);
}

function ticks(max, count) {
  const step = tickStep(max, count);
  const out = [];
  for (let v = 0; v <= max; v += step) out.push(v);
  return out;
}

// The chart's geometry from a report (viewBox units): the scales, the ticks, the solver's line
// as runs of exact positions, the bounded positions, the positions with no win left (drawn in
// a band over the numbers), the par and the costliest stretches.
export function chartModel(report, size = CHART) {
  const points = report.points;
  const last = Math.max(1, points.length - 1);
  const values = [];
  for (const p of points) {
    if (p.distance !== null && p.distance !== undefined) values.push(p.distance);
    if (p.lower !== null && p.lower !== undefined) values.push(p.lower);
    if (p.upper !== null && p.upper !== undefined) values.push(p.upper);
  }
  if (report.par) values.push(report.par);
  const step = tickStep(Math.max(1, ...values), 4);
  const top = Math.max(step, Math.ceil(Math.max(1, ...values) / step) * step);
  const plotLeft = size.left;
  const plotRight = size.width - size.right;
  const plotTop = size.top;
  const plotBottom = size.height - size.bottom;
  const x = (index) => plotLeft + ((plotRight - plotLeft) * index) / last;
  const y = (value) => plotBottom - ((plotBottom - plotTop) * value) / top;
  const bandY = plotTop - size.band / 2 - 4; // the middle of the "no win left" band
  // Where each position's mark sits: its value, a bound's lower end, or the band.
  const yOf = (p) => {
    if (p.status === "no_win") return bandY;
    if (p.status === "bounds") return y(p.lower);
    return y(p.distance ?? 0);
  };
  const runs = [];
  let run = [];
  points.forEach((p, i) => {
    if (p.status === "exact" || p.status === "won") run.push([x(i), y(p.distance ?? 0)]);
    else if (run.length) {
      runs.push(run);
      run = [];
    }
  });
  if (run.length) runs.push(run);
  const bounds = [];
  const noWin = [];
  points.forEach((p, i) => {
    if (p.status === "bounds") {
      const upper = p.upper === null || p.upper === undefined ? null : p.upper;
      bounds.push({ index: i, x: x(i), low: y(p.lower), high: upper === null ? plotTop : y(upper), open: upper === null });
    } else if (p.status === "no_win") noWin.push({ index: i, x: x(i), y: bandY });
  });
  const stretches = (report.stretches || []).map((s, k) => ({ number: k + 1, from: x(s.from - 1), to: x(s.to) }));
  return {
    size,
    last: points.length - 1,
    top,
    plot: { left: plotLeft, right: plotRight, top: plotTop, bottom: plotBottom },
    band: { top: plotTop - size.band - 4, height: size.band, middle: bandY },
    x,
    y,
    yOf,
    xTicks: ticks(points.length - 1, 6),
    yTicks: ticks(top, 4),
    runs,
    bounds,
    noWin,
    par: report.par ? { y: y(report.par), value: report.par } : null,
    stretches,
    // The position nearest to a point of the viewBox's width.
    indexAt: (vx) => Math.max(0, Math.min(points.length - 1, Math.round(((vx - plotLeft) * last) / (plotRight - plotLeft)))),
  };
}
