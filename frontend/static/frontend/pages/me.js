// My stats: the charts drawn as inline SVG from the page's data (the tables under each chart
// hold the same numbers for screen readers). The numbers are the leaderboards' own record of
// the player (the same as GET /api/players/me/stats/) and the player's ratings (the same as
// GET /api/players/me/ratings/), rendered by the server.
import { jsonBlock, onSubmit, svg as svgNode } from "../common/dom.js";
import { request } from "../common/http.js";
import { t } from "../common/text.js";

const WIDTH = 320;
const HEIGHT = 160;
const PAD = { top: 12, right: 12, bottom: 28, left: 32 };
const data = jsonBlock("chart-data");

function frame(title) {
  const svg = svgNode("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    class: "chart-svg",
    role: "presentation",
    focusable: "false",
  });
  svg.append(svgNode("title", {}, title));
  const baseline = HEIGHT - PAD.bottom;
  svg.append(svgNode("line", { x1: PAD.left, y1: baseline, x2: WIDTH - PAD.right, y2: baseline, class: "axis" }));
  svg.append(svgNode("line", { x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: baseline, class: "axis" }));
  return svg;
}

function empty(container) {
  container.replaceChildren();
  const p = document.createElement("p");
  p.className = "muted";
  p.textContent = t("no_data");
  container.append(p);
}

/** Bars with a label under each and the value above it. */
export function barChart(container, items, title, labelEvery = 1) {
  if (!items.length) return empty(container);
  const svg = frame(title);
  const max = Math.max(1, ...items.map((item) => item.value));
  const inner = WIDTH - PAD.left - PAD.right;
  const slot = inner / items.length;
  const barWidth = Math.max(4, Math.min(36, slot * 0.7));
  const height = HEIGHT - PAD.top - PAD.bottom;
  items.forEach((item, index) => {
    const x = PAD.left + slot * index + (slot - barWidth) / 2;
    const h = (item.value / max) * height;
    const y = HEIGHT - PAD.bottom - h;
    svg.append(svgNode("rect", { x, y, width: barWidth, height: Math.max(h, 1), class: "bar" }));
    svg.append(svgNode("text", { x: x + barWidth / 2, y: y - 3, class: "value", "text-anchor": "middle" }, item.value));
    if (items.length <= 12 && index % labelEvery === (items.length - 1) % labelEvery) {
      svg.append(svgNode("text", { x: x + barWidth / 2, y: HEIGHT - PAD.bottom + 16, class: "label", "text-anchor": "middle" }, item.label));
    }
  });
  container.replaceChildren(svg);
}

/** A line of values over time (one point per item), the lowest and highest values on the left
 * and the first and last labels under it. */
export function lineChart(container, items, title) {
  if (!items.length) return empty(container);
  const svg = frame(title);
  const values = items.map((item) => item.value);
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (high - low < 20) {
    low -= 10;
    high += 10;
  }
  const inner = WIDTH - PAD.left - PAD.right - 8;
  const height = HEIGHT - PAD.top - PAD.bottom - 8;
  const x = (index) => PAD.left + 8 + (items.length === 1 ? inner / 2 : (inner * index) / (items.length - 1));
  const y = (value) => PAD.top + 4 + height - ((value - low) / (high - low)) * height;
  const points = items.map((item, index) => `${x(index).toFixed(1)},${y(item.value).toFixed(1)}`);
  if (items.length > 1) svg.append(svgNode("polyline", { points: points.join(" "), class: "line" }));
  items.forEach((item, index) => {
    svg.append(svgNode("circle", { cx: x(index), cy: y(item.value), r: 3, class: "dot" }));
  });
  for (const value of new Set([Math.min(...values), Math.max(...values)])) {
    svg.append(svgNode("text", { x: PAD.left - 4, y: y(value) + 4, class: "value", "text-anchor": "end" }, value));
  }
  const first = items[0];
  const last = items[items.length - 1];
  svg.append(svgNode("text", { x: x(0), y: HEIGHT - PAD.bottom + 16, class: "label", "text-anchor": "start" }, first.label));
  if (items.length > 1) {
    svg.append(svgNode("text", { x: x(items.length - 1), y: HEIGHT - PAD.bottom + 16, class: "label", "text-anchor": "end" }, last.label));
  }
  container.replaceChildren(svg);
}

function drawRatings(series) {
  for (const entry of series || []) {
    const container = document.querySelector(`#chart-rating-${entry.game} .chart-drawing`);
    if (!container) continue;
    const items = (entry.points || []).map((point) => ({ label: point.date.slice(5), value: point.rating }));
    lineChart(container, items, entry.title || t("rating"));
  }
}

function draw(charts) {
  const wins = document.querySelector("#chart-wins .chart-drawing");
  const moves = document.querySelector("#chart-moves .chart-drawing");
  const streaks = document.querySelector("#chart-streaks .chart-drawing");
  if (wins) barChart(wins, (charts.wins_over_time || []).map((w) => ({ label: w.label, value: w.wins })), t("wins_over_time"), 3);
  if (moves) barChart(moves, (charts.moves_distribution || []).map((b) => ({ label: b.label, value: b.count })), t("moves_distribution"));
  if (streaks) barChart(streaks, (charts.streaks || []).map((length, index) => ({ label: index + 1, value: length })), t("streaks"));
  drawRatings(charts.ratings);
}

/** Rename: PATCH /api/players/me/, then show the page again under the new name. */
function setupRename() {
  const form = document.getElementById("rename-form");
  if (!form) return;
  const input = form.querySelector("input");
  const message = form.querySelector(".message");
  onSubmit(form, async () => {
    const name = input.value.trim().replace(/\s+/g, " ");
    message.textContent = "";
    input.removeAttribute("aria-invalid");
    try {
      await request("PATCH", "/api/players/me/", { display_name: name });
      window.location.reload();
      return;
    } catch (error) {
      if (error.status === 409) message.textContent = t("name_taken");
      else if (error.status === 400) message.textContent = t("name_bad");
      else if (error.status === 429) message.textContent = t("throttled");
      else message.textContent = t("failed");
      if (error.status === 400 || error.status === 409) {
        input.setAttribute("aria-invalid", "true");
        input.focus();
      }
    }
  });
}

draw(data || {});
setupRename();
