// How to play, in a few lines per game: enough for a newcomer to play a whole game without the rulebook.
import { h } from "./dom.js";

// [title, text, the rulebook section it summarises]: every paragraph names its rule, as the game log does
const DRAGOON = [
  ["Your job", "You command the Allied landings in Provence, 15–29 August 1944. The German side is played by the game's BOT: its die roll each turn decides bad weather, stalls, desperate defense or counterattacks.", "Dragoon: Introduction; German BOT Actions"],
  ["Each turn", "You get Replacement Points (RP). Every action costs 1 RP: invade a beach or drop zone, attack the next location along a unit's coloured route, flip a stalled unit back to active, or add an FFI marker (one re-roll). Unused RP are lost.", "Dragoon: Sequence of Play Each Turn; Using Action Charts"],
  ["Playing", "Units you can use glow. Click one to see what it can do and the exact odds; click the glowing target on the map (or a button in the panel) to act. The dice are rolled for you and shown.", ""],
  ["Attacks", "An attack advances on a 3 or better after its DRM (die roll modifier, added to the die): a fortress (Toulon, Marseilles) DRM −1, a desperate defender −1 (the 11th Panzer −2), Air support +1 to one attack a turn. \"DRM −1, needs 4+\" means the same thing everywhere: the log, the odds and the Air box. An attack on an empty location always advances, but a 1 stalls the unit.", "Dragoon: Resolving Unit Attacks; German Desperate Defense"],
  ["FFI", "A unit with an FFI marker may re-roll one die: after a failed attack, or when a German counterattack succeeds against it. You are asked when it matters.", "Dragoon: French Forces of the Interior (FFI)"],
  ["Air", "Air support gives DRM +1 to one attack a turn, never to an invasion or an attack on an empty location; none the turn after bad weather.", "Dragoon: Air Support"],
  ["German movement", "After your actions the German units withdraw up the Rhône (Arles 5 to Montelimar 1, then off the map); the 11th Panzer Division has rules of its own.", "Dragoon: German Movement; 11th PzD Special Rules"],
  ["Winning", "At the end of 29 August: Marseilles 2 VP, Toulon 1, Cannes 1, and 1 VP for each German unit eliminated. 8+ VP is an Allied victory, 7 a draw (the historical result), 6 or less — or holding neither Marseilles nor Toulon — a German victory.", "Dragoon: How to Win"],
];

const GENERIC = [
  ["Playing", "The actions you may take now are listed in the panel, in plain language. Choose one; the server checks it against every rule and rolls the dice.", ""],
  ["Hidden information", "You only ever see what your side may see. In hot-seat games, a \"pass the device\" screen hides your view when it is the other side's turn.", ""],
];

// One help section: its title, its text and, where it summarises a rule, the rule's name.
export function helpSection([title, body, rule]) {
  return h("section", {}, h("h3", {}, title), h("p", {}, body, rule ? h("span", { class: "rule-ref" }, ` (${rule})`) : null));
}

export function helpFor(game) {
  const items = game === "dragoon" ? DRAGOON : GENERIC;
  return h("div", { class: "help" }, items.map(helpSection),
    h("p", { class: "muted" }, "Undo takes back your last decision, never past a die roll. Download the record to keep or share the game; a finished game can be replayed step by step."));
}
