// How to play: the game's own sections (its spec's `help`, sent with its board by /api/boards/<game>),
// enough for a newcomer to play a whole game without the rulebook; each names the rule it summarises,
// as the game log does. A game with no help of its own gets the general sections here.
import { h } from "./dom.js";

const GENERAL = [
  { title: "Playing", text: "The actions you may take now are listed in the panel, in plain language. Choose one; the server checks it against every rule and rolls the dice.", rule: "" },
  { title: "Hidden information", text: "You only ever see what your side may see. In hot-seat games, a \"pass the device\" screen hides your view when it is the other side's turn.", rule: "" },
];

const NOTE = "Undo takes back your last decision, never past a die roll. Download the record to keep or share the game; a finished game can be replayed step by step.";

// One help section: its title, its text and, where it summarises a rule, the rule's name.
export function helpSection({ title, text, rule }) {
  return h("section", {}, h("h3", {}, title), h("p", {}, text, rule ? h("span", { class: "rule-ref" }, ` (${rule})`) : null));
}

// The help overlay's body: the sections (the general ones where there are none) and a closing note.
export function helpBody(sections, note = null) {
  const items = sections && sections.length ? sections : GENERAL;
  return h("div", { class: "help" }, items.map(helpSection), h("p", { class: "muted" }, note || NOTE));
}
