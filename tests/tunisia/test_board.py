"""Tunisia's board (warroom/games/tunisia/board.py and data/*.toml): the reconstructed map, Terrain
Effects Chart and counters load and validate, every hex the rulebook names is where it puts it, and the
rules' movement statements hold on this map's costs (tunisia-pattons-first-victory.txt)."""

from __future__ import annotations

import math
import shutil
from collections import deque
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warroom.engine.errors import DataFileError
from warroom.games.tunisia.board import DATA_DIR, Board, load_board


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board()


BOARD = load_board()
LAND = sorted(BOARD.land)


def place(board: Board, name: str) -> int:
    return board.place_named[name]


# -- loading -----------------------------------------------------------------------------------------
def test_the_data_loads(board: Board) -> None:
    assert board.grid.n == 18 * 25 and len(board.land) > 250
    assert {board.terrain[i] for i in board.land} == {"open", "rough", "mountain", "chott"}
    assert board.river_sides and board.bridges and board.road_sides and board.rail_sides and board.border_sides
    assert {"Western Dorsal", "Eastern Dorsal"} <= set(board.ranges)
    assert {"Medjerda"} <= set(board.rivers)
    sides = {p.side for p in board.pieces.values()}
    assert sides == {"allied", "axis"}
    assert board.counters.game.turns >= board.counters.game.patton_forced_arrival_turn  # 16.0B happens in the game
    assert board.counters.game.turns >= board.counters.game.rommel_recall_turns  # 17.0A "the last three turns"


def test_every_reconstruction_is_marked(board: Board) -> None:
    """Everything not stated by the rules says so: the map's parts, the TEC's values, the pieces' values."""
    data = board.map_data
    assert data.grid.reconstructed and data.terrain.reconstructed and data.countries.reconstructed
    assert all(r.reconstructed for r in data.roads + data.railways + data.ranges) and data.bridges.reconstructed
    assert all(r.reconstructed for r in data.rivers)
    for name in ("rough", "mountain", "chott", "village", "port"):
        assert "mp" in board.tec.hexes[name].reconstructed  # no MP cost but open ground's is in the rules (8.3)
    assert board.tec.hexes["open"].mp == 1 and "mp" not in board.tec.hexes["open"].reconstructed
    for spec in [*board.counters.units, *board.counters.supports]:
        assert spec.reconstructed, f"{spec.id}: nothing reconstructed? The counter sheet is not in the rulebook"
        assert spec.reconstructed == ["*"] or spec.rule, f"{spec.id}: what the rules state of it is cited"


# -- the hexes the rules name --------------------------------------------------------------------------
def test_named_hexes_are_where_the_rules_put_them(board: Board) -> None:
    at, label = board.at, board.label
    assert board.place_at[at("7607")].name == "Bone" and board.place_at[at("7607")].kind == "village"  # 5.1B
    assert board.bone == at("7607") and board.broich == at("8306") and board.mareth == at("8519")
    assert board.place_at[at("8519")].name == "Mareth"  # 5.2B, 17.0B
    assert board.place_at[at("8314")].name == "Lessouda"  # 3.0 errata
    assert board.place_at[at("8117")].name == "Bir Mrabatt"  # 3.0 errata
    assert board.airbase == at("8821") and board.airfields[at("8821")].side == "allied"  # 4.0B, 5.1D, 17.0B
    assert {label(i) for i in board.eighth_army} == {"8720", "8721", "8722", "8723", "8820", "8822"}  # 17.0B
    assert {board.place_at[i].name for i in board.ports} == {"Bizerte", "Tunis", "Sousse", "Sfax", "Gabes"}  # 4.0A
    souk = board.airfields[place(board, "Souk el Arba")]
    assert souk.side == "axis" and souk.counts_as_allied  # 4.0B: "the Axis airfield at Souk al Arba"
    # the fixed setups of 5.1B and 5.2B
    pieces = board.pieces
    assert pieces["Broich"].setup_hexes == {at("8306")}
    assert pieces["1st-Para"].setup_hexes == {at("7607")}
    for fixed in ("La-Spezia", "Marines", "Messe"):
        assert pieces[fixed].setup_hexes == {at("8519")} and pieces[fixed].default == at("8519")
    assert pieces["La-Spezia"].is_unit and not pieces["Marines"].is_unit and not pieces["Messe"].is_unit  # 6.0A
    assert pieces["Patton"].drm == -3 and pieces["Patton"].ma == 7 and pieces["Patton"].is_general  # 2.2A
    assert pieces["Broich"].cf == 3 and pieces["Broich"].ma == 3  # 2.2A


def test_reconstructed_places_follow_the_calibration(board: Board) -> None:
    """research/GAMES.md: column ~ 76 + (lon - 7.77) / 0.281, row ~ 7 + (36.90 - lat) / 0.274, +-1 hex.
    Every reconstructed place lies within two hexes of where the calibration puts its real position."""
    cal = board.map_data.calibration
    for i, p in board.place_at.items():
        col = cal.column_at + (p.lon - cal.longitude_at) / cal.degrees_per_column
        row = cal.row_at + (cal.latitude_at - p.lat) / cal.degrees_per_row
        nearest = min(
            board.land, key=lambda j: (int(board.label(j)[:2]) - col) ** 2 + (int(board.label(j)[2:]) - row) ** 2
        )
        limit = 2 if p.reconstructed else 3  # the rules' own hexes: the calibration is only fitted to them
        assert board.grid.distance(i, nearest) <= limit, (p.name, board.label(i), board.label(nearest))


# -- movement on this map --------------------------------------------------------------------------------
def test_tunisia_8_3_river_example(board: Board) -> None:
    """# Tunisia 8.3: "A unit moving across an unbridged river hexside into an open ground hex expends a
    total of 4 MPs to do so: one for the open ground and three more for the river hexside." Here across
    the Medjerda from 8109 into the open hex 8208, with hexgrid's pathfinding on this map's costs."""
    south, north = board.at("8109"), board.at("8208")
    side = board.grid.side(south, north)
    assert side in board.rivers["Medjerda"] and side not in board.bridges and side not in board.road_cost
    assert board.terrain[north] == "open" and north not in board.place_at
    assert board.step_cost(south, north) == 4.0
    others = set(range(board.grid.n)) - {south, north}  # the straight crossing alone, as the example has it
    reach = board.grid.movement_range(south, 4, board.ground_costs, blocked=others)
    assert reach.cost[north] == 4.0 and reach.path(north) == [south, north]
    assert north not in board.grid.movement_range(south, 3, board.ground_costs, blocked=others)
    # 8.5: the minimum move takes it across with 3 MP, and no further
    minimum = board.grid.movement_range(south, 3, board.ground_costs, blocked=others, at_least_one=True)
    assert minimum.path(north) == [south, north] and minimum.cost[north] == 4.0
    # on the open map a way round by road and bridge is cheaper than wading across
    assert board.grid.movement_range(south, 4, board.ground_costs).cost[north] < 4.0
    # 8.3C: across a bridge the river costs nothing (and the road across it, 8.4, 1/2 MP)
    for s in board.bridges:
        a, b = board.grid.side_ends[s]
        assert board.step_cost(a, b) == board.road_cost[s] == 0.5


def test_8_4_road_rate_and_8_2_highest_cost(board: Board) -> None:
    """# Tunisia 8.4: along a road 1/2 MP a hex, the terrain negated; 8.2A: a hex pays its highest cost."""
    coast = board.roads["Coast road"]
    for a, b in zip(coast, coast[1:], strict=False):
        assert board.step_cost(a, b) == 0.5
    tunis, sfax = place(board, "Tunis"), place(board, "Sfax")
    reach = board.grid.movement_range(tunis, len(coast) / 2, board.ground_costs)
    assert reach.cost[sfax] <= 0.5 * (coast.index(sfax) - coast.index(tunis))
    faid = place(board, "Faid")  # a village in the Eastern Dorsal: the mountain's cost
    assert board.terrain[faid] == "mountain" and board.enter_cost[faid] == board.tec.hexes["mountain"].cost
    assert board.hex_combat[faid] == max(board.tec.hexes["mountain"].combat, board.tec.hexes["village"].combat)
    sea = next(i for i in range(board.grid.n) if board.terrain[i] == "sea")
    assert board.enter_cost[sea] == math.inf  # 8.7A: no entering a non-hex area


def road_network(board: Board, start: int) -> set[int]:
    """Every hex reachable from `start` along road and railway hexsides only."""
    fast = board.road_sides | board.rail_sides
    seen, queue = {start}, deque([start])
    while queue:
        i = queue.popleft()
        for j, k in board.grid.adjacent[i]:
            if k in fast and j not in seen:
                seen.add(j)
                queue.append(j)
    return seen


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Bone", "Tunis"),
        ("Tunis", "Bizerte"),
        ("Tunis", "Sousse"),
        ("Sousse", "Sfax"),
        ("Sfax", "Gabes"),
        ("Gabes", "Mareth"),
        ("Mareth", "Medenine"),
        ("Tebessa", "Kasserine"),
        ("Kasserine", "Sbeitla"),
        ("Sbeitla", "Lessouda"),
        ("Gafsa", "El Guettar"),
        ("El Guettar", "Gabes"),
        ("Souk el Arba", "Le Kef"),
        ("Le Kef", "Thala"),
        ("Thala", "Kasserine"),
        ("Gafsa", "Bir Mrabatt"),
        ("Bir Mrabatt", "Maknassy"),
    ],
)
def test_roads_connect_the_towns(board: Board, a: str, b: str) -> None:
    assert place(board, b) in road_network(board, place(board, a))


def test_every_place_is_on_the_one_road_network(board: Board) -> None:
    net = road_network(board, place(board, "Tunis"))
    off = [p.name for i, p in board.place_at.items() if i not in net]
    assert not off, f"places off the road network: {off}"
    assert board.bone in net and board.airbase not in board.eighth_army


def test_roads_cross_rivers_only_on_bridges_and_the_border_divides_the_countries(board: Board) -> None:
    """8.3C: every road or railway hexside over a river has its bridge (NOTES.md: so 8.4's road rate never
    meets an unbridged river); 5.1A/5.2A: the orange border runs between Algeria and Tunisia."""
    crossings = (board.road_sides | board.rail_sides) & board.river_sides
    assert crossings and crossings <= board.bridges
    assert board.country[board.bone] == "algeria" and board.country[place(board, "Tebessa")] == "algeria"
    assert all(board.country[i] == "tunisia" for i in board.ports)
    for k in board.border_sides:
        assert {board.country[i] for i in board.grid.side_ends[k]} == {"algeria", "tunisia"}
    west = road_network(board, board.bone) & {i for i in board.land if board.country[i] == "algeria"}
    assert any(
        board.grid.side(a, b) in board.border_sides
        for a in west
        for b in board.grid.neighbours(a)
        if board.grid.side(a, b) in board.road_sides
    )  # roads cross the border


def test_the_dorsals_stand_between_the_plains(board: Board) -> None:
    """The Western and Eastern Dorsals are mountain chains; Kasserine (the pass) and Faid are their gaps,
    which the roads take at the road rate."""
    west, east = board.ranges["Western Dorsal"], board.ranges["Eastern Dorsal"]
    for chain in (west, east):
        assert all(board.grid.distance(a, b) == 1 for a, b in zip(chain, chain[1:], strict=False))
    kasserine = place(board, "Kasserine")
    assert any(board.grid.distance(kasserine, m) == 1 for m in west)
    assert place(board, "Faid") in east and place(board, "Faid") in board.road_hexes


# -- setup -------------------------------------------------------------------------------------------------
def test_setup_hexes_exist_and_no_piece_starts_where_it_cannot_be(board: Board) -> None:
    for piece in board.pieces.values():
        for i in piece.setup_hexes:
            assert board.enter_cost[i] < math.inf, (piece.id, board.label(i))  # never an impassable hex
        if piece.default is not None:
            assert piece.default in piece.setup_hexes and board.enter_cost[piece.default] < math.inf
    west = [p for p in board.pieces.values() if p.setup in ("algeria", "near_bone")]
    assert all(board.country[p.default] == "algeria" for p in west if p.default is not None)  # 5.1A
    axis = [p for p in board.pieces.values() if p.side == "axis"]
    assert all(board.country[i] == "tunisia" for p in axis for i in p.setup_hexes)  # 5.2A
    assert not any((board.eighth_army | board.ii_corps) & p.setup_hexes for p in axis if p.setup == "tunisia")
    bone6 = board.pieces["6th-Armd"]
    assert all(board.grid.distance(i, board.bone) <= 4 for i in bone6.setup_hexes)  # 5.1B


def test_ii_corps_eighth_army_and_air_setups_fit(board: Board) -> None:
    """5.1C: at least one II Corps unit in each II Corps hex and (6.0A) at most one: as many units as hexes.
    5.1B: the 8th Army's units fit its hexes. 5.1D, 5.2C: an airfield for each air asset."""
    ii = [p for p in board.pieces.values() if p.is_unit and p.corps == "ii_corps" and not p.two_star]
    assert len(ii) == len(board.ii_corps) and {p.default for p in ii} == set(board.ii_corps)
    eighth = [p for p in board.pieces.values() if p.is_unit and p.setup == "eighth_army"]
    assert 0 < len(eighth) <= len(board.eighth_army)
    for side in ("allied", "axis"):
        air = [p for p in board.pieces.values() if p.side == side and p.is_air]
        fields = board.pieces[air[0].id].setup_hexes
        assert len(air) <= len(fields) and all(p.setup_hexes == fields for p in air)
    assert board.pieces["WDAF"].setup_hexes >= {board.airbase}  # 5.1D "(or hex 8821)"
    two_star = {p.replaces for p in board.pieces.values() if p.two_star}
    assert {p.id for p in board.pieces.values() if p.corps == "ii_corps" and not p.two_star} == two_star  # 16.0C
    assert board.pieces["Patton"].default is None and not board.pieces["Patton"].setup_hexes  # 16.0: he arrives


# -- properties ----------------------------------------------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(st.sampled_from(LAND), st.data())
def test_a_step_costs_the_entered_hex_plus_its_hexside(h: int, data: st.DataObject) -> None:
    """8.2-8.4 on every hexside: the mover's own hex never matters; a step costs the entered hex's cost,
    plus 3 across an unbridged river (8.3), or the road rate along a road hexside (8.4)."""
    board = BOARD
    pairs = board.grid.adjacent[h]
    j, k = data.draw(st.sampled_from(pairs))
    cost = board.step_cost(j, h)
    if k in board.road_cost:
        assert cost == board.road_cost[k]
    elif k in board.river_sides and k not in board.bridges:
        assert cost == board.enter_cost[h] + 3
    else:
        assert cost == board.enter_cost[h]
    modifier = board.combat_modifier(j, h)  # 11.3: the defender's hex or the hexside, the highest one
    assert modifier == max(board.hex_combat[h], board.side_combat.get(k, 0)) >= board.hex_combat[h]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(LAND), st.integers(1, 8))
def test_movement_never_overspends(start: int, allowance: int) -> None:
    board = BOARD
    reach = board.grid.movement_range(start, allowance, board.ground_costs)
    for h, c in reach.cost.items():
        path = reach.path(h)
        assert c <= allowance and board.enter_cost[h] < math.inf
        assert sum(board.step_cost(a, b) for a, b in zip(path, path[1:], strict=False)) == c


# -- errors name the file and the key ------------------------------------------------------------------------
def broken_copy(tmp_path: Path, file: str, old: str, new: str) -> Path:
    for f in DATA_DIR.glob("*.toml"):
        shutil.copy(f, tmp_path / f.name)
    text = (tmp_path / file).read_text(encoding="utf-8")
    assert old in text
    (tmp_path / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("file", "old", "new", "key", "problem"),
    [
        ("map.toml", '"7607", "7608", "7709"', '"7607", "7609", "7709"', "roads[1].hexes", "not adjacent"),
        ("map.toml", 'hex = "8519", name = "Mareth"', 'hex = "9919", name = "Mareth"', "places[", "not on the map"),
        ("map.toml", 'bone = "7607"', 'bone = "76-7"', "setup_hexes.bone", "four digits"),
        ("map.toml", '"8109/8208"', '"8109/8308"', "rivers[0].hexsides", "not adjacent"),
        ("terrain.toml", "[hexes.chott]", "[hexes.swamp]", "hexes", "unknown terrain 'swamp'"),
        ("counters.toml", 'default = "8720"', 'default = "8019"', "units[", "outside its setup zone"),
        ("counters.toml", 'default = "8314"', 'default = "8519"', "default", "two units"),
    ],
)
def test_errors_name_the_file_and_the_key(
    tmp_path: Path, file: str, old: str, new: str, key: str, problem: str
) -> None:
    with pytest.raises(DataFileError) as caught:
        load_board(broken_copy(tmp_path, file, old, new))
    assert caught.value.file == file and caught.value.key.startswith(key) and problem in caught.value.problem


def test_each_country_is_one_region_and_the_axis_never_starts_on_the_airbase(board: Board) -> None:
    """5.1A/5.2A: the orange border divides the map in two; no hex of one country stands alone inside the
    other (row 25's half-hexes once did). 5.2A with 5.1D and 4.0B (NOTES.md): 8821 is the Allies' airbase,
    not an Axis setup hex, or an Axis unit placed there would win before the first move."""
    for country in ("algeria", "tunisia"):
        hexes = {i for i in board.land if board.country[i] == country}
        start = min(hexes)
        seen, todo = {start}, [start]
        while todo:
            for j in board.grid.neighbours(todo.pop()):
                if j in hexes and j not in seen:
                    seen.add(j)
                    todo.append(j)
        assert seen == hexes, (country, sorted(board.label(i) for i in hexes - seen))
    assert all(board.airbase not in p.setup_hexes for p in board.pieces.values() if p.side == "axis")
