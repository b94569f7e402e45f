// Patton's First Victory: Tunisia's board: the printed map and NATO counters drawn by the shared hex map kit
// (/static/js/hexmap.js) from /api/boards/tunisia (web/layout.py). It implements the board interface of
// docs/architecture.md.
//
// Counters show CF-MA (a unit) or the DRM (a support asset; an air asset's DRM/range), the reduced side striped
// with its steps as pips; an enemy stack the seat has not examined (6.0E) shows its top counter and a "?" for
// each piece beneath. Click a glowing counter: the hexes it can reach light up with their MP cost, its targets
// in red; click a target to see each way to attack it (with or without air) with its exact odds. Retreats and
// advances light up the same way; the other decisions (defensive air, losses, returns to base, replacements,
// placements) are buttons in the panel, each with its odds where a die decides. ZOC and supply on request.
import { s, ZoomPan } from "/static/js/svg.js";
import { h } from "/static/js/dom.js";
import { HexMap, costText } from "/static/js/hexmap.js";

export function createBoard(container, layout, page) {
  return new TunisiaBoard(container, layout, page);
}

const TYPES = { armor: "armor", armour: "armor", infantry: "infantry", mechanized: "mechanized", motorized: "mechanized",
  airborne: "airborne", recon: "recon", artillery: "artillery", antitank: "antitank", air: "air", general: "hq", battlegroup: "infantry" };
const BOXES = ["Return to Base box", "dead pile"];
const ROLLS = {
  air_roll_attacker: "The attacker's air combat d12 (10.2): the lower modified roll wins; a tie reduces both.",
  air_roll_defender: "The defender's air combat d12 (10.2): the lower modified roll wins; a tie reduces both.",
  attack_roll: "The attack's d12 (11.5): it succeeds at or under the CF after modifiers; a 1 always, a 12 never.",
  defense_roll: "The defence's d12 (12.2): it succeeds at or under the CF after its supports; a 1 always, a 12 never.",
  replacement_roll: "The Axis port roll, a d6 (7.7C): under the number of ports the Axis controls gains a replacement.",
  patton_roll: "The Allies' d12 for Patton's arrival (16.0A).",
  rommel_roll: "The Axis d12 for Rommel's recall (17.0A).",
};
const MAP_KINDS = ["move", "attack", "retreat", "advance"]; // chosen by clicking a counter, then a hex

class TunisiaBoard {
  constructor(container, layout, page) {
    this.layout = layout;
    this.page = page;
    this.selected = null; // a piece id
    this.overlay = null; // "zoc" | "supply" | null
    this.svg = s("svg", { class: "board tunisia-board", id: "board", preserveAspectRatio: "xMidYMid meet", role: "img", "aria-label": "Hex map of Tunisia, 1943" });
    this.map = new HexMap(this.svg, layout.map, {
      onHex: (label) => this.clickHex(label),
      onCounter: (unit, label) => this.clickUnit(unit, label),
    });
    container.append(this.svg);
    this.zoom = new ZoomPan(this.svg, this.map.bounds);
    for (const f of layout.airfields) this.map.mark(f.label, `airfield airfield-${f.side}`);
  }

  center(label) {
    return this.map.center(label);
  }

  actions() {
    return (this.page.payload && this.page.payload.actions) || [];
  }

  // The seat's map choices by the piece that acts: a move, an attack, a retreat or an advance (a hex to click).
  unitActions() {
    const byUnit = new Map();
    const pieces = (this.page.payload && this.page.payload.view.state.pieces) || {};
    for (const d of this.actions()) {
      if (!MAP_KINDS.includes(d.kind) || !d.to) continue;
      const unit = this.actorOf(d, pieces);
      if (!unit || !pieces[unit] || BOXES.includes(pieces[unit].at)) continue;
      if (!byUnit.has(unit)) byUnit.set(unit, []);
      byUnit.get(unit).push(d);
    }
    return byUnit;
  }

  // The piece that acts: the descriptor's unit, or for an attack or an advance the unit in its `from` hex.
  actorOf(d, pieces) {
    if (d.unit) return d.unit;
    for (const [id, p] of Object.entries(pieces)) if (p.at === d.from && this.layout.units[id].unit) return id;
    return null;
  }

  values(info, reduced) {
    if (info.unit) return `${reduced ? info.reduced_cf : info.cf}-${reduced ? info.reduced_ma : info.ma}`;
    const drm = reduced ? info.reduced_drm : info.drm;
    return info.air ? `${drm}/${info.range}` : String(drm);
  }

  counters(state, ui) {
    const out = [];
    const hidden = state.hidden || {};
    const sideAt = new Map();
    const order = Object.keys(this.layout.units);
    const entries = Object.entries(state.pieces || {}).filter(([, p]) => this.map.hexes.has(p.at));
    // a stack's top piece is drawn last (on top): its unit, else its first support asset (6.0E)
    entries.sort(([a], [b]) => {
      const ua = this.layout.units[a].unit;
      const ub = this.layout.units[b].unit;
      return ua !== ub ? (ua ? 1 : -1) : order.indexOf(b) - order.indexOf(a);
    });
    for (const [id, p] of entries) sideAt.set(p.at, this.layout.units[id].side);
    for (const [hex, n] of Object.entries(hidden)) {
      for (let k = 0; k < n; k++) out.push({ id: `hidden-${hex}-${k}`, hex, side: (sideAt.get(hex) || "").toLowerCase(), type: null, label: "?", classes: ["hidden-piece"], title: "a piece you have not examined (6.0E)" });
    }
    for (const [id, p] of entries) {
      const info = this.layout.units[id];
      const classes = [info.unit ? "unit" : info.air ? "air" : "support"];
      if (info.general) classes.push("general");
      out.push({ id, hex: p.at, side: info.side.toLowerCase(), type: TYPES[info.type] || info.type, label: id, bottom: this.values(info, p.reduced),
        steps: info.steps > 1 ? (p.reduced ? 1 : 2) : undefined, maxSteps: info.steps > 1 ? 2 : undefined, done: !!(p.moved || p.attacked), classes,
        selectable: !!(ui.selectable && ui.selectable.has(id)), selected: ui.selected === id,
        title: `${info.name}${info.name.includes(id) ? "" : ` (${id})`}: ${info.unit ? `CF ${info.cf}, MA ${info.ma}` : info.air ? `air DRM ${info.drm}, range ${info.range}` : `DRM ${info.drm}`}${p.reduced ? ", reduced" : ""}${p.moved ? ", moved" : ""}` });
    }
    return out;
  }

  render(state, ui = {}) {
    this.map.drawUnits(this.counters(state, ui));
    this.map.clearHighlights();
    this.map.clearMarks();
    for (const f of this.layout.airfields) this.map.mark(f.label, `airfield airfield-${f.side}`);
    if (this.overlay === "zoc") this.map.highlight(this.zoc(state, this.mySide()), { cls: "zoc" });
    if (this.overlay === "supply") this.map.highlight(this.supplied(state, this.mySide()), { cls: "supply" });
    if (ui.selected && state.pieces[ui.selected]) {
      this.map.mark(state.pieces[ui.selected].at, "selected");
      const mine = ui.actions || [];
      this.map.highlight(new Map(mine.filter((d) => d.kind === "move").map((d) => [d.to, d.cost])));
      this.map.highlight(mine.filter((d) => d.kind === "retreat" || d.kind === "advance").map((d) => d.to));
      this.map.highlight([...new Set(mine.filter((d) => d.kind === "attack").map((d) => d.to))], { cls: "target" });
    }
    if (state.battle) {
      const [, origin, target] = state.battle;
      const labels = this.layout.map.hexes;
      if (labels[origin]) this.map.mark(labels[origin].label, "selected");
      if (labels[target]) this.map.mark(labels[target].label, "attacked");
    }
  }

  mySide() {
    const p = this.page.payload;
    return (p && p.side) || (p && p.view.state.to_act) || "Axis";
  }

  // 9.0: the hexes next to an enemy unit (units are always a stack's top, so the seat sees them all).
  zoc(state, side) {
    const out = new Set();
    for (const [id, p] of Object.entries(state.pieces)) {
      const info = this.layout.units[id];
      if (info.side !== side && info.unit && this.layout.neighbours[p.at]) for (const n of this.layout.neighbours[p.at]) out.add(n);
    }
    return [...out];
  }

  // 7.8: hexes with a path to a friendly airfield over land, past no enemy piece and no EZOC not negated by a friendly piece.
  supplied(state, side) {
    const enemy = new Set();
    const friendly = new Set();
    for (const [id, p] of Object.entries(state.pieces)) (this.layout.units[id].side === side ? friendly : enemy).add(p.at);
    for (const hex of Object.keys(state.hidden || {})) enemy.add(hex);
    const ezoc = new Set(this.zoc(state, side).filter((x) => !friendly.has(x)));
    const land = new Set(this.layout.land);
    const ok = (x) => land.has(x) && !enemy.has(x) && !ezoc.has(x);
    const key = side === "Axis" ? "axis" : "allied";
    const queue = this.layout.airfields.filter((f) => f.side === key && ok(f.label)).map((f) => f.label);
    const seen = new Set(queue);
    while (queue.length) {
      for (const n of this.layout.neighbours[queue.shift()] || []) if (!seen.has(n) && ok(n)) { seen.add(n); queue.push(n); }
    }
    return [...seen];
  }

  present(page) {
    this.page = page;
    const actions = this.unitActions();
    if (this.selected && !actions.has(this.selected)) this.selected = null;
    this.render(page.payload.view.state, { selectable: new Set(actions.keys()), selected: this.selected, actions: actions.get(this.selected) });
  }

  clickUnit(unit, label) {
    if (this.selected && this.selected !== unit && this.targetsAt(label).length) { this.clickHex(label); return; }
    if (!this.page.payload || this.page.replay || !this.unitActions().has(unit)) { this.clickHex(label); return; }
    this.selected = this.selected === unit ? null : unit;
    this.page.hideFloating();
    this.page.render();
  }

  targetsAt(label) {
    return (this.unitActions().get(this.selected) || []).filter((d) => d.to === label);
  }

  clickHex(label) {
    if (!this.selected || this.page.replay) return;
    const found = this.targetsAt(label);
    if (!found.length) { this.selected = null; this.page.hideFloating(); this.page.render(); return; }
    const d = found[0];
    if (d.kind !== "attack") { this.selected = null; this.page.play(d.id); return; }
    this.page.showFloating(label, h("div", { class: "confirm", id: "confirm" }, h("h3", {}, `Attack ${label}`),
      ...found.map((x) => this.page.actionButton(x.id, !x.air)), h("button", { class: "link", onclick: () => this.page.hideFloating() }, "Cancel")));
  }

  forget() {
    this.selected = null;
  }

  showHint(action) {
    const d = this.actions().find((x) => x.id === action);
    if (!d) return;
    for (const [unit, mine] of this.unitActions()) if (mine.includes(d)) this.selected = unit;
  }

  turnLabel(view) {
    return `Turn ${view.turn} of ${this.layout.turns}`;
  }

  hudFor(payload) {
    const v = payload.view.state;
    const rate = this.layout.replacements;
    const bits = [h("span", { class: "chip replacements", id: "replacements" }, `Replacements: Axis ${rate.Axis}, Allied ${rate.Allied} a turn${v.replacements_left ? ` · ${v.replacements_left} left` : ""}`)];
    for (const [cls, name] of [["zoc", "ZOC"], ["supply", "Supply"]]) {
      bits.push(h("button", { class: this.overlay === cls ? "chip toggle on" : "chip toggle", id: `show-${cls}`, onclick: () => { this.overlay = this.overlay === cls ? null : cls; this.page.render(); } }, `Show ${name}`));
    }
    return bits;
  }

  promptFor(page, box) {
    const v = page.payload.view.state;
    box.append(h("h2", {}, `Your move — ${v.phase_name}`));
    if (this.unitActions().size) box.append(h("p", {}, "Click a glowing counter: the hexes it can reach light up with their cost in MP, its targets in red."));
    const onMap = new Set([...this.unitActions().values()].flat().map((d) => d.id));
    const others = this.actions().filter((d) => !onMap.has(d.id));
    if (others.length) box.append(h("div", { class: "general-actions" }, others.map((d) => page.actionButton(d.id, d.kind === "end" || !!d.odds))));
  }

  cardFor(page, box) {
    if (!this.selected) return false;
    const info = this.layout.units[this.selected];
    const mine = this.unitActions().get(this.selected) || [];
    const moves = mine.filter((d) => d.kind === "move");
    const cheapest = moves.length ? Math.min(...moves.map((d) => d.cost)) : null;
    box.append(h("h3", {}, `${info.name} (${this.selected})`),
      h("p", { class: "muted" }, `${info.unit ? `CF ${info.cf} (${info.reduced_cf} reduced), MA ${info.ma}` : `DRM ${info.drm}`}; ${moves.length} hexes in reach${cheapest !== null ? ` (from ${costText(cheapest)} MP)` : ""}`),
      ...mine.filter((d) => d.kind === "attack").map((d) => page.actionButton(d.id, true)));
    return true;
  }

  // The boxes (7.4D, 13.1) and the turn track: open to both sides.
  scoreFor(payload, box) {
    const v = payload.view.state;
    box.hidden = false;
    const parts = [h("h3", {}, "Turn track"), h("p", { id: "turn-track" }, Array.from({ length: this.layout.turns }, (_, k) => (k + 1 === v.turn ? `[${k + 1}]` : String(k + 1))).join(" "))];
    for (const name of BOXES) {
      // each piece by the name players read (its id is the designation its counter prints)
      const named = Object.entries(v.pieces).filter(([, p]) => p.at === name)
        .map(([id, p]) => `${(this.layout.units[id] || {}).name || id}${p.reduced ? " (reduced)" : ""}`);
      parts.push(h("h3", {}, name), h("p", { class: "box", id: name === BOXES[0] ? "return-to-base" : "dead-pile" }, named.length ? named.join(", ") : "empty"));
    }
    if (Object.keys(v.hidden || {}).length) parts.push(h("p", { class: "muted" }, `Unexamined enemy stacks (6.0E): ${Object.entries(v.hidden).map(([hex, n]) => `${hex} +${n}`).join(", ")}`));
    const result = payload.view.result;
    if (result) parts.push(h("p", { class: "result" }, `${result.winner} victory: ${result.reason} (${result.rule})`));
    box.append(...parts);
  }

  // The table assistant's prompt: what the die typed in decides, with the battle's exact outcome.
  rollPrompt(payload) {
    const v = payload.view.state;
    const text = ROLLS[v.phase];
    if (!text) return null;
    const odds = (payload.battle_odds || []).map((b) => b.text).filter(Boolean);
    return { title: v.phase_name, text: `Table assistant: roll and enter it. ${text}`, extra: odds.length ? h("p", { class: "battle-odds" }, odds.join(" ")) : undefined };
  }

  waitingFor(payload) {
    const b = payload.view.state.battle;
    if (!b) return null;
    const hexes = this.layout.map.hexes;
    return `Battle: ${hexes[b[1]] ? hexes[b[1]].label : "?"} attacks ${hexes[b[2]] ? hexes[b[2]].label : "?"}`;
  }
}
