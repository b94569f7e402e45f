"""How to play Panzer Saint-Lo 1944, in a few sections: the one text the terminal (`h`) and the browser show
(the spec's `help`), each naming the rule it summarises. Plain text: each front end styles it its own way."""

from __future__ import annotations

from warroom.engine.spec import HelpSection

HELP = (
    HelpSection(
        "Panzer Saint-Lo 1944",
        "Allied (American, north) against Axis (German, south). Destroy four of the enemy's eight Command Posts "
        "(six or all eight in a longer game) before he destroys four of yours. The four-player game "
        "(saintlo-teams) plays two teams of two: Player A commands infantry and aircraft, Player B artillery "
        "and tanks, and both share the Supply units and the Supplies.",
        "Saint-Lo 1; 3; 10",
    ),
    HelpSection(
        "Setup",
        "Each army places its Command Posts on its coloured hexes (yellow Allied, red Axis), one a hex, then "
        "deploys all its units face down in its own half of the board: one unit a hex, no land unit on a river or "
        "a Command Post, Supply units on roads. The enemy sees only how many you have placed until both armies "
        "are done and every unit turns face up. Each player draws 6 Battle Reports; dice decide who starts. "
        "To set up quickly, 'the rest for me' places all you have left the way the computer would (for your "
        "counters a die varies it), and 'all remaining in the west' (or east) deploys them in that half of your "
        "sector; placed counters stay where they are.",
        "Saint-Lo 4; 10.1",
    ),
    HelpSection(
        "A turn",
        "Receive 1 Supply for each of your Supply units; draw a Battle Report (7 in hand at most: discard an "
        "eighth). Then use up to 10 units: each costs 1 Supply and may move and attack once, in either order, "
        "and is then flipped face down. Foot infantry moves free and pays only to attack. Last, Reorganization: "
        "buy units not in play at their cost next to one of your Command Posts, or swap units for half their "
        "cost in Supplies.",
        "Saint-Lo 5.1-5.4; 8",
    ),
    HelpSection(
        "Movement",
        "A unit moves up to its mobility in hexes. Land units pass through friendly units but never end on "
        "another land unit or a Command Post, never pass an enemy unit, and cross rivers only at bridges; "
        "Supply units keep to the roads. Aircraft fly anywhere and may stop over any land unit, but never "
        "share a hex with another aircraft.",
        "Saint-Lo 6.1; 7.4; 7.5",
    ),
    HelpSection(
        "Attacks",
        "Attack an adjacent enemy land unit or Command Post: throw dice equal to your attack, the defender "
        "dice equal to his defence. Compare the highest dice; a higher attacker destroys the target, a higher "
        "defender survives, a tie goes to the next pair, and when every pair ties the side with more dice "
        "wins (equal dice throw again). Artillery in range adds its attack dice for 1 Supply each and stays "
        "face up. Aircraft attack an adjacent aircraft with their upper value, or the land unit under them "
        "with the lower; they cannot destroy Command Posts. Infantry, tanks and artillery cannot attack aircraft.",
        "Saint-Lo 6.2; 7.1-7.4",
    ),
    HelpSection(
        "Battle Reports",
        "Cards you may play at your decisions, and in the windows the game offers your opponent's turn (when "
        "his Movement and Attack starts, and before the dice of an attack). Unique cards act on one unit, "
        "general cards on a group, until the end of the turn; Supplies cards add Supplies.",
        "Saint-Lo 9; 10.4",
    ),
    HelpSection(
        "On the board",
        "Click one of your glowing units: the hexes it may move to light up, its targets in red with their "
        "odds. Your hand, the Supplies and the cards in play are in the side panel.",
        "Saint-Lo 5.3",
        only="web",
    ),
    HelpSection(
        "In the terminal",
        "Each unit is listed by hex with attack-defence-mobility; an asterisk marks a unit already used this "
        "turn. Pick actions by number; a menu groups them by unit.",
        "Saint-Lo 5.3",
        only="terminal",
    ),
)
