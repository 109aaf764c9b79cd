"""Longer runs of the checks, left out of CI (python/ci runs pytest -m "not slow"):

    target/pyenv/bin/python -m pytest python/tests -m slow
"""

import random

import numpy as np
import pytest

import bluffchess
from conftest import OPTION_SETS, option_id, strip

pyspiel = pytest.importorskip("pyspiel")
import bluffchess.openspiel as bo  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("entry", OPTION_SETS, ids=option_id)
def test_many_games_sample_back_and_observe_from_views(entry):
    variant, options = entry
    rng = random.Random(99)
    for seed in range(12):
        game = bluffchess.Game(variant, options, seed=seed)
        while game.play_random():
            if rng.random() < 0.05:
                for seat in ("white", "black", "spectator"):
                    view = game.view(seat)
                    assert np.array_equal(
                        bluffchess.observation_from_view(view), game.observation(seat)
                    )
                    sample = bluffchess.Belief.from_view(view).sample(rng.randrange(2**32))
                    assert strip(sample.view(seat)) == strip(view)
        assert bluffchess.verify(game.record()) == game.outcome


@pytest.mark.parametrize("entry", OPTION_SETS, ids=option_id)
def test_openspiel_random_simulation_longer(entry):
    variant, options = entry
    game = pyspiel.load_game(bo.game_name(variant), options)
    pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)
