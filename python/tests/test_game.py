"""Every variant through the package: legal actions, action indices, applying, views,
observations, records, copies."""

import copy
import pickle
import random

import numpy as np
import pytest

import bluffchess
from conftest import OPTION_SETS, VARIANTS, option_id, play_random


def test_the_variants_are_listed_with_their_options():
    ids = [v["id"] for v in bluffchess.variants()]
    assert ids == VARIANTS
    assert set(ids) == {"chess", "alter-ego", "ambiguous", "bluff-move", "reality-check", "bs"}
    rc = next(v for v in bluffchess.variants() if v["id"] == "reality-check")
    assert {o["name"] for o in rc["options"]} == {
        "board", "dice", "flexible-setup", "memory", "strategic-retreat"
    }
    board = next(o for o in rc["options"] if o["name"] == "board")
    assert board["values"] == ["basic", "advanced"] and board["default"] == "basic"


def test_legal_actions_come_with_their_structure():
    game = bluffchess.Game("chess", seed=1)
    described = game.legal_actions_described()
    assert {"text": "e2e4", "kind": "move", "from": "e2", "to": "e4"} in described
    game = bluffchess.Game("reality-check", seed=1)
    assert game.legal_actions_described() == [
        {"text": t, "kind": "setup"} for t in game.legal_actions()
    ]


@pytest.mark.parametrize("entry", OPTION_SETS, ids=option_id)
def test_a_random_game_keeps_texts_indices_masks_and_observations_in_step(entry):
    variant, options = entry
    rng = random.Random(7)
    game = bluffchess.Game(variant, options, seed=3)
    texts = bluffchess.action_texts(variant)
    assert game.num_actions == len(texts) == len(set(texts))
    shape = game.observation_shape
    assert shape == bluffchess.observation_shape(variant)
    assert len(game.observation_planes) == shape[0]
    steps = 0
    while not game.is_over and steps < 400:
        legal = game.legal_actions()
        described = game.legal_actions_described()
        assert [a["text"] for a in described] == legal
        assert all(isinstance(a["kind"], str) for a in described)
        indices = game.legal_indices()
        assert sorted(indices) == sorted(game.action_index(t) for t in legal)
        assert [game.action_text(i) for i in indices] == legal
        mask = game.legal_mask()
        assert mask.dtype == np.bool_ and mask.shape == (game.num_actions,)
        assert sorted(np.flatnonzero(mask)) == sorted(indices)
        if game.to_act == "chance":
            outcomes = game.chance_outcomes()
            assert [t for t, _ in outcomes] == legal
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        for seat in ("white", "black", "spectator"):
            obs = game.observation(seat)
            assert obs.shape == shape and obs.dtype == np.float32
            assert obs.min() >= 0 and obs.max() <= 1
        if game.to_act == "chance":
            game.roll()
        elif steps % 3 == 0:
            game.apply(rng.choice(indices))
        else:
            game.apply(rng.choice(legal))
        steps += 1
    assert game.action_count == steps


@pytest.mark.parametrize("variant", VARIANTS)
def test_legal_indices_are_the_indices_of_the_legal_texts_promotions_included(variant):
    # legal_indices finds a move's index from its structure, action_index from its text.
    promotions = 0
    for seed in range(40):
        game = bluffchess.Game(variant, seed=seed, record=False)
        while not game.is_over:
            legal = game.legal_actions()
            assert [game.action_text(i) for i in game.legal_indices()] == legal
            promotions += sum(t[-1] in "qrbn" and t[-2].isdigit() for t in legal)
            game.play_random()
    if variant != "reality-check":  # its pieces are not promoted
        assert promotions > 0, "some random game offered a promotion"


@pytest.mark.parametrize("entry", OPTION_SETS, ids=option_id)
def test_the_observation_is_the_view_s(entry):
    """Each seat's tensor is computed from its view alone: the same from the view as from the
    game."""
    variant, options = entry
    rng = random.Random(11)
    game = bluffchess.Game(variant, options, seed=5)
    for _ in range(60):
        for seat in ("white", "black", "spectator"):
            from_game = game.observation(seat)
            from_view = bluffchess.observation_from_view(game.view(seat))
            assert np.array_equal(from_game, from_view), (variant, seat, game.history())
        if play_random(game, rng, 1) == 0:
            break


@pytest.mark.parametrize("variant", VARIANTS)
def test_whole_games_end_with_an_outcome_returns_and_a_record(variant):
    game = bluffchess.Game(variant, seed=21)
    while game.play_random():
        pass
    assert game.is_over and game.to_act is None
    outcome = game.outcome
    assert outcome["reason"] and outcome["text"]
    white, black = game.returns()
    assert white == -black
    assert (white == 1) == (outcome["winner"] == "white")
    record = game.record()
    assert record["variant"] == variant
    assert [a["text"] for a in record["actions"]] == game.history()
    assert record["outcome"]["reason"] == outcome["reason"]
    assert bluffchess.verify(record) == outcome
    tampered = dict(record, actions=[dict(a) for a in record["actions"]])
    tampered["actions"][0]["public"] = "e2e5"
    with pytest.raises(bluffchess.RulesError, match="record rejected"):
        bluffchess.verify(tampered)
    # Everything is revealed at the end: every seat sees every event.
    assert len(game.view("white")["events"]) == len(game.view("black")["events"])


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_same_seed_gives_the_same_game(variant):
    a = bluffchess.Game(variant, seed=9, record=False, events=False)
    b = bluffchess.Game(variant, seed=9)
    for _ in range(150):
        if not a.play_random():
            break
        assert b.play_random()
    assert a.history() == b.history()


@pytest.mark.parametrize("variant", VARIANTS)
def test_copies_are_independent_and_pickles_replay(variant):
    game = bluffchess.Game(variant, seed=4, record=False)
    play_random(game, random.Random(3), 30)
    twin = game.clone()
    deep = copy.deepcopy(game)
    assert twin.history() == game.history() == deep.history()
    game.play_random()
    assert twin.history() != game.history()
    restored = pickle.loads(pickle.dumps(twin))
    assert restored.history() == twin.history()
    assert restored.view_json("white") == twin.view_json("white")
    recorded = bluffchess.Game(variant, seed=4)
    play_random(recorded, random.Random(3), 30)
    again = pickle.loads(pickle.dumps(recorded))
    assert again.history() == recorded.history() and again.recorded


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_game_without_events_plays_and_observes_but_has_no_view(variant):
    game = bluffchess.Game(variant, seed=2, record=False, events=False)
    full = bluffchess.Game(variant, seed=2, record=False)
    rng = random.Random(5)
    for _ in range(40):
        if game.is_over:
            break
        if game.to_act == "chance":
            game.roll(); full.roll()
            continue
        action = rng.choice(game.legal_indices())
        game.apply(action)
        full.apply(action)
        for seat in ("white", "black"):
            assert np.array_equal(game.observation(seat), full.observation(seat))
            assert game.info_key(seat) == full.info_key(seat)
    with pytest.raises(bluffchess.RulesError, match="keeps no events"):
        game.view("white")
    with pytest.raises(bluffchess.RulesError, match="keeps no record"):
        game.record()


def test_resignation_and_draws_are_for_recorded_games():
    game = bluffchess.Game("chess", seed=1)
    game.offer_draw("white")
    game.accept_draw(1)
    assert game.outcome["reason"] == "agreement" and game.returns() == (0, 0)
    game = bluffchess.Game("bs", seed=1)
    game.resign("black")
    assert game.outcome["winner"] == "white"
    assert game.record()["meta"][0]["kind"] == "resign"


def test_the_information_state_string_lists_what_the_seat_saw():
    game = bluffchess.Game("alter-ego", seed=1)
    for text in ["e2e4", "d7d5", "transfer d8"]:
        game.apply(text)
    white = game.information_state_string("white").splitlines()
    black = game.information_state_string("black").splitlines()
    assert white[0] == "alter-ego white"
    assert "2 black sealed decision" in white
    assert "2 black action transfer d8" in black
    assert white[-1] == black[-1] == "to act: white"
    assert "commitment" not in "".join(white)


def test_action_cells_give_each_move_its_squares():
    cells = bluffchess.action_cells("chess")
    texts = bluffchess.action_texts("chess")
    e2e4 = texts.index("e2e4")
    assert tuple(cells[e2e4]) == (1 * 8 + 4, 3 * 8 + 4)
    rc = bluffchess.action_texts("reality-check")
    rc_cells = bluffchess.action_cells("reality-check")
    assert tuple(rc_cells[rc.index("rc c3d4")]) == (2 * 7 + 2, 3 * 7 + 3)
    assert tuple(rc_cells[rc.index("flip d2")]) == (-1, 1 * 7 + 3)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_default_bot_answers_with_a_legal_action(variant):
    bot = bluffchess.Bot("default:iterations=200", seed=1)
    game = bluffchess.Game(variant, seed=8)
    play_random(game, random.Random(8), 6)
    while game.to_act == "chance":
        game.roll()
    seat = game.to_act
    action = bot.act(game.view(seat), game.legal_actions(), game.setup_due)
    game.apply(action)
