// Panzer Saint-Lo 1944's board: the hex map and counters drawn by the shared kit (/static/js/hexmap.js) from
// /api/boards/saintlo (web/layout.py). It implements the board interface of docs/architecture.md.
//
// Units show attack-defence-mobility (an aircraft "air(land)-defence-mobility"); a used unit is drawn flipped
// (done); during setup the seat's own units are drawn face down and the enemy's as backs on their hexes
// (4.3: what they are is hidden; whether a back is an aircraft shows). Command Posts are HQ counters with their defence value. Click a
// glowing unit: the hexes it may move to light up with the Supply the move costs (0 or 1), its targets in
// red; click one. Deploying, buying and placing posts: pick a counter kind or a post value in the panel,
// then a lit hex. The panel (scoreFor) shows the Supplies, the seat's own hand with each card's text, and the
// Battle Reports in play with their effect. Every choice comes from the server's descriptors.
import { dieFace, s, ZoomPan } from "/static/js/svg.js";
import { h } from "/static/js/dom.js";
import { HexMap } from "/static/js/hexmap.js";

export function createBoard(container, layout, page) {
  return new SaintLoBoard(container, layout, page);
}

const kindOf = (unitId) => unitId.slice(0, unitId.lastIndexOf("."));
const ARMY_NAME = { allied: "Allied", axis: "Axis" };

class SaintLoBoard {
  constructor(container, layout, page) {
    this.layout = layout;
    this.page = page;
    this.selected = null; // a unit id
    this.placing = null; // {kind: "deploy"|"buy"|"post", key}: a counter kind or a post value picked in the panel
    this.svg = s("svg", { class: "board saintlo-board", id: "board", preserveAspectRatio: "xMidYMid meet", role: "img", "aria-label": "Hex map of Saint-Lô" });
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

  actions() {
    return (this.page.payload && this.page.payload.actions) || [];
  }

  unitActions() {
    const byUnit = new Map();
    for (const d of this.actions()) {
      if (!d.unit || !d.to) continue;
      if (!byUnit.has(d.unit)) byUnit.set(d.unit, []);
      byUnit.get(d.unit).push(d);
    }
    return byUnit;
  }

  placements() {
    return this.actions().filter((d) => ["deploy", "buy", "post"].includes(d.kind));
  }

  placeKey(d) {
    return d.kind === "post" ? String(d.defense) : d.unit_kind;
  }

  values(info) {
    const attack = info.type === "aircraft" ? `${info.attack}(${info.land_attack})` : String(info.attack);
    return `${attack}-${info.defense}-${info.mobility}`;
  }

  render(state, ui = {}) {
    const counters = [];
    const setup = state.phase === "posts" || state.phase === "deploy";
    for (const post of state.posts || []) {
      if (!post.hex || post.hex === "destroyed") continue;
      counters.push({ id: `post-${post.army}-${post.hex}`, hex: post.hex, side: post.army, type: "hq", label: "Command Post", bottom: String(post.defense), classes: ["command-post"] });
    }
    // the enemy's face-down units during setup: backs on their hexes (4.3), an aircraft's marked as one
    for (const [army, backs] of Object.entries(state.backs || {})) {
      backs.forEach((b, k) => counters.push({ id: `back-${army}-${k}`, hex: b.hex, side: army, type: b.air ? "aircraft" : "none",
        label: "face down", classes: ["back"], title: `a face-down ${ARMY_NAME[army]} ${b.air ? "aircraft" : "unit"}` }));
    }
    for (const [id, u] of Object.entries(state.units || {})) {
      const info = this.layout.units[kindOf(id)];
      if (!info) continue;
      const classes = [info.type === "aircraft" ? "aircraft" : "land"];
      if (setup) classes.push("face-down");
      counters.push({ id, hex: u.hex, side: info.side, type: info.type, label: info.name, bottom: this.values(info), done: u.used,
        selectable: !!(ui.selectable && ui.selectable.has(id)), selected: ui.selected === id, classes,
        title: `${info.called || info.name} at ${u.hex}: attack ${info.type === "aircraft" ? `${info.attack} air, ${info.land_attack} land` : info.attack}, defence ${info.defense}, mobility ${info.mobility}${u.used ? ", used this turn" : ""}` });
    }
    this.map.drawUnits(counters);
    this.map.clearHighlights();
    this.map.clearMarks();
    if (ui.selected && state.units[ui.selected]) {
      this.map.mark(state.units[ui.selected].hex, "selected");
      const mine = ui.actions || [];
      this.map.highlight(new Map(mine.filter((d) => d.kind === "move").map((d) => [d.to, d.cost])));
      this.map.highlight(mine.filter((d) => d.kind === "attack").map((d) => d.to), { cls: "target" });
    }
    if (ui.placing) this.map.highlight(ui.placing.map((d) => d.to));
    if (state.attack && state.units[state.attack.attacker]) this.map.mark(state.units[state.attack.attacker].hex, "selected");
    if (state.attack && !state.attack.post && state.units[state.attack.target]) this.map.mark(state.units[state.attack.target].hex, "attacked");
  }

  present(page) {
    this.page = page;
    const actions = this.unitActions();
    if (this.selected && !actions.has(this.selected)) this.selected = null;
    let placing = null;
    if (this.placing) {
      placing = this.placements().filter((d) => d.kind === this.placing.kind && this.placeKey(d) === this.placing.key);
      if (!placing.length) { this.placing = null; placing = null; }
    }
    this.render(page.payload.view.state, { selectable: new Set(actions.keys()), selected: this.selected, actions: actions.get(this.selected), placing });
  }

  clickUnit(unit, label) {
    // a click on a hex with a target of the selected unit goes to the hex (an aircraft's attack on the land unit
    // under it is in its own hex: 7.4)
    if (this.placing || (this.selected && this.targetAt(label))) { this.clickHex(label); return; }
    if (!this.page.payload || this.page.replay || !this.unitActions().has(unit)) { this.clickHex(label); return; }
    this.selected = this.selected === unit ? null : unit;
    this.page.hideFloating();
    this.page.render();
  }

  targetAt(label) {
    const mine = this.unitActions().get(this.selected) || [];
    return mine.find((d) => d.to === label) || null;
  }

  clickHex(label) {
    if (this.page.replay) return;
    if (this.placing) {
      const d = this.placements().find((x) => x.kind === this.placing.kind && this.placeKey(x) === this.placing.key && x.to === label);
      if (d) { this.page.play(d.id); return; }
      return;
    }
    if (!this.selected) return;
    const d = this.targetAt(label);
    if (!d) { this.selected = null; this.page.hideFloating(); this.page.render(); return; }
    if (d.kind === "move") { this.selected = null; this.page.play(d.id); return; }
    this.page.showFloating(label, h("div", { class: "confirm", id: "confirm" }, h("h3", {}, `Attack ${label}`),
      this.page.actionButton(d.id, true), h("button", { class: "link", onclick: () => this.page.hideFloating() }, "Cancel")));
  }

  forget() {
    this.selected = null;
    this.placing = null;
  }

  showHint(action) {
    const d = this.actions().find((x) => x.id === action);
    if (d && d.unit && d.to) this.selected = d.unit;
    else if (d && ["deploy", "buy", "post"].includes(d.kind)) this.placing = { kind: d.kind, key: this.placeKey(d) };
  }

  hudFor(payload) {
    const v = payload.view.state;
    const bits = [h("span", { class: "chip supplies", id: "supplies" }, `Supplies: Allied ${v.supplies.allied} · Axis ${v.supplies.axis}`),
      h("span", { class: "chip posts" }, `Posts lost: Allied ${v.lost_posts.allied} · Axis ${v.lost_posts.axis} (of ${v.options.objective})`)];
    if (v.phase === "actions" || v.phase === "support" || v.phase === "support_reply") bits.push(h("span", { class: "chip" }, `Units used ${v.activations}/10`));
    return bits;
  }

  // The panel's prompt: what the seat may do besides clicking units on the map.
  promptFor(page, box) {
    const v = page.payload.view;
    const placements = this.placements();
    box.append(h("h2", {}, `Your move — ${v.phase}`));
    // setup in bulk (4.2, 4.3): the rest placed the computer's way, or all in one part of the sector, first
    const bulk = this.actions().filter((d) => d.kind === "ready" || d.kind === "sector");
    if (bulk.length) {
      box.append(h("div", { class: "bulk-setup" }, h("p", {}, "Place all the rest at once:"),
        h("div", { class: "action-list" }, bulk.map((d) => page.actionButton(d.id, d.kind === "ready"))),
        h("p", { class: "muted" }, "Or place them one by one:")));
    }
    if (placements.length) {
      const groups = new Map();
      for (const d of placements) {
        const key = `${d.kind}:${this.placeKey(d)}`;
        if (!groups.has(key)) groups.set(key, { kind: d.kind, key: this.placeKey(d), n: 0, cost: d.cost });
        groups.get(key).n += 1;
      }
      box.append(h("p", {}, "Pick what to place, then click a lit hex."), h("div", { class: "placements" }, [...groups.values()].map((g) => {
        const info = g.kind === "post" ? null : this.layout.units[g.key];
        const name = g.kind === "post" ? `Command Post (defence ${g.key})` : `${info.name} ${this.values(info)}${g.cost ? ` — ${g.cost} Supplies` : ""}`;
        const on = this.placing && this.placing.kind === g.kind && this.placing.key === g.key;
        return h("button", { class: on ? "primary place-kind" : "place-kind", dataset: { place: g.key }, onclick: () => { this.placing = on ? null : { kind: g.kind, key: g.key }; this.selected = null; page.render(); } }, name);
      })));
    } else if (this.unitActions().size) {
      box.append(h("p", {}, "Click a glowing unit: the hexes it may reach light up with the Supply the move costs, its targets in red."));
    }
    const general = this.actions().filter((d) => !(d.unit && d.to) && !["deploy", "buy", "post", "play", "ready", "sector"].includes(d.kind));
    if (general.length) box.append(h("div", { class: "general-actions" }, general.map((d) => page.actionButton(d.id, d.kind === "fire" || d.kind === "end"))));
    // Battle Reports to play (9): one fold per card, with its text and a button per target
    const plays = new Map();
    for (const d of this.actions().filter((x) => x.kind === "play")) {
      if (!plays.has(d.card)) plays.set(d.card, []);
      plays.get(d.card).push(d);
    }
    if (plays.size) {
      const army = page.payload.side && page.payload.side.startsWith("Axis") ? "axis" : "allied";
      box.append(h("h3", {}, "Play a Battle Report"), ...[...plays].map(([card, ds]) => {
        const info = (this.layout.cards[army] || {})[card] || { name: card, text: "" };
        return h("details", { class: "play-card", dataset: { card } }, h("summary", {}, `${info.name} (${ds.length})`),
          h("p", { class: "muted" }, info.text), h("div", { class: "action-list" }, ds.map((d) => page.actionButton(d.id, false))));
      }));
    }
  }

  cardFor(page, box) {
    if (!this.selected) return false;
    const info = this.layout.units[kindOf(this.selected)];
    const mine = this.unitActions().get(this.selected) || [];
    box.append(h("h3", {}, `${info.name} — ${info.type}`),
      h("p", { class: "muted" }, `Attack ${info.type === "aircraft" ? `${info.attack} against aircraft, ${info.land_attack} against land units` : info.attack}, defence ${info.defense}, mobility ${info.mobility}${info.range ? `, range ${info.range}` : ""}; cost ${info.cost}${info.foot ? "; moves without Supplies" : ""}`),
      ...mine.filter((d) => d.kind === "attack").map((d) => page.actionButton(d.id, true)));
    return true;
  }

  cardText(army, id) {
    const card = (this.layout.cards[army] || {})[id];
    return card ? h("li", { class: "report", dataset: { card: id } }, h("strong", {}, card.name), ` (${card.kind}): ${card.text}`) : h("li", {}, id);
  }

  // The side panel: the Supplies pool, the seat's own hand (no other seat's), the cards in play, the result.
  scoreFor(payload, box) {
    const v = payload.view.state;
    box.hidden = false;
    const me = payload.side;
    const parts = [h("h3", {}, "Supplies"), h("p", { id: "supply-pool" }, `Allied ${v.supplies.allied} · Axis ${v.supplies.axis}`)];
    for (const [seat, hand] of Object.entries(v.hands || {})) {
      if (Array.isArray(hand)) {
        const army = seat.startsWith("Allied") ? "allied" : "axis";
        parts.push(h("h3", {}, seat === me ? "Your Battle Reports" : `${seat}'s Battle Reports`), h("ul", { class: "hand", id: seat === me ? "hand" : undefined }, hand.map((c) => this.cardText(army, c))));
      } else {
        parts.push(h("p", { class: "muted" }, `${seat} holds ${hand} Battle Reports`));
      }
    }
    if (v.face_down) for (const [army, n] of Object.entries(v.face_down)) parts.push(h("p", { class: "face-down-count" }, `${ARMY_NAME[army]}: ${n} units deployed face down`));
    if ((v.effects || []).length) {
      parts.push(h("h3", {}, "Battle Reports in play"), h("ul", { class: "in-play", id: "in-play" }, v.effects.map((e) => {
        const li = this.cardText(e.army, e.card);
        if (e.unit) li.append(` — on ${this.unitName(v, e.unit)}`);
        return li;
      })));
    }
    const score = payload.view.result && payload.view.result.score;
    if (score) parts.push(h("pre", {}, JSON.stringify(score)));
    box.append(...parts);
  }

  turnLabel(view) {
    return `Turn ${view.turn}`;
  }

  // A throw typed in by the table assistant: each button is a throw, its faces highest first (6.2).
  rollPrompt(payload) {
    const v = payload.view.state;
    if (v.phase === "attack_roll" || v.phase === "defense_roll") {
      const who = v.phase === "attack_roll" ? `the attacker (${this.unitName(v, v.attack.attacker)})` : `the defender (${v.attack.post ? "a Command Post" : this.unitName(v, v.attack.target)})`;
      return { title: `Roll the dice of ${who}`, text: "Roll the dice at the table and press the faces they show, highest first (6551 is 6, 5, 5 and 1)." };
    }
    if (v.phase === "draw") {
      const army = (v.draw_queue[0] || "").startsWith("Axis") ? "axis" : "allied";
      const cards = Object.values(this.layout.cards[army] || {});
      return { title: "Draw a Battle Report", text: "Draw the top Battle Report of the deck and press its number in this list (9):",
        extra: h("ol", { class: "deck-list", start: 0 }, cards.map((c) => h("li", {}, c.name))) };
    }
    if (v.phase === "start_roll") return { title: "Roll for the first player", text: "Each army rolls one die: the higher starts (4)." };
    if (v.phase === "deploy" && v.bulk) return { title: "Roll for the deployment", text: "Roll a die and enter it, as often as asked: the first dice deal the counters among their hexes, the last gives the computer's placement of the rest a different turn (4.3)." };
    return null;
  }

  // A throw in "What just happened" drawn as the dice lie (6.2): the attacker's, a gap, the defender's, each
  // die with its pips, its faces in its title; the event's sentence beside it says the same in words.
  eventFace(event) {
    if (event.type !== "dice" || !Array.isArray(event.attacker_dice)) return null;
    const dice = [...event.attacker_dice, ...(event.defender_dice || [])];
    const size = 20;
    const width = dice.length * (size + 2) + (event.defender_dice && event.defender_dice.length ? 8 : 0);
    const svg = s("svg", { class: "sl-event-dice", viewBox: `0 0 ${width} ${size + 2}`, width: Math.round(width * 0.8), height: Math.round((size + 2) * 0.8),
      role: "img", "aria-label": `attacker ${event.attacker_dice.join(", ")}; defender ${(event.defender_dice || []).join(", ") || "no dice"}` });
    let x = 1;
    event.attacker_dice.forEach((v) => { svg.append(dieFace(v, x, 1, size)); x += size + 2; });
    x += 8;
    (event.defender_dice || []).forEach((v) => { svg.append(dieFace(v, x, 1, size)); x += size + 2; });
    return svg;
  }

  waitingFor(payload) {
    const v = payload.view.state;
    const a = v.attack;
    return a ? `${this.unitName(v, a.attacker)} attacks ${a.post ? "a Command Post" : this.unitName(v, a.target)}` : null;
  }

  // A counter as players name it (names.py): its printed name and its hex, "Tiger I at 1408"; never its id.
  unitName(state, id) {
    const info = this.layout.units[kindOf(id)];
    const name = info ? info.called || info.name : "a unit";
    const u = (state.units || {})[id];
    return u ? `${name} at ${u.hex}` : name;
  }
}
