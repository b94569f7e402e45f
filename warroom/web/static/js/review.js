// The post-game analysis beside a replay (GET /api/games/{id}/review, warroom/ai/review.py): a graph of each
// side's estimated chances over the game, its costliest moves marked, and what the computer would have played.
// Game-neutral: it draws the report's sides, values and labels, and knows nothing of any game.
//
//   const graph = await mountReview(container, () => api.review(id, token), (frame) => replay.go(frame));
//   graph.select(frame);   // the replay moved: mark where it is, and explain a marked move shown there
//
// Clicking the graph jumps the replay to the nearest decision; clicking a marked move (on the graph or in
// the list) jumps to the position after it and shows the computer's move with its reason.

import { h, clear, pct } from "./dom.js";
import { s } from "./svg.js";

const W = 640;
const H = 180;
const PAD = { left: 36, right: 10, top: 10, bottom: 22 };

export async function mountReview(container, load, onJump) {
  clear(container).append(h("p", { class: "muted" }, "Analysing the game…"));
  let report;
  try {
    report = await load();
  } catch (err) {
    clear(container).append(h("p", { class: "muted" }, `No analysis: ${err.message}`));
    return null;
  }
  const graph = new ReviewGraph(report, onJump);
  clear(container).append(graph.el);
  return graph;
}

export class ReviewGraph {
  constructor(report, onJump) {
    this.report = report;
    this.onJump = onJump;
    this.points = report.points;
    this.name = (side) => (report.names && report.names[side]) || side;
    this.byFrame = new Map(report.mistakes.map((m) => [m.frame, m]));
    this.detail = h("div", { class: "review-detail", id: "review-detail", "aria-live": "polite" });
    this.el = h("section", { class: "review", id: "review" },
      h("h3", {}, "Analysis"),
      h("p", { class: "muted" }, `${report.measure[0].toUpperCase()}${report.measure.slice(1)}, after every decision (scored by ${report.scoring}). Click the graph to go there.`),
      this.drawGraph(),
      this.legend(),
      this.mistakeList(),
      this.detail);
  }

  x(step) {
    const n = Math.max(1, this.points.length - 1);
    return PAD.left + (step / n) * (W - PAD.left - PAD.right);
  }

  y(value) {
    return PAD.top + (1 - value) * (H - PAD.top - PAD.bottom);
  }

  drawGraph() {
    const svg = s("svg", { class: "review-graph", id: "review-graph", viewBox: `0 0 ${W} ${H}`, role: "img",
      "aria-label": `${this.report.measure} over the game` });
    for (const v of [0, 0.5, 1]) {
      svg.append(s("line", { class: v === 0.5 ? "review-mid" : "review-grid", x1: PAD.left, x2: W - PAD.right, y1: this.y(v), y2: this.y(v) }),
        s("text", { class: "review-axis", x: PAD.left - 4, y: this.y(v) + 4, "text-anchor": "end" }, pct(v)));
    }
    svg.append(s("text", { class: "review-axis", x: PAD.left, y: H - 6 }, "start"),
      s("text", { class: "review-axis", x: W - PAD.right, y: H - 6, "text-anchor": "end" }, `decision ${this.points.length - 1}`));
    this.report.sides.forEach((side, k) => {
      const d = this.points.map((p) => `${this.x(p.step).toFixed(1)},${this.y(p.values[side]).toFixed(1)}`).join(" ");
      svg.append(s("polyline", { class: `review-line side-${k % 4}`, points: d, dataset: { side } }));
    });
    this.cursor = s("line", { class: "review-cursor", x1: this.x(0), x2: this.x(0), y1: PAD.top, y2: H - PAD.bottom });
    svg.append(this.cursor);
    svg.addEventListener("click", (e) => {
      const box = svg.getBoundingClientRect();
      const at = ((e.clientX - box.left) / box.width) * W;
      const n = this.points.length - 1;
      const step = Math.max(0, Math.min(n, Math.round(((at - PAD.left) / (W - PAD.left - PAD.right)) * n)));
      this.onJump(this.points[step].frame);
    });
    for (const m of this.report.mistakes) {
      const k = this.report.sides.indexOf(m.side);
      const point = this.points[m.step];
      const mark = s("circle", { class: `review-mark side-${k % 4}`, cx: this.x(m.step), cy: this.y(point.values[m.side]), r: 6,
        tabindex: 0, role: "button", dataset: { frame: m.frame, step: m.step } },
        s("title", {}, `Decision ${m.step}, ${this.name(m.side)}: ${m.label}. ${m.text}`));
      const jump = (e) => { e.stopPropagation(); this.onJump(m.frame); };
      mark.addEventListener("click", jump);
      mark.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") jump(e); });
      svg.append(mark);
    }
    return svg;
  }

  legend() {
    return h("p", { class: "review-legend" }, this.report.sides.map((side, k) =>
      h("span", { class: `review-key side-${k % 4}` }, this.name(side))), this.report.mistakes.length ? h("span", { class: "muted" }, "● a costly move") : null);
  }

  mistakeList() {
    if (!this.report.mistakes.length) return h("p", { class: "muted" }, "No decision cost its side more than a point.");
    return h("ol", { class: "review-mistakes", id: "review-mistakes" }, this.report.mistakes.map((m) =>
      h("li", {}, h("button", { class: "link", dataset: { frame: m.frame }, onclick: () => this.onJump(m.frame) },
        `Decision ${m.step} · ${this.name(m.side)}: ${m.label}`))));
  }

  // The replay shows `frame`: move the cursor to the last decision at or before it, and explain a marked move.
  select(frame) {
    let step = 0;
    for (const p of this.points) if (p.frame <= frame) step = p.step;
    this.cursor.setAttribute("x1", this.x(step));
    this.cursor.setAttribute("x2", this.x(step));
    const m = this.byFrame.get(frame);
    const point = this.points[step];
    clear(this.detail);
    if (!m) {
      const values = this.report.sides.map((side) => `${this.name(side)} ${pct(point.values[side])}`).join(" · ");
      this.detail.append(h("p", { class: "muted" }, step ? `After decision ${step}: ${values}` : `At the start: ${values}`));
      return;
    }
    const same = m.computer.action === m.action;
    this.detail.append(
      h("p", {}, h("strong", {}, `Decision ${m.step} (${this.name(m.side)}): ${m.label}`)),
      h("p", {}, m.text),
      h("p", { id: "review-computer" }, same ? `The computer (${m.computer.agent}) would have played the same.`
        : `The computer (${m.computer.agent}) would have played: ${m.computer.label}`),
      m.computer.why ? h("p", { class: "muted" }, `Why: ${m.computer.why}`) : null);
  }
}
