// My stats: the charts drawn as inline SVG from the page's data (the tables under each chart
// hold the same numbers for screen readers), and the summary refreshed from the stats API.
import { api, jsonBlock } from "./api.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 320;
const HEIGHT = 160;
const PAD = { top: 12, right: 12, bottom: 28, left: 32 };
const data = jsonBlock("chart-data");
const strings = jsonBlock("page-strings");

function svgNode(tag, attributes, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = String(text);
  return node;
}

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
  p.textContent = strings.no_data || "";
  container.append(p);
}

/** Bars with a label under each and the value above it. */
export function barChart(container, items, title) {
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
    if (items.length <= 12) {
      svg.append(svgNode("text", { x: x + barWidth / 2, y: HEIGHT - PAD.bottom + 16, class: "label", "text-anchor": "middle" }, item.label));
    }
  });
  container.replaceChildren(svg);
}

/** A step line of a running total over dates. */
export function lineChart(container, points, title) {
  if (!points.length) return empty(container);
  const svg = frame(title);
  const max = Math.max(1, ...points.map((point) => point.value));
  const inner = WIDTH - PAD.left - PAD.right;
  const height = HEIGHT - PAD.top - PAD.bottom;
  const step = points.length > 1 ? inner / (points.length - 1) : 0;
  const coords = points.map((point, index) => [
    PAD.left + step * index,
    HEIGHT - PAD.bottom - (point.value / max) * height,
  ]);
  const path = coords.map(([x, y], index) => `${index ? "L" : "M"}${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
  svg.append(svgNode("path", { d: path, class: "line", fill: "none" }));
  for (const [x, y] of coords.slice(-30)) svg.append(svgNode("circle", { cx: x, cy: y, r: 3, class: "dot" }));
  svg.append(svgNode("text", { x: PAD.left - 6, y: PAD.top + 4, class: "label", "text-anchor": "end" }, max));
  svg.append(svgNode("text", { x: PAD.left, y: HEIGHT - 8, class: "label" }, points[0].label));
  if (points.length > 1) {
    svg.append(svgNode("text", { x: WIDTH - PAD.right, y: HEIGHT - 8, class: "label", "text-anchor": "end" }, points.at(-1).label));
  }
  container.replaceChildren(svg);
}

function draw(charts) {
  const wins = document.querySelector("#chart-wins .chart-drawing");
  const moves = document.querySelector("#chart-moves .chart-drawing");
  const streaks = document.querySelector("#chart-streaks .chart-drawing");
  if (wins) lineChart(wins, (charts.wins_over_time || []).map((p) => ({ label: p.date, value: p.wins })), strings.wins_over_time);
  if (moves) barChart(moves, (charts.moves_distribution || []).map((b) => ({ label: b.label, value: b.count })), strings.moves_distribution);
  if (streaks) barChart(streaks, (charts.streaks || []).map((length, index) => ({ label: index + 1, value: length })), strings.streaks);
}

/** The stats endpoint, where the server has it, is the reference for the summary numbers. */
async function refresh() {
  const answer = await api("GET", "/api/players/me/stats/");
  if (answer.status !== 200 || !answer.data) return;
  const stats = answer.data;
  const pick = (...keys) => keys.map((key) => stats[key]).find((value) => typeof value === "number");
  const values = {
    played: pick("played", "dailies_played"),
    won: pick("won", "dailies_won"),
    win_rate: pick("win_rate"),
    current_streak: pick("current_streak"),
    best_streak: pick("best_streak"),
  };
  if (typeof values.win_rate === "number" && values.win_rate <= 1) values.win_rate = Math.round(values.win_rate * 100);
  for (const [key, value] of Object.entries(values)) {
    const node = document.querySelector(`[data-stat="${key}"]`);
    if (node && typeof value === "number") node.textContent = String(Math.round(value));
  }
}

draw(data || {});
refresh();
