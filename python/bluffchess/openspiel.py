"""Every bluffchess variant as an OpenSpiel game.

Importing this module registers one Python game per variant with ``pyspiel``::

    import pyspiel
    import bluffchess.openspiel

    game = pyspiel.load_game("python_bluffchess_alter_ego")
    game = pyspiel.load_game("python_bluffchess_reality_check(dice=true,memory=true)")

The names are ``python_bluffchess_`` and the variant id with ``_`` for ``-``. Parameters: the
variant's rules options (booleans as ``true``/``false``), ``max_game_length`` (the number of
player actions after which the game stops as a draw; default 20000, far beyond the rules' own
draw limits) and, for the variants without hidden information (``hidden`` false in
``bluffchess.variants()``), ``information`` (``perfect``, the default, or ``imperfect``: declare the game imperfect so that
information-set algorithms such as OpenSpiel's IS-MCTS accept it).

Players are 0 (White) and 1 (Black). Player actions are the variant's action indices
(``bluffchess.action_texts``). In the variants where Chance takes part (``chance`` in
``bluffchess.variants()``), Chance rolls the dice, and it draws every hidden setup one square at a
time (``bluffchess.setups``), uniformly among the valid setups. Information-state strings list everything the seat has seen, one event a
line; observation strings are the position the seat knows; both tensors are the seat's
observation planes (``bluffchess.observation_planes``). ``resample_from_infostate`` draws a
whole game from the seat's belief, rebuilt from its view alone.
"""

from __future__ import annotations

from typing import Dict, List, Optional

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from . import _bluffchess as bc
from .setups import Slots, chance_texts

PREFIX = "python_bluffchess_"
DEFAULT_MAX_GAME_LENGTH = 20000


def game_name(variant: str) -> str:
    """The OpenSpiel short name of a variant (``python_bluffchess_alter_ego``)."""
    return PREFIX + variant.replace("-", "_")


def _spec(variant: str) -> dict:
    for spec in bc.variants():
        if spec["id"] == variant:
            return spec
    raise bc.RulesError(f"unknown variant {variant!r}")


def _open(variant: str) -> bool:
    """Whether nothing of the variant is hidden from anyone (its spec's ``hidden``)."""
    return not _spec(variant)["hidden"]


def _parameters(variant: str) -> Dict[str, object]:
    params: Dict[str, object] = {}
    for option in _spec(variant)["options"]:
        if sorted(option["values"]) == ["false", "true"]:
            params[option["name"]] = option["default"] == "true"
        else:
            params[option["name"]] = option["default"]
    params["max_game_length"] = DEFAULT_MAX_GAME_LENGTH
    if _open(variant):
        params["information"] = "perfect"
    return params


def _game_type(variant: str, information: str) -> pyspiel.GameType:
    spec = _spec(variant)
    chance = (
        pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        if spec["chance"]
        else pyspiel.GameType.ChanceMode.DETERMINISTIC
    )
    info = (
        pyspiel.GameType.Information.PERFECT_INFORMATION
        if information == "perfect"
        else pyspiel.GameType.Information.IMPERFECT_INFORMATION
    )
    return pyspiel.GameType(
        short_name=game_name(variant),
        long_name=f"bluffchess {spec['name']}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance,
        information=info,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(variant),
    )


class BluffchessGame(pyspiel.Game):
    """One bluffchess variant as an OpenSpiel game."""

    def __init__(self, variant: str, params: Optional[dict] = None):
        params = dict(params or {})
        defaults = _parameters(variant)
        unknown = sorted(set(params) - set(defaults))
        if unknown:
            raise bc.RulesError(
                f"unknown parameter {unknown[0]!r} of {game_name(variant)}: "
                f"the parameters are {', '.join(sorted(defaults))}"
            )
        full = {**defaults, **params}
        self.variant = variant
        self.max_length = int(full["max_game_length"])
        information = "imperfect"
        if _open(variant):
            information = str(full["information"])
            if information not in ("perfect", "imperfect"):
                raise bc.RulesError(
                    f"information={information!r}: it is 'perfect' or 'imperfect'"
                )
        self.options = {
            k: (("true" if v else "false") if isinstance(v, bool) else str(v))
            for k, v in full.items()
            if k not in ("max_game_length", "information")
        }
        # The rules check the options now, so a bad one fails at load_game.
        probe = bc.Game(variant, self.options, seed=0, record=False, events=False)
        self.action_texts = bc.action_texts(variant)
        self.chance_texts = chance_texts(variant)
        self.chance_index = {t: i for i, t in enumerate(self.chance_texts)}
        self.shape = probe.observation_shape
        info = pyspiel.GameInfo(
            num_distinct_actions=probe.num_actions,
            max_chance_outcomes=len(self.chance_texts),
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.max_length,
        )
        super().__init__(_game_type(variant, information), info, params)

    def new_initial_state(self) -> "BluffchessState":
        """The start of a game."""
        return BluffchessState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "BluffchessObserver":
        """An observer: the information state (perfect recall), the observation, or the public
        observation (a spectator's)."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return BluffchessObserver(
            self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        )


class BluffchessState(pyspiel.State):
    """A game in progress: the bluffchess game itself and, while Chance draws a hidden setup,
    the steps drawn so far."""

    def __init__(self, game: BluffchessGame):
        super().__init__(game)
        self._variant = game.variant
        self._options = game.options
        self._max_length = game.max_length
        # Shared, not copied with each clone: the variant's tables.
        self._tables = _Tables.of(game)
        self.game = bc.Game(
            game.variant, game.options, seed=0, record=False, events=True
        )
        self._tokens: List[str] = []
        self._slots: Optional[Slots] = None
        self._moves = 0

    # -- the OpenSpiel API -----------------------------------------------------------------

    def current_player(self) -> int:
        """0 for White, 1 for Black, CHANCE or TERMINAL."""
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        to_act = self.game.to_act
        if to_act == "chance" or self.game.setup_due:
            return pyspiel.PlayerId.CHANCE
        return 0 if to_act == "white" else 1

    def _legal_actions(self, player: int) -> List[int]:
        if self.is_terminal():
            return []
        if self.is_chance_node():
            return [action for action, _ in self.chance_outcomes()]
        return sorted(self.game.legal_indices())

    def chance_outcomes(self):
        """Chance's outcomes (a setup step or the die) with their probabilities."""
        if self.game.setup_due:
            slots = self._setup_slots()
            outcomes = [
                (self._tables.chance_index[t], p) for t, p in slots.outcomes(self._tokens)
            ]
        else:
            outcomes = [
                (self._tables.chance_index[t], p) for t, p in self.game.chance_outcomes()
            ]
        return sorted(outcomes)

    def _apply_action(self, action: int) -> None:
        if self.game.setup_due:
            self._tokens.append(self._tables.chance_texts[action])
            slots = self._setup_slots()
            if len(self._tokens) == slots.steps:
                text = slots.text(self._tokens)
                self._tokens = []
                self._slots = None
                self.game.apply(text)
        elif self.game.to_act == "chance":
            self.game.apply(self._tables.chance_texts[action])
        else:
            self.game.apply(int(action))
            self._moves += 1

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return self._tables.chance_texts[action]
        return self._tables.action_texts[action]

    def is_terminal(self) -> bool:
        """Whether the rules ended the game or it reached ``max_game_length``."""
        return self.game.is_over or self._moves >= self._max_length

    def returns(self) -> List[float]:
        """1 for a win, -1 for a loss, 0 for a draw (and for a game cut at its length)."""
        return list(self.game.returns())

    def __str__(self) -> str:
        text = " ".join(self.game.history())
        if self._tokens:
            text += " [" + ", ".join(self._tokens) + "]"
        return text

    def resample_from_infostate(self, player_id: int, probability_sampler) -> "BluffchessState":
        """A whole state drawn from the seat's belief, rebuilt from its view alone: its
        information state for `player_id` equals this one's."""
        seed = int(probability_sampler() * 2**53)
        seat = "white" if player_id == 0 else "black"
        belief = bc.Belief.from_view(self.game.view_json(seat))
        sample = belief.sample(seed)
        state = self.get_game().new_initial_state()
        for text in sample.history():
            state._replay(text)
        if self._tokens:
            # Chance is drawing a setup now: the seat knows its own steps, not the opponent's.
            own = self.game.to_act == seat
            for i in range(len(self._tokens)):
                if own:
                    token = self._tokens[i]
                else:
                    outcomes = state._setup_slots().outcomes(state._tokens)
                    token = _draw(outcomes, probability_sampler())
                state.apply_action(self._tables.chance_index[token])
        return state

    # -- helpers ---------------------------------------------------------------------------

    def _setup_slots(self) -> Slots:
        if self._slots is None:
            self._slots = Slots(self._variant, self.game.options, self.game.to_act or "white")
        return self._slots

    def _replay(self, text: str) -> None:
        """Plays an action given by its text, through OpenSpiel's actions."""
        if self.game.setup_due:
            for token in self._setup_slots().tokens(text):
                self.apply_action(self._tables.chance_index[token])
        elif self.game.to_act == "chance":
            self.apply_action(self._tables.chance_index[text])
        else:
            self.apply_action(self.game.action_index(text))

    def _setup_known(self, seat: str) -> str:
        """The setup steps `seat` knows of: its own, while Chance draws them."""
        if not self._tokens:
            return ""
        if self.game.to_act == seat:
            return "\nsetup so far: " + ", ".join(self._tokens)
        return f"\nsetup steps drawn: {len(self._tokens)}"


class _Tables:
    """A variant's action and chance texts, shared by its states (a deep copy keeps them)."""

    _cache: Dict[str, "_Tables"] = {}

    def __init__(self, game: BluffchessGame):
        self.action_texts = game.action_texts
        self.chance_texts = game.chance_texts
        self.chance_index = game.chance_index

    @classmethod
    def of(cls, game: BluffchessGame) -> "_Tables":
        if game.variant not in cls._cache:
            cls._cache[game.variant] = cls(game)
        return cls._cache[game.variant]

    def __deepcopy__(self, memo) -> "_Tables":
        return self


def _draw(outcomes, u: float) -> str:
    for token, p in outcomes:
        if u < p:
            return token
        u -= p
    return outcomes[-1][0]


class BluffchessObserver:
    """Observations of a seat, or of the public (a spectator's) for a public observer."""

    def __init__(self, game: BluffchessGame, iig_obs_type):
        self.perfect_recall = iig_obs_type.perfect_recall
        self.public = iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        self.tensor = np.zeros(int(np.prod(game.shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(game.shape)}

    def _seat(self, player: int) -> str:
        if self.public:
            return "spectator"
        return "white" if player == 0 else "black"

    def set_from(self, state: BluffchessState, player: int) -> None:
        """Writes the tensor of `state` as `player` (or the public) sees it."""
        self.tensor[:] = state.game.observation(self._seat(player)).ravel()

    def string_from(self, state: BluffchessState, player: int) -> str:
        """The information-state string (perfect recall) or the observation string."""
        seat = self._seat(player)
        if self.perfect_recall:
            text = state.game.information_state_string(seat)
        else:
            text = state.game.observation_string(seat)
        return text + state._setup_known(seat)


def _game_class(variant: str) -> type:
    """The variant's game class: registered with pyspiel as its factory (a class, as OpenSpiel's
    own Python games register, lives until the interpreter's very end)."""

    def __init__(self, params=None):
        BluffchessGame.__init__(self, variant, params)

    name = "".join(w.capitalize() for w in variant.split("-")) + "Game"
    return type(name, (BluffchessGame,), {"__init__": __init__, "__module__": __name__})


GAMES: Dict[str, type] = {}
"""Each variant's game class, by variant id."""


def register() -> None:
    """Registers every variant with pyspiel (done on import; registering again is harmless)."""
    registered = set(pyspiel.registered_names())
    for variant in (v["id"] for v in bc.variants()):
        if game_name(variant) in registered:
            continue
        information = "perfect" if _open(variant) else "imperfect"
        cls = _game_class(variant)
        GAMES[variant] = cls
        pyspiel.register_game(_game_type(variant, information), cls)


register()

__all__ = [
    "BluffchessGame",
    "BluffchessObserver",
    "BluffchessState",
    "GAMES",
    "PREFIX",
    "game_name",
    "register",
]
