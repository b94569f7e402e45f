// The lobby: start a game (against the computer, hot-seat, online or as a table assistant), reopen your games.
import { api, seats } from "./api.js";
import { h, clear, toast } from "./dom.js";

const MODES = [
  { id: "computer", title: "Against the computer", text: "You play one side; the computer plays the others. In a solitaire game the opposing side answers by its own rules." },
  { id: "hotseat", title: "Hot-seat", text: "Everyone plays on this screen, taking turns. Hidden information stays behind a \"pass the device\" screen." },
  { id: "online", title: "Online", text: "A secret link for each seat: keep yours, send the others to your opponents." },
  { id: "table", title: "Table assistant", text: "Play the printed game at the table. Roll your own dice and type them in; warroom applies every rule and keeps the record." },
];

export async function showLobby(root) {
  document.title = "warroom";
  clear(root);
  const gamesBox = h("section", { class: "card", id: "my-games" }, h("h2", {}, "Your games"), h("p", { class: "muted" }, "Loading…"));
  const newBox = h("section", { class: "card", id: "new-game" }, h("h2", {}, "New game"), h("p", { class: "muted" }, "Loading games…"));
  const uploadBox = uploadCard();
  root.append(
    h("header", { class: "lobby-head" },
      h("div", { class: "brand" }, logo(), h("div", {}, h("h1", {}, "warroom"), h("p", {}, "WWII board wargames with every rule enforced"))),
      h("a", { class: "link", href: "/docs", target: "_blank", rel: "noopener" }, "API")),
    h("main", { class: "lobby" }, newBox, gamesBox, uploadBox),
  );
  let catalog = [];
  try {
    catalog = (await api.catalog()).games;
  } catch (err) {
    clear(newBox).append(h("h2", {}, "New game"), h("p", { class: "error" }, err.message));
  }
  if (catalog.length) renderNewGame(newBox, catalog);
  renderMyGames(gamesBox);
}

function logo() {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 32 32");
  svg.setAttribute("class", "logo");
  svg.innerHTML = '<rect x="2" y="6" width="28" height="20" rx="3" fill="#5b6b3a"/><rect x="8" y="11" width="16" height="10" fill="none" stroke="#fff" stroke-width="2"/><path d="M8 11 24 21M24 11 8 21" stroke="#fff" stroke-width="2"/>';
  return svg;
}

function renderNewGame(box, catalog) {
  clear(box);
  const state = { game: catalog[0].id, mode: "computer" };
  const gameSelect = h("select", { id: "new-game-select", "aria-label": "Game" },
    catalog.map((g) => h("option", { value: g.id }, g.title)));
  const scenarioSelect = h("select", { id: "new-scenario", "aria-label": "Scenario" });
  const sideSelect = h("select", { id: "new-side", "aria-label": "Your side" });
  const agentSelect = h("select", { id: "new-agent", "aria-label": "Computer player" });
  const budgetSelect = h("select", { id: "new-budget", "aria-label": "Thinking time" },
    [["300", "quick (0.3 s a move)"], ["1000", "normal (1 s)"], ["3000", "strong (3 s)"]].map(([v, t]) => h("option", { value: v, selected: v === "1000" }, t)));
  const seedInput = h("input", { id: "new-seed", type: "number", min: "0", placeholder: "random", "aria-label": "Seed" });
  const seedNote = h("p", { class: "muted small", id: "seed-note" });
  const computerOptions = h("div", { class: "row computer-options" },
    h("label", {}, "You play ", sideSelect), h("label", {}, "Computer ", agentSelect), h("label", {}, "Thinking ", budgetSelect));
  const modes = h("div", { class: "modes", role: "radiogroup" }, MODES.map((mode) =>
    h("label", { class: "mode", dataset: { mode: mode.id } },
      h("input", { type: "radio", name: "mode", value: mode.id, checked: mode.id === state.mode, onchange: () => { state.mode = mode.id; refresh(); } }),
      h("span", { class: "mode-title" }, mode.title), h("span", { class: "mode-text" }, mode.text))));
  const rulesBox = h("fieldset", { class: "rules-options", id: "rules-options" });
  const optionValues = {}; // what the player chose, by option key, kept while switching scenario or game
  const blurb = h("p", { class: "muted game-blurb" });
  const start = h("button", { class: "primary big", id: "start-game", onclick: () => startGame() }, "Start the game");
  const result = h("div", { id: "new-game-result" });

  function current() { return catalog.find((g) => g.id === state.game); }
  function refresh() {
    const game = current();
    const scenario = scenarioSelect.value; // kept when only the mode changes
    clear(scenarioSelect).append(...game.scenarios.map((s) => h("option", { value: s, selected: s === scenario }, s)));
    scenarioSelect.parentElement.hidden = game.scenarios.length < 2;
    renderRules();
    clear(sideSelect).append(...game.sides.map((s) => h("option", { value: s }, s)));
    clear(agentSelect).append(...(game.agents.length ? game.agents : ["(none installed)"]).map((a) => h("option", { value: a }, a)));
    const solitaire = game.sides.length === 1;
    computerOptions.hidden = (state.mode !== "computer" && state.mode !== "online") || solitaire;
    // online: the creator picks a side; the computer's controls mean nothing there
    for (const el of [agentSelect, budgetSelect]) el.parentElement.hidden = state.mode === "online";
    // the seed and the moves so far tell every card and die to come: an online game's is the server's secret
    const online = state.mode === "online";
    seedInput.disabled = online;
    if (online) seedInput.value = "";
    seedNote.textContent = online
      ? "Online games get a secret seed from the server: nobody, not even you, can know the cards and dice to come."
      : "A chosen seed makes every movement card and die predictable to whoever knows it: use it to study or replay a game, not for a fair contest.";
    blurb.textContent = solitaire
      ? `${game.title} is a solitaire game: you command the ${game.sides[0]} side and the game's own BOT plays the other, with its dice and charts.`
      : `${game.title}: ${game.sides.join(" against ")}.`;
  }
  gameSelect.addEventListener("change", () => { state.game = gameSelect.value; refresh(); });
  scenarioSelect.addEventListener("change", () => renderRules());

  // The game's rules options, drawn from the catalog: only those that mean something in the chosen scenario.
  function applicable() {
    const scenario = scenarioSelect.value || current().scenarios[0];
    const here = (item) => !item.scenarios || item.scenarios.includes(scenario);
    return (current().options || []).filter(here).map((o) => (o.kind === "choice" ? { ...o, choices: o.choices.filter(here) } : o));
  }
  function renderRules() {
    const options = applicable();
    clear(rulesBox).append(h("legend", {}, "Rules options"));
    rulesBox.hidden = !options.length;
    for (const o of options) {
      const id = `option-${o.key}`;
      const keep = (value) => { optionValues[o.key] = value; };
      const chosen = optionValues[o.key];
      let control;
      if (o.kind === "bool") {
        control = h("label", { class: "rules-option" },
          h("input", { type: "checkbox", id, dataset: { option: o.key }, checked: chosen ?? o.default, onchange: (e) => keep(e.target.checked) }),
          h("span", {}, o.label));
      } else if (o.kind === "choice") {
        const value = o.choices.some((c) => c.value === chosen) ? chosen : o.default;
        control = h("label", { class: "rules-option" }, h("span", {}, `${o.label} `),
          h("select", { id, dataset: { option: o.key }, onchange: (e) => keep(choiceValue(o, e.target.value)) },
            o.choices.map((c) => h("option", { value: c.value, selected: c.value === value }, c.label))));
      } else {
        control = h("label", { class: "rules-option" }, h("span", {}, `${o.label} `),
          h("input", { type: "number", id, min: o.min, max: o.max, step: 1, placeholder: String(o.default), value: chosen ?? "",
                       dataset: { option: o.key }, oninput: (e) => keep(e.target.value) }));
      }
      rulesBox.append(h("div", { class: "rules-row", dataset: { option: o.key } }, control,
        h("p", { class: "muted small" }, o.help, o.rule ? h("span", { class: "rule-ref" }, ` (${o.rule})`) : null)));
    }
  }
  // A <select> answers a string: the choice it names, with the catalog's own value (a number stays a number).
  function choiceValue(o, text) {
    const found = o.choices.find((c) => String(c.value) === text);
    return found ? found.value : text;
  }
  // Only the options changed from the game's default are sent: a game without any sends none.
  function chosenOptions() {
    const out = {};
    for (const o of applicable()) {
      const el = rulesBox.querySelector(`[data-option="${o.key}"]:is(input, select)`);
      if (!el) continue;
      let value = o.kind === "bool" ? el.checked : o.kind === "choice" ? choiceValue(o, el.value) : el.value;
      if (o.kind === "int") {
        if (value === "") continue;
        value = Number(value);
      }
      if (value !== o.default) out[o.key] = value;
    }
    return out;
  }

  async function startGame() {
    const game = current();
    const body = { game: game.id, mode: state.mode, scenario: scenarioSelect.value || null };
    if (seedInput.value !== "" && state.mode !== "online") body.seed = Number(seedInput.value);
    const options = chosenOptions();
    if (Object.keys(options).length) body.options = options;
    if (state.mode === "computer" && game.sides.length > 1) {
      body.human = [sideSelect.value];
      body.agent = agentSelect.value;
      body.budget_ms = Number(budgetSelect.value);
    }
    if (state.mode === "online" && game.sides.length > 1) body.side = sideSelect.value;
    start.disabled = true;
    try {
      const created = await api.create(body);
      if (state.mode === "online" && created.seats.length > 1) {
        const mine = created.seats.find((seat) => seat.token);
        const others = created.seats.filter((seat) => seat.invite);
        seats.add(created.id, mine.side, mine.token);
        clear(result).append(h("div", { class: "links" },
          h("p", {}, "Send each opponent the invitation link of their seat. The first to open it takes the seat, and the link opens nothing after that."),
          ...others.map((seat) => linkRow(seat)),
          h("a", { class: "button primary", href: `/play/${created.id}?token=${encodeURIComponent(mine.token)}` }, `Open my seat (${mine.side})`)));
        start.disabled = false;
        return;
      }
      for (const seat of created.seats) seats.add(created.id, seat.side, seat.token);
      const first = created.seats[0];
      location.href = `/play/${created.id}` + (created.seats.length === 1 ? `?token=${encodeURIComponent(first.token)}` : "");
    } catch (err) {
      toast(err.message, "error");
      start.disabled = false;
    }
  }

  box.append(
    h("h2", {}, "New game"),
    h("div", { class: "row" }, h("label", {}, "Game ", gameSelect), h("label", {}, "Scenario ", scenarioSelect)),
    blurb, modes, computerOptions, rulesBox,
    h("details", { class: "more" }, h("summary", {}, "More options"), h("label", {}, "Dice seed (to replay the same dice) ", seedInput), seedNote),
    start, result,
  );
  refresh();
}

function linkRow(seat) {
  const url = `${location.origin}/play/${seat.url.split("/play/")[1]}`;
  const input = h("input", { type: "text", readonly: true, value: url, class: "seat-link", dataset: { side: seat.side } });
  return h("div", { class: "link-row" }, h("strong", {}, seat.side), input,
    h("button", { onclick: async () => { input.select(); try { await navigator.clipboard.writeText(url); toast("Link copied"); } catch (err) { document.execCommand("copy"); } } }, "Copy"));
}

async function renderMyGames(box) {
  clear(box).append(h("h2", {}, "Your games"));
  const tokens = seats.tokens();
  if (!tokens.length) {
    box.append(h("p", { class: "muted" }, "No games yet on this browser. Start one above."));
    return;
  }
  let rows = [];
  try {
    rows = (await api.lobby(tokens)).games;
  } catch (err) {
    box.append(h("p", { class: "error" }, err.message));
    return;
  }
  const byGame = new Map();
  for (const row of rows) if (!byGame.has(row.id)) byGame.set(row.id, row);
  if (!byGame.size) {
    box.append(h("p", { class: "muted" }, "The games this browser remembers are not on this server."));
    return;
  }
  const list = h("ul", { class: "game-list" });
  for (const row of byGame.values()) {
    const when = new Date(row.updated * 1000).toLocaleString();
    const status = row.over ? (row.result ? `Over: ${row.result.winner ? row.result.winner + " won" : "draw"}` : "Over") : `Turn ${row.turn ?? "?"}`;
    const href = `/play/${row.id}` + (Object.keys(seats.of(row.id)).length === 1 ? `?token=${encodeURIComponent(row.token)}` : "");
    list.append(h("li", { class: "game-row", dataset: { game: row.id } },
      h("a", { href, class: "game-open" }, h("strong", {}, row.title), h("span", {}, ` · ${modeName(row.mode)} · ${row.side}`)),
      h("span", { class: row.over ? "status over" : "status" }, status),
      h("span", { class: "muted" }, when),
      h("button", { class: "small", title: "Forget this game on this browser", onclick: () => { seats.forget(row.id); renderMyGames(box); } }, "Forget")));
  }
  box.append(list);
}

function modeName(mode) {
  return (MODES.find((m) => m.id === mode) || { title: mode }).title;
}

function uploadCard() {
  const input = h("input", { type: "file", accept: ".json,application/json", id: "upload-record" });
  const box = h("section", { class: "card" }, h("h2", {}, "Continue a saved record"),
    h("p", { class: "muted" }, "A record downloaded from a game (or saved by `warroom play`) continues here as a new hot-seat game."),
    input);
  input.addEventListener("change", async () => {
    const file = input.files[0];
    if (!file) return;
    try {
      const record = JSON.parse(await file.text());
      const created = await api.upload(record, "hotseat");
      for (const seat of created.seats) seats.add(created.id, seat.side, seat.token);
      location.href = `/play/${created.id}`;
    } catch (err) {
      toast(err.message || "That file is not a warroom record", "error");
    }
  });
  return box;
}
