"""Beliefs through Python: a sample gives the seat's view back; legal actions and keys agree."""

import random

import pytest

import bluffchess
from conftest import OPTION_SETS, option_id, play_random, strip


@pytest.mark.parametrize("entry", OPTION_SETS, ids=option_id)
def test_a_sample_gives_the_seat_its_view_back(entry):
    variant, options = entry
    rng = random.Random(31)
    for game_seed in range(2):
        game = bluffchess.Game(variant, options, seed=game_seed)
        for stop in (1, 4, 12, 30):
            play_random(game, rng, stop - game.action_count)
            for seat in ("white", "black", "spectator"):
                view = game.view(seat)
                belief = bluffchess.Belief.from_view(view)
                assert belief.seat == seat and belief.variant == variant
                assert belief.key == game.info_key(seat)
                assert belief.view() == strip(view)
                if game.to_act == seat:
                    assert belief.legal_actions() == game.legal_actions()
                else:
                    assert belief.legal_actions() == []
                for sample in belief.samples(3, seed=stop):
                    assert strip(sample.view(seat)) == strip(view)
                    assert sample.info_key(seat) == game.info_key(seat)
                    assert sample.information_state_string(seat) == game.information_state_string(seat)
                    assert (sample.observation(seat) == game.observation(seat)).all()


def test_the_same_view_and_seed_give_the_same_sample():
    game = bluffchess.Game("bluff-move", seed=3)
    play_random(game, random.Random(2), 20)
    belief = bluffchess.Belief.from_view(game.view_json("black"))
    assert belief.sample(5).history() == belief.sample(5).history()
    histories = {tuple(s.history()) for s in belief.samples(20, seed=0)}
    assert len(histories) > 1, "a hidden game has more than one consistent history"


def test_a_sample_plays_on():
    game = bluffchess.Game("reality-check", {"dice": True}, seed=3)
    play_random(game, random.Random(2), 25)
    sample = bluffchess.Belief.from_view(game.view("white")).sample(1)
    assert not sample.recorded
    while sample.play_random():
        pass
    assert sample.outcome is not None
