// A game page: the board, the seat's legal actions with odds, dice, the log, undo, hints, replay.
// Everything shown comes from this seat's view; the server checks every action.
import { api, connect, seats } from "./api.js";
import { h, clear, toast, pct } from "./dom.js";
import { DragoonBoard, parseAction, dieFace } from "./dragoon.js";
import { PattonBoard } from "./patton.js";
import { s } from "./svg.js";
import { helpFor } from "./help.js";
import { fairnessChip, fairnessPanel } from "./fairness.js";

// The board of each layout kind. A board may also run the seat's choices itself: present(game) draws
// the position and asks its decisions in place, promptFor(game, box) fills the panel's prompt, and
// hudFor / turnLabel / scoreFor / waitingFor / waitingExtra / rollPrompt / eventFace / wantsOdds / showHint / help adjust the rest
// of the page. Dragoon's board has none of these: this page runs its unit-and-target choices.
const BOARDS = { routes: DragoonBoard, towns: PattonBoard };

export async function showGame(root, id, params) {
  const ctx = new GameView(root, id, params);
  window.warroomGame = ctx; // for debugging in the console
  await ctx.start();
}

class GameView {
  constructor(root, id, params) {
    this.root = root;
    this.id = id;
    this.params = params;
    this.payload = null;
    this.layout = null;
    this.board = null;
    this.log = [];
    this.selected = null;
    this.odds = { move: -1, odds: {} };
    this.busy = false;
    this.replay = null;
    this.hint = null;
    this.lastDice = [];
    this.socket = null;
    this.passTo = null;
  }

  // -- loading ---------------------------------------------------------------------------------
  // An invitation link (?invite=…) is spent once: the server answers the seat's token, kept in this
  // browser only; the address bar then drops the invite (it opens nothing any more).
  async claimInvite(invite) {
    try {
      const claimed = await api.claim(this.id, invite);
      seats.add(this.id, claimed.side, claimed.token);
      if (claimed.origin && claimed.origin.kind === "record") toast(claimed.origin.text);
    } catch (err) {
      if (!(err.code === "invite_used" && Object.keys(seats.of(this.id)).length)) {
        this.fatal(err.message);
        return false;
      }
    }
    this.params.delete("invite");
    history.replaceState(null, "", `/play/${this.id}`);
    return true;
  }

  async start() {
    const invite = this.params.get("invite");
    if (invite && !(await this.claimInvite(invite))) return;
    const urlToken = this.params.get("token");
    this.tokens = { ...seats.of(this.id) };
    let token = urlToken || Object.values(this.tokens)[0];
    if (!token) {
      this.fatal("This browser holds no seat for this game. Open the link you were given for your seat (it ends in ?token=…).");
      return;
    }
    let payload;
    try {
      payload = await api.game(this.id, token);
    } catch (err) {
      this.fatal(err.message);
      return;
    }
    seats.add(this.id, payload.side, token);
    this.tokens[payload.side] = token;
    // hot-seat: look through the eyes of the side to act, when this browser holds its seat
    const toAct = payload.view.to_act;
    if (payload.mode === "hotseat" && toAct && toAct !== payload.side && this.tokens[toAct]) {
      token = this.tokens[toAct];
      payload = await api.game(this.id, token);
    }
    this.token = token;
    this.shownSide = payload.side;
    try {
      this.layout = await api.board(payload.game);
    } catch (err) {
      this.layout = { kind: "none" };
    }
    this.build(payload);
    this.payload = payload;
    await this.reloadLog();
    this.render();
    if (this.board && this.board.focusAllied) this.board.focusAllied();
    this.listen();
    if (payload.view.over) this.showGameOver();
  }

  fatal(message) {
    clear(this.root).append(h("main", { class: "lobby" }, h("section", { class: "card" },
      h("h2", {}, "Cannot open this game"), h("p", { class: "error", id: "fatal" }, message), h("a", { href: "/", class: "button" }, "Back to the lobby"))));
  }

  listen() {
    if (this.socket) this.socket.close();
    this.socket = connect(this.id, this.token, (message) => {
      if (message.type === "update") this.apply(message);
      else if (message.type === "error") toast(message.error.message, "error");
    }, (state) => { this.liveBadge.className = `live ${state}`; this.liveBadge.title = state === "live" ? "Connected: moves appear as they are made" : "Reconnecting…"; });
  }

  async reloadLog() {
    try {
      this.log = (await api.log(this.id, this.token)).events;
    } catch (err) {
      toast(err.message, "error");
    }
  }

  // -- the page's skeleton ---------------------------------------------------------------------
  build(payload) {
    document.title = `${payload.title} — warroom`;
    this.liveBadge = h("span", { class: "live", title: "Connecting…" });
    this.headerInfo = h("div", { class: "hud", id: "hud" });
    this.undoButton = h("button", { id: "undo", onclick: () => this.undo(), title: "Take back your last decision (never past a die roll)" }, "↶ Undo");
    this.hintButton = h("button", { id: "hint", onclick: () => this.askHint(), title: "Ask the computer what it would do" }, "Hint");
    this.menu = h("details", { class: "menu" }, h("summary", {}, "☰"),
      h("div", { class: "menu-items" },
        h("a", { id: "download", href: api.recordUrl(this.id, this.token), download: `warroom-${payload.game}-${this.id}.json` }, "Download record"),
        h("button", { id: "replay-open", onclick: () => this.openReplay() }, "Replay (finished game)"),
        h("button", { onclick: () => this.showHelp() }, "How to play"),
        h("a", { href: "/" }, "Lobby · new game")));
    const header = h("header", { class: "game-head" },
      h("a", { href: "/", class: "home", title: "Lobby" }, "warroom"),
      h("div", { class: "title" }, h("strong", {}, payload.title), this.liveBadge),
      this.headerInfo,
      h("div", { class: "tools" }, this.undoButton, this.hintButton, h("button", { onclick: () => this.showHelp(), title: "How to play" }, "?"), this.menu));
    this.boardArea = h("div", { class: "board-area", id: "board-area" });
    this.floating = h("div", { class: "floating", id: "floating", hidden: true });
    this.zoomBar = h("div", { class: "zoom-bar" },
      h("button", { title: "Zoom in", onclick: () => this.board && this.board.zoom.zoom(0.75) }, "+"),
      h("button", { title: "Zoom out", onclick: () => this.board && this.board.zoom.zoom(1.33) }, "−"),
      h("button", { title: "Whole map", onclick: () => this.board && this.board.zoom.fit() }, "⤢"));
    this.prompt = h("section", { class: "prompt", id: "prompt", "aria-live": "polite" });
    this.unitCard = h("section", { class: "unit-card", id: "unit-card" });
    this.diceTray = h("section", { class: "dice-tray", id: "dice-tray" });
    this.scoreBox = h("section", { class: "score", id: "score" });
    this.logBox = h("ol", { class: "log", id: "log" });
    const logSection = h("section", { class: "log-section" }, h("h3", {}, "Game log"), this.logBox);
    this.panel = h("aside", { class: "panel" }, this.prompt, this.unitCard, this.diceTray, this.scoreBox, logSection);
    this.overlay = h("div", { class: "overlay", id: "overlay", hidden: true });
    clear(this.root).append(header, h("main", { class: "game" }, h("div", { class: "board-wrap" }, this.boardArea, this.zoomBar, this.floating), this.panel), this.overlay);
    const Board = BOARDS[this.layout.kind];
    if (Board) {
      this.board = new Board(this.boardArea, this.layout, {
        onUnit: (unit) => this.selectUnit(unit),
        onLocation: (loc) => this.clickLocation(loc),
        onBackground: () => { this.selected = null; this.hideFloating(); this.render(); },
        game: this,
      }, payload);
    } else {
      this.zoomBar.hidden = true;
      this.stateBox = h("pre", { class: "state", id: "state" });
      this.boardArea.append(h("div", { class: "no-board" }, h("p", {}, "This game's board is not drawn yet: choose your actions in the panel."), this.stateBox));
    }
    if (!localStorage.getItem(`warroom.help.${payload.game}`)) {
      localStorage.setItem(`warroom.help.${payload.game}`, "1");
      this.showHelp(payload);
    }
  }

  // -- receiving positions ---------------------------------------------------------------------
  async apply(payload) {
    if (this.replay) return; // replay shows frames; the live game resumes when it closes
    if (payload.side !== this.shownSide) return;
    const previous = this.payload;
    if (previous && payload.move < previous.move) return;
    if (previous && payload.move === previous.move && payload.thinking === previous.thinking) return;
    const undo = payload.events.some((e) => e.type === "undo");
    this.payload = payload;
    if (previous && payload.move === previous.move + 1 && !undo) this.log.push(...payload.events);
    else if (!previous || payload.move !== previous.move) await this.reloadLog();
    if (payload.events.length) this.lastDice = undo ? [] : payload.events;
    this.hint = null;
    if (this.selected && !this.unitActions().has(this.selected)) this.selected = null;
    this.render();
    this.maybePass();
    if (payload.view.over && (!previous || !previous.view.over)) this.showGameOver();
  }

  maybePass() {
    const p = this.payload;
    if (p.mode !== "hotseat" || p.sides.length < 2) return;
    const next = p.view.to_act;
    if (!next || next === this.shownSide || !this.tokens[next]) return;
    // hidden information: the board goes dark until the next player says they hold the device
    this.showOverlay(h("div", { class: "pass" },
      h("h2", {}, `Pass the device to ${next}`),
      h("p", {}, `${this.shownSide}'s view is hidden. ${next}, take the device and press the button when the other player cannot see the screen.`),
      h("button", { class: "primary big", id: "pass-ready", onclick: () => this.switchSide(next) }, `I am ${next}: show my view`)), true);
  }

  async switchSide(side) {
    this.token = this.tokens[side];
    this.shownSide = side;
    this.selected = null;
    this.payload = await api.game(this.id, this.token);
    await this.reloadLog();
    this.hideOverlay();
    const download = document.getElementById("download");
    if (download) download.href = api.recordUrl(this.id, this.token);
    this.listen();
    this.render();
  }

  // -- acting ----------------------------------------------------------------------------------
  async play(action) {
    if (this.busy || !this.payload) return;
    this.busy = true;
    this.hideFloating();
    document.body.classList.add("busy");
    try {
      const payload = await api.act(this.id, this.token, action, this.payload.move);
      await this.apply(payload);
    } catch (err) {
      if (err.code === "stale_move") {
        toast("The game had moved on; here is the current position.", "info");
        await this.refresh();
      } else {
        toast(err.message, "error");
      }
    } finally {
      this.busy = false;
      document.body.classList.remove("busy");
    }
  }

  async refresh() {
    const payload = await api.game(this.id, this.token);
    this.payload = null;
    await this.apply(payload);
  }

  async undo() {
    if (!this.payload) return;
    try {
      const payload = await api.undo(this.id, this.token, this.payload.move);
      await this.apply(payload);
      toast("Taken back.");
    } catch (err) {
      toast(err.message, "error");
    }
  }

  async askHint() {
    this.hintButton.disabled = true;
    this.hintButton.textContent = "Thinking…";
    try {
      this.hint = await api.hint(this.id, this.token);
      if (this.board && this.board.showHint) {
        this.board.showHint(this.hint.action);
      } else {
        const parsed = parseAction(this.hint.action);
        if (parsed.unit && this.unitActions().has(parsed.unit)) this.selected = parsed.unit;
      }
      this.render();
    } catch (err) {
      toast(err.message, "error");
    } finally {
      this.hintButton.disabled = false;
      this.hintButton.textContent = "Hint";
    }
  }

  async loadOdds() {
    const p = this.payload;
    if (!p || this.odds.move === p.move) return;
    const wanted = this.board && this.board.wantsOdds ? this.board.wantsOdds(p.view.legal) : p.view.legal.some((a) => /^(attack|invade|reroll)/.test(a));
    if (!wanted) { this.odds = { move: p.move, odds: {} }; return; }
    try {
      const answer = await api.odds(this.id, this.token);
      this.odds = { move: answer.move, odds: answer.odds };
      if (answer.move === this.payload.move) this.render();
    } catch (err) {
      this.odds = { move: p.move, odds: {} };
    }
  }

  // -- what the seat may do --------------------------------------------------------------------
  legal() {
    return this.payload ? this.payload.view.legal : [];
  }

  unitActions() {
    const map = new Map();
    if (!this.board) return map;
    for (const action of this.legal()) {
      const parsed = parseAction(action);
      if (!parsed.unit) continue;
      if (!map.has(parsed.unit)) map.set(parsed.unit, []);
      map.get(parsed.unit).push(action);
    }
    return map;
  }

  selectUnit(unit) {
    const actions = this.unitActions();
    this.hideFloating();
    if (!actions.has(unit)) {
      const info = this.layout.units && this.layout.units[unit];
      if (info) toast(info.side === "Allied" ? `${info.name} has nothing to do now.` : `${info.name} (German). Attack it by selecting the Allied unit facing it.`);
      this.selected = null;
    } else if (this.selected === unit) {
      // a second click on a stack passes to the next unit beneath it that can act, else lets go
      const state = this.payload.view.state;
      const where = state.allied[unit] ? state.allied[unit].location : null;
      const stack = [...actions.keys()].filter((u) => state.allied[u] && state.allied[u].location === where);
      this.selected = stack.length > 1 ? stack[(stack.indexOf(unit) + 1) % stack.length] : null;
    } else {
      this.selected = unit;
    }
    this.render();
  }

  targetsOf(unit) {
    const targets = new Map();
    for (const action of this.unitActions().get(unit) || []) {
      const parsed = parseAction(action);
      if (parsed.target) {
        if (!targets.has(parsed.target)) targets.set(parsed.target, []);
        targets.get(parsed.target).push(action);
      }
    }
    return targets;
  }

  clickLocation(loc) {
    if (!this.selected) {
      // a click on a target with exactly one unit able to reach it selects that unit
      const reaching = [...this.unitActions().keys()].filter((u) => this.targetsOf(u).has(loc));
      if (reaching.length === 1) this.selected = reaching[0];
      else { this.render(); return; }
    }
    const actions = this.targetsOf(this.selected).get(loc);
    if (!actions) { this.selected = null; this.hideFloating(); this.render(); return; }
    this.render();
    this.confirm(loc, actions);
  }

  confirm(loc, actions) {
    const place = this.layout.locations.find((l) => l.id === loc);
    const buttons = actions.map((action) => this.actionButton(action, true));
    this.showFloating(loc, h("div", { class: "confirm", id: "confirm" },
      h("h3", {}, place ? place.name.split(" (")[0] : loc),
      ...buttons,
      h("button", { class: "link", onclick: () => this.hideFloating() }, "Cancel")));
  }

  actionButton(action, primary = false) {
    const label = this.payload.labels[action] || action;
    const odds = this.odds.move === this.payload.move ? this.odds.odds[action] : null;
    const isHint = this.hint && this.hint.action === action;
    return h("button", { class: `action${primary ? " primary" : ""}${isHint ? " hinted" : ""}`, dataset: { action }, onclick: () => this.play(action) },
      h("span", { class: "action-label" }, label),
      odds ? h("span", { class: "odds", title: odds.text }, `${pct(odds.p)} · exactly ${odds.fraction}`) : null);
  }

  showFloating(loc, content) {
    clear(this.floating).append(content);
    this.floating.hidden = false;
    const center = loc && this.board ? this.board.center(loc) : null;
    const area = this.boardArea.getBoundingClientRect();
    if (center && this.board.svg.getScreenCTM() && window.innerWidth > 820) {
      const pt = this.board.svg.createSVGPoint();
      pt.x = center[0];
      pt.y = center[1];
      const screen = pt.matrixTransform(this.board.svg.getScreenCTM());
      const w = Math.min(340, area.width - 16);
      const left = Math.max(8, Math.min(area.width - w - 8, screen.x - area.left - w / 2));
      Object.assign(this.floating.style, { left: `${left}px`, width: `${w}px`, bottom: "", top: "0px" });
      // below the place if the card fits there, else above it, and always inside the board
      const height = this.floating.offsetHeight;
      const y = screen.y - area.top;
      let top = y + 44 + height < area.height - 8 ? y + 44 : y - 44 - height;
      top = Math.max(8, Math.min(area.height - height - 8, top));
      this.floating.style.top = `${top}px`;
    } else {
      Object.assign(this.floating.style, { left: "8px", top: "", bottom: "8px", width: "" });
    }
  }

  hideFloating() {
    this.floating.hidden = true;
    clear(this.floating);
  }

  // -- drawing ---------------------------------------------------------------------------------
  render() {
    const p = this.payload;
    if (!p) return;
    const view = p.view;
    const state = view.state;
    this.renderHud(p);
    this.undoButton.disabled = !view.can_undo || !!this.replay;
    this.hintButton.disabled = view.to_act !== p.side || view.over || !!this.replay;
    if (this.board && this.board.present) {
      this.board.present(this);
    } else if (this.board) {
      const actions = this.unitActions();
      const ui = { selectable: new Set(actions.keys()), selected: this.selected };
      if (this.selected) ui.targets = this.targetsOf(this.selected);
      if (state.attack) ui.pending = { target: state.attack.target };
      if (state.bot_attack && state.allied[state.bot_attack.target]) ui.pending = { target: state.allied[state.bot_attack.target].location };
      this.board.render(state, ui);
    } else if (this.stateBox) {
      this.stateBox.textContent = JSON.stringify(state, null, 1);
    }
    this.renderPrompt();
    this.renderUnitCard();
    this.renderDice();
    this.renderScore();
    this.renderLog();
    this.loadOdds();
  }

  renderHud(p) {
    const v = p.view;
    const st = v.state || {};
    const turn = this.board && this.board.turnLabel ? this.board.turnLabel(v) : `Turn ${v.turn}${p.game === "dragoon" ? " Aug" : ""}`;
    const bits = [h("span", { class: "turn", id: "turn" }, turn), h("span", { class: "phase" }, v.phase)];
    if (st.rp !== undefined) bits.push(h("span", { class: "rp", id: "rp" }, `RP ${st.rp}`));
    if (st.air) bits.push(h("span", { class: "air" }, st.air.grounded ? "Air grounded" : st.air.used ? "Air used" : "Air ready"));
    if (this.board && this.board.hudFor) bits.push(...this.board.hudFor(p));
    // the rules options this game was started with (only those changed from the default), each with its rule
    for (const o of p.options || []) bits.push(h("span", { class: "rules-chip", dataset: { option: o.key }, title: `${o.label}: ${o.text} (${o.rule})` }, o.chip));
    // what an uploaded game continues, told to every seat (dice checked or not, a start position of its own)
    if (p.origin && p.origin.kind === "record") bits.push(h("span", { class: "rules-chip origin-chip", id: "origin", title: p.origin.text }, "From a record"));
    const committed = fairnessChip(p); // an online game: the commitment to the dice's secret key, from the first move
    if (committed) bits.push(committed);
    for (const seat of p.seats || []) {
      if (seat.claimed === false) bits.push(h("span", { class: "rules-chip waiting-seat", dataset: { side: seat.side } }, `${seat.side}: invited, not joined yet`));
    }
    clear(this.headerInfo).append(...bits);
  }

  renderPrompt() {
    const p = this.payload;
    const v = p.view;
    const legal = v.legal;
    const box = clear(this.prompt);
    if (this.replay) return;
    if (v.over) {
      const r = v.result || {};
      box.append(h("h2", {}, r.winner ? `${r.winner} victory` : "Draw"), h("p", {}, r.reason || ""),
        h("div", { class: "row" }, h("button", { class: "primary", onclick: () => this.openReplay() }, "Replay the game"),
          h("a", { class: "button", href: api.recordUrl(this.id, this.token), download: `warroom-${p.game}-${this.id}.json` }, "Download record"),
          h("a", { class: "button", href: "/" }, "New game")));
      const fair = fairnessPanel(p, this.id, this.token); // an online game: the revealed key and "Verify the dice"
      if (fair) box.append(fair);
      return;
    }
    if (!legal.length) {
      const who = v.to_act === "dice" ? "the dice" : v.to_act;
      const seat = p.seats.find((x) => x.side === v.to_act);
      const computer = seat && seat.kind === "computer";
      box.append(h("p", { class: "waiting" }, computer || p.thinking ? `The computer is thinking for ${who}…` : `Waiting for ${who}…`));
      const doing = this.board && this.board.waitingFor ? this.board.waitingFor(p) : null;
      if (doing) box.append(h("p", { class: "muted", id: "waiting-for" }, doing));
      const extra = this.board && this.board.waitingExtra ? this.board.waitingExtra(p) : null; // e.g. the odds of a battle fought against this seat
      if (extra) box.append(extra);
      return;
    }
    if (legal.includes("reroll ffi")) {
      box.append(h("h2", {}, "FFI re-roll?"), h("p", {}, this.rerollQuestion()), ...legal.map((a) => this.actionButton(a, a === "reroll ffi")));
      this.askInPlace();
      return;
    }
    if (legal.every((a) => a.startsWith("roll "))) {
      const ask = (this.board && this.board.rollPrompt && this.board.rollPrompt(p)) || { title: "Roll the die", text: "Table assistant: roll your die at the table and enter what it shows." };
      box.append(h("h2", {}, ask.title), h("p", {}, ask.text), ...(ask.extra ? [ask.extra] : []),
        h("div", { class: "dice-pad" }, legal.map((a) => h("button", { class: "die-button", dataset: { action: a }, onclick: () => this.play(a) }, a.split(" ")[1]))));
      return;
    }
    const st = v.state;
    if (this.board && this.board.promptFor) {
      this.board.promptFor(this, box);
    } else if (this.board) {
      const units = this.unitActions().size;
      box.append(h("h2", {}, `Your move — ${v.phase}`),
        h("p", {}, st.rp !== undefined ? `You have ${st.rp} RP; each action costs 1. ` : "",
          units ? "Click a glowing unit to see what it can do, then click its target on the map." : "No unit can act now."));
      const general = legal.filter((a) => !parseAction(a).unit);
      box.append(h("div", { class: "general-actions" }, general.map((a) => this.actionButton(a, false))));
    } else {
      box.append(h("h2", {}, `Your move — ${v.phase}`), h("div", { class: "action-list" }, legal.map((a) => this.actionButton(a, false))));
    }
    if (this.hint) {
      box.append(h("div", { class: "hint-card", id: "hint-card" }, h("strong", {}, "Hint: "), this.hint.label || this.hint.action,
        this.hint.why ? h("p", { class: "muted" }, this.hint.why) : null, this.hintTop()));
    }
  }

  // the hint's best moves with their estimate and its 95% interval (or "no search, no confidence")
  hintTop() {
    const top = this.hint.top || [];
    if (!top.length) return null;
    return h("div", { class: "hint-top" },
      this.hint.measure ? h("p", { class: "muted small" }, `Best moves, by ${this.hint.measure}:`) : null,
      h("ol", { class: "hint-moves" }, top.map((alt) => h("li", { dataset: { action: alt.action } },
        h("button", { class: "link", title: "Play this move", onclick: () => this.play(alt.action) }, alt.label || alt.action),
        " — ", h("span", { class: "hint-value" }, alt.text)))));
  }

  rerollQuestion() {
    const st = this.payload.view.state;
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

  askInPlace() {
    const st = this.payload.view.state;
    let loc = null;
    if (st.attack) loc = st.attack.target;
    else if (st.bot_attack && st.allied[st.bot_attack.target]) loc = st.allied[st.bot_attack.target].location;
    const legal = this.legal();
    this.showFloating(loc, h("div", { class: "confirm reroll", id: "reroll-card" },
      h("h3", {}, "FFI re-roll?"), h("p", {}, this.rerollQuestion()),
      ...legal.map((a) => this.actionButton(a, a === "reroll ffi"))));
  }

  renderUnitCard() {
    const box = clear(this.unitCard);
    if (!this.selected || !this.board || this.replay) { box.hidden = true; return; }
    box.hidden = false;
    const info = this.layout.units[this.selected];
    const u = this.payload.view.state.allied[this.selected];
    const route = this.layout.routes.find((r) => r.unit === this.selected);
    const status = [];
    if (u.stalled) status.push("stalled");
    if (u.ffi) status.push("FFI marker");
    if (u.spent) status.push("has acted this turn");
    const stops = route.stops.map((id) => {
      const name = this.layout.locations.find((l) => l.id === id).name.split(" (")[0];
      return h("span", { class: id === u.location ? "stop here" : "stop" }, name);
    });
    box.append(h("h3", {}, info.name), h("p", { class: "muted" }, status.length ? status.join(" · ") : "ready"),
      h("p", { class: "route-line" }, stops.flatMap((x, i) => (i ? [" → ", x] : [x]))),
      ...(this.unitActions().get(this.selected) || []).map((a) => this.actionButton(a, /^(attack|invade)/.test(a))));
  }

  renderDice() {
    const box = clear(this.diceTray);
    if (!this.lastDice.length || this.replay) { box.hidden = true; return; }
    box.hidden = false;
    box.append(h("h3", {}, "What just happened"));
    for (const event of this.lastDice) {
      let face = (this.board && this.board.eventFace && this.board.eventFace(event)) || h("span", { class: "no-die" });
      if (event.roll !== undefined) {
        face = s("svg", { viewBox: "0 0 40 40", class: "die-svg", width: 34, height: 34 });
        face.append(dieFace(event.roll, 2, 2, 36));
      }
      box.append(h("div", { class: `die-row happened-${event.type}`, dataset: event.roll !== undefined ? { roll: event.roll } : {} }, face, h("span", {}, event.text)));
    }
  }

  renderScore() {
    const box = clear(this.scoreBox);
    const v = this.payload.view;
    const score = v.result && v.result.score;
    if (this.board && this.board.scoreFor) { this.board.scoreFor(this.payload, box); return; }
    if (this.payload.game !== "dragoon" || !this.layout.victory) { box.hidden = !score; if (score) box.append(h("pre", {}, JSON.stringify(score))); return; }
    box.hidden = false;
    const st = v.state;
    const held = Object.entries(this.layout.victory.vp).filter(([loc]) => st.allied_control.includes(loc));
    const vp = held.reduce((n, [, x]) => n + x, 0) + Object.keys(st.eliminated || {}).length;
    box.append(h("h3", {}, `Victory points now: ${vp}`),
      h("p", { class: "muted" }, [...held.map(([loc, x]) => `${loc} ${x}`), `eliminated ${Object.keys(st.eliminated || {}).length}`].join(" · ")),
      h("p", { class: "muted small" }, this.layout.victory.text));
  }

  renderLog(events = this.log, highlightFrom = null) {
    const box = clear(this.logBox);
    if (!events.length) box.append(h("li", { class: "ev muted" }, h("span", { class: "ev-text" }, "What happens in the game is written here, with the rule that applies.")));
    events.forEach((event, i) => {
      const item = h("li", { class: `ev ev-${event.type}${highlightFrom !== null && i >= highlightFrom ? " fresh" : ""}` },
        event.roll !== undefined ? h("span", { class: "ev-dieface", title: `die: ${event.roll}` }, String(event.roll)) : null,
        h("span", { class: "ev-text" }, event.text),
        event.rule ? h("span", { class: "ev-rule" }, event.rule) : null);
      box.append(item);
    });
    box.scrollTop = box.scrollHeight;
  }

  // -- overlays: help, game over, replay -------------------------------------------------------
  showOverlay(content, blocking = false) {
    clear(this.overlay).append(h("div", { class: "overlay-card" }, blocking ? null : h("button", { class: "close", onclick: () => this.hideOverlay(), title: "Close" }, "×"), content));
    this.overlay.hidden = false;
    this.overlay.classList.toggle("blocking", blocking);
  }

  hideOverlay() { this.overlay.hidden = true; }

  showHelp(first = null) {
    const p = this.payload || first; // the first help is shown while the page is built, before this.payload is set
    const help = this.board && this.board.help ? this.board.help() : helpFor(p ? p.game : "");
    this.showOverlay(h("div", {}, h("h2", {}, `How to play ${p ? p.title : ""}`), help,
      h("button", { class: "primary", id: "help-ok", onclick: () => this.hideOverlay() }, "Let's play")));
  }

  showGameOver() {
    const r = this.payload.view.result || {};
    const parts = r.score && r.score.breakdown ? Object.entries(r.score.breakdown).map(([k, v]) => h("li", {}, `${k}: ${v}`)) : [];
    this.showOverlay(h("div", { class: "game-over", id: "game-over" },
      h("h2", {}, r.winner ? `${r.winner} victory` : "Draw"), h("p", {}, r.reason), parts.length ? h("ul", {}, parts) : null,
      r.rule ? h("p", { class: "muted" }, r.rule) : null,
      h("div", { class: "row" }, h("button", { class: "primary", onclick: () => { this.hideOverlay(); this.openReplay(); } }, "Replay the game"),
        h("button", { onclick: () => this.hideOverlay() }, "Look at the board"))));
  }

  async openReplay() {
    this.menu.open = false;
    let frames;
    try {
      frames = (await api.replay(this.id, this.token)).frames;
    } catch (err) {
      toast(err.message, "error");
      return;
    }
    this.replay = { frames, index: 0 };
    this.selected = null;
    this.hideFloating();
    this.replayBar = h("div", { class: "replay-bar", id: "replay-bar" });
    this.prompt.after(this.replayBar);
    this.showFrame();
  }

  showFrame() {
    const { frames, index } = this.replay;
    const frame = frames[index];
    if (this.board) this.board.render(frame.view.state, {});
    const events = frames.slice(0, index + 1).flatMap((f) => f.events);
    this.renderLog(events, events.length - frame.events.length);
    this.renderHud({ ...this.payload, view: frame.view });
    const go = (i) => { this.replay.index = Math.max(0, Math.min(frames.length - 1, i)); this.showFrame(); };
    clear(this.replayBar).append(
      h("h3", {}, `Replay — step ${index} of ${frames.length - 1}`),
      frame.label ? h("p", {}, `You chose: ${frame.label}`) : h("p", { class: "muted" }, index ? "" : "The opening position."),
      h("div", { class: "row replay-controls" },
        h("button", { id: "replay-first", onclick: () => go(0), title: "Start" }, "«"),
        h("button", { id: "replay-back", onclick: () => go(index - 1), title: "Step back" }, "‹"),
        h("button", { id: "replay-forward", onclick: () => go(index + 1), title: "Step forward" }, "›"),
        h("button", { id: "replay-last", onclick: () => go(frames.length - 1), title: "End" }, "»"),
        h("button", { onclick: () => this.closeReplay() }, "Close replay")));
    this.unitCard.hidden = true;
    this.diceTray.hidden = true;
  }

  closeReplay() {
    this.replay = null;
    this.replayBar.remove();
    this.render();
  }
}
