"""bluffchess: chess variants with hidden information, for research.

Every variant of the bluffchess platform (orthodox chess, Alter Ego, BS Chess, Reality Check,
Bluff-move Chess, Ambiguous Chess) with exact rules, per-seat views, beliefs that sample whole
games from a seat's view alone, observation tensors and a fixed action-index space per variant.

    >>> import bluffchess
    >>> game = bluffchess.Game("alter-ego", seed=1)
    >>> game.apply("e2e4")
    >>> game.to_act
    'black'

`bluffchess.openspiel` registers every variant with OpenSpiel (`pyspiel`), and
`bluffchess.pettingzoo.env(variant)` is a PettingZoo AEC environment.
"""

from . import _bluffchess
from ._bluffchess import (
    Batch,
    Belief,
    Bot,
    Game,
    RulesError,
    action_cells,
    action_texts,
    observation_from_view,
    observation_planes,
    observation_shape,
    variants,
    verify,
)

VARIANT_IDS = tuple(v["id"] for v in variants())
"""Every variant id, in the order menus list them."""

__all__ = [name for name in _bluffchess.__all__ if not name.startswith("_")] + ["VARIANT_IDS"]
