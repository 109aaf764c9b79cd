"""No hidden information leaks through the package: two games that differ only in one hidden
choice look the same, byte for byte, to the other seat and to spectators, through views,
tensors and strings, and through the OpenSpiel and PettingZoo adapters, until the rules reveal
the choice; and then they differ (so the comparison would see a leak)."""

import numpy as np
import pytest

import bluffchess
from conftest import strip

pyspiel = pytest.importorskip("pyspiel")
import bluffchess.openspiel as bo  # noqa: E402
import bluffchess.pettingzoo as bp  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

SEATS = {"white": 0, "black": 1}


def package_looks(game, seat):
    """Everything the package shows `seat`, as bytes."""
    return [
        game.observation(seat).tobytes(),
        game.observation_string(seat).encode(),
        game.information_state_string(seat).encode(),
        str(strip(game.view(seat))).encode(),
        str(game.info_key(seat)).encode(),
        bluffchess.Belief.from_view(game.view(seat)).legal_actions().__repr__().encode(),
    ]


def spiel_looks(state, player):
    """Everything the OpenSpiel adapter shows `player` (or the public), as bytes."""
    public = pyspiel.IIGObservationType(
        perfect_recall=False,
        public_info=True,
        private_info=pyspiel.PrivateInfoType.NONE,
    )
    observer = make_observation(state.get_game(), public)
    observer.set_from(state, 0)
    return [
        np.array(state.observation_tensor(player), np.float32).tobytes(),
        np.array(state.information_state_tensor(player), np.float32).tobytes(),
        state.observation_string(player).encode(),
        state.information_state_string(player).encode(),
        observer.string_from(state, 0).encode(),
        np.array(observer.tensor, np.float32).tobytes(),
    ]


def spiel_state(variant, texts, options=None):
    game = pyspiel.load_game(bo.game_name(variant), options or {})
    state = game.new_initial_state()
    for text in texts:
        state._replay(text)
    return state


def env_looks(variant, texts, agent, options=None):
    """What the PettingZoo environment shows `agent`, as bytes."""
    env = bp.raw_env(variant, options=options)
    env.reset(seed=0)
    for text in texts:
        env.game.apply(text)
    observation = env.observe(agent)
    return [observation["observation"].tobytes(), observation["action_mask"].tobytes()]


def compare(variant, first, second, shared, observer, revealed_after, options=None):
    """Plays `first` or `second` (the hidden choice) and then `shared`; `observer` sees the same
    in both games until `revealed_after` actions of `shared` are played, and not after."""
    a = bluffchess.Game(variant, options, seed=0, record=False)
    b = bluffchess.Game(variant, options, seed=0, record=False)
    for text in first:
        a.apply(text)
    for text in second:
        b.apply(text)
    assert a.history() != b.history()
    for i in range(len(shared) + 1):
        same = i <= revealed_after
        for seat in (observer, "spectator"):
            looks_a, looks_b = package_looks(a, seat), package_looks(b, seat)
            if same:
                assert looks_a == looks_b, (variant, seat, i)
        env_same = env_looks(variant, a.history(), observer, options) == env_looks(
            variant, b.history(), observer, options
        )
        assert env_same or not same, (variant, i)
        sa = spiel_state(variant, a.history(), options)
        sb = spiel_state(variant, b.history(), options)
        spiel_same = spiel_looks(sa, SEATS[observer]) == spiel_looks(sb, SEATS[observer])
        if same:
            assert spiel_same, (variant, i)
        else:
            assert package_looks(a, observer) != package_looks(b, observer), (variant, i)
            assert not spiel_same, (variant, i)
        if i < len(shared):
            a.apply(shared[i])
            b.apply(shared[i])


def test_alter_ego_stay_or_transfer():
    # Black's d7d5 is a death move (e4xd5): Black decides, hidden. White learns the decision
    # with its own next move.
    compare(
        "alter-ego",
        ["e2e4", "d7d5", "stay"],
        ["e2e4", "d7d5", "transfer d8"],
        ["g1f3"],
        observer="white",
        revealed_after=0,
    )


def test_bs_setups_that_look_alike():
    # White's knights and bishops trade places: Black sees sixteen unknown pieces either way,
    # and a piece that moves, until a call shows what it is.
    black = "setup RNBQKBNR/PPPPPPPP"
    compare(
        "bs",
        ["setup RNBQKBNR/PPPPPPPP", black],
        ["setup RBNQKNBR/PPPPPPPP", black],
        ["e2e4", "accept", "e7e5", "accept", "b1c3", "call"],
        observer="black",
        revealed_after=5,
    )


def test_reality_check_hidden_faces():
    # The same faces up, different faces down: Black cannot tell them apart until a flip shows
    # one.
    white_a = "setup d1=RR c2=NB e2=NR d2=BB d3=BR b3=PP c3=PN e3=PB f3=PR hand=NN"
    white_b = "setup d1=RR c2=NN e2=NR d2=BB d3=BR b3=PP c3=PN e3=PB f3=PR hand=NB"
    black = "setup d9=RR c8=NB e8=NR d8=BB d7=BR b7=PP c7=PN e7=PB f7=PR hand=NN"
    compare(
        "reality-check",
        [white_a, black],
        [white_b, black],
        ["b3b4", "flip e2", "b7b6", "flip c2"],
        observer="black",
        revealed_after=3,
    )


def test_bluff_move_real_or_bluffed():
    # A real pawn move and a bluffed one look alike to Black until Black takes the image on e4:
    # a bluff taken shows where its real piece stands.
    compare(
        "bluff-move",
        ["e2e4"],
        ["bluff e2e4"],
        ["d7d5", "g1f3", "d5e4"],
        observer="black",
        revealed_after=2,
    )
