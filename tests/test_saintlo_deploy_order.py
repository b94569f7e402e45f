"""Saint-Lo 4.3: the computer's counters go down face down in an order of its own, the deployment unchanged.

An audit as a cheating opponent (6 December) named every back of the computer's by the order they appeared
in: the heuristic deploys kind by kind. The agents now place the heuristic's own deployment in an order
drawn with their own random numbers (`ai.unpredictable`)."""

from __future__ import annotations

import random

import warroom
from warroom.ai import get_agent
from warroom.games.saintlo import ai
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


def test_the_computers_order_hides_its_kinds_and_keeps_its_deployment() -> None:
    # Saint-Lo 4.3: the same counters on the same hexes as the heuristic's kind-by-kind deployment
    fixed = warroom.new_game("saintlo", seed=2)
    fixed_order = _deploy_with(fixed, _by_heuristic)
    orders = []
    for agent_seed in (1, 2):
        m = warroom.new_game("saintlo", seed=2)
        sides = m.ruleset.info.sides
        agents = {side: get_agent("heuristic", "saintlo", seed=agent_seed * 10 + k) for k, side in enumerate(sides)}
        orders.append(_deploy_with(m, lambda m: agents[m.to_act].choose(m)[0]))  # noqa: B023 - used at once
        assert _final(m) == _final(fixed)  # every counter on the hex the heuristic gives it
        assert m.state.phase == fixed.state.phase and m.state.seat == fixed.state.seat
    first, second = orders
    assert sorted(first) == sorted(fixed_order) == sorted(second)
    assert first != second  # each computer draws its own order
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
    for _ in range(10):
        action = agent.choose(m)[0]
        assert action in plan and action in m.legal_actions()
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
