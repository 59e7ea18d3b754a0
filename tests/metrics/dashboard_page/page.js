// Draws the panels of docs/grafana/idgen-dashboard.json — time series,
// state timeline, table — as SVG from the series Prometheus returned for
// their queries (window.DASHBOARD, written by tests/metrics/dashboard_png.py).
// Our own drawing, after Grafana's layout: a 24-column grid of 30 px rows,
// each panel's title, unit, legend (a table on the right with its last
// value, as the dashboard's legend options ask) and thresholds.
"use strict";

const ROW = 30, GAP = 8, COLS = 24;
const PALETTE = ["#73bf69", "#f2cc0c", "#8ab8ff", "#ff780a", "#f2495c", "#5794f2", "#b877d9"];
const NAMED = { green: "#73bf69", orange: "#ff9830", red: "#f2495c", yellow: "#fade2a", text: "#9fa7b3" };

function color(c) { return NAMED[c] || c; }

// One colour per series name across all panels, in the order names first appear.
const SERIES_COLOR = new Map();
function seriesColor(name) {
  if (!SERIES_COLOR.has(name)) SERIES_COLOR.set(name, PALETTE[SERIES_COLOR.size % PALETTE.length]);
  return SERIES_COLOR.get(name);
}

function el(tag, attrs, text) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// Numbers as Grafana's units write them: ops (per second), s, short.
function siShort(v) {
  const a = Math.abs(v);
  const steps = [[1e9, " Bil"], [1e6, " Mil"], [1e3, " K"]];
  for (const [n, suffix] of steps) if (a >= n) return trim(v / n) + suffix;
  return trim(v);
}

function trim(v) {
  const a = Math.abs(v);
  const digits = a === 0 || a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3;
  return String(Number(v.toFixed(digits)));
}

function fmt(v, unit) {
  if (v === null || Number.isNaN(v)) return "–";
  if (unit === "ops") return siShort(v) + " ops/s";
  if (unit === "s") {
    const a = Math.abs(v);
    if (a === 0) return "0 s";
    if (a < 1) return trim(v * 1000) + " ms";
    if (a < 60) return trim(v) + " s";
    return trim(v / 60) + " min";
  }
  return siShort(v);
}

function niceTicks(lo, hi, n) {
  if (hi <= lo) hi = lo + 1;
  const raw = (hi - lo) / n, mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw);
  const ticks = [];
  for (let t = Math.floor(lo / step) * step; t <= hi + step * 1e-9; t += step) ticks.push(Number(t.toPrecision(12)));
  return { ticks, lo: Math.min(lo, ticks[0]), hi: Math.max(hi, ticks[ticks.length - 1]) };
}

function clock(t) { return new Date(t * 1000).toISOString().slice(11, 19); }

function timeAxis(svg, d, x, y0, y1) {
  const perLabel = (62 * (d.end - d.start)) / (x(d.end) - x(d.start));
  const every = [5, 10, 15, 20, 30, 60, 120, 300].find((s) => s >= perLabel) || 600;
  for (let t = Math.ceil(d.start / every) * every; t <= d.end; t += every) {
    svg.append(el("line", { x1: x(t), x2: x(t), y1: y0, y2: y1, stroke: "#24272c" }));
    if (x(t) - x(d.start) > 36 && x(d.end) - x(t) > 26) svg.append(el("text", { x: x(t), y: y1 + 15, "text-anchor": "middle" }, clock(t)));
  }
}

// The PostgreSQL outage's start and end, over the series (dashed).
function marks(svg, d, x, y0, y1) {
  for (const m of d.marks) {
    svg.append(el("line", { x1: x(m.t), x2: x(m.t), y1: y0, y2: y1, stroke: "#f2cc0c", "stroke-dasharray": "3 3" }));
  }
}

function legendTable(svg, p, x0, y0, calcHead) {
  const g = el("g", { class: "legend" });
  g.append(el("text", { x: x0 + 190, y: y0, "text-anchor": "end", class: "head" }, calcHead));
  p.series.forEach((s, i) => {
    const y = y0 + 20 + i * 20;
    g.append(el("rect", { x: x0, y: y - 4, width: 12, height: 3, fill: seriesColor(s.name) }));
    g.append(el("text", { x: x0 + 18, y }, s.name));
    const last = [...s.points].reverse().find((pt) => pt[1] !== null);
    g.append(el("text", { x: x0 + 190, y, "text-anchor": "end" }, last ? fmt(last[1], p.unit) : "–"));
  });
  svg.append(g);
}

function thresholdBands(svg, p, y, x0, x1, lo, hi) {
  if (!p.thresholds || p.thresholdsStyle !== "line+area") return;
  p.thresholds.forEach((s, i) => {
    const from = s.value === null ? lo : Math.max(lo, s.value);
    const next = p.thresholds[i + 1], to = next ? Math.min(hi, next.value) : hi;
    if (to <= from) return;
    svg.append(el("rect", { x: x0, y: y(to), width: x1 - x0, height: y(from) - y(to), fill: color(s.color), opacity: 0.09 }));
    if (s.value !== null && s.value > lo && s.value < hi) {
      svg.append(el("line", { x1: x0, x2: x1, y1: y(s.value), y2: y(s.value), stroke: color(s.color), "stroke-dasharray": "6 4", opacity: 0.8 }));
    }
  });
}

function timeSeries(box, d, p, w, h) {
  const svg = el("svg", { width: w, height: h });
  const legendW = 200, x0 = 66, x1 = w - legendW - 12, y0 = 8, y1 = h - 22;
  const vals = p.series.flatMap((s) => s.points.map((pt) => pt[1])).filter((v) => v !== null);
  let lo = Math.min(0, ...vals), hi = Math.max(...vals);
  if (!(hi > lo)) hi = lo + 1;
  if (p.thresholds && p.thresholdsStyle === "line+area") hi = Math.max(hi, ...p.thresholds.map((s) => s.value || 0));
  const nt = niceTicks(lo, hi * 1.05, 4);
  lo = nt.lo; hi = nt.hi;
  const x = (t) => x0 + ((t - d.start) / (d.end - d.start)) * (x1 - x0);
  const y = (v) => y1 - ((v - lo) / (hi - lo)) * (y1 - y0);
  thresholdBands(svg, p, y, x0, x1, lo, hi);
  for (const t of nt.ticks) {
    svg.append(el("line", { x1: x0, x2: x1, y1: y(t), y2: y(t), stroke: "#24272c" }));
    svg.append(el("text", { x: x0 - 6, y: y(t) + 4, "text-anchor": "end" }, fmt(t, p.unit)));
  }
  timeAxis(svg, d, x, y0, y1);
  p.series.forEach((s) => {
    const pts = s.points.filter((pt) => pt[1] !== null).map((pt) => `${x(pt[0]).toFixed(1)},${y(pt[1]).toFixed(1)}`);
    svg.append(el("polyline", { points: pts.join(" "), fill: "none", stroke: seriesColor(s.name), "stroke-width": 1.6 }));
  });
  marks(svg, d, x, y0, y1);
  legendTable(svg, p, x1 + 14, 14, "Last *");
  box.append(svg);
}

// Runs of one value ([from, to, value]): the panel's mergeValues.
function runs(points, d) {
  const out = [];
  points.forEach((pt, j) => {
    const end = j + 1 < points.length ? points[j + 1][0] : Math.min(d.end, pt[0] + d.step);
    const last = out[out.length - 1];
    if (last && last[2] === pt[1] && last[1] === pt[0]) last[1] = end;
    else out.push([pt[0], end, pt[1]]);
  });
  return out;
}

function stateTimeline(box, d, p, w, h) {
  const svg = el("svg", { width: w, height: h });
  const x0 = 110, x1 = w - 12, y0 = 6, y1 = h - 44;
  const x = (t) => x0 + ((t - d.start) / (d.end - d.start)) * (x1 - x0);
  const rowH = (y1 - y0) / Math.max(1, p.series.length);
  timeAxis(svg, d, x, y0, y1);
  p.series.forEach((s, i) => {
    const top = y0 + i * rowH + 2;
    svg.append(el("text", { x: x0 - 8, y: top + rowH / 2 + 2, "text-anchor": "end" }, s.name));
    for (const [from, to, v] of runs(s.points, d)) {
      const m = p.mappings[String(v)] || { color: "#5794f2" };
      svg.append(el("rect", { x: x(from), y: top, width: Math.max(0.5, x(to) - x(from)), height: rowH - 4, fill: color(m.color) }));
    }
  });
  marks(svg, d, x, y0, y1);
  let lx = x0;
  for (const m of Object.values(p.mappings)) {
    svg.append(el("rect", { x: lx, y: h - 17, width: 12, height: 10, fill: color(m.color), rx: 2 }));
    svg.append(el("text", { x: lx + 17, y: h - 8, class: "legend" }, m.text));
    lx += 28 + 8 * m.text.length;
  }
  box.append(svg);
}

function table(box, p) {
  const t = document.createElement("table");
  const head = t.insertRow();
  for (const c of p.table.columns) {
    const th = document.createElement("th");
    th.textContent = c;
    head.append(th);
  }
  for (const r of p.table.rows) {
    const tr = t.insertRow();
    for (const c of p.table.columns) tr.insertCell().textContent = r[c] === undefined ? "" : r[c];
  }
  box.append(t);
}

function drawDashboard(d) {
  document.getElementById("head").innerHTML =
    `<h1>${d.title}</h1>` + d.note.map((line) => `<p>${line}</p>`).join("");
  const grid = document.getElementById("grid");
  const colW = (grid.clientWidth + GAP) / COLS;
  let bottom = 0;
  for (const p of d.panels) {
    const box = document.createElement("section");
    box.className = "panel";
    const w = p.grid.w * colW - GAP, h = p.grid.h * (ROW + GAP) - GAP;
    Object.assign(box.style, { left: `${p.grid.x * colW}px`, top: `${p.grid.y * (ROW + GAP)}px`, width: `${w}px`, height: `${h}px` });
    const unit = p.unit ? `<small>unit ${p.unit}</small>` : "";
    box.innerHTML = `<h2>${p.title}${unit}</h2>`;
    if (p.type === "timeseries") timeSeries(box, d, p, w - 2, h - 30);
    else if (p.type === "state-timeline") stateTimeline(box, d, p, w - 2, h - 30);
    else if (p.type === "table") table(box, p);
    grid.append(box);
    bottom = Math.max(bottom, (p.grid.y + p.grid.h) * (ROW + GAP));
  }
  grid.style.height = `${bottom}px`;
}
