// The Operation Dragoon board, drawn from the map data the server sends (/api/boards/dragoon, web/layout.py):
// locations, the five Allied routes, the German escape track, boxes, and the turn / RP / Air tracks. Served
// from this game's own folder, it implements the board interface of docs/architecture.md: the seat picks a
// glowing unit, then its target on the map (from the server's action descriptors), an FFI re-roll is asked
// in place, and the panel shows the unit's route, the RP and Air, and the victory points now.
import { s, text, ZoomPan, dieFace } from "/static/js/svg.js";
import { h, toast } from "/static/js/dom.js";
import { counter, routeColor, SIZE } from "./counters.js";

const SCALE = 620;
const LON0 = 4.0;
const LAT_TOP = 45.0;
const KX = Math.cos((44 * Math.PI) / 180);
const BOUNDS = { x: 0, y: 0, w: 1605, h: 1395 };
const R = 16;
const TURN_TRACK = { x: 560, y: 24, cell: 64 };

export function project(lon, lat) {
  return [(lon - LON0) * KX * SCALE, (LAT_TOP - lat) * SCALE];
}

function shortPlace(name) {
  return name.split(" (")[0];
}

// The page's entry point (the board interface): one board for the game's page.
export function createBoard(container, layout, page) {
  return new DragoonBoard(container, layout, page);
}

export class DragoonBoard {
  constructor(container, layout, page) {
    this.layout = layout;
    this.page = page;
    this.selected = null; // the unit whose actions the seat is looking at
    this.loc = Object.fromEntries(layout.locations.map((l) => [l.id, { ...l, p: project(l.x, l.y) }]));
    this.svg = s("svg", { class: "board dragoon", id: "board", xmlns: "http://www.w3.org/2000/svg", preserveAspectRatio: "xMidYMid meet", role: "img", "aria-label": "Operation Dragoon map" });
    this.defs = s("defs");
    this.svg.append(this.defs);
    this.markers = {};
    this.layers = {};
    for (const name of ["terrain", "routes", "boxes", "tracks", "locations", "targets", "units", "labels", "overlay"]) {
      this.layers[name] = s("g", { class: `layer-${name}` });
      this.svg.append(this.layers[name]);
    }
    this.drawStatic();
    container.append(this.svg);
    this.zoom = new ZoomPan(this.svg, BOUNDS);
    this.svg.addEventListener("click", (e) => this.onClick(e));
    this.svg.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") this.onClick(e); });
  }

  onClick(e) {
    const unitEl = e.target.closest("[data-unit]");
    if (unitEl && unitEl.classList.contains("selectable")) { this.selectUnit(unitEl.dataset.unit); return; }
    const locEl = e.target.closest("[data-loc]");
    if (locEl) { this.clickLocation(locEl.dataset.loc); return; }
    if (unitEl) { this.selectUnit(unitEl.dataset.unit); return; }
    this.selected = null;
    this.page.hideFloating();
    this.page.render();
  }

  marker(color) {
    if (this.markers[color]) return this.markers[color];
    const id = `arrow-${color.replace(/[^a-z0-9]/gi, "")}`;
    this.defs.append(s("marker", { id, viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" },
      s("path", { d: "M0 0L10 5L0 10z", fill: color })));
    this.markers[color] = `url(#${id})`;
    return this.markers[color];
  }

  segment(a, b, color, attrs = {}, offset = 0, gap = R + 4) {
    const [x1, y1] = a;
    const [x2, y2] = b;
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const ux = (x2 - x1) / len;
    const uy = (y2 - y1) / len;
    const ox = -uy * offset;
    const oy = ux * offset;
    return s("line", { x1: x1 + ux * gap + ox, y1: y1 + uy * gap + oy, x2: x2 - ux * gap + ox, y2: y2 - uy * gap + oy, stroke: color, "marker-end": this.marker(color), ...attrs });
  }

  drawStatic() {
    const L = this.layout;
    const t = this.layers.terrain;
    this.defs.append(s("pattern", { id: "waves", width: 40, height: 16, patternUnits: "userSpaceOnUse" },
      s("path", { d: "M0 8q10 -6 20 0t20 0", fill: "none", stroke: "#a9c9dd", "stroke-width": 1.2 })));
    t.append(s("rect", { x: BOUNDS.x, y: BOUNDS.y, width: BOUNDS.w, height: BOUNDS.h, class: "land" }));
    const coast = L.coast.map(([lon, lat]) => project(lon, lat));
    const [eastX, eastY] = coast[coast.length - 1];
    const sea = [[0, project(0, 43.5)[1]], ...coast, [BOUNDS.w, eastY], [BOUNDS.w, BOUNDS.h], [0, BOUNDS.h]];
    const d = "M" + sea.map(([x, y]) => `${x.toFixed(1)} ${y.toFixed(1)}`).join("L") + "Z";
    t.append(s("path", { d, class: "sea" }), s("path", { d, class: "sea-waves" }));
    t.append(s("path", { d: "M" + coast.map(([x, y]) => `${x.toFixed(1)} ${y.toFixed(1)}`).join("L"), class: "coast" }));
    void eastX;
    for (const river of L.rivers) {
      const pts = river.map(([lon, lat]) => project(lon, lat));
      t.append(s("path", { d: "M" + pts.map(([x, y]) => `${x.toFixed(1)} ${y.toFixed(1)}`).join("L"), class: "river" }));
    }
    const rhone = project(4.66, 44.42);
    t.append(text(rhone[0] - 20, rhone[1], "Rhône", { class: "river-label", transform: `rotate(-80 ${rhone[0] - 20} ${rhone[1]})` }));
    const sea1 = project(5.0, 42.95);
    t.append(text(sea1[0], sea1[1] - 40, "Mediterranean Sea", { class: "sea-label" }));
    const alps = project(6.9, 44.35);
    t.append(text(alps[0], alps[1], "ALPES", { class: "region-label" }));
    const prov = project(5.7, 43.75);
    t.append(text(prov[0], prov[1], "PROVENCE", { class: "region-label" }));

    // the five Allied advancement routes
    const r = this.layers.routes;
    for (const route of L.routes) {
      const color = routeColor(route.color);
      const stops = route.stops.map((id) => this.loc[id].p);
      for (let i = 0; i + 1 < stops.length; i++) r.append(this.segment(stops[i], stops[i + 1], color, { class: "route" }));
      if (route.attack_only) {
        r.append(this.segment(stops[stops.length - 1], this.loc[route.attack_only].p, color, { class: "route attack-only" }));
      }
    }
    // the German withdrawal route, numbered 5 (Arles) down to 1 (Montelimar), then off the map
    const track = L.escape_track.map((id) => this.loc[id].p);
    for (let i = 0; i + 1 < track.length; i++) r.append(this.segment(track[i], track[i + 1], "#3a3a3a", { class: "escape" }, -13));

    this.boxes = {};
    const b = this.layers.boxes;
    const box = (key, x, y, w, hgt, title, note) => {
      const g = s("g", { class: `box box-${key}` });
      g.append(s("rect", { x, y, width: w, height: hgt, rx: 8 }));
      g.append(text(x + 10, y + 20, title, { class: "box-title" }));
      if (note) g.append(text(x + 10, y + hgt - 8, note, { class: "box-note" }));
      b.append(g);
      this.boxes[key] = { x, y, w, h: hgt };
    };
    const arles = this.loc[L.escape_track[0]].p;
    const last = this.loc[L.escape_track[L.escape_track.length - 1]].p;
    box("arrival", 10, arles[1] - 222, 250, 200, "Arrive at Arles from the west", "they arrive in German movement");
    box("escaped", last[0] - 110, 24, 240, 118, L.escape_to, "German units that got away");
    r.append(this.segment(last, [last[0], 24 + 118], "#3a3a3a", { class: "escape" }, 0, R + 2));
    box("eliminated", 14, 1228, 400, 150, "Eliminated", "+1 Allied VP each");
    const nice = this.loc.Nice ? this.loc.Nice.p : [1450, 800];
    box("beyond", nice[0] - 70, nice[1] - 230, 150, 118, "To Italy", "never eliminated");
    box("fleet", 890, 1228, 700, 150, "Invasion force offshore", "");
    // track boxes are drawn by drawTracks(), which also holds their markers
    this.trackGroup = s("g", { class: "tracks" });
    this.layers.tracks.append(this.trackGroup);

    // locations; their names keep clear of the boxes and the turn track
    this.reserved = [...Object.values(this.boxes).map((bx) => [bx.x, bx.y, bx.x + bx.w, bx.y + bx.h]), [TURN_TRACK.x - 10, TURN_TRACK.y - 8, BOUNDS.w, TURN_TRACK.y + 104]];
    const lg = this.layers.locations;
    for (const loc of Object.values(this.loc)) {
      const [x, y] = loc.p;
      const g = s("g", { class: `location ${loc.kind}${loc.fortress ? " fortress" : ""}`, dataset: { loc: loc.id }, transform: `translate(${x.toFixed(1)},${y.toFixed(1)})` });
      g.append(s("title", {}, locationTitle(loc)));
      if (loc.fortress) g.append(s("circle", { r: R + 5, class: "fortress-ring" }));
      g.append(s("circle", { r: R, class: "spot" }));
      if (loc.kind === "port") g.append(text(0, 6, "⚓", { class: "glyph" }));
      if (loc.kind === "drop_zone") g.append(text(0, 5, "DZ", { class: "glyph small" }));
      if (loc.kind === "beach") g.append(text(0, 5, "≋", { class: "glyph" }));
      if (loc.kind === "escape") g.append(text(0, 6, String(loc.number), { class: "glyph number" }));
      if (loc.vp) {
        g.append(s("path", { d: star(R + 2, -R - 2, 10), class: "vp-star" }));
        g.append(text(R + 2, -R + 2, String(loc.vp), { class: "vp-text" }));
      }
      const label = this.labelSpot(loc);
      this.layers.labels.append(text(x + label.dx, y + label.dy, shortPlace(loc.name), { class: "loc-name", "text-anchor": label.anchor, dataset: { label: loc.id } }));
      g.append(s("g", { class: "control-flag", transform: `translate(${-R - 4},${-R - 4})` },
        s("circle", { r: 7 }), text(0, 3.5, "★", { class: "flag-star" })));
      lg.append(g);
    }
  }

  // Put a location's name where it hides no other location or counter: below, above, right or left.
  labelSpot(loc) {
    this.placedLabels = this.placedLabels || [];
    const [x, y] = loc.p;
    const name = shortPlace(loc.name);
    const w = name.length * 9.6;
    const hgt = 18;
    const candidates = [
      { dx: 0, dy: 46, anchor: "middle", box: [x - w / 2, y + 28, x + w / 2, y + 28 + hgt] },
      { dx: SIZE / 2 + 6, dy: 6, anchor: "start", box: [x + SIZE / 2 + 6, y - 8, x + SIZE / 2 + 6 + w, y + 10] },
      { dx: -SIZE / 2 - 6, dy: 6, anchor: "end", box: [x - SIZE / 2 - 6 - w, y - 8, x - SIZE / 2 - 6, y + 10] },
      { dx: 0, dy: -44, anchor: "middle", box: [x - w / 2, y - 58, x + w / 2, y - 58 + hgt] },
    ];
    const hits = (b) => Object.values(this.loc).some((other) => {
      if (other.id === loc.id) return false;
      const [ox, oy] = other.p;
      return b[0] < ox + SIZE / 2 && b[2] > ox - SIZE / 2 && b[1] < oy + SIZE / 2 - 6 && b[3] > oy - SIZE / 2 - 6;
    }) || [...this.placedLabels, ...this.reserved].some((p) => b[0] < p[2] && b[2] > p[0] && b[1] < p[3] && b[3] > p[1]);
    const spot = candidates.find((c) => !hits(c.box)) || candidates[0];
    this.placedLabels.push(spot.box);
    this.labelSpots = this.labelSpots || {};
    this.labelSpots[loc.id] = spot;
    return spot;
  }

  // Where each unit stands this turn: {unitId: [x, y]} with stacks fanned out.
  placements(state) {
    const at = new Map();
    const add = (key, id) => { if (!at.has(key)) at.set(key, []); at.get(key).push(id); };
    const pos = {};
    for (const [id, u] of Object.entries(state.allied)) add(u.location ? `loc:${u.location}` : "box:fleet", id);
    for (const [id, u] of Object.entries(state.german)) {
      const where = u.location;
      if (where === "arrival box") add("box:arrival", id);
      else if (where === "escaped") add("box:escaped", id);
      else if (where === "eliminated") add("box:eliminated", id);
      else if (where === "beyond") add("box:beyond", id);
      else add(`loc:${where}`, id);
    }
    for (const [key, ids] of at) {
      if (key.startsWith("loc:")) {
        const [x, y] = this.loc[key.slice(4)].p;
        // the top unit is drawn last: the desperate 11th PzD is on top of a stack (11th PzD Special Rules)
        ids.sort((a, b) => stackRank(state, a) - stackRank(state, b));
        ids.forEach((id, i) => {
          const k = i - (ids.length - 1) / 2;
          pos[id] = [x + k * 34, y - 6 - k * 10];
        });
      } else {
        const boxKey = key.slice(4);
        const bx = this.boxes[boxKey];
        if (boxKey === "fleet") {
          ids.sort((a, b) => this.layout.routes.findIndex((r) => r.unit === a) - this.layout.routes.findIndex((r) => r.unit === b));
          ids.forEach((id, i) => { pos[id] = [bx.x + 50 + i * 132, bx.y + 66]; });
          continue;
        }
        // counters side by side in rows, none covering another's name; rows close up only when the box is full
        const step = SIZE + 8;
        const cols = Math.max(1, Math.floor((bx.w - 20) / step));
        const rows = Math.ceil(ids.length / cols);
        const rowStep = rows > 1 ? Math.min(step, (bx.h - 52 - SIZE) / (rows - 1)) : step;
        ids.forEach((id, i) => { pos[id] = [bx.x + 44 + (i % cols) * step, bx.y + 66 + Math.floor(i / cols) * rowStep]; });
      }
    }
    return pos;
  }

  // Draw the position. ui: {selectable:Set, selected, targets: Map(loc -> [actions]), pending: {unit, target}}
  render(state, ui = {}) {
    this.state = state;
    const units = this.layers.units;
    while (units.firstChild) units.removeChild(units.firstChild);
    const targets = this.layers.targets;
    while (targets.firstChild) targets.removeChild(targets.firstChild);
    const control = new Set(state.allied_control || []);
    for (const g of this.layers.locations.querySelectorAll(".location")) {
      g.classList.toggle("allied-control", control.has(g.dataset.loc));
      g.classList.toggle("target", !!(ui.targets && ui.targets.has(g.dataset.loc)));
    }
    const pos = this.placements(state);
    this.positions = pos;
    this.moveLabels(state, pos);
    // the selected unit's possible attacks: a bold arrow to each target and a pulsing ring on it
    if (ui.targets && ui.selected && pos[ui.selected]) {
      for (const [loc] of ui.targets) {
        const to = this.loc[loc].p;
        const color = routeColor(this.layout.units[ui.selected].color);
        targets.append(this.segment(pos[ui.selected], to, color, { class: "target-arrow" }, 0, SIZE / 2 + 6));
        targets.append(s("circle", { cx: to[0], cy: to[1], r: SIZE / 2 + 14, class: "target-ring", dataset: { loc } }));
      }
    }
    if (ui.pending) {
      const to = this.loc[ui.pending.target];
      if (to) targets.append(s("circle", { cx: to.p[0], cy: to.p[1], r: R + 20, class: "pending-ring" }));
    }
    const order = Object.keys(pos).sort((a, b) => (a === ui.selected) - (b === ui.selected));
    for (const id of order) {
      const info = this.layout.units[id];
      const u = info.side === "Allied" ? state.allied[id] : state.german[id];
      const status = {
        stalled: info.side === "Allied" && u.stalled,
        ffi: info.side === "Allied" && u.ffi,
        spent: info.side === "Allied" && u.spent && u.location,
        desperate: info.side === "German" && u.desperate ? fmtDrm(this.layout.desperate_drm[id]) : null,
        selectable: ui.selectable && ui.selectable.has(id),
        selected: ui.selected === id,
        targeted: info.side === "German" && ui.targets && u.location && ui.targets.has(u.location),
      };
      const c = counter(id, info, status);
      const [x, y] = pos[id];
      c.setAttribute("transform", `translate(${x.toFixed(1)},${y.toFixed(1)})`);
      if (info.side === "German" && u.location && this.loc[u.location]) c.dataset.loc = u.location;
      if (info.side === "Allied" && !u.location) {
        const route = this.layout.routes.find((r) => r.unit === id);
        const note = route.landing_turn ? `lands ${route.landing_turn} ${this.layout.turns.month}` : `→ ${route.stops[0].replace(/-/g, " ")}`;
        units.append(text(x, y + SIZE / 2 + 16, note, { class: "fleet-note" }));
      }
      units.append(c);
    }
    this.drawTracks(state);
  }

  // A name stays beside the stack on its location, not over the counters.
  moveLabels(state, pos) {
    const byLoc = {};
    for (const [id, u] of [...Object.entries(state.allied), ...Object.entries(state.german)]) {
      if (u.location && this.loc[u.location] && pos[id]) (byLoc[u.location] = byLoc[u.location] || []).push(pos[id]);
    }
    for (const label of this.layers.labels.querySelectorAll("[data-label]")) {
      const loc = this.loc[label.dataset.label];
      const spot = this.labelSpots[loc.id];
      const stack = byLoc[loc.id];
      let [x, y] = [loc.p[0] + spot.dx, loc.p[1] + spot.dy];
      if (stack) {
        const xs = stack.map((p) => p[0]);
        const ys = stack.map((p) => p[1]);
        if (spot.anchor === "start") x = Math.max(x, Math.max(...xs) + SIZE / 2 + 6);
        else if (spot.anchor === "end") x = Math.min(x, Math.min(...xs) - SIZE / 2 - 6);
        else if (spot.dy > 0) y = Math.max(y, Math.max(...ys) + SIZE / 2 + 20);
        else y = Math.min(y, Math.min(...ys) - SIZE / 2 - 6);
      }
      label.setAttribute("x", x.toFixed(1));
      label.setAttribute("y", y.toFixed(1));
    }
  }

  drawTracks(state) {
    const g = this.trackGroup;
    while (g.firstChild) g.removeChild(g.firstChild);
    const L = this.layout;
    // turn track, top right
    const turns = [];
    for (let t = L.turns.first; t <= L.turns.last; t++) turns.push(t);
    const { x: tx, y: ty, cell } = TURN_TRACK;
    g.append(s("rect", { x: tx - 10, y: ty - 8, width: turns.length * cell + 14, height: 110, rx: 8, class: "track-panel" }));
    g.append(text(tx, ty + 10, "Turn (August 1944)", { class: "box-title" }));
    const arrivals = {};
    for (const [id, u] of Object.entries(L.units)) if (u.arrival_turn) (arrivals[u.arrival_turn] = arrivals[u.arrival_turn] || []).push(id);
    const landings = {};
    for (const r of L.routes) if (r.landing_turn) (landings[r.landing_turn] = landings[r.landing_turn] || []).push(r.unit);
    turns.forEach((t, i) => {
      const x = tx + i * cell;
      const current = t === state.turn;
      g.append(s("rect", { x, y: ty + 20, width: cell - 6, height: 46, rx: 5, class: current ? "turn-cell current" : (t < state.turn ? "turn-cell past" : "turn-cell"), dataset: { turn: t } }));
      g.append(text(x + (cell - 6) / 2, ty + 50, String(t), { class: current ? "turn-num current" : "turn-num" }));
      if (landings[t]) g.append(s("text", { x: x + (cell - 6) / 2, y: ty + 80, class: "turn-note allied" }, "FR lands", s("title", {}, `French landing on Alpha Beach: ${landings[t].join(", ")}`)));
      if (arrivals[t]) g.append(s("text", { x: x + (cell - 6) / 2, y: ty + 94, class: "turn-note" }, `+${arrivals[t].length} Ger`, s("title", {}, `German arrival at Arles: ${arrivals[t].join(", ")}`)));
    });
    // RP track, Air and the BOT's last roll, in the sea
    const rx = 440;
    const ry = 1228;
    g.append(s("rect", { x: rx, y: ry, width: 430, height: 150, rx: 8, class: "track-panel" }));
    g.append(text(rx + 10, ry + 20, "Replacement Points (RP)", { class: "box-title" }));
    for (let v = 0; v <= L.rp_max; v++) {
      const x = rx + 12 + v * 58;
      g.append(s("rect", { x, y: ry + 30, width: 50, height: 40, rx: 5, class: v === state.rp ? "rp-cell current" : "rp-cell" }));
      g.append(text(x + 25, ry + 57, String(v), { class: v === state.rp ? "turn-num current" : "turn-num" }));
    }
    const air = state.air || {};
    // one convention with the log and the odds: a DRM is added to the die ("DRM +1" = needs one less)
    const airText = air.grounded ? "Air: grounded (bad weather)" : air.used ? "Air: used this turn" : "Air ready: DRM +1 to one attack";
    g.append(s("g", { class: `air-marker ${air.grounded ? "grounded" : air.used ? "used" : "ready"}`, transform: `translate(${rx + 12},${ry + 84})` },
      s("rect", { width: 300, height: 30, rx: 5 }), text(10, 20, airText, { class: "air-text", textLength: airText.length > 30 ? 280 : undefined, lengthAdjust: "spacingAndGlyphs" })));
    if (air.bad_weather_next) g.append(text(rx + 12, ry + 140, "Bad weather forecast: no Air next turn", { class: "box-note" }));
    if (state.bot_roll) {
      g.append(text(rx + 300, ry + 104, "BOT roll", { class: "box-note" }));
      g.append(dieFace(state.bot_roll, rx + 372, ry + 80, 40));
    }
  }

  // On a small screen, start close to the Allied units, where the first turns are played.
  focus() {
    if (!this.positions || this.svg.clientWidth > 700) return;
    const pts = Object.entries(this.positions).filter(([id]) => this.layout.units[id].side === "Allied").map(([, p]) => p);
    if (!pts.length) return;
    const pad = 120;
    let x0 = Math.min(...pts.map((p) => p[0])) - pad;
    let x1 = Math.max(...pts.map((p) => p[0])) + pad;
    let y0 = Math.min(...pts.map((p) => p[1])) - pad;
    let y1 = Math.max(...pts.map((p) => p[1])) + pad;
    const aspect = this.svg.clientWidth / Math.max(1, this.svg.clientHeight);
    let w = Math.max(560, x1 - x0);
    let h = Math.max(w / aspect, y1 - y0);
    w = Math.max(w, h * aspect);
    const cx = (x0 + x1) / 2;
    const cy = (y0 + y1) / 2;
    this.zoom.view = { x: cx - w / 2, y: cy - h / 2, w, h };
    this.zoom.apply();
  }

  // -- the seat's decisions (the board interface) --------------------------------------------------
  // The seat's actions by the unit they move, from the server's descriptors ({id, kind, unit, from, to}).
  unitActions() {
    const map = new Map();
    const p = this.page.payload;
    for (const d of p ? p.actions : []) {
      if (!d.unit) continue;
      if (!map.has(d.unit)) map.set(d.unit, []);
      map.get(d.unit).push(d.id);
    }
    return map;
  }

  targetsOf(unit) {
    const targets = new Map();
    const mine = new Set(this.unitActions().get(unit) || []);
    for (const d of this.page.payload.actions) {
      if (!mine.has(d.id) || !d.to) continue;
      if (!targets.has(d.to)) targets.set(d.to, []);
      targets.get(d.to).push(d.id);
    }
    return targets;
  }

  selectUnit(unit) {
    const page = this.page;
    if (!page.payload || page.replay) return;
    const actions = this.unitActions();
    page.hideFloating();
    if (!actions.has(unit)) {
      const info = this.layout.units && this.layout.units[unit];
      if (info) toast(info.side === "Allied" ? `${info.name} has nothing to do now.` : `${info.name} (German). Attack it by selecting the Allied unit facing it.`);
      this.selected = null;
    } else if (this.selected === unit) {
      // a second click on a stack passes to the next unit beneath it that can act, else lets go
      const state = page.payload.view.state;
      const where = state.allied[unit] ? state.allied[unit].location : null;
      const stack = [...actions.keys()].filter((u) => state.allied[u] && state.allied[u].location === where);
      this.selected = stack.length > 1 ? stack[(stack.indexOf(unit) + 1) % stack.length] : null;
    } else {
      this.selected = unit;
    }
    page.render();
  }

  clickLocation(loc) {
    const page = this.page;
    if (!page.payload || page.replay) return;
    if (!this.selected) {
      // a click on a target with exactly one unit able to reach it selects that unit
      const reaching = [...this.unitActions().keys()].filter((u) => this.targetsOf(u).has(loc));
      if (reaching.length === 1) this.selected = reaching[0];
      else { page.render(); return; }
    }
    const actions = this.targetsOf(this.selected).get(loc);
    if (!actions) { this.selected = null; page.hideFloating(); page.render(); return; }
    page.render();
    this.confirm(loc, actions);
  }

  confirm(loc, actions) {
    const page = this.page;
    const place = this.layout.locations.find((l) => l.id === loc);
    const buttons = actions.map((action) => page.actionButton(action, true));
    page.showFloating(loc, h("div", { class: "confirm", id: "confirm" },
      h("h3", {}, place ? place.name.split(" (")[0] : loc),
      ...buttons,
      h("button", { class: "link", onclick: () => page.hideFloating() }, "Cancel")));
  }

  // Forget the half-made choice (a replay opens, the device passes to the other seat).
  forget() {
    this.selected = null;
  }

  // Called by the page on every change: draw the position with the seat's choices.
  present(page) {
    this.page = page;
    const p = page.payload;
    const state = p.view.state;
    const actions = this.unitActions();
    if (this.selected && !actions.has(this.selected)) this.selected = null;
    const ui = { selectable: new Set(actions.keys()), selected: this.selected };
    if (this.selected) ui.targets = this.targetsOf(this.selected);
    if (state.attack) ui.pending = { target: state.attack.target };
    if (state.bot_attack && state.allied[state.bot_attack.target]) ui.pending = { target: state.allied[state.bot_attack.target].location };
    this.render(state, ui);
  }

  showHint(action) {
    const d = this.page.payload.actions.find((x) => x.id === action);
    if (d && d.unit && this.unitActions().has(d.unit)) this.selected = d.unit;
  }

  // -- the panel -------------------------------------------------------------------------------------
  turnLabel(view) {
    return `Turn ${view.turn} ${this.layout.turns.month}`;
  }

  hudFor(p) {
    const st = p.view.state || {};
    const bits = [];
    if (st.rp !== undefined) bits.push(h("span", { class: "rp", id: "rp" }, `RP ${st.rp}`));
    if (st.air) bits.push(h("span", { class: "air" }, st.air.grounded ? "Air grounded" : st.air.used ? "Air used" : "Air ready"));
    return bits;
  }

  promptFor(page, box) {
    const p = page.payload;
    const v = p.view;
    const st = v.state;
    if (p.actions.some((d) => d.kind === "reroll")) {
      box.append(h("h2", {}, "FFI re-roll?"), h("p", {}, this.rerollQuestion(st)), ...p.actions.map((d) => page.actionButton(d.id, d.kind === "reroll")));
      this.askInPlace(page, st);
      return;
    }
    const units = this.unitActions().size;
    box.append(h("h2", {}, `Your move — ${v.phase}`),
      h("p", {}, st.rp !== undefined ? `You have ${st.rp} RP; each action costs 1. ` : "",
        units ? "Click a glowing unit to see what it can do, then click its target on the map." : "No unit can act now."));
    const general = p.actions.filter((d) => !d.unit);
    box.append(h("div", { class: "general-actions" }, general.map((d) => page.actionButton(d.id, false))));
  }

  rerollQuestion(st) {
    if (st.attack) {
      const a = st.attack;
      const outcome = a.mode === "opposed" ? "which fails: No Advance" : "so the unit advances but is stalled";
      return `${a.unit}'s attack on ${a.target} rolled ${a.roll}, ${outcome}. Its FFI marker may re-roll the die once (the marker is then removed).`;
    }
    if (st.bot_attack) {
      const b = st.bot_attack;
      return `The German ${b.attacker} counterattack on ${b.target} rolled ${b.roll} and succeeds. ${b.target}'s FFI marker can make the Germans re-roll.`;
    }
    return "Use the FFI marker to re-roll?";
  }

  askInPlace(page, st) {
    let loc = null;
    if (st.attack) loc = st.attack.target;
    else if (st.bot_attack && st.allied[st.bot_attack.target]) loc = st.allied[st.bot_attack.target].location;
    page.showFloating(loc, h("div", { class: "confirm reroll", id: "reroll-card" },
      h("h3", {}, "FFI re-roll?"), h("p", {}, this.rerollQuestion(st)),
      ...page.payload.actions.map((d) => page.actionButton(d.id, d.kind === "reroll"))));
  }

  // The selected unit's card: its status, its route with where it stands, and its actions.
  cardFor(page, box) {
    if (!this.selected) return false;
    const info = this.layout.units[this.selected];
    const u = page.payload.view.state.allied[this.selected];
    const route = this.layout.routes.find((r) => r.unit === this.selected);
    const status = [];
    if (u.stalled) status.push("stalled");
    if (u.ffi) status.push("FFI marker");
    if (u.spent) status.push("has acted this turn");
    const stops = route.stops.map((id) => {
      const name = this.layout.locations.find((l) => l.id === id).name.split(" (")[0];
      return h("span", { class: id === u.location ? "stop here" : "stop" }, name);
    });
    const kinds = new Map(page.payload.actions.map((d) => [d.id, d.kind]));
    box.append(h("h3", {}, info.name), h("p", { class: "muted" }, status.length ? status.join(" · ") : "ready"),
      h("p", { class: "route-line" }, stops.flatMap((x, i) => (i ? [" → ", x] : [x]))),
      ...(this.unitActions().get(this.selected) || []).map((a) => page.actionButton(a, ["attack", "invade"].includes(kinds.get(a)))));
    return true;
  }

  // The victory points the position is worth now, and how the game is won.
  scoreFor(p, box) {
    box.hidden = false;
    const st = p.view.state;
    const held = Object.entries(this.layout.victory.vp).filter(([loc]) => st.allied_control.includes(loc));
    const vp = held.reduce((n, [, x]) => n + x, 0) + Object.keys(st.eliminated || {}).length;
    box.append(h("h3", {}, `Victory points now: ${vp}`),
      h("p", { class: "muted" }, [...held.map(([loc, x]) => `${loc} ${x}`), `eliminated ${Object.keys(st.eliminated || {}).length}`].join(" · ")),
      h("p", { class: "muted small" }, this.layout.victory.text));
  }

  center(locId) {
    const loc = this.loc[locId];
    return loc ? loc.p : null;
  }
}

function stackRank(state, id) {
  const g = state.german[id];
  if (!g) return 0;
  return id.includes("PzD") && g.desperate ? 2 : id.includes("PzD") ? 0 : 1;
}

function fmtDrm(v) {
  return v < 0 ? `−${-v}` : `+${v}`;
}

function locationTitle(loc) {
  const parts = [loc.name];
  if (loc.kind === "escape") parts.push(`German withdrawal route, location ${loc.number}`);
  if (loc.kind === "beach") parts.push("invasion beach");
  if (loc.kind === "drop_zone") parts.push("airborne drop zone");
  if (loc.kind === "port") parts.push("port");
  if (loc.fortress) parts.push("fortress: −1 to Allied attacks");
  if (loc.vp) parts.push(`${loc.vp} VP to the Allies when held at the end`);
  if (loc.reconstructed) parts.push("(position reconstructed)");
  return parts.join(" — ");
}

function star(cx, cy, r) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const rad = (Math.PI / 5) * i - Math.PI / 2;
    const rr = i % 2 ? r * 0.45 : r;
    pts.push(`${(cx + rr * Math.cos(rad)).toFixed(1)} ${(cy + rr * Math.sin(rad)).toFixed(1)}`);
  }
  return "M" + pts.join("L") + "Z";
}
