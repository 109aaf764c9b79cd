"""Benchmarks of the package, side by side in one run with OpenSpiel's own dark_chess stepped from
Python: random playouts (one action per call, and batched), and belief samples, per second.

    python python/bench.py [--seconds 1.0] [--threads 2] [--variants chess,bs]

Prints a Markdown table. Every rate is the best of `--rounds` measurements of about `--seconds` of
wall time each, one after the other in the same process, so they share the machine's load (the
best of a few rounds is the one least slowed by other processes). The load average is printed
before and after.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from typing import Callable

# The installed package, not its sources beside this script (they hold no extension module).
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]

import bluffchess  # noqa: E402


ROUNDS = 3


CPU: dict = {}


def rate(step: Callable[[], int], seconds: float) -> float:
    """Units per second of `step` (which returns how many units it did): the best of `ROUNDS`
    rounds of `seconds` each. The units per second of the process's CPU time in that round (all
    its threads) is left in `CPU["last"]`."""
    step()  # warm up
    best = 0.0
    for _ in range(ROUNDS):
        done = 0
        start, cpu = time.perf_counter(), time.process_time()
        while time.perf_counter() - start < seconds:
            done += step()
        wall = done / (time.perf_counter() - start)
        if wall > best:
            best = wall
            CPU["last"] = done / max(time.process_time() - cpu, 1e-9)
    return best


def dark_chess(seconds: float) -> float:
    """OpenSpiel's dark_chess, a random legal action per step, stepped from Python."""
    import pyspiel

    game = pyspiel.load_game("dark_chess")
    rng = random.Random(1)

    def playout() -> int:
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            n += 1
        return n

    return rate(playout, seconds)


def dark_chess_rl(seconds: float) -> float:
    """dark_chess as a reinforcement-learning loop from Python: at each step the player's
    observation tensor and legal-action mask, then a random legal action."""
    import numpy as np
    import pyspiel

    game = pyspiel.load_game("dark_chess")
    rng = np.random.default_rng(1)

    def playout() -> int:
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            player = state.current_player()
            np.asarray(state.observation_tensor(player), np.float32)
            mask = np.asarray(state.legal_actions_mask(player))
            state.apply_action(int(rng.choice(np.flatnonzero(mask))))
            n += 1
        return n

    return rate(playout, seconds)


def batched_rl(variant: str, seconds: float) -> float:
    """`Batch(variant, 256)` as a reinforcement-learning loop: every game's observation and legal
    mask, a random legal action each, one `step` (finished games restart): 256 steps a round. The
    random choice masks one of 16 random matrices drawn beforehand (drawing a fresh one would
    cost more than the step)."""
    import numpy as np

    batch = bluffchess.Batch(variant, 256, seed=1, threads=1)
    rng = np.random.default_rng(1)
    actions = len(bluffchess.action_texts(variant))
    noise = rng.random((16, 256, actions), dtype=np.float32)

    def step() -> int:
        batch.observations()
        masks = batch.legal_masks()
        chosen = np.argmax(masks * noise[rng.integers(16)], axis=1)
        batch.step(chosen)
        return len(chosen)

    return rate(step, seconds)


def one_per_call(variant: str, seconds: float, **kwargs) -> float:
    """`Game.play_random()`: one Python call per action, whole games."""
    seeds = iter(range(10**9))

    def playout() -> int:
        game = bluffchess.Game(variant, seed=next(seeds), **kwargs)
        play = game.play_random
        n = 0
        while play():
            n += 1
        return n

    return rate(playout, seconds)


def python_chooses(variant: str, seconds: float) -> float:
    """The loop of the dark_chess line: Python lists the legal actions and picks one,
    `game.apply(rng.choice(game.legal_indices()))` (Chance rolls)."""
    rng = random.Random(1)
    seeds = iter(range(10**9))

    def playout() -> int:
        game = bluffchess.Game(variant, seed=next(seeds), record=False, events=False)
        n = 0
        while not game.is_over:
            if game.to_act == "chance":
                game.roll()
            else:
                game.apply(rng.choice(game.legal_indices()))
            n += 1
        return n

    return rate(playout, seconds)


def batched(variant: str, seconds: float, threads: int) -> float:
    """`Batch(variant, 256).step_random(50)`: 12,800 actions a call."""
    batch = bluffchess.Batch(variant, 256, seed=1, threads=threads)
    return rate(lambda: batch.step_random(50), seconds)


def samples(variant: str, seconds: float) -> tuple[float, float]:
    """Belief samples per second through Python, for White and Black in turn, over eight random
    games stopped after 40 actions: one `Belief.sample` call a sample (the belief built once),
    and building a belief from the view JSON (`Belief.from_view`)."""
    rng = random.Random(3)
    views = []
    for seed in range(8):
        game = bluffchess.Game(variant, seed=seed, record=False)
        for _ in range(40):
            if not game.play_random():
                break
        views += [game.view_json(seat) for seat in ("white", "black")]
    beliefs = [bluffchess.Belief.from_view(v) for v in views]
    counter = iter(range(10**9))

    def sample() -> int:
        i = next(counter)
        beliefs[i % len(beliefs)].sample(i)
        return 1

    def build() -> int:
        bluffchess.Belief.from_view(views[next(counter) % len(views)])
        return 1

    del rng
    return rate(sample, seconds), rate(build, seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--variants", default=",".join(bluffchess.VARIANT_IDS))
    args = parser.parse_args()
    s = args.seconds
    global ROUNDS
    ROUNDS = args.rounds
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    base = dark_chess(s)
    base_cpu = CPU["last"]
    print(
        f"OpenSpiel dark_chess stepped from Python: {base:,.0f} actions/s "
        f"({base_cpu:,.0f} per CPU second)"
    )
    rl_base = dark_chess_rl(s)
    rl_base_cpu = CPU["last"]
    print(
        f"OpenSpiel dark_chess as a learning loop (observation tensor and legal mask each step): "
        f"{rl_base:,.0f} steps/s ({rl_base_cpu:,.0f} per CPU second)"
    )
    print()
    print("Each cell: actions per second, its ratio to dark_chess; in parentheses, per CPU second")
    print("of the process (all its threads) and that ratio.")
    print()
    print(
        "| variant | one action a call | recorded game, one a call "
        "| Python picks from legal_indices "
        f"| batched, 1 thread | batched, {args.threads} threads "
        "| batched learning loop (against the dark_chess learning loop) "
        "| samples/s | beliefs built/s |"
    )
    print("| --- " * 9 + "|")
    def cell(wall: float) -> str:
        cpu = CPU["last"]
        return f"{wall:,.0f}, {wall / base:.1f}x ({cpu:,.0f}, {cpu / base_cpu:.1f}x)"

    for variant in args.variants.split(","):
        cells = [cell(one_per_call(variant, s, record=False, events=False))]
        cells.append(cell(one_per_call(variant, s)))
        cells.append(cell(python_chooses(variant, s)))
        cells.append(cell(batched(variant, s, 1)))
        cells.append(cell(batched(variant, s, args.threads)))
        rl = batched_rl(variant, s)
        rl_cpu = CPU["last"]
        cells.append(
            f"{rl:,.0f}, {rl / rl_base:.1f}x ({rl_cpu:,.0f}, {rl_cpu / rl_base_cpu:.1f}x)"
        )
        sampled, built = samples(variant, s)
        cells += [f"{sampled:,.0f}", f"{built:,.0f}"]
        print(f"| {variant} | " + " | ".join(cells) + " |", flush=True)
    print()
    after = dark_chess(s)
    print(f"OpenSpiel dark_chess again, after: {after:,.0f} actions/s ({CPU['last']:,.0f} per CPU second)")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
