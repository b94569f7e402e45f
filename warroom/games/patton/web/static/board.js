// The Patton board (Major Battles and Campaigns of General George S. Patton), drawn from /api/boards/patton
// (web/layout.py), served from this game's own folder; it implements the board interface of docs/architecture.md:
// each scenario's towns and roads by type (solid 1 MP, dashed 2, dotted 3), landing areas, red, (*) and
// defection towns; the units as NATO counters; the movement cards, MP and turn. The board also runs the
// seat's decisions in place: pick a town with your units, then where they go; battles, casualties,
// retreats and placement are asked on the map, with the engine's exact odds before you commit.
import { dieFace, s, text, ZoomPan } from "/static/js/svg.js";
import { h, clear, pct } from "/static/js/dom.js";

const STRIP = 210; // the band under the map: turn track, road legend, movement cards, MP
const MIN_W = 1200;
const TOWN_R = 19;
const C = 42; // counter size
const BEYOND = 3000; // sea and land go on past the board's edges when panned
const UNITS_DY = -30; // a town's counters stand just above its circle
const ROAD_DASH = { solid: null, dashed: "16 10", dotted: "0.5 10" };

// The page's entry point (the board interface): one board for the game's page.
export function createBoard(container, layout, page, payload) {
  return new PattonBoard(container, layout, page, payload);
}

// A legal action as the server describes it (web/actions.py): its verb, force {a, i}, origin and target town.
function act(d) {
  return { id: d.id, verb: d.kind, mix: d.armor !== undefined ? { a: d.armor, i: d.infantry } : null, from: d.from, to: d.to };
}

export function mixText(a, i) {
  return `${a ? `${a}A` : ""}${i ? `${i}I` : ""}` || "none";
}

function unitsWords(a, i) {
  const parts = [];
  if (a) parts.push(`${a} Armored`);
  if (i) parts.push(`${i} Infantry`);
  return parts.join(" and ") || "no Units";
}

// A win / tie / lose bar from odds.outcome (the seat's own side of the battle); its title is the full text.
function oddsBar(odds) {
  const o = odds.outcome;
  return h("div", { class: "p-odds-bar", title: odds.text },
    ...[["win", "you win"], ["tie", "tie"], ["lose", "you lose"]].map(([k, word]) => (o[k] > 0 ? h("span", { class: `p-odds-${k}`, style: `flex:${o[k]}` }, o[k] >= 0.12 ? `${word} ${pct(o[k])}` : "") : null)));
}

// A scenario's layout with another turn limit (the option `turn_limit`): the track's length and the objective's words.
function withTurnLimit(sc, limit) {
  const said = `end of turn ${sc.turns}`;
  const text = sc.objective.text.includes(said) ? sc.objective.text.replace(said, `end of turn ${limit}`) : `${sc.objective.text} This game ends after turn ${limit}.`;
  return { ...sc, turns: limit, objective: { ...sc.objective, text } };
}

export class PattonBoard {
  constructor(container, layout, page, payload) {
    this.layout = layout;
    this.game = page;
    const scenario = (payload && (payload.view.state.scenario || payload.scenario)) || Object.keys(layout.scenarios)[0];
    this.sc = layout.scenarios[scenario];
    // Sicily's turn limit is a rules option: the turn track and the objective follow this game's own
    const limit = payload && payload.view.state.options && payload.view.state.options.turn_limit;
    if (limit && !this.sc.game_ends_card && limit !== this.sc.turns) this.sc = withTurnLimit(this.sc, limit);
    this.rules = (payload && payload.options) || []; // the rules options switched on, in words (for the help)
    this.town = Object.fromEntries(this.sc.towns.map((t) => [t.id, t]));
    this.landing = Object.fromEntries(this.sc.landings.map((l) => [l.id, l]));
    this.roadOf = {};
    for (const r of this.sc.roads) { this.roadOf[`${r.a}|${r.b}`] = r; this.roadOf[`${r.b}|${r.a}`] = r; }
    // a margin on the right keeps the zoom buttons off the map's eastern towns
    this.bounds = { x: 0, y: 0, w: Math.max(this.sc.map.w + 90, MIN_W), h: this.sc.map.h + STRIP };
    this.origin = null; // the town (or landing area) whose units the seat is moving
    this.choice = null; // {from, to, mix}: the chooser open on the map
    this.svg = s("svg", { class: "board patton", id: "board", xmlns: "http://www.w3.org/2000/svg", preserveAspectRatio: "xMidYMid meet", role: "img", "aria-label": `${this.sc.title} map` });
    this.defs = s("defs");
    this.svg.append(this.defs);
    this.layers = {};
    for (const name of ["terrain", "roads", "marks", "landings", "towns", "highlight", "stacks", "units", "labels", "strip"]) {
      this.layers[name] = s("g", { class: `layer-${name}` });
      this.svg.append(this.layers[name]);
    }
    this.drawStatic();
    container.append(this.svg);
    this.zoom = new ZoomPan(this.svg, this.bounds);
    this.svg.addEventListener("click", (e) => this.onClick(e));
    this.svg.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); this.onClick(e); } });
  }

  // -- the map that never changes ----------------------------------------------------------------
  drawStatic() {
    const t = this.layers.terrain;
    const { w } = this.bounds;
    this.defs.append(s("pattern", { id: "patton-waves", width: 44, height: 18, patternUnits: "userSpaceOnUse" },
      s("path", { d: "M0 9q11 -7 22 0t22 0", fill: "none", stroke: "#9fc1d8", "stroke-width": 1.3 })));
    this.defs.append(s("marker", { id: "patton-arrow", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 4.5, markerHeight: 4.5, orient: "auto-start-reverse" },
      s("path", { d: "M0 0L10 5L0 10z", fill: "context-stroke" })));
    const around = { x: -BEYOND, y: -BEYOND, width: w + 2 * BEYOND, height: this.sc.map.h + BEYOND };
    if (this.sc.land.length) {
      t.append(s("rect", { ...around, class: "p-sea" }), s("rect", { ...around, class: "p-sea-waves" }));
      for (const ring of this.sc.land) t.append(s("path", { d: smoothPath(ring, true), class: "p-land" }));
    } else {
      t.append(s("rect", { ...around, class: "p-land plain" }));
    }
    for (const n of this.sc.names || []) {
      // kept inside the board, clear of the zoom buttons (an estimate of the spaced-out text's width)
      const half = (n.text.length * (n.kind === "sea" ? 21 : 36)) / 2;
      const x = Math.max(half + 10, Math.min(w - 110 - half, n.x));
      t.append(text(x, n.y, n.text, { class: `p-region ${n.kind}`, "text-anchor": "middle" }));
    }
    if (this.sc.towns.some((town) => town.front)) this.drawFrontLine();

    const roads = this.layers.roads;
    for (const r of this.sc.roads) {
      const a = this.town[r.a];
      const b = this.town[r.b];
      const d = `M${a.x} ${a.y}L${b.x} ${b.y}`;
      roads.append(s("path", { d, class: "p-road-casing" }));
      roads.append(s("path", { d, class: `p-road ${r.kind}`, "stroke-dasharray": ROAD_DASH[r.kind], dataset: { road: `${r.a}|${r.b}` } },
        s("title", {}, `${a.name} – ${b.name}: ${r.kind} road, ${r.mp} MP a Unit`)));
    }

    const lg = this.layers.landings;
    for (const l of this.sc.landings) {
      const to = this.town[l.town];
      const ang = Math.atan2(to.y - l.y, to.x - l.x);
      const g = s("g", { class: "p-landing", dataset: { landing: l.id }, transform: `translate(${l.x},${l.y})`, tabindex: 0 });
      g.append(s("title", {}, `${l.id.replace(/-/g, " ")}: lands up to ${l.capacity} Units a turn into ${to.name} (1 MP a Unit)`));
      g.append(s("line", { x1: 0, y1: 0, x2: Math.hypot(to.x - l.x, to.y - l.y) - TOWN_R - 8, y2: 0, class: "p-landing-arrow", transform: `rotate(${(ang * 180) / Math.PI})`, "marker-end": "url(#patton-arrow)" }));
      const r = 30;
      const pts = [0, 1, 2].map((k) => [r * Math.cos(ang + (k * 2 * Math.PI) / 3), r * Math.sin(ang + (k * 2 * Math.PI) / 3)]);
      g.append(s("path", { d: `M${pts.map((p) => p.map((v) => v.toFixed(1)).join(" ")).join("L")}Z`, class: "p-landing-tri" }));
      g.append(text(0, 7, String(l.capacity), { class: "p-landing-cap" }));
      lg.append(g);
    }

    const tg = this.layers.towns;
    const obj = this.sc.objective;
    for (const town of this.sc.towns) {
      const g = s("g", { class: `p-town${town.red ? " red" : ""}${town.front ? " front" : ""}`, dataset: { town: town.id }, transform: `translate(${town.x},${town.y})` });
      g.append(s("title", {}, townTitle(town, this.sc)));
      if (town.id === obj.hold || town.id === obj.relieve) g.append(s("circle", { r: TOWN_R + 7, class: "p-objective-ring" }));
      g.append(s("circle", { r: TOWN_R, class: "p-spot" }));
      if (town.star) g.append(s("path", { d: starPath(TOWN_R - 2, -TOWN_R + 2, 9), class: "p-star" }));
      if (town.defection) {
        g.append(s("circle", { cx: -TOWN_R + 1, cy: -TOWN_R + 3, r: 10, class: "p-defect" }));
        g.append(text(-TOWN_R + 1, -TOWN_R + 7.5, String(town.defection), { class: "p-defect-num" }));
      }
      if (town.id === obj.hold || town.id === obj.relieve) g.append(text(0, 6, "⚑", { class: "p-glyph" }));
      tg.append(g);
    }
    this.placeLabels();
    this.drawLegend();
  }

  // Normandy: the towns behind the Front Line, inside a red-edged zone around them and their counters.
  drawFrontLine() {
    const pts = [];
    for (const t of this.sc.towns.filter((x) => x.front)) {
      for (let k = 0; k < 12; k++) {
        const a = (k * Math.PI) / 6;
        pts.push([t.x + Math.cos(a) * 64, t.y - 18 + Math.sin(a) * 66]);
      }
    }
    const hull = convexHull(pts);
    const d = smoothPath(hull, true);
    this.layers.terrain.append(s("path", { d, class: "p-front-zone" }), s("path", { d, class: "p-front" }));
    const west = hull.reduce((p, q) => (q[0] < p[0] ? q : p));
    this.layers.terrain.append(text(west[0] - 10, west[1] + 6, "FRONT LINE", { class: "p-front-label", "text-anchor": "end" }));
    this.layers.terrain.lastChild.append(s("title", {}, "The towns behind the Front Line: where the American Units start"));
  }

  // A town's name goes below it, else to a side, where it covers no other town, counter or name.
  placeLabels() {
    const boxes = [];
    const occupied = this.sc.towns.map((t) => [t.x - C - 4, t.y + UNITS_DY - C / 2 - 3, t.x + C + 4, t.y + TOWN_R + 2]);
    const landings = this.sc.landings.map((l) => [l.x - 28, l.y - 28, l.x + 28, l.y + 28]);
    for (const town of this.sc.towns) {
      const w = town.name.length * 10.4 + 6;
      const { x, y } = town;
      const below = y + TOWN_R + 20;
      const options = [
        { x, y: below, anchor: "middle", box: [x - w / 2, below - 16, x + w / 2, below + 5] },
        { x: x + TOWN_R + 7, y: y + 7, anchor: "start", box: [x + TOWN_R + 7, y - 9, x + TOWN_R + 7 + w, y + 12] },
        { x: x - TOWN_R - 7, y: y + 7, anchor: "end", box: [x - TOWN_R - 7 - w, y - 9, x - TOWN_R - 7, y + 12] },
        { x, y: below + 20, anchor: "middle", box: [x - w / 2, below + 4, x + w / 2, below + 25] },
      ];
      const others = occupied.filter((_, k) => this.sc.towns[k] !== town);
      const clash = (b) => [...boxes, ...landings, ...others].some((o) => b[0] < o[2] && b[2] > o[0] && b[1] < o[3] && b[3] > o[1]);
      const spot = options.find((o) => !clash(o.box)) || options[0];
      boxes.push(spot.box);
      this.layers.labels.append(text(spot.x, spot.y, town.name, { class: `p-name${town.red ? " red" : ""}`, "text-anchor": spot.anchor, dataset: { label: town.id } }));
    }
  }

  drawLegend() {
    const y0 = this.sc.map.h;
    const g = this.layers.strip;
    g.append(s("rect", { x: -BEYOND, y: y0, width: this.bounds.w + 2 * BEYOND, height: STRIP + BEYOND, class: "p-strip" }));
    const legend = s("g", { transform: `translate(${this.bounds.w - 250},${y0 + 16})` });
    legend.append(text(0, 20, "Roads: MP a Unit", { class: "p-strip-title" }));
    ["solid", "dashed", "dotted"].forEach((kind, k) => {
      const y = 50 + k * 34;
      legend.append(s("path", { d: `M0 ${y}H84`, class: "p-road-casing" }));
      legend.append(s("path", { d: `M0 ${y}H84`, class: `p-road ${kind}`, "stroke-dasharray": ROAD_DASH[kind] }));
      legend.append(text(98, y + 7, `${kind}: ${k + 1} MP`, { class: "p-strip-text" }));
    });
    legend.append(s("title", {}, "At most 5 Units may use one road in a turn; at most 10 Units stand in a town."));
    g.append(legend);
    this.stripDynamic = s("g", { class: "p-strip-state" });
    g.append(this.stripDynamic);
  }

  // -- the position ------------------------------------------------------------------------------
  // ui: {origins:Set, targets:Map(town -> [actions]), origin, battle, choice, mine: side}
  render(state, ui = {}) {
    this.state = state;
    for (const name of ["units", "stacks", "highlight", "marks"]) clear(this.layers[name]);
    const hl = this.layers.highlight;
    for (const g of this.layers.towns.querySelectorAll(".p-town")) {
      const id = g.dataset.town;
      const here = state.towns[id];
      g.classList.toggle("allied", !!here && here.side === "Allied");
      g.classList.toggle("axis", !!here && here.side === "Axis");
      g.classList.toggle("target", !!(ui.targets && ui.targets.has(id)));
      g.classList.toggle("origin", ui.origin === id);
      g.setAttribute("tabindex", ui.origins && ui.origins.has(id) || ui.targets && ui.targets.has(id) ? 0 : -1);
    }
    for (const g of this.layers.landings.querySelectorAll(".p-landing")) {
      const id = g.dataset.landing;
      g.classList.toggle("origin", ui.origin === id);
      g.classList.toggle("selectable", !!(ui.origins && ui.origins.has(id)));
      const used = (state.landing_use || {})[id];
      const cap = this.landing[id].capacity;
      g.querySelector(".p-landing-cap").textContent = used ? `${cap - used}/${cap}` : String(cap);
    }
    // roads used this turn: at most 5 Units over each
    for (const [a, b, used] of state.road_use || []) {
      const p = this.town[a];
      const q = this.town[b];
      if (!p || !q) continue;
      const mx = (p.x + q.x) / 2;
      const my = (p.y + q.y) / 2;
      this.layers.marks.append(s("g", { class: `p-road-use${used >= 5 ? " full" : ""}`, transform: `translate(${mx},${my})` },
        s("rect", { x: -19, y: -11, width: 38, height: 22, rx: 11 }), text(0, 5, `${used}/5`, {}),
        s("title", {}, `${used} of 5 Units have used this road this turn`)));
    }
    // the selected units' roads: each destination with its cost a Unit
    if (ui.origin && ui.targets) {
      const from = this.town[ui.origin] || this.landing[ui.origin];
      for (const [to] of ui.targets) {
        const dest = this.town[to];
        if (!from || !dest) continue;
        const road = this.roadOf[`${ui.origin}|${to}`];
        const enemy = state.towns[to] && state.towns[to].side && state.towns[to].side !== ui.mine;
        hl.append(s("line", { x1: from.x, y1: from.y, x2: dest.x, y2: dest.y, class: `p-path${enemy ? " attack" : ""}` }));
        if (ui.retreat) continue; // a retreat costs no MP
        const cost = road ? `${road.mp} MP` : "1 MP";
        const mx = from.x + (dest.x - from.x) * 0.55;
        const my = from.y + (dest.y - from.y) * 0.55;
        hl.append(s("g", { class: `p-cost${enemy ? " attack" : ""}`, transform: `translate(${mx},${my})` },
          s("rect", { x: -30, y: -12, width: 60, height: 24, rx: 12 }), text(0, 5, enemy ? `⚔ ${cost}` : cost, {})));
      }
    }
    if (ui.targets) {
      for (const [to] of ui.targets) {
        const t = this.town[to];
        if (t) hl.append(s("circle", { cx: t.x, cy: t.y, r: TOWN_R + 13, class: "p-target-ring", dataset: { town: to } }));
      }
    }
    if (ui.origin) {
      const o = this.town[ui.origin] || this.landing[ui.origin];
      if (o) hl.append(s("circle", { cx: o.x, cy: o.y - (this.town[ui.origin] ? 18 : 0), r: 56, class: "p-origin-ring" }));
    }
    if (state.battle) {
      const t = this.town[state.battle.target];
      if (t) hl.append(s("circle", { cx: t.x, cy: t.y, r: TOWN_R + 22, class: "p-battle-ring" }));
    }
    if (state.retreat) {
      const t = this.town[state.retreat.town];
      if (t) hl.append(s("circle", { cx: t.x, cy: t.y, r: TOWN_R + 18, class: "p-retreat-ring" }));
    }
    // units in the towns, then the attack stacks waiting on the roads outside enemy towns
    for (const [id, here] of Object.entries(state.towns)) {
      const t = this.town[id];
      if (!t || !here.side || here.armor + here.infantry === 0) continue;
      const selectable = ui.origins && ui.origins.has(id);
      this.layers.units.append(this.stack(t.x, t.y + UNITS_DY, here.side, here.armor, here.infantry, { town: id, selectable, selected: ui.origin === id, where: t.name, joined: here.joined, landed: here.landed }));
    }
    const pending = new Set();
    for (const st of state.stacks || []) {
      const to = this.town[st.to];
      const from = this.town[st.from] || this.landing[st.from];
      if (!to || !from) continue;
      pending.add(st.to);
      // on the road, halfway: stopped outside the town it attacks (landers wait in their landing area)
      const k = this.landing[st.from] ? 0.2 : 0.5;
      const x = from.x + (to.x - from.x) * k;
      const y = from.y + (to.y - from.y) * k;
      const color = this.sc.sides[st.side].color;
      const len = Math.hypot(x - to.x, y - to.y) || 1;
      const stop = Math.min(0.9, (TOWN_R + 10) / len);
      this.layers.stacks.append(s("line", { x1: x, y1: y, x2: to.x + (x - to.x) * stop, y2: to.y + (y - to.y) * stop, class: "p-attack-arrow", stroke: color, "marker-end": "url(#patton-arrow)" }));
      this.layers.stacks.append(this.stack(x, y, st.side, st.armor, st.infantry, { town: st.to, small: true, where: `outside ${to.name}, from ${from.name || st.from}` }));
    }
    for (const id of pending) {
      const t = this.town[id];
      hl.append(s("g", { class: "p-swords", transform: `translate(${t.x + TOWN_R + 4},${t.y + 4})` }, s("circle", { r: 11 }), text(0, 5, "⚔", {}), s("title", {}, `Battle for ${t.name} when the moves are over`)));
    }
    this.drawStrip(state);
    if (state.offshore && state.offshore.armor + state.offshore.infantry > 0) this.drawOffshore(state);
  }

  // A side's Units in one place: an Armored and an Infantry NATO counter, each with its count.
  stack(x, y, side, armor, infantry, opts = {}) {
    const g = s("g", { class: `p-stack${opts.selectable ? " selectable" : ""}${opts.selected ? " selected" : ""}${opts.small ? " small" : ""}`, transform: `translate(${x.toFixed(1)},${y.toFixed(1)})${opts.small ? " scale(0.78)" : ""}`, dataset: opts.town ? { town: opts.town } : {} });
    const name = this.sc.sides[side].name;
    const kinds = [];
    if (armor) kinds.push(["armor", armor]);
    if (infantry) kinds.push(["infantry", infantry]);
    const extra = [];
    if (opts.joined) extra.push(`${mixText(...opts.joined)} retreated in and do not fight`);
    if (opts.landed) extra.push(`${mixText(...opts.landed)} landed this turn and cannot move along roads`);
    g.append(s("title", {}, `${name}: ${unitsWords(armor, infantry)} ${opts.where ? `— ${opts.where}` : ""}${extra.length ? ` (${extra.join("; ")})` : ""}`));
    const width = kinds.length * (C + 3) - 3;
    if (opts.selectable || opts.selected) g.append(s("rect", { class: "p-halo", x: -width / 2 - 6, y: -C / 2 - 6, width: width + 12, height: C + 12, rx: 8 }));
    kinds.forEach(([kind, count], k) => {
      const cx = -width / 2 + k * (C + 3);
      g.append(counterShape(cx, -C / 2, kind, count, this.sc.sides[side].color));
    });
    return g;
  }

  // Sicily: the Allied force waits at sea until it lands (under the map, beside the MP).
  drawOffshore(state) {
    const x = 1080;
    const y = this.sc.map.h + 80;
    const g = s("g", { class: "p-offshore", transform: `translate(${x},${y})` });
    g.append(text(0, 20, "Offshore, to land", { class: "p-strip-title" }));
    g.append(this.stack(50, 70, "Allied", state.offshore.armor, state.offshore.infantry, { where: "offshore, waiting to land" }));
    this.stripDynamic.append(g);
  }

  // Under the map: the turn track, each side's face-up movement cards (newest last) and the mover's MP.
  drawStrip(state) {
    const g = clear(this.stripDynamic);
    const y0 = this.sc.map.h + 14;
    const turns = this.sc.turns || Math.max(15, state.turn); // Sicily: no turn limit unless an option sets one
    const room = this.bounds.w - 260 - (24 + this.sc.title.length * 13 + 76) - (this.sc.game_ends_card ? 170 : 10);
    const cell = Math.max(26, Math.min(46, Math.floor(room / turns)));
    const title = text(24, y0 + 34, this.sc.title, { class: "p-strip-title p-scenario", id: "scenario" });
    g.append(title);
    const tx = 24 + titleWidth(title, this.sc.title) + 76;
    g.append(text(tx - 60, y0 + 34, "Turn", { class: "p-strip-text" }));
    for (let t = 1; t <= turns; t++) {
      const x = tx + (t - 1) * cell;
      const cls = t === state.turn ? "current" : t < state.turn ? "past" : "";
      g.append(s("rect", { x, y: y0 + 10, width: cell - 4, height: 36, rx: 5, class: `p-turn-cell ${cls}`, dataset: { turn: t } }));
      g.append(text(x + (cell - 4) / 2, y0 + 35, String(t), { class: `p-turn-num ${cls}` }));
    }
    if (this.sc.game_ends_card) g.append(text(tx + turns * cell + 6, y0 + 35, "then Game Ends", { class: "p-strip-note" }));
    const y = y0 + 66;
    ["Allied", "Axis"].forEach((side, k) => {
      const x0 = 24 + k * 380;
      const cards = (state.cards && state.cards[side]) || [];
      const left = Math.max(0, this.sc.deal[k] - cards.length);
      const info = this.sc.sides[side];
      g.append(text(x0, y + 20, `${info.name} cards`, { class: "p-strip-title", fill: info.color }));
      g.append(text(x0 + 190, y + 20, left ? `${left} face down` : "pack turned over", { class: "p-strip-note" }));
      const shown = cards.slice(-8);
      shown.forEach((value, j) => g.append(cardShape(x0 + j * 38, y + 34, value, info.color, j === shown.length - 1)));
      if (!cards.length) g.append(text(x0, y + 72, "none turned up yet", { class: "p-strip-note" }));
    });
    const mover = this.sc.sides[state.mover];
    const mx = 784;
    g.append(text(mx, y + 20, "Movement Points", { class: "p-strip-title" }));
    if (state.phase === "placement") {
      g.append(text(mx, y + 60, "placing the Units", { class: "p-strip-note" }));
    } else {
      g.append(text(mx, y + 96, `${state.mp}`, { class: "p-mp", fill: mover.color, id: "patton-mp" }));
      const right = mx + 44 * String(state.mp).length + 14;
      g.append(text(right, y + 72, mover.name, { class: "p-strip-text", fill: mover.color }));
      g.append(text(right, y + 96, `left of ${state.mp_total}`, { class: "p-strip-text" }));
    }
  }

  center(id) {
    const t = this.town[id] || this.landing[id];
    return t ? [t.x, t.y] : null;
  }

  // On a phone, start close to the seat's own units.
  focus() {
    if (!this.state || this.svg.clientWidth > 700) return;
    const side = this.game && this.game.payload ? this.game.payload.side : "Allied";
    let pts = Object.entries(this.state.towns).filter(([, v]) => v.side === side).map(([id]) => this.town[id]).filter(Boolean);
    // Sicily: the Allies start at sea; show the big landing beaches
    if (!pts.length && side === "Allied") pts = [...this.sc.landings].sort((a, b) => b.capacity - a.capacity).slice(0, 4);
    if (!pts.length) return;
    const pad = 150;
    const x0 = Math.min(...pts.map((p) => p.x)) - pad;
    const x1 = Math.max(...pts.map((p) => p.x)) + pad;
    const y0 = Math.min(...pts.map((p) => p.y)) - pad;
    const y1 = Math.max(...pts.map((p) => p.y)) + pad;
    const aspect = this.svg.clientWidth / Math.max(1, this.svg.clientHeight);
    let w = Math.max(600, x1 - x0);
    const hh = Math.max(w / aspect, y1 - y0);
    w = Math.max(w, hh * aspect);
    this.zoom.view = { x: (x0 + x1) / 2 - w / 2, y: (y0 + y1) / 2 - hh / 2, w, h: hh };
    this.zoom.apply();
  }

  // -- the seat's decisions ------------------------------------------------------------------------
  actions() {
    const p = this.game.payload;
    return p ? p.actions.map(act) : [];
  }

  // The origins (towns or landing areas whose units may go somewhere) and, from the chosen origin
  // (or with none needed), each target town with the actions that reach it.
  options() {
    const acts = this.actions();
    const origins = new Set(acts.filter((a) => a.from).map((a) => a.from));
    if (this.origin && !origins.has(this.origin)) this.origin = null;
    if (!this.origin && origins.size === 1 && acts.every((a) => !a.to || a.from)) this.origin = [...origins][0];
    const targets = new Map();
    for (const a of acts) {
      if (!a.to) continue;
      if (a.from && a.from !== this.origin) continue;
      if (!targets.has(a.to)) targets.set(a.to, []);
      targets.get(a.to).push(a);
    }
    return { acts, origins, targets };
  }

  // Called by the game page on every change: draw, and ask the seat's decision in place.
  present(game) {
    this.game = game;
    const p = game.payload;
    if (this.seat !== p.side) { this.seat = p.side; this.origin = null; this.choice = null; } // hot-seat: the device passed
    const st = p.view.state;
    const { origins, targets } = this.options();
    const mine = p.side;
    this.render(st, { origins, targets, origin: this.origin, mine, retreat: st.phase === "retreat" });
    if (this.choice) {
      const acts = (targets.get(this.choice.to) || []).filter((a) => (a.from || null) === (this.choice.from || null));
      if (acts.length) this.openChooser(this.choice.from, this.choice.to, acts);
      else { this.choice = null; game.hideFloating(); }
    } else if (p.view.legal.length && (st.phase === "casualties" || st.phase === "tie") && st.battle) {
      this.askAtBattle(st);
    }
  }

  onClick(e) {
    const game = this.game;
    if (!game || game.replay) return;
    const el = e.target.closest("[data-town], [data-landing]");
    if (!el) {
      this.origin = null;
      this.choice = null;
      game.hideFloating();
      game.render();
      return;
    }
    const id = el.dataset.town || el.dataset.landing;
    if (game.busy) return;
    const { origins, targets } = this.options();
    if (this.origin && targets.has(id) && id !== this.origin) {
      this.openChooser(this.origin, id, targets.get(id));
      return;
    }
    if (origins.has(id)) {
      this.origin = this.origin === id && origins.size > 1 ? null : id;
      this.choice = null;
      game.hideFloating();
      game.render();
      return;
    }
    if (!this.origin && targets.has(id)) {
      this.openChooser(null, id, targets.get(id));
      return;
    }
    this.choice = null;
    if (origins.size > 1) this.origin = null;
    game.render();
    this.showInfo(id);
  }

  // A town's card when there is nothing to do there: who holds it and what it counts for.
  showInfo(id) {
    const t = this.town[id];
    if (!t) return;
    const here = this.state.towns[id];
    const lines = [townTitle(t, this.sc)];
    if (here && here.side) lines.push(`${this.sc.sides[here.side].name}: ${unitsWords(here.armor, here.infantry)}`);
    else lines.push("Empty.");
    this.game.showFloating(id, h("div", { class: "confirm p-info", id: "town-info" }, h("h3", {}, t.name), ...lines.slice(1).map((l) => h("p", {}, l)),
      h("p", { class: "muted small" }, lines[0].split(" — ").slice(1).join(" · ")),
      h("button", { class: "link", onclick: () => this.game.hideFloating() }, "Close")));
  }

  // The floating card for one destination: how many Armored and Infantry go, the label, and the odds.
  openChooser(from, to, acts) {
    const game = this.game;
    const withMix = acts.filter((a) => a.mix);
    const sameMix = (a, m) => a.mix && m && a.mix.a === m.a && a.mix.i === m.i;
    let mix = this.choice && this.choice.to === to && (this.choice.from || null) === (from || null) ? this.choice.mix : null;
    const hinted = game.hint && acts.find((a) => a.id === game.hint.action);
    if (!mix && hinted && hinted.mix) mix = hinted.mix;
    if (!mix || !withMix.some((a) => sameMix(a, mix))) {
      const best = [...withMix].sort((p, q) => (q.mix.a + q.mix.i) - (p.mix.a + p.mix.i) || q.mix.a - p.mix.a)[0];
      mix = best ? best.mix : null;
    }
    this.choice = { from, to, mix };
    const dest = this.town[to];
    const origin = from ? (this.town[from] || this.landing[from]) : null;
    const road = from ? this.roadOf[`${from}|${to}`] : null;
    const title = origin ? `${origin.name || from.replace(/-/g, " ")} → ${dest.name}` : dest.name;
    const body = [h("h3", {}, title)];
    const st = this.state;
    const enemy = st.towns[to] && st.towns[to].side && st.towns[to].side !== game.payload.side;
    if (road) body.push(h("p", { class: "muted small" }, `${road.kind} road: ${road.mp} MP a Unit${enemy ? " · an attack: the battle is fought when your moves are over" : ""}`));
    if (enemy) {
      const here = st.towns[to];
      const already = (st.stacks || []).filter((x) => x.to === to && x.side === game.payload.side);
      const outside = already.length ? `; already outside: ${already.map((x) => `${mixText(x.armor, x.infantry)} from ${this.placeName(x.from)}`).join(", ")}` : "";
      body.push(h("p", { class: "small" }, `Defending: ${this.sc.sides[here.side].name} ${mixText(here.armor, here.infantry)}${outside}.`));
    }
    if (withMix.length > 3 && mix) {
      const armorValues = [...new Set(withMix.map((a) => a.mix.a))].sort((p, q) => p - q);
      const infantryValues = [...new Set(withMix.map((a) => a.mix.i))].sort((p, q) => p - q);
      // a chip sets one kind's count; the other kind keeps its count if that group is legal, else the nearest that is
      const pick = (kind, value) => {
        const otherKind = kind === "a" ? "i" : "a";
        let next = { ...mix, [kind]: value };
        if (!withMix.some((a) => sameMix(a, next))) {
          const gap = (a) => Math.abs(a.mix[otherKind] - mix[otherKind]);
          const fits = withMix.filter((a) => a.mix[kind] === value).sort((p, q) => gap(p) - gap(q));
          if (!fits.length) return;
          next = fits[0].mix;
        }
        this.choice.mix = next;
        this.openChooser(from, to, acts);
      };
      const row = (kind, label, values) => h("div", { class: "p-chips", dataset: { kind } }, h("span", { class: "p-chip-label" }, label),
        values.map((v) => h("button", { class: `p-chip${mix[kind] === v ? " on" : ""}`, dataset: { [kind === "a" ? "armor" : "infantry"]: String(v) }, onclick: () => pick(kind, v) }, String(v))));
      if (armorValues.length > 1 || armorValues[0] > 0) body.push(row("a", "Armored", armorValues));
      if (infantryValues.length > 1 || infantryValues[0] > 0) body.push(row("i", "Infantry", infantryValues));
      const chosen = withMix.find((a) => sameMix(a, mix));
      body.push(this.button(chosen.id, true));
    } else {
      for (const a of acts) body.push(this.button(a.id, acts.length === 1 || a.verb === "battle"));
    }
    body.push(h("button", { class: "link", onclick: () => { this.choice = null; game.hideFloating(); } }, "Cancel"));
    game.showFloating(to, h("div", { class: "confirm p-chooser", id: "confirm" }, ...body));
  }

  // An action button (label from the engine, exact odds when the engine gives them) and a win/tie/lose bar.
  button(action, primary) {
    const game = this.game;
    const btn = game.actionButton(action, primary);
    btn.addEventListener("click", () => { this.choice = null; }); // a committed choice closes its card
    const odds = game.odds.move === game.payload.move ? game.odds.odds[action] : null;
    if (!odds || !odds.outcome) return btn;
    return h("div", { class: "p-odds-wrap" }, btn, oddsBar(odds), h("p", { class: "p-odds-text small" }, odds.text));
  }

  // The exact odds of the battle being fought and of every attack set up, from this seat's side: the
  // server sends them to both seats, so the side a battle is fought against sees them before it is fought.
  battleOdds(p, only) {
    const list = (p.battle_odds || []).filter((b) => !only || b.status === only);
    if (!list.length) return null;
    const name = (side) => (this.sc.sides[side] ? this.sc.sides[side].name : side);
    const heading = (b) => {
      const town = this.placeName(b.town);
      const by = b.mine === "attacker" ? "your attack" : `the ${name(b.attacker)} attack${b.mine === "defender" ? " on you" : ""}`;
      if (b.status === "fighting") return `Battle for ${town}: ${by}`;
      if (b.status === "tie") return `If the tie at ${town} is refought: ${by}`;
      return `${town}: ${by}, not yet fought`;
    };
    return h("div", { class: "p-battle-odds", id: "battle-odds" }, list.map((b) =>
      h("div", { class: "p-odds-wrap", dataset: { town: b.town, status: b.status } },
        h("strong", { class: "small" }, heading(b)), oddsBar(b),
        h("p", { class: "p-odds-text small" }, `${b.text} Exactly ${b.fraction} that ${b.mine === "defender" ? "you hold" : "the attack wins"}.`))));
  }

  // Casualties and ties are asked on the map, beside the battle, with the dice thrown.
  askAtBattle(st) {
    const game = this.game;
    const b = st.battle;
    const legal = game.payload.view.legal;
    const t = this.town[b.target];
    const body = [h("h3", {}, `Battle for ${t ? t.name : b.target}`), this.battleDice(b)];
    if (st.phase === "casualties") body.push(h("p", {}, "Choose which of your Units are lost (Infantry first; 2 casualties for each Armored Unit)."));
    else body.push(h("p", {}, `A tie: either side may retreat; if neither does, the battle is fought again.`));
    for (const action of legal) body.push(this.button(action, action === "stand"));
    game.showFloating(b.target, h("div", { class: "confirm p-battle", id: "battle-card" }, ...body));
  }

  battleDice(b) {
    const row = (side, roll) => {
      const info = this.sc.sides[side];
      const faces = h("span", { class: "p-dice" });
      const svg = s("svg", { viewBox: `0 0 ${Math.max(1, roll.length) * 30} 28`, width: Math.max(1, roll.length) * 26, height: 24 });
      roll.forEach((v, k) => svg.append(dieShape(v, k * 30 + 1, 1, 26, info.dice)));
      faces.append(svg);
      const total = roll.reduce((x, y) => x + y, 0);
      return h("div", { class: "p-dice-row" }, h("strong", { style: `color:${info.color}` }, info.name), roll.length ? faces : h("span", { class: "muted" }, "no dice"), roll.length ? h("span", {}, `total ${total}`) : null);
    };
    const defender = b.attacker === "Allied" ? "Axis" : "Allied";
    return h("div", { class: "p-battle-dice" }, row(b.attacker, b.attacker_roll || []), row(defender, b.defender_roll || []));
  }

  showHint(action) {
    const d = this.game.payload.actions.find((x) => x.id === action);
    if (!d) return;
    const a = act(d);
    if (a.from) this.origin = a.from;
    this.choice = a.to ? { from: a.from || null, to: a.to, mix: a.mix } : null;
  }

  // Table assistant: what the roll being typed in is (a movement card, a battle die, a reserve die).
  rollPrompt(p) {
    const st = p.view.state;
    const mover = this.sc.sides[st.mover].name;
    if (st.phase === "card") return { title: "Turn up a movement card", text: `Table assistant: turn up the ${mover} player's next movement card and enter its value.` };
    if (st.phase === "battle_dice" && st.battle) {
      const b = st.battle;
      const attacking = (b.attacker_roll || []).length < b.attacker_dice;
      const side = attacking ? b.attacker : other(b.attacker);
      const k = attacking ? b.attacker_roll.length + 1 : (b.defender_roll || []).length + 1;
      const n = attacking ? b.attacker_dice : b.defender_dice;
      return { title: `Battle for ${this.placeName(b.target)}`, text: `Table assistant: throw the ${this.sc.sides[side].name} dice and enter die ${k} of ${n}.`,
        extra: this.battleOdds(p, "fighting") };
    }
    if (st.phase === "reserve_dice") return { title: "Reserve dice", text: `Table assistant: throw 3 dice for the ${mover} reserves and enter die ${(st.reserves.dice || []).length + 1} of 3.` };
    return null;
  }

  // -- the panel -------------------------------------------------------------------------------------
  turnLabel(view) {
    return this.sc.turns ? `Turn ${Math.min(view.turn, this.sc.turns)} of ${this.sc.turns}` : `Turn ${view.turn}`;
  }

  hudFor(p) {
    const st = p.view.state;
    const bits = [];
    if (st.phase === "movement") bits.push(h("span", { class: "rp", id: "mp" }, `MP ${st.mp} of ${st.mp_total}`));
    return bits;
  }

  waitingFor(p) {
    const st = p.view.state;
    const who = this.sc.sides[p.view.to_act] ? this.sc.sides[p.view.to_act].name : p.view.to_act;
    const what = {
      placement: "is placing Units", movement: `is moving (${st.mp} MP left)`, battle_order: "is choosing the next battle",
      casualties: "is choosing casualties", tie: "is deciding whether to retreat from the tie", retreat: "is retreating",
      reserve_ask: "is deciding whether to throw for reserves", reserve_place: "is placing reserves", defection: "is removing defecting Units",
      stacking: "is removing Units over the stacking limit",
    }[st.phase];
    return what ? `The ${who} ${what}.` : null;
  }

  // Below "waiting for …": the battles fought against this seat (or by it), with their exact odds.
  waitingExtra(p) {
    return this.battleOdds(p);
  }

  promptFor(game, box) {
    const p = game.payload;
    const st = p.view.state;
    const { acts, origins, targets } = this.options();
    const name = this.sc.sides[p.side].name;
    const general = acts.filter((a) => !a.to);
    const say = (title, ...lines) => box.append(h("h2", {}, title), ...lines.map((l) => h("p", {}, l)));
    if (st.phase === "movement") {
      const theirs = st.cards[other(p.side)] || [];
      const card = `(${name} card ${last(st.cards[p.side])}${theirs.length ? ` + ${this.sc.sides[other(p.side)].name} card ${last(theirs)}` : ""})`;
      const landing = [...origins].some((o) => this.landing[o]);
      say(`Your move — ${st.mp} MP left`, `You have ${st.mp} of ${st.mp_total} Movement Points ${card}.`,
        this.origin ? `Moving from ${this.placeName(this.origin)}: click a highlighted town. Moving into an enemy town attacks it.`
          : `Click ${landing ? "a glowing landing triangle (to land Units from the sea, 1 MP each) or " : ""}a town with your glowing Units, then where they go. A move into an enemy town stops outside it and attacks; all battles are fought after your moves.`);
      const pending = this.pendingBattles(st, p.side);
      if (pending.length) box.append(h("div", { class: "p-pending" }, h("strong", {}, "Attacks so far: "), pending.join("; ")));
    } else if (st.phase === "placement") {
      const left = st.placing[p.side];
      say(`Place your Units`, `${unitsWords(left[0], left[1])} still to place. Click a highlighted town, choose how many go there.`);
    } else if (st.phase === "battle_order") {
      say("Choose the next battle", "Click a town under attack (or a button) to fight for it next.");
    } else if (st.phase === "casualties" && st.battle) {
      say(`Casualties — battle for ${this.placeName(st.battle.target)}`, "Your Units that are lost:");
      box.append(this.battleDice(st.battle));
    } else if (st.phase === "tie" && st.battle) {
      say(`A tie at ${this.placeName(st.battle.target)}`, "Retreat voluntarily, or stand and fight the battle again.");
      box.append(this.battleDice(st.battle));
    } else if (st.phase === "retreat" && st.retreat) {
      const quota = st.retreat.quota === 1 ? "1 more Unit" : `${st.retreat.quota} more Units`;
      say(`Retreat from ${this.placeName(st.retreat.town)}`, `Up to ${quota} may retreat, along roads clear of enemy Units; the rest surrender. Click a highlighted town.`);
    } else if (st.phase === "reserve_ask") {
      say("Reserves", this.sc.sides[p.side].reserves);
    } else if (st.phase === "reserve_place") {
      say("Reserves arrive", `${unitsWords(st.reserves.pending[0], st.reserves.pending[1])} enter: click a highlighted town.`);
    } else if (st.phase === "defection") {
      say("Italian defection", `${st.defection_owed} Infantry must leave the Axis (an Armored Unit counts for 2). Click a highlighted town.`);
    } else if (st.phase === "stacking") {
      say("Stacking", "More than 10 Units in one town: choose which are removed from the game.");
    } else {
      say(`Your move — ${p.view.phase}`);
    }
    const battles = this.battleOdds(p);
    if (battles) box.append(battles);
    if (origins.size && !this.origin) box.append(h("p", { class: "muted small" }, `${origins.size} ${origins.size === 1 ? "place has" : "places have"} Units that can move.`));
    if (this.origin && origins.size > 1) box.append(h("button", { class: "link", onclick: () => { this.origin = null; this.choice = null; game.hideFloating(); game.render(); } }, "Choose other Units"));
    // decisions with no place on the map; and short lists of targets, as buttons too
    const listed = general.slice();
    const direct = [...targets.values()].flat().filter((a) => !a.from);
    if (direct.length && direct.length <= 8 && !direct.some((a) => a.mix && a.verb === "place")) listed.push(...direct);
    box.append(h("div", { class: "general-actions" }, listed.map((a) => this.button(a.id, a.verb === "end" ? false : listed.length === 1))));
  }

  placeName(id) {
    return (this.town[id] && this.town[id].name) || id.replace(/-/g, " ");
  }

  pendingBattles(st, side) {
    const by = {};
    for (const x of st.stacks || []) {
      if (x.side !== side) continue;
      (by[x.to] = by[x.to] || []).push(`${mixText(x.armor, x.infantry)} from ${this.placeName(x.from)}`);
    }
    return Object.entries(by).map(([to, list]) => `${this.placeName(to)} (${list.join(", ")})`);
  }

  // The situation: objective, forces and losses, reserves.
  scoreFor(p, box) {
    const st = p.view.state;
    const obj = this.sc.objective;
    const count = (side) => {
      let a = 0;
      let i = 0;
      for (const v of Object.values(st.towns)) if (v.side === side) { a += v.armor; i += v.infantry; }
      for (const x of st.stacks || []) if (x.side === side) { a += x.armor; i += x.infantry; }
      return [a, i];
    };
    const progress = [];
    if (obj.kind === "red_towns") {
      const red = this.sc.towns.filter((t) => t.red);
      const held = red.filter((t) => st.towns[t.id] && st.towns[t.id].side === "Allied");
      progress.push(h("p", { id: "objective-progress" }, h("strong", {}, `Red towns held: ${held.length} of ${obj.needed} needed`), held.length ? ` (${held.map((t) => t.name).join(", ")})` : ""));
    } else if (obj.kind === "relief_and_hold") {
      progress.push(h("p", { id: "objective-progress" }, h("strong", {}, `${this.placeName(obj.relieve)}: ${st.relieved ? "relieved" : "besieged"}`), ` · ${this.placeName(obj.hold)}: ${st.held ? "taken and held" : st.towns[obj.hold] && st.towns[obj.hold].side === "Allied" ? "occupied (must hold through the reply)" : "not held"}`));
    } else {
      const here = st.towns[obj.hold];
      progress.push(h("p", { id: "objective-progress" }, h("strong", {}, `${this.placeName(obj.hold)}: ${here && here.side === "Allied" ? "occupied — hold it through the Axis turn" : "in Axis hands or empty"}`)));
      if ((st.defection_used || []).length) progress.push(h("p", { class: "small" }, `Defections used: ${st.defection_used.map((t) => this.placeName(t)).join(", ")}`));
    }
    const forces = ["Allied", "Axis"].map((side) => {
      const [a, i] = count(side);
      const lost = st.eliminated[side] || [0, 0];
      const info = this.sc.sides[side];
      const offshore = side === "Allied" && st.offshore && st.offshore.armor + st.offshore.infantry ? ` · offshore ${mixText(st.offshore.armor, st.offshore.infantry)}` : "";
      return h("li", {}, h("strong", { style: `color:${info.color}` }, info.name), ` on the map ${a + i ? mixText(a, i) : "0"}${offshore} · lost ${mixText(lost[0], lost[1]) === "none" ? "0" : mixText(lost[0], lost[1])}`);
    });
    const score = p.view.result && p.view.result.score;
    if (score) progress.push(h("p", { class: "small", id: "final-score" }, this.scoreWords(score).join(" · ")));
    box.hidden = false;
    box.append(h("h3", {}, "Objective"), ...progress, h("p", { class: "muted small" }, obj.text), h("ul", { class: "p-forces" }, forces),
      h("details", { class: "small" }, h("summary", {}, "Reserves"), ...["Allied", "Axis"].map((side) => h("p", { class: "muted" }, `${this.sc.sides[side].name}: ${this.sc.sides[side].reserves}`))));
  }

  // The final score in words, with the scenario's own names and the turn as the header counts it.
  scoreWords(score) {
    const obj = this.sc.objective;
    const yes = (v) => (v ? "yes" : "no");
    const words = [];
    for (const [key, value] of Object.entries(score)) {
      if (key === "turn") words.push(this.sc.turns ? `Ended in turn ${Math.min(value, this.sc.turns)} of ${this.sc.turns}` : `Ended in turn ${value}`);
      else if (key === "bastogne_relieved") words.push(`${this.placeName(obj.relieve)} relieved: ${yes(value)}`);
      else if (key === "wiltz_held") words.push(`${this.placeName(obj.hold)} taken and held: ${yes(value)}`);
      else if (key === "messina_allied") words.push(`${this.placeName(obj.hold)} in ${this.sc.sides.Allied.name} hands: ${yes(value)}`);
      else if (key === "defection_towns_used") words.push(`Italian defections used: ${value}`);
      else if (key === "red_towns_held") words.push(`Red towns held by the ${this.sc.sides.Allied.name}: ${value}`);
      else if (key.endsWith("_units_lost")) {
        const side = key.slice(0, -"_units_lost".length);
        words.push(`${(this.sc.sides[side] || { name: side }).name} Units lost: ${value}`);
      } else words.push(`${key.replace(/_/g, " ")}: ${typeof value === "boolean" ? yes(value) : value}`);
    }
    return words;
  }

  // The dice tray: battle dice in each side's colours, movement cards as cards.
  eventFace(event) {
    if (event.type === "battle_dice" && Array.isArray(event.attacker_dice)) {
      const svg = s("svg", { class: "p-event-dice", viewBox: `0 0 ${(event.attacker_dice.length + event.defender_dice.length) * 22 + 10} 22`, width: (event.attacker_dice.length + event.defender_dice.length) * 16 + 8, height: 16 });
      let x = 0;
      const battle = this.state && this.state.battle;
      const attacker = battle ? battle.attacker : (this.state ? this.state.mover : "Allied");
      const defender = attacker === "Allied" ? "Axis" : "Allied";
      for (const v of event.attacker_dice) { svg.append(dieShape(v, x, 1, 20, this.sc.sides[attacker].dice)); x += 22; }
      x += 10;
      for (const v of event.defender_dice) { svg.append(dieShape(v, x, 1, 20, this.sc.sides[defender].dice)); x += 22; }
      return svg;
    }
    if (event.type === "card" && event.card !== undefined) {
      const svg = s("svg", { class: "p-event-card", viewBox: "0 0 30 40", width: 26, height: 34 });
      svg.append(cardShape(2, 2, event.card, "#444", true, 26, 36));
      return svg;
    }
    return null;
  }

  // The help (the board interface): the game's sections (its spec's `help`) with this game's own around
  // them: the scenario's objective, the rules options switched on, the landings, each side's reserves.
  helpSections(payload, sections) {
    const sc = this.sc;
    const own = (title, text, rule) => ({ title, text, rule });
    const items = [own("Your job", `${sc.title}. ${sc.objective.text}`, sc.objective.rule)];
    if (this.rules.length) items.push(own("Rules options in this game", this.rules.map((o) => `${o.label}: ${o.text}.`).join(" "), this.rules.map((o) => o.rule).join("; ")));
    items.push(...sections);
    if (sc.landings.length) items.push(own("Landings", "The Allied Units start at sea. Click a landing triangle (its number is how many Units it lands a turn, 1 MP each) to land them in its town; an Axis-held town is fought for at once, and landers who lose are eliminated. Yellow circles: Italian defection towns.", "Patton: Sicily — Allied Landings; Italian Defection"));
    items.push(own("Reserves", `${sc.sides.Allied.name}: ${sc.sides.Allied.reserves} ${sc.sides.Axis.name}: ${sc.sides.Axis.reserves}`, ""));
    return items;
  }

  helpNote() {
    return "Undo takes back your last decision, never past a card or die. Nothing in Patton is hidden from either side except the cards not yet turned up.";
  }

}

// The drawn width of a title (measured once it is on the page; estimated before).
function titleWidth(el, content) {
  try {
    const w = el.getComputedTextLength();
    if (w > 0) return w;
  } catch (err) { /* not laid out yet */ }
  return content.length * 13;
}

function last(list) {
  return list && list.length ? list[list.length - 1] : undefined;
}

function other(side) {
  return side === "Allied" ? "Axis" : "Allied";
}

function townTitle(town, sc) {
  const parts = [town.name];
  if (town.red) parts.push("red town (objective)");
  if (town.star) parts.push("(*) town");
  if (town.front) parts.push("behind the Front Line");
  if (town.defection) parts.push(`Italian defection: ${town.defection} Infantry`);
  if (town.id === sc.objective.hold) parts.push("objective: take and hold");
  if (town.id === sc.objective.relieve) parts.push("besieged: to be relieved");
  for (const side of ["Allied", "Axis"]) if (sc.sides[side].reserve_town === town.id) parts.push(`${sc.sides[side].name} reserves enter here`);
  if (town.reconstructed) parts.push("(position reconstructed)");
  return parts.join(" — ");
}

// One NATO counter: the side's colour, the unit symbol (armor: an oval; infantry: crossed lines) and the count.
function counterShape(x, y, kind, count, color) {
  const g = s("g", { class: `p-counter ${kind}`, transform: `translate(${x},${y})` });
  g.append(s("rect", { width: C, height: C, rx: 4, class: "p-counter-body", fill: color }));
  const fx = 7;
  const fy = 5;
  const fw = C - 14;
  const fh = 16;
  g.append(s("rect", { x: fx, y: fy, width: fw, height: fh, class: "p-nato" }));
  if (kind === "armor") g.append(s("rect", { x: fx + 3.5, y: fy + 3, width: fw - 7, height: fh - 6, rx: (fh - 6) / 2, class: "p-nato-line" }));
  else g.append(s("path", { d: `M${fx} ${fy}L${fx + fw} ${fy + fh}M${fx + fw} ${fy}L${fx} ${fy + fh}`, class: "p-nato-line" }));
  g.append(text(C / 2, C - 4, String(count), { class: "p-count" }));
  return g;
}

function cardShape(x, y, value, color, newest, w = 34, hgt = 48) {
  const g = s("g", { class: `p-card${newest ? " newest" : ""}`, transform: `translate(${x},${y})` });
  g.append(s("rect", { width: w, height: hgt, rx: 5, class: "p-card-body", stroke: color }));
  g.append(text(w / 2, hgt / 2 + 8, String(value), { class: "p-card-value", fill: color }));
  g.append(s("title", {}, `movement card ${value}`));
  return g;
}

// The shared die face, in the colour of the side that throws it (a scenario's red or white dice).
function dieShape(value, x, y, size, color) {
  const g = dieFace(value, x, y, size);
  g.classList.add("p-die", color === "red" ? "red" : "white");
  return g;
}

function convexHull(points) {
  const pts = [...points].sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  const cross = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const half = (list) => {
    const out = [];
    for (const p of list) {
      while (out.length >= 2 && cross(out[out.length - 2], out[out.length - 1], p) <= 0) out.pop();
      out.push(p);
    }
    out.pop();
    return out;
  };
  return [...half(pts), ...half([...pts].reverse())];
}

function starPath(cx, cy, r) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const rad = (Math.PI / 5) * i - Math.PI / 2;
    const rr = i % 2 ? r * 0.45 : r;
    pts.push(`${(cx + rr * Math.cos(rad)).toFixed(1)} ${(cy + rr * Math.sin(rad)).toFixed(1)}`);
  }
  return "M" + pts.join("L") + "Z";
}

// A smooth curve through the points (Catmull-Rom as cubic Béziers); closed for a coastline.
function smoothPath(points, closed) {
  const n = points.length;
  if (n < 3) return "M" + points.map((p) => p.join(" ")).join("L");
  const at = (k) => (closed ? points[(k + n) % n] : points[Math.max(0, Math.min(n - 1, k))]);
  let d = `M${at(0)[0].toFixed(1)} ${at(0)[1].toFixed(1)}`;
  const segments = closed ? n : n - 1;
  for (let k = 0; k < segments; k++) {
    const p0 = at(k - 1);
    const p1 = at(k);
    const p2 = at(k + 1);
    const p3 = at(k + 2);
    const c1 = [p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6];
    const c2 = [p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6];
    d += `C${c1[0].toFixed(1)} ${c1[1].toFixed(1)} ${c2[0].toFixed(1)} ${c2[1].toFixed(1)} ${p2[0].toFixed(1)} ${p2[1].toFixed(1)}`;
  }
  return closed ? d + "Z" : d;
}
