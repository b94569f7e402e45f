// SVG helpers and the zoom / pan controller (wheel, drag, pinch, buttons) shared by every board.

export const NS = "http://www.w3.org/2000/svg";

export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function text(x, y, content, attrs = {}) {
  return s("text", { x, y, ...attrs }, content);
}

// Zoom and pan an <svg> by changing its viewBox; a drag longer than a few pixels is not a click. The controller
// hangs on its <svg> as `svg.zoomPan`, so what draws inside (the hex map kit) can open the view on the action.
export class ZoomPan {
  constructor(svg, bounds) {
    this.svg = svg;
    this.bounds = bounds; // {x, y, w, h}: the whole board
    this.view = { ...bounds };
    this.pointers = new Map();
    this.dragged = false;
    this.saveAs = null; // the localStorage key the view is kept under (remember)
    svg.zoomPan = this;
    this.apply();
    svg.addEventListener("wheel", (e) => this.onWheel(e), { passive: false });
    svg.addEventListener("pointerdown", (e) => this.onDown(e));
    svg.addEventListener("pointermove", (e) => this.onMove(e));
    svg.addEventListener("pointerup", (e) => this.onUp(e));
    svg.addEventListener("pointercancel", (e) => this.onUp(e));
    // swallow the click that ends a drag, so panning never selects a unit
    svg.addEventListener("click", (e) => { if (this.dragged) { e.stopPropagation(); e.preventDefault(); this.dragged = false; } }, true);
  }

  apply() {
    const v = this.view;
    this.svg.setAttribute("viewBox", `${v.x} ${v.y} ${v.w} ${v.h}`);
    if (this.saveAs) {
      // the whole board is kept as such (it fits any screen the page reopens on); any other view as its region
      const b = this.bounds;
      const whole = v.x === b.x && v.y === b.y && v.w === b.w && v.h === b.h;
      try { localStorage.setItem(this.saveAs, JSON.stringify(whole ? "whole" : v)); } catch (err) { /* storage full or refused: not kept */ }
    }
  }

  fit() { this.view = { ...this.bounds }; this.apply(); }

  // Show the region `box` ({x, y, w, h}, board units).
  show(box) { this.view = { ...box }; this.apply(); }

  // Keep every view from now on under `key` (a game's page: its zoom and pan survive a reload), and show the
  // one kept there before, if any: true when there was one.
  remember(key) {
    let kept = null;
    try { kept = JSON.parse(localStorage.getItem(key) || "null"); } catch (err) { kept = null; }
    const region = !!kept && ["x", "y", "w", "h"].every((k) => Number.isFinite(kept[k])) && kept.w > 0 && kept.h > 0;
    const ok = region || kept === "whole";
    if (ok) this.view = region ? { x: kept.x, y: kept.y, w: kept.w, h: kept.h } : { ...this.bounds };
    this.saveAs = key;
    if (ok) this.apply();
    return ok;
  }

  toBoard(clientX, clientY) {
    const rect = this.svg.getBoundingClientRect();
    const scale = Math.max(this.view.w / rect.width, this.view.h / rect.height);
    const offX = (rect.width * scale - this.view.w) / 2;
    const offY = (rect.height * scale - this.view.h) / 2;
    return { x: this.view.x - offX + (clientX - rect.left) * scale, y: this.view.y - offY + (clientY - rect.top) * scale, scale };
  }

  zoom(factor, cx, cy) {
    const v = this.view;
    const minW = this.bounds.w / 8;
    const maxW = this.bounds.w * 1.5;
    const w = Math.min(maxW, Math.max(minW, v.w * factor));
    const real = w / v.w;
    if (cx === undefined) { cx = v.x + v.w / 2; cy = v.y + v.h / 2; }
    this.view = { x: cx - (cx - v.x) * real, y: cy - (cy - v.y) * real, w: v.w * real, h: v.h * real };
    this.apply();
  }

  onWheel(e) {
    e.preventDefault();
    const p = this.toBoard(e.clientX, e.clientY);
    this.zoom(Math.exp(e.deltaY * 0.0015), p.x, p.y);
  }

  onDown(e) {
    if (e.button !== undefined && e.button !== 0) return;
    this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, startX: e.clientX, startY: e.clientY });
    this.dragged = false;
  }

  onMove(e) {
    const prev = this.pointers.get(e.pointerId);
    if (!prev) return;
    if (this.pointers.size === 1) {
      const moved = Math.hypot(e.clientX - prev.startX, e.clientY - prev.startY);
      if (moved > 6) {
        if (!this.dragged) { this.dragged = true; try { this.svg.setPointerCapture(e.pointerId); } catch (err) { /* not capturable */ } }
        const { scale } = this.toBoard(e.clientX, e.clientY);
        this.view.x -= (e.clientX - prev.x) * scale;
        this.view.y -= (e.clientY - prev.y) * scale;
        this.apply();
      }
    } else if (this.pointers.size === 2) {
      const [a, b] = [...this.pointers.values()];
      const before = Math.hypot(a.x - b.x, a.y - b.y);
      prev.x = e.clientX; prev.y = e.clientY;
      const [c, d] = [...this.pointers.values()];
      const after = Math.hypot(c.x - d.x, c.y - d.y);
      if (before > 0 && after > 0) {
        const mid = this.toBoard((c.x + d.x) / 2, (c.y + d.y) / 2);
        this.zoom(before / after, mid.x, mid.y);
      }
      this.dragged = true;
      return;
    }
    prev.x = e.clientX; prev.y = e.clientY;
  }

  onUp(e) { this.pointers.delete(e.pointerId); }
}

// A die showing `value`, its corner at (x, y): the dice tray, and any board that shows a roll.
export function dieFace(value, x, y, size) {
  const g = s("g", { class: "die", transform: `translate(${x},${y})` });
  g.append(s("rect", { width: size, height: size, rx: size * 0.18, class: "die-body" }));
  const c = size / 2;
  const o = size * 0.27;
  const spots = { 1: [[c, c]], 2: [[c - o, c - o], [c + o, c + o]], 3: [[c - o, c - o], [c, c], [c + o, c + o]],
    4: [[c - o, c - o], [c + o, c - o], [c - o, c + o], [c + o, c + o]],
    5: [[c - o, c - o], [c + o, c - o], [c, c], [c - o, c + o], [c + o, c + o]],
    6: [[c - o, c - o], [c + o, c - o], [c - o, c], [c + o, c], [c - o, c + o], [c + o, c + o]] };
  if (spots[value]) {
    for (const [px, py] of spots[value]) g.append(s("circle", { cx: px, cy: py, r: size * 0.09, class: "pip" }));
  } else {
    // a face pips cannot show (a d12's 7-12, a d10's 0): its number, as such dice print it
    g.append(s("text", { x: c, y: c, "font-size": size * 0.55, "text-anchor": "middle", "dominant-baseline": "central",
      class: "die-number" }, String(value)));
  }
  g.append(s("title", {}, `die: ${value}`));
  return g;
}
