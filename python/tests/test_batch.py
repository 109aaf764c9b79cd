"""The batch: many games stepped in Rust per Python call."""

import numpy as np
import pytest

import bluffchess
from conftest import VARIANTS


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_steps_and_playouts(variant):
    batch = bluffchess.Batch(variant, 8, seed=1, threads=2)
    assert len(batch) == 8
    assert batch.step_random(10) == 80
    tally = batch.playouts(6, seed=2)
    assert tally["white"] + tally["black"] + tally["draws"] == 6
    assert tally["actions"] > 6
    again = bluffchess.Batch(variant, 8, seed=1, threads=1).playouts(6, seed=2)
    assert again == tally, "the same seeds give the same games, whatever the threads"


@pytest.mark.parametrize("variant", VARIANTS)
def test_reinforcement_learning_steps(variant):
    batch = bluffchess.Batch(variant, 4, seed=5, threads=1, max_actions=30)
    rng = np.random.default_rng(0)
    shape = bluffchess.observation_shape(variant)
    finished = 0
    for _ in range(40):
        to_act = batch.to_act()
        assert set(to_act.tolist()) <= {0, 1}
        observations = batch.observations()
        assert observations.shape == (4, *shape) and observations.dtype == np.float32
        masks = batch.legal_masks()
        assert masks.shape == (4, len(bluffchess.action_texts(variant)))
        for i in range(4):
            seat = ["white", "black"][to_act[i]]
            game = batch.game(i)
            assert np.array_equal(observations[i], game.observation(seat))
            assert sorted(np.flatnonzero(masks[i])) == sorted(game.legal_indices())
        actions = [int(rng.choice(np.flatnonzero(m))) for m in masks]
        rewards, dones = batch.step(actions)
        assert rewards.shape == (4, 2) and dones.shape == (4,)
        assert (rewards.sum(axis=1) == 0).all()
        assert (rewards[~dones] == 0).all()
        finished += int(dones.sum())
    assert finished >= 4, "games reaching 30 actions start again"
