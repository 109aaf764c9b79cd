"""Every bluffchess variant as a PettingZoo AEC environment.

    from bluffchess.pettingzoo import env

    e = env("bs")
    e.reset(seed=1)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        if termination or truncation:
            action = None
        else:
            mask = observation["action_mask"]
            action = e.action_space(agent).sample(mask)
        e.step(action)

The agents are ``"white"`` and ``"black"``; the one to act is the rules' actor (a turn may take
several actions of one side, and BS Chess's answers switch sides mid-turn). Chance (Reality
Check's dice) acts inside the environment, drawn from the seed given to ``reset``. An observation
is ``{"observation": float32 planes (bluffchess.observation_planes), "action_mask": int8 of the
variant's actions}``, written from that agent's view only; the mask is all zeros for the agent
not to act. Setups are the shortcut actions (``setup standard``, ``setup random``). Rewards come
at the end: 1 for a win, -1 for a loss, 0 for a draw or a game cut at ``max_actions``
(truncation). ``env()`` wraps ``raw_env`` in PettingZoo's usual wrappers: an illegal action
ends the game with -1 for the agent that took it.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from . import _bluffchess as bc

AGENTS = ["white", "black"]


def env(variant: str, **kwargs) -> AECEnv:
    """The environment of `variant`, wrapped: illegal actions end the game (-1), actions out of
    the space are refused, and the AEC order is enforced."""
    environment = raw_env(variant, **kwargs)
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    environment = wrappers.OrderEnforcingWrapper(environment)
    return environment


class raw_env(AECEnv):
    """A bluffchess game between two agents.

    ``raw_env(variant, options=None, max_actions=None, render_mode=None)``: ``options`` are the
    variant's rules options; a game reaching ``max_actions`` actions is truncated.
    """

    metadata = {
        "render_modes": ["ansi"],
        "name": "bluffchess_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str,
        options: Optional[Dict[str, Any]] = None,
        max_actions: Optional[int] = None,
        render_mode: Optional[str] = None,
    ):
        super().__init__()
        if render_mode is not None and render_mode != "ansi":
            raise ValueError(f"render_mode {render_mode!r}: the modes are 'ansi' and None")
        self.variant = variant
        self.rules_options = dict(options or {})
        self.max_actions = max_actions
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"bluffchess_{variant.replace('-', '_')}_v0"}
        probe = bc.Game(variant, self.rules_options, seed=0, record=False, events=False)
        self.num_actions = probe.num_actions
        self.shape = probe.observation_shape
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, self.shape, np.float32),
                    "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
                }
            )
            for agent in AGENTS
        }
        self.action_spaces = {agent: spaces.Discrete(self.num_actions) for agent in AGENTS}
        self.game: Optional[bc.Game] = None
        self.rewards = {agent: 0.0 for agent in AGENTS}
        self._cumulative_rewards = {agent: 0.0 for agent in AGENTS}
        self.terminations = {agent: False for agent in AGENTS}
        self.truncations = {agent: False for agent in AGENTS}
        self.infos: Dict[str, dict] = {agent: {} for agent in AGENTS}
        self.agent_selection = "white"

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        """The agent's observation and, when it is to act, its legal mask."""
        assert self.game is not None, "reset() first"
        observation = self.game.observation(agent)
        mask = np.zeros(self.num_actions, np.int8)
        if self.game.to_act == agent:
            mask[self.game.legal_indices()] = 1
        return {"observation": observation, "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        """A new game; `seed` draws Chance and ``setup random`` (random when not given).
        `options` may give ``{"rules": {...}}``, rules options for this game and later ones."""
        if options and isinstance(options.get("rules"), dict):
            self.rules_options = dict(options["rules"])
        if seed is None:
            seed = int(np.random.default_rng().integers(2**63))
        self.game = bc.Game(
            self.variant, self.rules_options, seed=seed, record=False, events=False
        )
        self._settle()
        self.agents = list(AGENTS)
        self.rewards = {agent: 0.0 for agent in AGENTS}
        self._cumulative_rewards = {agent: 0.0 for agent in AGENTS}
        self.terminations = {agent: False for agent in AGENTS}
        self.truncations = {agent: False for agent in AGENTS}
        self.infos = {agent: {} for agent in AGENTS}
        self.agent_selection = self.game.to_act or "white"

    def _settle(self) -> None:
        assert self.game is not None
        while self.game.to_act == "chance":
            self.game.roll()

    def step(self, action) -> None:
        """Plays the selected agent's action (an index)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.game is not None
        self._cumulative_rewards[agent] = 0.0
        self.game.apply(int(action))
        self._settle()
        self.rewards = {a: 0.0 for a in AGENTS}
        if self.game.is_over:
            white, black = self.game.returns()
            self.rewards = {"white": white, "black": black}
            self.terminations = {a: True for a in AGENTS}
            outcome = self.game.outcome
            self.infos = {a: {"outcome": outcome} for a in AGENTS}
        elif self.max_actions is not None and self.game.action_count >= self.max_actions:
            self.truncations = {a: True for a in AGENTS}
        else:
            self.agent_selection = self.game.to_act or agent
        self._accumulate_rewards()

    def render(self) -> Optional[str]:
        """With ``render_mode="ansi"``: the position the selected agent knows, as text."""
        if self.render_mode is None or self.game is None:
            return None
        return self.game.observation_string(self.agent_selection)

    def close(self) -> None:
        pass
