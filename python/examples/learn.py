"""A tiny policy-gradient learner on the PettingZoo environment that learns to beat a random
player (NumPy only, a few minutes on a CPU).

    python python/examples/learn.py [--variant bs] [--episodes 5000] [--eval 1000]

The policy scores each legal action by a linear function of what the observation shows on the
action's squares (``bluffchess.action_cells``: the planes at its from and to cells) and of its
kind (its first word: ``call``, ``accept``, ``remove``, a move...), and plays the softmax of the
scores. REINFORCE with a running-mean baseline, against a uniformly random opponent, the learner
taking White and Black in turn. The learner sees only its own observation and legal mask.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import bluffchess
from bluffchess.pettingzoo import raw_env


class Policy:
    """A softmax over legal actions of linear scores of their features."""

    def __init__(self, variant: str, rng: np.random.Generator):
        texts = bluffchess.action_texts(variant)
        self.cells = bluffchess.action_cells(variant)
        self.planes = len(bluffchess.observation_planes(variant))
        words = [t.split()[0] if " " in t else (t if t.isalpha() else "move") for t in texts]
        vocabulary = sorted(set(words))
        self.kind = np.array([vocabulary.index(w) for w in words])
        self.size = 2 * self.planes + len(vocabulary)
        self.weights = np.zeros(self.size)
        self.rng = rng

    def features(self, observation: np.ndarray, legal: np.ndarray) -> np.ndarray:
        flat = observation.reshape(self.planes, -1)
        padded = np.concatenate([flat, np.zeros((self.planes, 1), np.float32)], axis=1)
        cells = self.cells[legal]  # -1 (no square) reads the zero column
        out = np.zeros((len(legal), self.size))
        out[:, : self.planes] = padded[:, cells[:, 1]].T
        out[:, self.planes : 2 * self.planes] = padded[:, cells[:, 0]].T
        out[np.arange(len(legal)), 2 * self.planes + self.kind[legal]] = 1.0
        return out

    def act(self, observation: np.ndarray, legal: np.ndarray, greedy: bool = False):
        phi = self.features(observation, legal)
        scores = phi @ self.weights
        if greedy:
            best = np.flatnonzero(scores == scores.max())
            return int(legal[self.rng.choice(best)]), None
        p = np.exp(scores - scores.max())
        p /= p.sum()
        i = self.rng.choice(len(legal), p=p)
        # The gradient of log pi(a): phi(a) minus the expected phi.
        return int(legal[i]), phi[i] - p @ phi


def play(env, policy: Policy, learner: str, seed: int, greedy: bool = False):
    """One game; returns the learner's return and the gradients of its choices."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    grads = []
    while True:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            white, black = env.game.returns()
            return (white if learner == "white" else black), grads
        observed = env.observe(agent)
        legal = np.flatnonzero(observed["action_mask"])
        if agent == learner:
            action, grad = policy.act(observed["observation"], legal, greedy)
            if grad is not None:
                grads.append(grad)
        else:
            action = int(rng.choice(legal))
        env.step(action)


def evaluate(env, policy: Policy, games: int, seed: int) -> float:
    """The learner's score (a win 1, a draw 1/2) over `games` against random, colours swapped."""
    score = 0.0
    for g in range(games):
        learner = "white" if g % 2 == 0 else "black"
        result, _ = play(env, policy, learner, seed + g, greedy=False)
        score += (result + 1) / 2
    return score / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="bs")
    parser.add_argument("--episodes", type=int, default=5000)
    parser.add_argument("--eval", type=int, default=1000)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--max-actions", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    env = raw_env(args.variant, max_actions=args.max_actions)
    policy = Policy(args.variant, rng)
    start = time.time()
    before = evaluate(env, policy, args.eval, seed=10**6)
    print(f"{args.variant}: untrained policy (uniform) against random: {before:.1%}")
    baseline = 0.0
    for episode in range(args.episodes):
        learner = "white" if episode % 2 == 0 else "black"
        result, grads = play(env, policy, learner, seed=episode)
        advantage = result - baseline
        baseline += 0.02 * (result - baseline)
        if grads:
            policy.weights += args.lr * advantage * np.sum(grads, axis=0) / np.sqrt(len(grads))
        if (episode + 1) % 250 == 0:
            print(f"  {episode + 1} episodes, {time.time() - start:.0f} s, baseline {baseline:+.2f}")
    after = evaluate(env, policy, args.eval, seed=10**6)
    print(
        f"{args.variant}: trained policy against random: {after:.1%} "
        f"over {args.eval} games (colours swapped), {time.time() - start:.0f} s in all"
    )


if __name__ == "__main__":
    main()
