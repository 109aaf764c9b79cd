"""The batch: many games stepped in Rust per Python call."""

import os
import signal
import time

import numpy as np
import pytest

import bluffchess
from conftest import VARIANTS


@pytest.mark.skipif(not hasattr(os, "fork"), reason="a platform without fork")
# Python 3.12 on warns of forking a process with threads: the point of this test.
@pytest.mark.filterwarnings("ignore:.*multi-threaded.*fork:DeprecationWarning")
def test_a_batch_made_before_a_fork_steps_in_the_child():
    # Vectors of environments often fork: the child has none of the parent's threads.
    batch = bluffchess.Batch("chess", 16, seed=1, threads=2)
    batch.step_random(10)
    expected = bluffchess.Batch("chess", 16, seed=1, threads=1)
    expected.step_random(10)
    expected.step_random(10)
    pid = os.fork()
    if pid == 0:
        try:
            batch.step_random(10)
            same = all(batch.game(i).history() == expected.game(i).history() for i in range(16))
            os._exit(0 if same else 3)
        finally:
            os._exit(4)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.05)
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        pytest.fail("the forked child's batch never answered (30 s)")
    assert os.waitstatus_to_exitcode(status) == 0, "the child stepped its batch's games as one thread would"


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_steps_are_the_same_on_any_number_of_threads(variant):
    # 13 games: the pool's chunks come out uneven, and some games start again between calls.
    batches = [bluffchess.Batch(variant, 13, seed=3, threads=t, max_actions=40) for t in (1, 2, 3)]
    for _ in range(4):
        assert len({b.step_random(25) for b in batches}) == 1
        histories = [[b.game(i).history() for i in range(13)] for b in batches]
        assert histories[0] == histories[1] == histories[2]


@pytest.mark.parametrize("variant", VARIANTS)
def test_each_game_a_slot_starts_again_is_drawn_anew(variant):
    # A slot's next game starts as a copy of the variant's starting game, with a generator of
    # its own: five games in a row, five different games.
    batch = bluffchess.Batch(variant, 1, seed=1, threads=1, max_actions=8)
    games = set()
    for _ in range(5):
        batch.step_random(8)
        games.add(tuple(batch.game(0).history()))
    assert len(games) == 5


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


def test_threads_do_not_change_the_games():
    rng = np.random.default_rng(4)
    batches = [bluffchess.Batch("reality-check", 6, {"dice": True}, seed=2, threads=t, max_actions=25) for t in (1, 2)]
    for _ in range(30):
        masks = [b.legal_masks() for b in batches]
        assert np.array_equal(masks[0], masks[1])
        assert np.array_equal(batches[0].observations(), batches[1].observations())
        actions = [int(rng.choice(np.flatnonzero(m))) for m in masks[0]]
        (r1, d1), (r2, d2) = (b.step(actions) for b in batches)
        assert np.array_equal(r1, r2) and np.array_equal(d1, d2)
    assert batches[0].game(3).history() == batches[1].game(3).history()


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_game_that_starts_again_is_a_new_game(variant):
    batch = bluffchess.Batch(variant, 3, seed=8, threads=1, max_actions=6)
    new = bluffchess.Batch(variant, 3, seed=9, threads=1)
    rng = np.random.default_rng(1)
    restarted = 0
    for _ in range(20):
        actions = [int(rng.choice(np.flatnonzero(m))) for m in batch.legal_masks()]
        _, dones = batch.step(actions)
        for i in np.flatnonzero(dones):
            # Nothing of the last game stays: its history, its position as each seat sees it.
            again, fresh = batch.game(int(i)), new.game(int(i))
            assert again.history() == fresh.history() == []
            for seat in ("white", "black", "spectator"):
                assert np.array_equal(again.observation(seat), fresh.observation(seat))
            restarted += 1
    assert restarted >= 3
