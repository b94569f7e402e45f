"""Saint-Lo 4.3: the computer's counters go down face down in an order of its own, on the heuristic's hexes, each
role's counters dealt among its hexes with the agent's own random numbers.

An audit as a cheating opponent (6 December) named every back of the computer's by the order they appeared
in: the heuristic deploys kind by kind. Another (7 December) named them by their hexes: the heuristic's hexes
are a function of the public position. The agents now place on the heuristic's hexes, in an order and with an
assignment of each role's counters to its hexes drawn with their own random numbers (`ai.unpredictable`)."""

from __future__ import annotations

import random

import warroom
from warroom.ai import get_agent
from warroom.games.saintlo import ai, placement
from warroom.games.saintlo.state import Phase


def _deploy_with(m: warroom.Match, choose) -> list[str]:  # type: ignore[no-untyped-def]
    """Play the posts and the deployment with `choose(match) -> action`; the deploy actions, in order."""
    order = []
    while m.state.phase in (Phase.POSTS, Phase.DEPLOY):
        action = choose(m)
        if action.startswith("deploy "):
            order.append(action)
        m.play(action)
    return order


def _by_heuristic(m: warroom.Match) -> str:
    return ai.heuristic_policy(m.ruleset, m.state)[0]


def _final(m: warroom.Match) -> tuple[list[int], list[int], list[int]]:
    return list(m.state.pos), list(m.state.land_at), list(m.state.air_at)


def _roles_on(m: warroom.Match) -> dict[int, int]:
    """Hex -> role (placement.ROLES) of each counter on the board, land and air apart: what the backs and the
    heuristic's hexes tell a code-reading opponent (air hexes counted negative)."""
    t = m.ruleset.t
    out = {}
    for u, h in enumerate(m.state.pos):
        if h >= 0:
            out[-1 - h if t.unit_type[u] == 3 else h] = placement.role_of(t.unit_type[u])
    return out


def test_the_computers_deployment_keeps_the_heuristics_hexes_and_deals_its_counters() -> None:
    # Saint-Lo 4.3 (hidden information): the same hexes, each with a counter of the same role, as the heuristic's
    # kind-by-kind deployment; which counter of a role is where, and the order, are drawn by the agent's seed
    fixed = warroom.new_game("saintlo", seed=2)
    fixed_order = _deploy_with(fixed, _by_heuristic)
    orders, finals = [], []
    for agent_seed in (1, 2, 1):
        m = warroom.new_game("saintlo", seed=2)
        sides = m.ruleset.info.sides
        agents = {side: get_agent("heuristic", "saintlo", seed=agent_seed * 10 + k) for k, side in enumerate(sides)}
        orders.append(_deploy_with(m, lambda m: agents[m.to_act].choose(m)[0]))  # noqa: B023 - used at once
        finals.append(_final(m))
        assert _roles_on(m) == _roles_on(fixed)  # every hex of the heuristic's, a counter of the same role there
        assert m.state.phase == fixed.state.phase and m.state.seat == fixed.state.seat
    first, second, again = orders
    assert first == again and finals[0] == finals[2]  # the same agent seed, the same deployment
    assert finals[0] != finals[1] and finals[0] != _final(fixed)  # another seed, another deal
    moved = sum(a != b for a, b in zip(finals[0][0], finals[1][0], strict=True))
    assert moved > 60  # most counters of both armies (130) on other hexes, not a swap or two
    assert sorted(a.split()[1] for a in first) == sorted(a.split()[1] for a in fixed_order)
    kinds = [a.split()[1] for a in first]
    runs = sum(1 for i in range(1, len(kinds)) if kinds[i] != kinds[i - 1])
    fixed_kinds = [a.split()[1] for a in fixed_order]
    fixed_runs = sum(1 for i in range(1, len(fixed_kinds)) if fixed_kinds[i] != fixed_kinds[i - 1])
    assert runs > 3 * fixed_runs  # kind by kind no more: the kinds are interleaved


def test_the_order_says_nothing_of_the_kinds() -> None:
    # Saint-Lo 4.3 (hidden until revealed): over many orders, where a kind goes down in the sequence is
    # spread evenly, so a back's place in the order tells a watching opponent nothing of its kind
    m = warroom.new_game("saintlo", seed=5)
    while m.state.phase != Phase.DEPLOY:
        m.play(_by_heuristic(m))
    plan = ai.deployment_plan(m.ruleset, m.state)
    halves = {"first": 0, "second": 0}
    big = max({a.split()[1] for a in plan}, key=lambda k: sum(a.split()[1] == k for a in plan))
    for agent_seed in range(20):
        twin = m.clone()
        agent = get_agent("heuristic", "saintlo", seed=agent_seed)
        seat = twin.state.seat
        order = []
        while twin.state.phase == Phase.DEPLOY and twin.state.seat == seat:
            action = agent.choose(twin)[0]
            order.append(action.split()[1])
            twin.play(action)
        assert len(order) == len(plan)
        for i, kind in enumerate(order):
            if kind == big:
                halves["first" if i < len(order) // 2 else "second"] += 1
    total = halves["first"] + halves["second"]
    assert 0.35 < halves["first"] / total < 0.65  # kind by kind would put all of them in one half


def test_the_plan_is_the_same_at_every_step_of_the_seat() -> None:
    # Saint-Lo 4.3: the plan is made from where the seat began, whatever has gone down since
    m = warroom.new_game("saintlo", seed=7)
    while m.state.phase != Phase.DEPLOY:
        m.play(_by_heuristic(m))
    plan = ai.deployment_plan(m.ruleset, m.state)
    agent = get_agent("mcts", "saintlo", simulations=5, seed=3)
    t = m.ruleset.t
    air = placement.role_of(3)  # an aircraft's place on a hex is apart from a land unit's

    def place(kind: str, label: str) -> tuple[bool, str, int]:
        role = placement.role_of(t.kind_type[t.kind_index[kind]])
        return role == air, label, role

    planned = {place(*a.split()[1:]) for a in plan}
    for _ in range(10):
        action = agent.choose(m)[0]
        assert place(*action.split()[1:]) in planned  # a place of the plan, a counter of its role
        assert action in m.legal_actions()
        m.play(action)
        assert ai.deployment_plan(m.ruleset, m.state) == plan


def test_a_seat_handed_over_half_way_deploys_the_rest_legally() -> None:
    # Saint-Lo 4.3: counters a person put down where the plan would not are kept; the computer plans the rest
    rng = random.Random(4)
    for seed in (1, 2, 3):
        m = warroom.new_game("saintlo", seed=seed)
        while m.state.phase != Phase.DEPLOY:
            m.play(_by_heuristic(m))
        for _ in range(12):  # a person deploys a few counters anywhere
            legal = m.legal_actions()
            m.play(legal[int(rng.random() * len(legal))])
        agent = get_agent("heuristic", "saintlo", seed=seed)
        seat = m.state.seat
        while m.state.phase == Phase.DEPLOY and m.state.seat == seat:
            action = agent.choose(m)[0]
            assert action in m.legal_actions()
            m.play(action)
