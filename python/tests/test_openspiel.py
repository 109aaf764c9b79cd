"""The OpenSpiel games: OpenSpiel's own random-simulation checks, its IS-MCTS and MCTS bots,
resampling from beliefs, chance setups, and exact solvers on tiny games."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import bluffchess  # noqa: E402
import bluffchess.openspiel as bo  # noqa: E402
from bluffchess.setups import Slots  # noqa: E402
from conftest import CHANCE, OPEN, OPTION_SETS, VARIANTS, option_id  # noqa: E402
from open_spiel.python.algorithms import (  # noqa: E402
    cfr,
    exploitability,
    ismcts,
    mcts,
    minimax,
)


def load(variant, options=None, **params):
    params = {**{k: v for k, v in (options or {}).items()}, **params}
    return pyspiel.load_game(bo.game_name(variant), params)


def test_every_variant_is_registered():
    names = set(pyspiel.registered_names())
    for variant in VARIANTS:
        assert bo.game_name(variant) in names
    game = pyspiel.load_game("python_bluffchess_alter_ego")
    assert game.num_distinct_actions() == len(bluffchess.action_texts("alter-ego"))
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    chess = pyspiel.load_game("python_bluffchess_chess")
    assert chess.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    rc = pyspiel.load_game("python_bluffchess_reality_check(dice=true,memory=true)")
    assert rc.max_chance_outcomes() == len(bo.chance_texts("reality-check"))
    assert tuple(rc.observation_tensor_shape()) == bluffchess.observation_shape("reality-check")


@pytest.mark.parametrize("variant", VARIANTS)
def test_each_variant_has_chance_outcomes_exactly_when_chance_takes_part(variant):
    """The specs' facts decide the OpenSpiel game's type: Chance's outcomes where Chance takes
    part (a variant added without its setup steps fails here), perfect information where nothing
    is hidden."""
    game = load(variant)
    kind = game.get_type()
    stochastic = kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert stochastic == (variant in CHANCE)
    assert (game.max_chance_outcomes() > 0) == (variant in CHANCE)
    perfect = kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert perfect == (variant in OPEN)


def test_bad_parameters_are_refused():
    with pytest.raises(Exception, match="spy"):
        pyspiel.load_game("python_bluffchess_bs(spy=maybe)")


@pytest.mark.parametrize("entry", OPTION_SETS, ids=option_id)
def test_openspiel_random_simulation(entry):
    variant, options = entry
    pyspiel.random_sim_test(load(variant, options), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("variant", VARIANTS)
def test_ismcts_plays_every_variant(variant):
    params = {"information": "imperfect"} if variant in OPEN else {}
    game = load(variant, **params)
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rng)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal() and decisions < 6:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choice(actions, p=probs))
            continue
        action = bot.step(state) if state.current_player() == 0 else rng.choice(state.legal_actions())
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    assert decisions == 6 or state.is_terminal()


@pytest.mark.parametrize("variant", VARIANTS)
def test_mcts_with_random_rollouts_plays_every_variant(variant):
    """OpenSpiel's MCTS searches the state it is given: on the hidden variants it sees the truth
    (use IS-MCTS for fair play); on chess and Ambiguous Chess it is the right tool."""
    game = load(variant, max_game_length=40)
    rng = np.random.RandomState(2)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, 2.0, 10, evaluator, random_state=rng)
    state = game.new_initial_state()
    for _ in range(4):
        while state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choice(actions, p=probs))
        if state.is_terminal():
            break
        state.apply_action(bot.step(state))


@pytest.mark.parametrize("entry", OPTION_SETS, ids=option_id)
def test_resampling_keeps_the_information_state(entry):
    variant, options = entry
    game = load(variant, options)
    rng = np.random.RandomState(3)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal() and steps < 70:
        if steps % 7 == 3:
            for player in (0, 1):
                sample = state.resample_from_infostate(player, sampler)
                assert sample.information_state_string(player) == state.information_state_string(player)
                assert sample.observation_string(player) == state.observation_string(player)
                assert np.array_equal(sample.observation_tensor(player), state.observation_tensor(player))
                assert sample.current_player() == state.current_player()
                assert len(sample.history()) == len(state.history())
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choice(actions, p=probs))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        steps += 1


@pytest.mark.parametrize(
    "variant, options",
    [
        ("bs", {}),
        ("bs", {"spy": "true"}),
        ("reality-check", {}),
        ("reality-check", {"flexible-setup": "true"}),
        ("reality-check", {"board": "advanced"}),
    ],
)
def test_chance_setups_are_valid_and_read_back(variant, options):
    rng = np.random.RandomState(4)
    for color in ("white", "black"):
        slots = Slots(variant, options, color)
        for _ in range(5):
            tokens = []
            while len(tokens) < slots.steps:
                outcomes = slots.outcomes(tokens)
                assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
                tokens.append(outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0])
            text = slots.text(tokens)
            game = bluffchess.Game(variant, options, seed=0, record=False)
            if color == "black":
                game.apply("setup random")
            game.apply(text)
            canonical = game.history()[-1]
            assert slots.tokens(canonical) == tokens


def test_advanced_board_chance_setups_leave_one_region_square_empty():
    """On the Advanced board a setup fills nine of the ten corner squares: each square may be
    left empty, and the ten empty choices are equally likely by symmetry of the count."""
    slots = Slots("reality-check", {"board": "advanced"}, "black")
    assert slots.squares == ["a7", "b7", "c7", "d7", "a6", "b6", "c6", "a5", "b5", "a4"]
    first = dict(slots.outcomes([]))
    assert abs(first["place -"] - 0.1) < 1e-12
    assert abs(sum(first.values()) - 1) < 1e-12


def test_reality_check_chance_setups_are_uniform():
    """The standard diagram's setups are drawn uniformly: the first square's piece (the rook's
    face down) has the share of the setups that follow from it. PR cannot stand on d1: the four
    squares that show P need all four pieces with a P face."""
    slots = Slots("reality-check", {}, "white")
    first = dict(slots.outcomes([]))
    assert set(first) == {"place RN", "place RB", "place RR"}
    assert abs(sum(first.values()) - 1) < 1e-12
    assert len(set(round(p, 9) for p in first.values())) > 1


@pytest.mark.parametrize("variant", OPEN)
def test_minimax_solves_a_tiny_game(variant):
    game = load(variant, max_game_length=3)
    value, action = minimax.alpha_beta_search(game, maximum_depth=3)
    assert value == 0 and action in game.new_initial_state().legal_actions()


def test_cfr_solves_a_tiny_hidden_game():
    game = load("alter-ego", max_game_length=2)
    solver = cfr.CFRSolver(game)
    for _ in range(2):
        solver.evaluate_and_update_policy()
    assert exploitability.exploitability(game, solver.average_policy()) >= 0
