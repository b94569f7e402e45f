"""How to play Operation Dragoon, in a few sections: the one text the terminal (`h`) and the browser
show (the spec's `help`), each section naming the rule it summarises, as the game log does.

Plain text, no markup: each front end styles it its own way. A section about one front end only
says so (`only`).
"""

from __future__ import annotations

from warroom.engine.spec import HelpSection

HELP = (
    HelpSection(
        "Operation Dragoon 1944",
        "You are General Patch (US 7th Army), commanding the Allied landings in Provence, 15–29 August 1944. "
        "The German side is played by the game's BOT: its die roll each turn decides bad weather, stalls, "
        "desperate defense or counterattacks.",
        "Dragoon: Introduction; German BOT Actions",
    ),
    HelpSection(
        "Winning",
        "At the end of 29 August you must hold Marseilles or Toulon, or the Germans win outright. Then VP: "
        "Marseilles 2, Toulon 1, Cannes 1, and 1 for each German unit eliminated. 8 or more: Allied victory · "
        "7: draw (the historical result) · 6 or less: German victory.",
        "Dragoon: How to Win",
    ),
    HelpSection(
        "Sequence of play",
        "Each turn, 15 to 29 August: 1. Allied RPs: a set number on 15-16 Aug, then a die roll (2-4 RP). "
        "2. Allied actions, 1 RP each: invade or attack the next location on the unit's route, flip a stalled "
        "unit to active, or add an FFI marker (limit 1 per unit); unused RP are lost. 3. German movement: the "
        "escape column moves north one location (Arles → Escaped). 4. German BOT action: one die on the BOT "
        "chart (bad weather, stalls, desperate defense, counterattacks). 5. Turn end.",
        "Dragoon: Sequence of Play Each Turn; Using Action Charts",
    ),
    HelpSection(
        "Playing",
        "Units you can use glow. Click one to see what it can do and the exact odds; click the glowing target "
        "on the map (or a button in the panel) to act. The dice are rolled for you and shown.",
        only="web",
    ),
    HelpSection(
        "Attacks",
        "One die: an attack advances on a 3 or better after its DRM (die roll modifier, added to the die): a "
        "fortress port (Toulon, Marseilles) -1, a desperate German -1 (the 11th PzD -2), Air support +1. "
        '"DRM -1, needs 4+" means the same thing everywhere: the log, the odds and the Air box. Invasions and '
        "attacks on empty locations always advance, but a 1 stalls the unit. A stalled unit may not attack; a "
        "German success against it pushes it back. A unit attacks at most once a turn, never on the turn it "
        "lands. The French II Corps and 3e DIA land free on Alpha Beach on 16 and 18 Aug. Allied units never "
        "enter Montelimar.",
        "Dragoon: Resolving Unit Attacks; German Desperate Defense",
    ),
    HelpSection(
        "FFI",
        "A unit with an FFI marker may re-roll one die: after a failed attack, or when a German counterattack "
        "succeeds against it. You are asked when it matters.",
        "Dragoon: French Forces of the Interior (FFI)",
    ),
    HelpSection(
        "Air",
        "Air support gives DRM +1 to one attack a turn, never to an invasion or an attack on an empty location; "
        "none the turn after bad weather.",
        "Dragoon: Air Support",
    ),
    HelpSection(
        "German movement",
        "After your actions the German units withdraw up the Rhône (Arles 5 to Montelimar 1, then off the map); "
        "the 11th Panzer Division has rules of its own.",
        "Dragoon: German Movement; 11th PzD Special Rules",
    ),
    HelpSection(
        "On the board",
        "A coloured chip is a unit (US green, French blue, German grey); STALLED / FFI / done (already acted "
        "this turn) under an Allied unit; -1/-2 after a German unit is its desperate defense DRM; ^ marks the "
        "top of a German stack (the one the Allies attack); a green box (on a narrow console, [*Name]) is "
        "Allied-controlled; a bold arrow points at the location a unit attacks next.",
        only="terminal",
    ),
)
"""The help sections, in reading order."""
