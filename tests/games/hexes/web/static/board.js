// Hex skirmish's board (a test game): the map and counters drawn by the shared hex map kit
// (/static/js/hexmap.js) from /api/boards/hexskirmish (web/layout.py). It implements the board interface of
// docs/architecture.md: click a glowing unit, its reachable hexes light up with their MP cost (from the
// server's move descriptors: unit, from, to, cost), click one to move; an adjacent enemy lights up red,
// click it to see the attack with its odds.
import { s, ZoomPan } from "/static/js/svg.js";
import { h } from "/static/js/dom.js";
import { HexMap, costText } from "/static/js/hexmap.js";

export function createBoard(container, layout, page) {
  return new HexesBoard(container, layout, page);
}

class HexesBoard {
  constructor(container, layout, page) {
    this.layout = layout;
    this.page = page;
    this.selected = null;
    this.svg = s("svg", { class: "board hexes-board", id: "board", preserveAspectRatio: "xMidYMid meet", role: "img", "aria-label": "Hex map" });
    this.map = new HexMap(this.svg, layout.map, {
      onHex: (label) => this.clickHex(label),
      onCounter: (unit, label) => this.clickUnit(unit, label),
    });
    container.append(this.svg);
    this.zoom = new ZoomPan(this.svg, this.map.bounds);
  }

  center(label) {
    return this.map.center(label);
  }

  // The seat's actions by the unit that acts, from the server's descriptors.
  unitActions() {
    const byUnit = new Map();
    for (const d of (this.page.payload && this.page.payload.actions) || []) {
      if (!d.unit) continue;
      if (!byUnit.has(d.unit)) byUnit.set(d.unit, []);
      byUnit.get(d.unit).push(d);
    }
    return byUnit;
  }

  render(state, ui = {}) {
    const units = [];
    for (const [id, u] of Object.entries(state.units)) {
      if (!u.hex) continue;
      const info = this.layout.units[id];
      units.push({ id, hex: u.hex, side: info.side.toLowerCase(), type: info.type, label: id, bottom: [info.attack, info.mp],
        steps: u.steps, maxSteps: 2, done: u.done, selectable: !!(ui.selectable && ui.selectable.has(id)), selected: ui.selected === id });
    }
    this.map.drawUnits(units);
    this.map.clearHighlights();
    this.map.clearMarks();
    if (ui.selected && state.units[ui.selected]) {
      this.map.mark(state.units[ui.selected].hex, "selected");
      const mine = ui.actions || [];
      this.map.highlight(new Map(mine.filter((d) => d.kind === "move").map((d) => [d.to, d.cost])));
      this.map.highlight(mine.filter((d) => d.kind === "attack").map((d) => d.to), { cls: "target" });
    }
    if (state.attack) this.map.mark(state.units[state.attack[1]].hex, "attacked");
  }

  present(page) {
    this.page = page;
    const actions = this.unitActions();
    if (this.selected && !actions.has(this.selected)) this.selected = null;
    this.render(page.payload.view.state, { selectable: new Set(actions.keys()), selected: this.selected, actions: actions.get(this.selected) });
  }

  clickUnit(unit, label) {
    if (this.selected && this.selected !== unit && this.targetAt(label)) { this.clickHex(label); return; }
    if (!this.page.payload || this.page.replay || !this.unitActions().has(unit)) return;
    this.selected = this.selected === unit ? null : unit;
    this.page.hideFloating();
    this.page.render();
  }

  targetAt(label) {
    const mine = this.unitActions().get(this.selected) || [];
    return mine.find((d) => d.to === label) || null;
  }

  clickHex(label) {
    if (!this.selected || this.page.replay) return;
    const d = this.targetAt(label);
    if (!d) { this.selected = null; this.page.hideFloating(); this.page.render(); return; }
    if (d.kind === "move") { this.selected = null; this.page.play(d.id); return; }
    this.page.showFloating(label, h("div", { class: "confirm", id: "confirm" }, h("h3", {}, `Attack ${label}`),
      this.page.actionButton(d.id, true), h("button", { class: "link", onclick: () => this.page.hideFloating() }, "Cancel")));
  }

  forget() {
    this.selected = null;
  }

  showHint(action) {
    const d = this.page.payload.actions.find((x) => x.id === action);
    if (d && d.unit) this.selected = d.unit;
  }

  turnLabel(view) {
    return `Turn ${view.turn} of ${this.layout.turns}`;
  }

  promptFor(page, box) {
    const v = page.payload.view;
    box.append(h("h2", {}, `Your move — ${v.phase}`),
      h("p", {}, this.unitActions().size ? "Click a glowing unit: the hexes it can reach light up with their cost in MP. Click one to move there." : "No unit can act now."),
      h("div", { class: "general-actions" }, page.payload.actions.filter((d) => !d.unit).map((d) => page.actionButton(d.id, false))));
  }

  cardFor(page, box) {
    if (!this.selected) return false;
    const info = this.layout.units[this.selected];
    const mine = this.unitActions().get(this.selected) || [];
    const moves = mine.filter((d) => d.kind === "move");
    const cheapest = moves.length ? Math.min(...moves.map((d) => d.cost)) : null;
    box.append(h("h3", {}, `${this.selected} — ${info.type}`),
      h("p", { class: "muted" }, `${info.mp} MP, attack ${info.attack}; ${moves.length} hexes in reach${cheapest !== null ? ` (from ${costText(cheapest)} MP)` : ""}`),
      ...mine.filter((d) => d.kind === "attack").map((d) => page.actionButton(d.id, true)));
    return true;
  }
}
