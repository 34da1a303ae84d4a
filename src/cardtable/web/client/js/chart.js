// A rating's history as an inline SVG chart: the rating after each rated game, with its axes, drawn at
// the width it is shown at (so its words stay readable on a phone). Every text is an SVG text node.
import { s } from "./dom.js";
import { language, t, tn } from "./i18n.js";

const STEPS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000];

/** Round tick values covering ``lo``..``hi`` (about four of them). */
export function ticks(lo, hi) {
  const span = Math.max(1, hi - lo);
  const step = STEPS.find((st) => span / st <= 4) || STEPS[STEPS.length - 1];
  const out = [];
  for (let v = Math.floor(lo / step) * step; v <= Math.ceil(hi / step) * step + 1e-9; v += step) out.push(v);
  return out;
}

function dateWords(iso) {
  return iso ? new Date(iso).toLocaleString(language(), { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" }) : "";
}

/**
 * The chart of ``points`` (``[{at, rating}]``, oldest first: the rating before the first rated game, then
 * after each), ``width`` pixels wide: the rating axis on the left with round values, the number of rated
 * games along the bottom, a line and a dot per game (its date and rating on hover).
 */
export function ratingChart(points, width) {
  const W = Math.round(Math.max(280, Math.min(760, width || 600)));
  const H = W < 480 ? 190 : 220;
  const m = { left: 46, right: 14, top: 14, bottom: 40 };
  const values = points.map((p) => Number(p.rating));
  const axis = ticks(Math.min(...values), Math.max(...values));
  const lo = axis[0];
  const hi = axis[axis.length - 1] === lo ? lo + 1 : axis[axis.length - 1];
  const n = points.length;
  const x = (i) => m.left + (n === 1 ? (W - m.left - m.right) / 2 : (i * (W - m.left - m.right)) / (n - 1));
  const y = (v) => m.top + ((hi - v) * (H - m.top - m.bottom)) / (hi - lo);
  const first = values[0];
  const last = values[n - 1];
  const games = Math.max(0, n - 1);
  const label = tn("Rating history: {from} to {to} over {n} rated game", "Rating history: {from} to {to} over {n} rated games",
    games, { from: first, to: last });
  const grid = axis.map((v) => [
    s("line", { x1: m.left, x2: W - m.right, y1: y(v), y2: y(v), class: "chart-grid" }),
    s("text", { x: m.left - 6, y: y(v) + 4, "text-anchor": "end", class: "chart-tick" }, String(v)),
  ]);
  const bottom = H - m.bottom;
  const xLabels = ticks(0, games).filter((k) => k <= games && Number.isInteger(k)).map((k) =>
    s("text", { x: x(k), y: bottom + 16, "text-anchor": "middle", class: "chart-tick" }, String(k)));
  const line = n > 1 ? s("polyline", { points: points.map((p, i) => `${x(i).toFixed(1)},${y(Number(p.rating)).toFixed(1)}`).join(" "),
    class: "chart-line", fill: "none" }) : null;
  const dots = points.map((p, i) => s("circle", { cx: x(i), cy: y(Number(p.rating)), r: n > 40 ? 2.5 : 4, class: "chart-dot" },
    s("title", null, t("{date}: {rating}", { date: dateWords(p.at), rating: p.rating }))));
  return s("svg", { viewBox: `0 0 ${W} ${H}`, width: "100%", class: "rating-chart", role: "img", "aria-label": label,
    preserveAspectRatio: "xMidYMid meet" },
  s("title", null, label),
  grid,
  s("line", { x1: m.left, x2: m.left, y1: m.top, y2: bottom, class: "chart-axis" }),
  s("line", { x1: m.left, x2: W - m.right, y1: bottom, y2: bottom, class: "chart-axis" }),
  xLabels,
  s("text", { x: (m.left + W - m.right) / 2, y: H - 6, "text-anchor": "middle", class: "chart-axis-label" },
    t("Rated games")),
  line, dots);
}
