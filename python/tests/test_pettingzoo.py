"""The PettingZoo environments pass PettingZoo's own API and seed tests."""

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

import bluffchess.pettingzoo as bp  # noqa: E402
from conftest import OPTION_SETS, VARIANTS, option_id  # noqa: E402


@pytest.mark.parametrize("entry", OPTION_SETS, ids=option_id)
def test_pettingzoo_api(entry):
    variant, options = entry
    api_test(bp.env(variant, options=options), num_cycles=200)


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_seeds(variant):
    seed_test(lambda: bp.env(variant, max_actions=60), num_cycles=60)


def test_a_whole_game_ends_with_opposite_rewards():
    env = bp.env("bluff-move")
    env.reset(seed=3)
    totals = {"white": 0.0, "black": 0.0}
    rng = np.random.default_rng(3)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        mask = observation["action_mask"]
        assert observation["observation"].dtype == np.float32
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert totals["white"] == -totals["black"]
    assert abs(totals["white"]) in (0.0, 1.0)


def test_an_illegal_action_loses():
    env = bp.env("chess")
    env.reset(seed=1)
    observation, *_ = env.last()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    env.step(illegal)
    assert env.rewards["white"] == -1 and all(env.terminations.values())


def test_truncation_at_max_actions():
    env = bp.raw_env("chess", max_actions=4)
    env.reset(seed=1)
    for _ in range(4):
        observation = env.observe(env.agent_selection)
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert all(env.truncations.values()) and not any(env.terminations.values())
