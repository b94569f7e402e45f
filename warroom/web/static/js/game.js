// A game page: the board, the seat's legal actions with odds, dice, the log, undo, hints, replay.
// Everything shown comes from this seat's view; the server checks every action.
//
// The page names no game. The game's board is an ES module served from the game's own folder
// (/api/boards/<game> says where, with its style sheets and help): the page imports it and asks it to
// draw and to run the seat's choices through the board interface (docs/architecture.md, "The browser's
// board interface"). The page keeps what every game shares: the log, seats, odds, dice, hints, the end
// screen, the dice check, undo, replay. A game without a board is played from the list of its actions.
import { api, connect, seats } from "./api.js";
import { h, clear, toast, pct } from "./dom.js";
import { s, dieFace } from "./svg.js";
import { helpBody } from "./help.js";
import { fairnessChip, fairnessPanel, movesChip } from "./fairness.js";
import { mountReview } from "./review.js";
import { downloadRecord } from "./download.js";

// The board's style sheets, before it draws (a board may measure its text): each once per page.
function loadStyles(urls) {
  return Promise.all((urls || []).map((href) => {
    if (document.querySelector(`link[data-board-style="${href}"]`)) return null;
    return new Promise((resolve) => {
      const link = h("link", { rel: "stylesheet", href, dataset: { boardStyle: href } });
      link.addEventListener("load", resolve);
      link.addEventListener("error", resolve);
      document.head.append(link);
    });
  }));
}

export async function showGame(root, id, params) {
  const ctx = new GameView(root, id, params);
  window.warroomGame = ctx; // for debugging in the console
  await ctx.start();
}

const HAPPENED_MAX = 16; // "What just happened" keeps the latest events since the seat decided; the log has them all

class GameView {
  constructor(root, id, params) {
    this.root = root;
    this.id = id;
    this.params = params;
    this.payload = null;
    this.layout = null;
    this.board = null;
    this.boardModule = null;
    this.log = [];
    this.odds = { move: -1, odds: {} };
    this.busy = false;
    this.replay = null;
    this.hint = null;
    this.lastDice = []; // "What just happened": the events since this seat's own last decision (the latest HAPPENED_MAX)
    this.freshTray = true; // the next position starts it afresh: this seat has just decided (or is newly shown)
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
    if (this.layout.module) {
      try {
        await loadStyles(this.layout.styles);
        this.boardModule = await import(this.layout.module);
      } catch (err) {
        toast(`The board could not be loaded (${err.message}): choose your actions in the panel.`, "error");
      }
    }
    this.build(payload);
    this.payload = payload;
    await this.reloadLog();
    this.render();
    if (this.board && this.board.focus) this.board.focus();
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
        h("a", { id: "download", href: api.recordUrl(this.id, this.token), download: `warroom-${payload.game}-${this.id}.json`, onclick: (e) => this.saveRecord(e) }, "Download record"),
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
    if (this.boardModule) {
      this.board = this.boardModule.createBoard(this.boardArea, this.layout, this, payload);
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
    // what happened since the seat's own decision, not only the last push: an answer given at once (a computer's
    // retreat) would otherwise wipe the dice of the seat's own attack before anyone saw them
    if (undo) this.lastDice = [];
    else if (payload.events.length) {
      this.lastDice = (this.freshTray ? payload.events : [...this.lastDice, ...payload.events]).slice(-HAPPENED_MAX);
      this.freshTray = false;
    }
    this.hint = null;
    this.render();
    this.maybePass();
    if (payload.view.over && (!previous || !previous.view.over)) this.showGameOver();
  }

  maybePass() {
    const p = this.payload;
    if (p.mode !== "hotseat" || p.sides.length < 2) return;
    const next = p.view.to_act;
    // an answer given for the other player without asking (a concealed decision) hands the decision straight back
    if (next === this.shownSide && !this.overlay.hidden && this.overlay.querySelector(".pass")) this.hideOverlay();
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
    this.freshTray = true;
    if (this.board && this.board.forget) this.board.forget();
    this.payload = await api.game(this.id, this.token);
    this.odds = { move: -1, odds: {} }; // the odds loaded were the other seat's, for the same move
    await this.reloadLog();
    this.hideOverlay();
    const download = document.getElementById("download");
    if (download) download.href = api.recordUrl(this.id, this.token);
    this.listen();
    this.render();
  }

  // What this seat may keep of the game, saved as a file: the whole record, or its own view of an unfinished
  // game; the page says which, or why nothing was saved (download.js).
  async saveRecord(event) {
    if (event) event.preventDefault();
    try {
      const saved = await downloadRecord(this.id, this.token, `warroom-${this.payload ? this.payload.game : "game"}-${this.id}.json`);
      toast(saved.text, "info", saved.seat ? 12000 : 5000);
    } catch (err) {
      toast(err.message, "error", 12000);
    }
  }

  // -- acting ----------------------------------------------------------------------------------
  async play(action) {
    if (this.busy || !this.payload) return;
    this.busy = true;
    this.hideFloating();
    document.body.classList.add("busy");
    this.freshTray = true;
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
      if (this.board && this.board.showHint) this.board.showHint(this.hint.action);
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
    const wanted = p.actions.some((d) => d.odds); // an action a die decides: the game says so in its descriptor
    if (!wanted) { this.odds = { move: p.move, odds: {} }; return; }
    const token = this.token;
    try {
      const answer = await api.odds(this.id, token);
      if (token !== this.token) return; // hot-seat: the device was passed meanwhile
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

  actionButton(action, primary = false) {
    const label = this.payload.labels[action] || action;
    const odds = this.odds.move === this.payload.move ? this.odds.odds[action] : null;
    const isHint = this.hint && this.hint.action === action;
    return h("button", { class: `action${primary ? " primary" : ""}${isHint ? " hinted" : ""}`, dataset: { action }, onclick: () => this.play(action) },
      h("span", { class: "action-label" }, label),
      // the range over what the other side may still choose, each case said (web/odds.py), else the one number
      odds ? h("span", { class: "odds", title: odds.text }, odds.card || `${pct(odds.p)} · exactly ${odds.fraction}`) : null);
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
    if (this.board) {
      this.board.present(this);
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
    const turn = this.board && this.board.turnLabel ? this.board.turnLabel(v) : `Turn ${v.turn}`;
    const bits = [h("span", { class: "turn", id: "turn" }, turn), h("span", { class: "phase" }, v.phase)];
    if (this.board && this.board.hudFor) bits.push(...this.board.hudFor(p));
    // the rules options this game was started with (only those changed from the default), each with its rule
    for (const o of p.options || []) bits.push(h("span", { class: "rules-chip", dataset: { option: o.key }, title: `${o.label}: ${o.text} (${o.rule})` }, o.chip));
    // what an uploaded game continues, told to every seat (dice checked or not, a start position of its own)
    if (p.origin && p.origin.kind === "record") bits.push(h("span", { class: "rules-chip origin-chip", id: "origin", title: p.origin.text }, "From a record"));
    const committed = fairnessChip(p); // an online game: the commitment to the dice's secret key, from the first move
    if (committed) bits.push(committed);
    const moves = movesChip(p); // beside it, the running digest of the decisions, keyed by the same secret
    if (moves) bits.push(moves);
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
          h("a", { class: "button", href: api.recordUrl(this.id, this.token), download: `warroom-${p.game}-${this.id}.json`, onclick: (e) => this.saveRecord(e) }, "Download record"),
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
    if (p.actions.every((d) => d.kind === "roll" && d.face !== undefined)) {
      // a die typed in (table assistant): the server describes each face
      const ask = (this.board && this.board.rollPrompt && this.board.rollPrompt(p)) || { title: "Roll the die", text: "Table assistant: roll your die at the table and enter what it shows." };
      box.append(h("h2", {}, ask.title), h("p", {}, ask.text), ...(ask.extra ? [ask.extra] : []),
        h("div", { class: "dice-pad" }, p.actions.map((d) => h("button", { class: "die-button", dataset: { action: d.id }, onclick: () => this.play(d.id) }, String(d.face)))));
      return;
    }
    if (this.board && this.board.promptFor) {
      this.board.promptFor(this, box);
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
      this.hint.measure ? h("p", { class: "muted small" }, `Best moves, by ${this.hint.measure}, highest first:`) : null,
      h("ol", { class: "hint-moves" }, top.map((alt) => h("li", { dataset: { action: alt.action } },
        h("button", { class: "link", title: "Play this move", onclick: () => this.play(alt.action) }, alt.label || alt.action),
        " — ", h("span", { class: "hint-value" }, alt.text), alt.chosen ? h("strong", {}, " (the computer's choice)") : null))));
  }

  // The panel's card for what the seat has picked on the board (a board may fill it: cardFor).
  renderUnitCard() {
    const box = clear(this.unitCard);
    const shown = !!this.board && !this.replay && !!this.board.cardFor && this.board.cardFor(this, box);
    box.hidden = !shown;
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
    box.hidden = !score;
    if (score) box.append(h("pre", {}, JSON.stringify(score)));
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
    // the game's help (its spec's sections for the browser), which its board may add to (the scenario's objective)
    let sections = this.layout && this.layout.help ? this.layout.help : [];
    if (this.board && this.board.helpSections && p) sections = this.board.helpSections(p, sections);
    const note = this.board && this.board.helpNote ? this.board.helpNote() : null;
    this.showOverlay(h("div", {}, h("h2", {}, `How to play ${p ? p.title : ""}`), helpBody(sections, note),
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
    if (this.board && this.board.forget) this.board.forget();
    this.hideFloating();
    this.replayBar = h("div", { class: "replay-bar", id: "replay-bar" });
    this.reviewBox = h("div", { class: "replay-bar" }); // the post-game analysis (review.js): its graph jumps the replay
    this.prompt.after(this.replayBar, this.reviewBox);
    this.showFrame();
    const replay = this.replay;
    const graph = await mountReview(this.reviewBox, () => api.review(this.id, this.token), (frame) => {
      if (this.replay !== replay) return;
      replay.index = Math.max(0, Math.min(replay.frames.length - 1, frame));
      this.showFrame();
    });
    if (graph && this.replay === replay) {
      this.review = graph;
      graph.select(replay.index);
    }
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
    if (this.review) this.review.select(index);
  }

  closeReplay() {
    this.replay = null;
    this.review = null;
    this.replayBar.remove();
    this.reviewBox.remove();
    this.render();
  }
}
