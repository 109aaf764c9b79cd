"""Shared helpers: the variants and their options, random games, views compared without
commitments."""

import random

import pytest

import bluffchess

VARIANTS = list(bluffchess.VARIANT_IDS)
# The variants by their specs' facts.
OPEN = [v["id"] for v in bluffchess.variants() if not v["hidden"]]
CHANCE = [v["id"] for v in bluffchess.variants() if v["chance"]]

# Every variant with its defaults, and the options that change what can happen.
OPTION_SETS = [(v, {}) for v in VARIANTS] + [
    ("bs", {"spy": True}),
    ("reality-check", {"dice": True}),
    ("reality-check", {"memory": True, "strategic-retreat": True}),
    ("reality-check", {"flexible-setup": True, "dice": True}),
    ("reality-check", {"board": "advanced"}),
    ("reality-check", {"board": "advanced", "memory": True, "dice": True}),
    ("ambiguous", {"checkmate": True, "stalemate": "draw"}),
]


def option_id(entry):
    variant, options = entry
    if not options:
        return variant
    return variant + "[" + ",".join(f"{k}={v}" for k, v in options.items()) + "]"


def play_random(game, rng, steps):
    """Plays up to `steps` random actions (Chance rolls); returns how many were played."""
    played = 0
    while played < steps and not game.is_over:
        if game.to_act == "chance":
            game.roll()
        else:
            game.apply(rng.choice(game.legal_actions()))
        played += 1
    return played


def strip(view):
    """A view as the rules alone made it: commitments, salts and meta events removed."""
    events = []
    for event in view["events"]:
        if event["kind"] == "meta":
            continue
        event = {k: v for k, v in event.items() if k not in ("commitment", "salt")}
        events.append(event)
    return {**view, "events": events}


@pytest.fixture
def rng():
    return random.Random(12345)
