"""How to play Patton, in a few sections: the one text the terminal (`h`) and the browser show (the
spec's `help`), each section naming the rule it summarises, as the game log does.

Plain text, no markup: each front end styles it its own way. A section about one front end only
says so (`only`).
"""

from __future__ import annotations

from warroom.engine.spec import HelpSection

HELP = (
    HelpSection(
        "Major Battles and Campaigns of General George S. Patton",
        "Two players, American (Allied, blue) against German (Axis, red); the computer or a second person "
        "takes the other side. Normandy and the Bulge say American and German, Sicily Allied and Axis.",
        "Patton: Normandy; The Bulge; Sicily",
    ),
    HelpSection(
        "A turn",
        "Turn up your next movement card; your Movement Points are its value plus the card your opponent has "
        "face up (the first American turn: your card alone). Move Units town to town: a solid road costs 1 MP a "
        "Unit, dashed 2, dotted 3; at most 5 Units over one road a turn. A move into an enemy town stops outside "
        "it and fights. When all moves are done the battles are fought, in the order you choose.",
        "Patton: The Movement Deck; Using Movement Points",
    ),
    HelpSection(
        "Moving",
        "Click a town with your glowing Units, then a highlighted town; choose how many Armored and Infantry go. "
        "A Unit costs 1 MP over a solid road, 2 over a dashed one, 3 over a dotted one. At most 5 Units may use a "
        "road in a turn; a town may hold more than 10 during your turn, but at its end you remove the Units over 10.",
        "Patton: Using Movement Points; Positioning of Units",
        only="web",
    ),
    HelpSection(
        "Battles",
        "1 die per Armored Unit, 1 per 2 Infantry, at most 5. One die: a 6 is a casualty; more dice: each double "
        "1, triple 2, four of a kind 3, five 4. Casualties take Infantry first, then 1 Armored for 2. Then the "
        "lower total retreats (unless the other side was wiped out); a tie: either may retreat, else refight. "
        "The attacker falls back along his roads; the defender retreats up to 5 Units along roads clear of the "
        "enemy, the rest surrender.",
        "Patton: Battles; Casualties; Retreating",
    ),
    HelpSection(
        "Decisions in place",
        "Casualties, ties and retreats are asked on the map, beside the battle, from whichever side must decide "
        "— even during the other player's turn. You see the exact odds before you commit.",
        "Patton: Retreating",
        only="web",
    ),
    HelpSection(
        "On the board",
        "Every town, with who holds it and its Units; ● red town (Normandy objective) · * (*) town · (n) yellow "
        "defection town (Sicily); roads: ━ solid 1 MP, ╌ dashed 2, ┈ dotted 3, the holder of the town at the "
        "other end in brackets ([G] German), and how many Units used the road this turn (at most 5).",
        only="terminal",
    ),
    HelpSection(
        "Odds",
        "[2 v 1 dice · first round: win 60%, tie 10%, lose 30%] is the exact result of the battle's first round "
        'with its casualties (win: the enemy retreats or is wiped out). The battle line adds "dice totals '
        'alone": the bare comparison of the two totals, which differs because a side wiped out by casualties '
        "loses whatever it threw.",
        "Patton: Battles; Casualties",
        only="terminal",
    ),
    HelpSection(
        "Choosing",
        "A long list comes in steps: the town your Units leave, then where they go, then how many (with the "
        "odds). 0 goes back; type a town's name to list every action naming it, a force like 2A1I to pick it, "
        "all for the whole numbered list (what scripts type), or an action's id (move 2A1I St-Lo->Tessy).",
        only="terminal",
    ),
)
"""The help sections, in reading order."""
