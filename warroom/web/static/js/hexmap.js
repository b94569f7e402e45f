// Hex maps and unit counters for any hex-and-counter game's board (it names no game).
//
// A game's layout.py builds the map's drawing data with warroom/web/hexmap.py (`hex_layout`: every hex's
// label, centre, corners and terrain class, hexside segments, paths through hex centres, places, the view
// box); its board.js hands that to `new HexMap(svg, map)` and draws the live position on it:
//
//   const map = new HexMap(svg, layout.map, { onHex: (label) => ..., onCounter: (id, label) => ... });
//   board.zoom = new ZoomPan(svg, map.bounds);          // the page's zoom buttons, wheel, drag, pinch
//   map.drawUnits([{ id, hex, side, type, bottom: "4-4", steps: 1, maxSteps: 2, label: "1/7" }, ...]);
//   map.highlight({ "0305": 2, "0406": 3 });              // reachable hexes with their MP cost
//   map.clearHighlights();
//
// Terrain is coloured by CSS class (`terrain-<class>`, /static/hexmap.css, loaded here once); a game's own
// style sheet may add its classes or recolour them. Hexes carry `data-hex` (the printed label) and counters
// `data-unit`, so clicks need no coordinates. Counters follow NATO symbols (infantry cross, armour oval,
// mechanised both, artillery dot, recon slash, HQ, air, ...); a side's colours are CSS custom properties
// (`--counter-fill`, `--counter-ink`) on `.counter.side-<side>`, or the counter's `fill` / `ink`.
//
// Reading the board at a glance: where the board has a ZoomPan (`svg.zoomPan`), the first position drawn opens
// the view on the action (the hexes of the counters that may act, the hexes lit, the battle's marks; else every
// counter), never so wide that a counter is under MIN_COUNTER_PX on screen, and the view is kept per page
// (localStorage) across reloads. Hovering a stack (or tapping it, or a counter taking the keyboard's focus) opens
// the stack viewer: every piece of the stack, top first, as drawn for this seat (each counter's own title), so it
// shows nothing the seat's payload did not hold.
import { s, text } from "./svg.js";

const STYLE = new URL("../hexmap.css", import.meta.url).pathname;

// The kit's style sheet, once per page, before any board draws (a top-level await: importing this module
// waits for it, as the page waits for a board's own styles).
function loadStyle(href) {
  if (typeof document === "undefined" || document.querySelector(`link[data-board-style="${href}"]`)) return null;
  return new Promise((resolve) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    link.dataset.boardStyle = href;
    link.addEventListener("load", resolve);
    link.addEventListener("error", resolve);
    document.head.append(link);
  });
}
await loadStyle(STYLE);

const LAYERS = ["terrain", "paths", "hexsides", "numbers", "places", "marks", "counters", "highlights"];

/** The smallest a counter is drawn on screen, in CSS pixels, when the page opens the view on the action. */
export const MIN_COUNTER_PX = 28;
/** The largest, so one lone unit does not fill the board. */
const MAX_COUNTER_PX = 64;

const fmt = (v) => (Math.round(v * 100) / 100).toString();
const pointsOf = (pts) => pts.map(([x, y]) => `${fmt(x)},${fmt(y)}`).join(" ");

// An MP cost as the rules write it: 2, 1.5, or ½ for a half.
export function costText(cost) {
  if (cost === undefined || cost === null) return "";
  const whole = Math.floor(cost);
  const half = Math.abs(cost - whole - 0.5) < 1e-9;
  if (half) return whole ? `${whole}½` : "½";
  return Number.isInteger(cost) ? String(cost) : fmt(cost);
}

export class HexMap {
  // Draw `map` (hex_layout's answer) into `parent` (an <svg> or a <g>). options: onHex(label, event) for a
  // click on a hex (a counter's click goes to onCounter(id, label, event) where given, else to onHex).
  constructor(parent, map, options = {}) {
    this.map = map;
    this.size = map.size;
    this.options = options;
    this.hexes = new Map(map.hexes.map((hx) => [hx.label, hx]));
    this.root = s("g", { class: `hexmap hexmap-${map.orientation}` });
    this.layers = {};
    for (const name of LAYERS) {
      this.layers[name] = s("g", { class: `hexmap-${name}` });
      this.root.append(this.layers[name]);
    }
    this.drawMap();
    parent.append(this.root);
    this.root.addEventListener("click", (e) => this.onClick(e));
    // a selectable counter is a button (tabindex 0): Enter or Space clicks it
    this.root.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); this.onClick(e); } });
    // the stack viewer: a mouse over a stack, a tap on one, a counter with the keyboard's focus
    this.pointerType = "mouse";
    this.pinned = null; // the hex whose stack a tap opened: it stays open until another tap
    this.root.addEventListener("pointerdown", (e) => { this.pointerType = e.pointerType || "mouse"; });
    this.root.addEventListener("pointerover", (e) => {
      const stack = e.target.closest(".stack");
      if (stack && (e.pointerType || "mouse") === "mouse" && !this.pinned) this.showStack(stack);
    });
    this.root.addEventListener("pointerout", (e) => {
      const stack = e.target.closest(".stack");
      if (stack && !this.pinned && !(e.relatedTarget && stack.contains(e.relatedTarget))) this.hideStack();
    });
    this.root.addEventListener("focusin", (e) => { const stack = e.target.closest(".stack"); if (stack) this.showStack(stack); });
    this.root.addEventListener("focusout", () => { if (!this.pinned) this.hideStack(); });
  }

  // The whole map, for ZoomPan: {x, y, w, h}.
  get bounds() {
    const [x, y, w, h] = this.map.view_box;
    return { x, y, w, h };
  }

  center(label) {
    const hx = this.hexes.get(label);
    return hx ? [hx.x, hx.y] : null;
  }

  onClick(e) {
    if (this.pointerType !== "mouse" && e.type === "click") {
      // a tap shows the stack tapped (or closes the viewer where there is none); the board still gets the click
      const stack = e.target.closest(".stack");
      if (stack) { this.pinned = stack.dataset.hex; this.showStack(stack); } else { this.pinned = null; this.hideStack(); }
    }
    const unit = e.target.closest("[data-unit]");
    const hex = e.target.closest("[data-hex]");
    const label = hex ? hex.dataset.hex : null;
    if (unit && this.options.onCounter) this.options.onCounter(unit.dataset.unit, label, e);
    else if (label && this.options.onHex) this.options.onHex(label, e);
  }

  drawMap() {
    const size = this.size;
    const L = this.layers;
    for (const hx of this.map.hexes) {
      L.terrain.append(s("polygon", { points: pointsOf(hx.corners), class: `hex terrain-${hx.terrain}`, dataset: { hex: hx.label } },
        s("title", {}, `${hx.label} ${hx.terrain}`)));
      L.numbers.append(text(hx.label_at[0], hx.label_at[1], hx.label, { class: "hex-number", "font-size": fmt(size * 0.24) }));
    }
    for (const path of this.map.paths) {
      L.paths.append(s("polyline", { points: pointsOf(path.points), class: `path path-${path.kind}`, "stroke-width": fmt(size * 0.13), dataset: { path: path.name || path.kind } },
        path.name ? s("title", {}, path.name) : null));
    }
    // rivers and borders, then bridges across them
    const sides = [...this.map.hexsides].sort((a, b) => (a.kind === "bridge") - (b.kind === "bridge"));
    for (const side of sides) {
      const [[x1, y1], [x2, y2]] = side.points;
      const attrs = { class: `hexside hexside-${side.kind}`, dataset: { hexside: side.hexes.join("/") } };
      if (side.kind === "bridge") {
        // a deck across the river: perpendicular to the hexside, through its middle
        const mx = (x1 + x2) / 2;
        const my = (y1 + y2) / 2;
        const len = Math.hypot(x2 - x1, y2 - y1) || 1;
        const nx = (-(y2 - y1) / len) * size * 0.32;
        const ny = ((x2 - x1) / len) * size * 0.32;
        L.hexsides.append(s("line", { x1: fmt(mx - nx), y1: fmt(my - ny), x2: fmt(mx + nx), y2: fmt(my + ny), ...attrs, "stroke-width": fmt(size * 0.22) },
          s("title", {}, `bridge ${side.hexes.join("/")}`)));
      } else {
        L.hexsides.append(s("line", { x1: fmt(x1), y1: fmt(y1), x2: fmt(x2), y2: fmt(y2), ...attrs, "stroke-width": fmt(size * (side.kind === "river" ? 0.16 : 0.09)) },
          s("title", {}, `${side.kind} ${side.hexes.join("/")}`)));
      }
    }
    for (const place of this.map.places) {
      const inner = size * (this.map.orientation === "flat" ? Math.sqrt(3) / 2 : 1);
      // its mark beside a counter's place, at the hex's left: a town, port or airfield shows under a stack
      L.places.append(s("circle", { cx: fmt(place.x - size * 0.7), cy: fmt(place.y), r: fmt(size * 0.1), class: `place-mark place-${place.kind}`, dataset: { place: place.label } },
        s("title", {}, `${place.name} (${place.kind})`)));
      L.places.append(text(place.x, place.y + inner * 0.87, place.name, { class: `place-name place-${place.kind}`, "font-size": fmt(size * 0.27), dataset: { place: place.label } }));
    }
  }

  // Show `hexes` as reachable: an iterable of labels, or {label: cost} / Map(label -> cost) to print each hex's
  // cost in its middle (over a friendly counter there too, with a halo); `cost` in options overrides it. `cls`
  // names the kind of highlight ("reach" by default: a move's destinations; "target" for an attack). Each
  // highlight is a click target carrying data-hex and data-cost.
  highlight(hexes, { cost = null, cls = "reach" } = {}) {
    const entries = hexes instanceof Map ? [...hexes] : Array.isArray(hexes) || hexes[Symbol.iterator] ? [...hexes].map((l) => [l, null]) : Object.entries(hexes);
    const size = this.size;
    for (const [label, own] of entries) {
      const hx = this.hexes.get(label);
      if (!hx) continue;
      const value = cost ? cost[label] : own;
      const shown = value !== null && value !== undefined;
      const g = s("g", { class: `hex-highlight ${cls}`, dataset: shown ? { hex: label, cost: value } : { hex: label } });
      g.append(s("polygon", { points: pointsOf(hx.corners), class: "hex-highlight-area" }));
      if (shown) {
        g.append(text(hx.x, hx.y + size * 0.13, costText(value), { class: "hex-cost", "font-size": fmt(size * 0.38) }));
      }
      g.append(s("title", {}, shown ? `${label}: ${costText(value)} MP` : label));
      this.layers.highlights.append(g);
    }
  }

  clearHighlights(cls = null) {
    for (const el of [...this.layers.highlights.children]) if (!cls || el.classList.contains(cls)) el.remove();
  }

  // A ring on one hex (the selected unit's hex, the hex attacked); `cls` says which.
  mark(label, cls = "selected") {
    const hx = this.hexes.get(label);
    if (hx) this.layers.marks.append(s("polygon", { points: pointsOf(hx.corners), class: `hex-mark ${cls}`, "stroke-width": fmt(this.size * 0.1), dataset: { hex: label } }));
  }

  clearMarks() {
    while (this.layers.marks.firstChild) this.layers.marks.firstChild.remove();
  }

  // Draw every unit on its hex (a list of drawCounter options with `hex` and `id`), units sharing a hex as a
  // stack, the earliest listed at the bottom. Units whose hex is not on the map are left out.
  drawUnits(units, { counterSize = this.size * 0.92 } = {}) {
    const layer = this.layers.counters;
    while (layer.firstChild) layer.firstChild.remove();
    const byHex = new Map();
    for (const unit of units) {
      if (!this.hexes.has(unit.hex)) continue;
      if (!byHex.has(unit.hex)) byHex.set(unit.hex, []);
      byHex.get(unit.hex).push(unit);
    }
    for (const [label, stack] of byHex) {
      const [x, y] = this.center(label);
      drawStack(layer, { x, y, hex: label, counters: stack, size: counterSize });
    }
    this.counterSize = counterSize;
    this.refreshStack();
    if (!this.opened && !this.opening) {
      // once, after the board has drawn the rest of this position (its highlights and marks) and laid out; again
      // after the next position where this one had nothing to open on
      this.opening = true;
      requestAnimationFrame(() => { this.opening = false; this.opened = this.openView(); });
    }
  }

  // -- the view the page opens on ---------------------------------------------------------------------------
  // The view kept for this page, else the action's region (actionBox): whether it opened on one.
  openView() {
    const svg = this.root.ownerSVGElement;
    const zoom = svg && svg.zoomPan;
    if (!zoom) return false;
    if (zoom.remember(`warroom.view.${location.pathname}`)) return true;
    const box = this.actionBox(svg.getBoundingClientRect());
    if (box) zoom.show(box);
    return !!box;
  }

  // The hexes where the action is: those of the counters that may act (or the one chosen), the hexes lit as
  // destinations or targets, the battle's marked hexes; where there is none, every counter's.
  focusHexes() {
    const stacks = [...this.layers.counters.querySelectorAll(".stack")];
    const acting = stacks.filter((st) => st.querySelector(".counter.selectable, .counter.selected")).map((st) => st.dataset.hex);
    const lit = [...this.layers.highlights.querySelectorAll(".hex-highlight.reach, .hex-highlight.target")].map((el) => el.dataset.hex);
    const marked = [...this.layers.marks.querySelectorAll(".hex-mark.selected, .hex-mark.attacked")].map((el) => el.dataset.hex);
    const focus = [...acting, ...lit, ...marked].filter((label) => this.hexes.has(label));
    return focus.length ? focus : stacks.map((st) => st.dataset.hex).filter((label) => this.hexes.has(label));
  }

  // The region to open on, for a board `rect` (its size on screen): the focus hexes with a margin of a hex and a
  // half, as wide as the screen's shape needs, no wider than keeps a counter MIN_COUNTER_PX on screen (then
  // centred on the focus' mean, inside its bounds) and no narrower than keeps it under MAX_COUNTER_PX. Null
  // where nothing is drawn or the board has no size.
  actionBox(rect) {
    const focus = this.focusHexes();
    if (!focus.length || !rect || rect.width < 1 || rect.height < 1) return null;
    const points = focus.map((label) => this.center(label));
    const xs = points.map(([x]) => x);
    const ys = points.map(([, y]) => y);
    const margin = this.size * 1.5;
    const box = { x: Math.min(...xs) - margin, y: Math.min(...ys) - margin, w: Math.max(...xs) - Math.min(...xs) + 2 * margin, h: Math.max(...ys) - Math.min(...ys) + 2 * margin };
    const counter = this.counterSize || this.size * 0.92;
    const aspect = rect.width / rect.height;
    const widest = (rect.width * counter) / MIN_COUNTER_PX;
    const narrowest = (rect.width * counter) / MAX_COUNTER_PX;
    const w = Math.max(narrowest, Math.min(widest, Math.max(box.w, box.h * aspect)));
    const h = w / aspect;
    const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
    const place = (start, length, span, centre) => (length >= span ? start + length / 2 : Math.min(Math.max(centre, start + span / 2), start + length - span / 2));
    const cx = place(box.x, box.w, w, mean(xs));
    const cy = place(box.y, box.h, h, mean(ys));
    return { x: cx - w / 2, y: cy - h / 2, w, h };
  }

  // -- the stack viewer -------------------------------------------------------------------------------------
  viewer() {
    if (!this.viewerBox) {
      this.viewerBox = document.createElement("div");
      this.viewerBox.className = "stack-viewer";
      this.viewerBox.setAttribute("role", "tooltip");
      this.viewerBox.hidden = true;
      document.body.append(this.viewerBox);
    }
    return this.viewerBox;
  }

  // List the pieces of `stack` (a drawn .stack), top first, each as its counter says it (its <title>), beside it.
  showStack(stack) {
    const counters = [...stack.querySelectorAll(".counter")].reverse(); // drawn bottom first: the last on top
    if (!counters.length) return;
    const box = this.viewer();
    const head = document.createElement("h4");
    head.textContent = `${stack.dataset.hex}: ${counters.length === 1 ? "1 piece" : `${counters.length} pieces, the top first`}`;
    const list = document.createElement("ol");
    for (const counter of counters) {
      const item = document.createElement("li");
      item.className = [...counter.classList].filter((c) => c.startsWith("side-") || c === "reduced" || c === "hidden-piece").join(" ");
      const title = counter.querySelector("title");
      item.textContent = title ? title.textContent : counter.getAttribute("aria-label") || "a piece";
      list.append(item);
    }
    box.replaceChildren(head, list);
    box.dataset.hex = stack.dataset.hex;
    box.hidden = false;
    // beside the stack, inside the window (fixed: the page's CSP allows the CSSOM, not style attributes)
    const r = stack.getBoundingClientRect();
    const room = box.getBoundingClientRect();
    const left = r.right + 8 + room.width <= window.innerWidth ? r.right + 8 : Math.max(4, r.left - 8 - room.width);
    const top = Math.min(Math.max(4, r.top), Math.max(4, window.innerHeight - room.height - 4));
    box.style.setProperty("left", `${Math.round(left)}px`);
    box.style.setProperty("top", `${Math.round(top)}px`);
  }

  hideStack() {
    if (this.viewerBox) this.viewerBox.hidden = true;
  }

  // After a redraw: a tapped stack's list follows the new position; any other closes.
  refreshStack() {
    if (!this.viewerBox || this.viewerBox.hidden) return;
    const stack = this.pinned ? this.layers.counters.querySelector(`.stack[data-hex="${this.pinned}"]`) : null;
    if (stack) this.showStack(stack);
    else { this.pinned = null; this.hideStack(); }
  }
}

// -- counters ------------------------------------------------------------------------------------------
const SYMBOLS = {
  infantry: ["cross"],
  armour: ["oval"],
  armor: ["oval"],
  tank: ["oval"],
  mechanised: ["cross", "oval"],
  mechanized: ["cross", "oval"],
  artillery: ["dot"],
  recon: ["slash"],
  cavalry: ["slash"],
  hq: ["hq"],
  air: ["air"],
  aircraft: ["air"],
  airborne: ["cross", "wings"],
  engineer: ["engineer"],
  supply: ["supply"],
  antitank: ["antitank"],
};
/** The unit types drawCounter knows (any other draws an empty symbol box). */
export const UNIT_TYPES = Object.keys(SYMBOLS);

// The NATO symbol of `type` in a w x h box centred on (0, 0).
export function unitSymbol(type, w, h) {
  const g = s("g", { class: `unit-symbol symbol-${type || "none"}` });
  const x = -w / 2;
  const y = -h / 2;
  g.append(s("rect", { x: fmt(x), y: fmt(y), width: fmt(w), height: fmt(h), class: "symbol-box" }));
  for (const part of SYMBOLS[type] || []) {
    if (part === "cross") g.append(s("path", { d: `M${fmt(x)} ${fmt(y)}L${fmt(-x)} ${fmt(-y)}M${fmt(-x)} ${fmt(y)}L${fmt(x)} ${fmt(-y)}`, class: "symbol-line" }));
    if (part === "oval") g.append(s("rect", { x: fmt(x + w * 0.14), y: fmt(y + h * 0.2), width: fmt(w * 0.72), height: fmt(h * 0.6), rx: fmt(h * 0.3), class: "symbol-line" }));
    if (part === "dot") g.append(s("circle", { r: fmt(h * 0.2), class: "symbol-fill" }));
    if (part === "slash") g.append(s("path", { d: `M${fmt(x)} ${fmt(-y)}L${fmt(-x)} ${fmt(y)}`, class: "symbol-line" }));
    if (part === "hq") g.append(text(0, h * 0.22, "HQ", { class: "symbol-text", "font-size": fmt(h * 0.62) }));
    if (part === "air") {
      // a propeller: two loops meeting at the centre
      const rx = w * 0.2;
      const ry = h * 0.24;
      g.append(s("ellipse", { cx: fmt(-rx), cy: 0, rx: fmt(rx), ry: fmt(ry), class: "symbol-line" }), s("ellipse", { cx: fmt(rx), cy: 0, rx: fmt(rx), ry: fmt(ry), class: "symbol-line" }));
    }
    if (part === "wings") g.append(s("path", { d: `M${fmt(-w * 0.18)} ${fmt(-y * 0.85)}q${fmt(w * 0.09)} ${fmt(-h * 0.3)} ${fmt(w * 0.18)} 0q${fmt(w * 0.09)} ${fmt(-h * 0.3)} ${fmt(w * 0.18)} 0`, class: "symbol-line" }));
    if (part === "engineer") g.append(s("path", { d: `M${fmt(-w * 0.25)} ${fmt(h * 0.2)}V${fmt(-h * 0.15)}H${fmt(w * 0.25)}V${fmt(h * 0.2)}M0 ${fmt(-h * 0.15)}V${fmt(h * 0.2)}`, class: "symbol-line" }));
    if (part === "supply") g.append(s("path", { d: `M${fmt(x)} ${fmt(h * 0.18)}H${fmt(-x)}`, class: "symbol-line" }));
    if (part === "antitank") g.append(s("path", { d: `M${fmt(x)} ${fmt(-y)}L0 ${fmt(y)}L${fmt(-x)} ${fmt(-y)}`, class: "symbol-line" }));
  }
  return g;
}

// One counter centred on (x, y), appended to `group` and returned. Options: side (CSS class side-<side>),
// type (unitSymbol), top (above the symbol: the echelon, "XX"), label (the unit's designation, under the
// symbol), bottom (the values along the bottom: "4-4-6" or [4, 4, 6]), steps and maxSteps (a reduced unit
// shows a stripe and its steps as pips; or reduced: true), id (data-unit), size, fill / ink (colours), title,
// and the states the board shows: selectable, selected, done (has acted), classes (more CSS classes).
export function drawCounter(group, opts) {
  const size = opts.size || 40;
  const half = size / 2;
  const reduced = opts.reduced || (opts.steps !== undefined && opts.maxSteps !== undefined && opts.steps < opts.maxSteps);
  const classes = ["counter"];
  if (opts.side) classes.push(`side-${opts.side}`);
  if (reduced) classes.push("reduced");
  for (const flag of ["selectable", "selected", "done"]) if (opts[flag]) classes.push(flag);
  if (opts.classes) classes.push(...opts.classes);
  const bottom = Array.isArray(opts.bottom) ? opts.bottom.join("-") : opts.bottom;
  const name = opts.title || [opts.label || opts.id, opts.type, bottom, reduced ? "reduced" : ""].filter(Boolean).join(" ");
  const g = s("g", { class: classes.join(" "), transform: `translate(${fmt(opts.x || 0)},${fmt(opts.y || 0)})`, dataset: opts.id ? { unit: opts.id } : undefined,
    role: opts.selectable ? "button" : undefined, tabindex: opts.selectable ? 0 : undefined, "aria-label": name });
  // a side's colours through the CSSOM (the page's CSP allows no inline style attribute)
  if (opts.fill) g.style.setProperty("--counter-fill", opts.fill);
  if (opts.ink) g.style.setProperty("--counter-ink", opts.ink);
  g.append(s("title", {}, name));
  g.append(s("rect", { x: fmt(-half), y: fmt(-half), width: fmt(size), height: fmt(size), rx: fmt(size * 0.08), class: "counter-body" }));
  if (opts.top) g.append(text(0, -half + size * 0.2, opts.top, { class: "counter-top", "font-size": fmt(size * 0.17) }));
  const symbol = unitSymbol(opts.type, size * 0.56, size * 0.34);
  symbol.setAttribute("transform", `translate(0,${fmt(-size * 0.07)})`);
  g.append(symbol);
  if (opts.label) g.append(text(0, size * 0.2, opts.label, { class: "counter-label", "font-size": fmt(size * 0.16) }));
  if (bottom !== undefined && bottom !== null && bottom !== "") g.append(text(0, half - size * 0.06, String(bottom), { class: "counter-values", "font-size": fmt(size * 0.24) }));
  if (reduced) {
    // the reduced side: a stripe across the upper right corner
    g.append(s("path", { d: `M${fmt(half - size * 0.34)} ${fmt(-half)}H${fmt(half)}V${fmt(-half + size * 0.34)}Z`, class: "counter-reduced" }));
  }
  if (opts.steps !== undefined && opts.maxSteps > 1) {
    for (let k = 0; k < opts.maxSteps; k++) {
      g.append(s("circle", { cx: fmt(half - size * 0.09), cy: fmt(-size * 0.12 + k * size * 0.13), r: fmt(size * 0.045), class: k < opts.steps ? "counter-step" : "counter-step lost" }));
    }
  }
  group.append(g);
  return g;
}

// A stack of counters on one hex: a pile, each counter a little up and right of the one beneath, the last
// listed on top, and the number in the stack on a badge when there is more than one. Options: x, y, hex
// (data-hex on the stack), counters (drawCounter options), size.
export function drawStack(group, { x = 0, y = 0, hex = null, counters = [], size = 40 }) {
  const g = s("g", { class: "stack", dataset: hex ? { hex } : undefined });
  const step = size * 0.09;
  const shift = ((counters.length - 1) * step) / 2;
  counters.forEach((c, k) => drawCounter(g, { ...c, size, x: x - shift + k * step, y: y + shift - k * step }));
  if (counters.length > 1) {
    const bx = x + shift + size / 2;
    const by = y - shift - size / 2;
    g.append(s("g", { class: "stack-count" }, s("circle", { cx: fmt(bx), cy: fmt(by), r: fmt(size * 0.17) }),
      text(bx, by + size * 0.07, String(counters.length), { "font-size": fmt(size * 0.2) })));
  }
  group.append(g);
  return g;
}
