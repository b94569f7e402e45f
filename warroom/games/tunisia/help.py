"""How to play Tunisia, in a few sections: the one text the terminal (`h`) and the browser show (the spec's
`help`), each section naming the rules it summarises, as the game log does. Plain text, no markup."""

from __future__ import annotations

from warroom.engine.spec import HelpSection

HELP = (
    HelpSection(
        "Patton's First Victory: Tunisia",
        "Two players: the Axis (German and Italian) against the Allies (British, American, French), February "
        "to April 1943, eight weekly turns. The Axis moves first each turn. The computer or a second person "
        "takes the other side; the table assistant lets you type in your own d12 rolls.",
        "1.0, 7.0",
    ),
    HelpSection(
        "Winning",
        "The Allies win at once by occupying all five ports (Bizerte, Tunis, Sousse, Sfax, Gabes) with units, "
        "or by eliminating every Axis counter. The Axis wins at once with a unit in the airbase 8821, at the "
        "end of a turn by holding three Allied airfields while the Allies hold no port, and otherwise at the "
        "end of the last turn.",
        "4.0",
    ),
    HelpSection(
        "A player-turn",
        "Movement, then attacks (each with its air support, air combat, both rolls, losses, retreats and the "
        "advance), the return of air assets to base, replacements and supply. Patton arrives for the Allies by "
        "the end of turn 3; Rommel may be recalled in the last three turns.",
        "7.0, 16.0, 17.0",
    ),
    HelpSection(
        "Moving",
        "A piece spends its MA entering hexes: open 1, rough 2, mountain 3, a river hexside +3 unless bridged, "
        "1/2 along a road. Entering an enemy zone of control (the six hexes around an enemy unit) ends the move. "
        "A unit that neither starts nor ends in one moves double. A piece may always move one hex. One unit and "
        "two support assets (three with an air asset) may share a hex.",
        "6.0, 8.0, 9.0",
    ),
    HelpSection(
        "Moving in the browser",
        "Click one of your glowing counters: the hexes it can reach light up with their cost in MP; click one "
        "to move there. Adjacent enemy stacks light up red: click one to see the attack with its exact odds. "
        "Show ZOC and supply with the buttons over the map.",
        "8.0, 11.0",
        only="web",
    ),
    HelpSection(
        "Attacking and defending",
        "Each attack is two d12 rolls at once. The attacker succeeds on a roll plus modifiers at or under his "
        "unit's combat factor (the defender's terrain or the hexside crossed adds its modifier); the defender "
        "does the same without terrain. A natural 1 always succeeds, a 12 always fails. Support assets stacked "
        "with a unit subtract their DRM. A successful attack alone makes the defender lose a step and retreat "
        "two hexes; both successful: both lose a step and nobody retreats. A unit with a general that clears "
        "the hex may break through: move and attack again.",
        "11.0, 12.0, 13.0, 14.0, 15.0",
    ),
    HelpSection(
        "Air",
        "An air asset may join one attack or one defence within its range, then goes to the Return to Base box. "
        "When both sides fly one, an air combat decides which adds its DRM. After the attacks each returns to a "
        "free friendly airfield, or is eliminated.",
        "7.3, 7.6, 10.0",
    ),
    HelpSection(
        "What you see of the enemy",
        "Of an enemy stack with none of your units next to it you see only the top counter and how many lie "
        "beneath it.",
        "6.0E",
    ),
    HelpSection(
        "Playing in the terminal",
        "Type the number of an action. The map shows each stack's top counter (A: Axis, L: Allied), '+N' for N "
        "more beneath; a number in a hex is the fewest MP a piece still to move needs to get there, X an attack's "
        "target. The menu lists every action with its exact odds.",
        "8.0, 11.0",
        only="terminal",
    ),
)
