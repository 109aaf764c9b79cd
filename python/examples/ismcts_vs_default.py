"""OpenSpiel's IS-MCTS (its Python bot, random rollouts, resampling through the adapter's
beliefs) against bluffchess's default bot, through the OpenSpiel adapter.

    python python/examples/ismcts_vs_default.py [--variant alter-ego] [--games 4]
        [--simulations 200] [--movetime 50] [--max-game-length 300]

Colours alternate. The default bot decides from its seat's view and legal actions only
(``bluffchess.Bot``); IS-MCTS from the OpenSpiel state's information state, resampling the hidden
part with ``resample_from_infostate``. Chance's setups and dice are drawn by their probabilities.
A game that reaches ``--max-game-length`` player actions is a draw.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import bluffchess
import bluffchess.openspiel as bo


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="alter-ego")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--movetime", type=int, default=50, help="the default bot's ms a move")
    parser.add_argument("--max-game-length", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    params = {"max_game_length": args.max_game_length}
    spec = next(v for v in bluffchess.variants() if v["id"] == args.variant)
    if not spec["hidden"]:
        params["information"] = "imperfect"
    game = pyspiel.load_game(bo.game_name(args.variant), params)
    rng = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    score = 0.0
    for g in range(args.games):
        ismcts_player = g % 2
        searcher = ismcts.ISMCTSBot(
            game, evaluator, uct_c=2.0, max_simulations=args.simulations, random_state=rng
        )
        default = bluffchess.Bot("default", seed=args.seed + g)
        state = game.new_initial_state()
        start = time.time()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=probs)))
            elif state.current_player() == ismcts_player:
                state.apply_action(int(searcher.step(state)))
            else:
                seat = "white" if state.current_player() == 0 else "black"
                view = state.game.view(seat)
                text = default.act(view, state.game.legal_actions(), movetime_ms=args.movetime)
                state.apply_action(state.game.action_index(text))
        returns = state.returns()
        result = returns[ismcts_player]
        score += (result + 1) / 2
        outcome = state.game.outcome
        how = outcome["text"] if outcome else "draw: the length limit"
        colour = "White" if ismcts_player == 0 else "Black"
        print(
            f"game {g + 1}: IS-MCTS as {colour}: {['loss', 'draw', 'win'][int(result) + 1]} "
            f"({how}), {len(state.game.history())} actions, {time.time() - start:.0f} s",
            flush=True,
        )
    print(
        f"IS-MCTS ({args.simulations} simulations) against the default bot "
        f"({args.movetime} ms) in {args.variant}: {score:g} of {args.games}"
    )


if __name__ == "__main__":
    main()
