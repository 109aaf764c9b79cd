"""Bad input raises a clear Python exception with the rules' own message, and changes nothing."""

import json

import pytest

import bluffchess
from conftest import VARIANTS


def snapshot(game):
    return (game.history(), game.to_act, [game.view_json(s) for s in ("white", "black")])


def test_an_unknown_variant_names_the_variants():
    with pytest.raises(bluffchess.RulesError, match=r'unknown variant "fog": the variants are chess, alter-ego'):
        bluffchess.Game("fog")
    assert issubclass(bluffchess.RulesError, ValueError)
    with pytest.raises(bluffchess.RulesError, match="unknown variant"):
        bluffchess.Batch("fog", 2)
    with pytest.raises(bluffchess.RulesError, match="unknown variant"):
        bluffchess.action_texts("fog")


def test_a_bad_option_names_the_problem():
    with pytest.raises(bluffchess.RulesError, match='option "spy": "maybe" is not one of its values: true, false'):
        bluffchess.Game("bs", {"spy": "maybe"})
    with pytest.raises(bluffchess.RulesError, match="Orthodox Chess has no options"):
        bluffchess.Game("chess", {"dice": True})
    with pytest.raises(TypeError):
        bluffchess.Game("chess", ["dice"])


@pytest.mark.parametrize("variant", VARIANTS)
def test_illegal_and_malformed_actions_leave_the_game_unchanged(variant):
    game = bluffchess.Game(variant, seed=1)
    for _ in range(3):
        game.play_random()
    before = snapshot(game)
    for bad in ["e2e5", "zz", "", "transfer", "setup RNBQKBNR/PPPPPPP", "memory a1 a1", "die 9", "h1h8q"]:
        if bad in game.legal_actions():
            continue
        with pytest.raises(bluffchess.RulesError) as refused:
            game.apply(bad)
        assert str(refused.value)
        assert snapshot(game) == before
    for index in [-1, game.num_actions, 10**9]:
        with pytest.raises(bluffchess.RulesError, match="out of range"):
            game.apply(index)
    illegal = next(i for i in range(game.num_actions) if i not in game.legal_indices())
    with pytest.raises(bluffchess.RulesError):
        game.apply(illegal)
    with pytest.raises(TypeError):
        game.apply(1.5)
    assert snapshot(game) == before


def test_the_rules_own_message_comes_through():
    game = bluffchess.Game("chess", seed=1)
    with pytest.raises(bluffchess.RulesError) as refused:
        game.apply("g1g3")
    assert str(refused.value) == 'illegal action "g1g3": the knight on g1 cannot move to g3 now'
    game = bluffchess.Game("alter-ego", seed=1)
    for text in ["e2e4", "d7d5"]:
        game.apply(text)
    with pytest.raises(bluffchess.RulesError, match="the mover decides first"):
        game.apply("e4d5")


def test_a_finished_game_refuses_actions():
    game = bluffchess.Game("chess", seed=1)
    game.resign("white")
    with pytest.raises(bluffchess.RulesError, match="the game is over"):
        game.apply("e2e4")
    with pytest.raises(bluffchess.RulesError):
        game.resign("black")


def test_chance_is_rolled_unless_the_game_is_scripted():
    game = bluffchess.Game("reality-check", {"dice": True}, seed=1)
    while game.to_act != "chance":
        game.play_random()
    before = snapshot(game)
    with pytest.raises(bluffchess.RulesError, match="roll it"):
        game.apply(game.legal_actions()[0])
    assert snapshot(game) == before
    with pytest.raises(bluffchess.RulesError):
        bluffchess.Game("chess").roll()
    scripted = bluffchess.Game("reality-check", {"dice": True}, seed=1, scripted=True)
    scripted_history = []
    while scripted.to_act != "chance":
        scripted.play_random()
    scripted.apply("die 6")
    assert scripted.history()[-1] == "die 6"


def test_bad_seats_and_indices():
    game = bluffchess.Game("chess", seed=1)
    with pytest.raises(bluffchess.RulesError, match="unknown seat"):
        game.view("red")
    with pytest.raises(bluffchess.RulesError, match="unknown player"):
        game.observation(2)
    with pytest.raises(TypeError):
        game.view(None)
    with pytest.raises(bluffchess.RulesError, match="has no index"):
        game.action_index("setup RNBQKBNR/PPPPPPPP")
    with pytest.raises(bluffchess.RulesError, match="out of range"):
        game.action_text(-1)
    with pytest.raises(ValueError):
        bluffchess.Game("chess", record=True, events=False)


def test_malformed_and_impossible_views_are_refused():
    with pytest.raises(bluffchess.RulesError, match="not a view"):
        bluffchess.Belief.from_view("{")
    with pytest.raises(bluffchess.RulesError, match="names no variant"):
        bluffchess.Belief.from_view({})
    with pytest.raises(bluffchess.RulesError, match='unknown variant "fog"'):
        bluffchess.Belief.from_view({"variant": "fog"})
    with pytest.raises(bluffchess.RulesError, match="not a view"):
        bluffchess.Belief.from_view({"variant": "chess", "seat": "white"})
    game = bluffchess.Game("alter-ego", seed=1)
    game.apply("e2e4")
    view = game.view("black")
    view["events"][0]["text"] = "e2e5"
    with pytest.raises(bluffchess.RulesError, match="impossible view"):
        bluffchess.Belief.from_view(view)
    with pytest.raises(bluffchess.RulesError, match="not a view"):
        bluffchess.observation_from_view(json.dumps({"variant": "bs", "seat": 3}))
    with pytest.raises(bluffchess.RulesError, match="unknown bot"):
        bluffchess.Bot("oracle")
    with pytest.raises(bluffchess.RulesError, match="spectator"):
        bluffchess.Bot("random").act(game.view("spectator"), ["e7e5"])


def test_a_batch_refuses_an_illegal_step_before_playing_any():
    batch = bluffchess.Batch("chess", 3, seed=1, threads=1)
    masks = batch.legal_masks()
    actions = [int(m.nonzero()[0][0]) for m in masks]
    before = [batch.game(i).history() for i in range(3)]
    bad = list(actions)
    bad[2] = int(next(i for i in range(masks.shape[1]) if not masks[2][i]))
    with pytest.raises(bluffchess.RulesError, match="game 2"):
        batch.step(bad)
    with pytest.raises(bluffchess.RulesError, match="one action for each"):
        batch.step(actions[:2])
    assert [batch.game(i).history() for i in range(3)] == before
    batch.step(actions)
    assert all(len(batch.game(i).history()) == 1 for i in range(3))


@pytest.mark.parametrize("variant", VARIANTS)
def test_junk_never_panics_and_changes_nothing(variant):
    """Mangled action texts, indices and views: a RulesError (or TypeError) each time, never a
    panic (pyo3's PanicException is no Exception), and the game as it was."""
    import random

    rng = random.Random(variant)
    texts = bluffchess.action_texts(variant)
    game = bluffchess.Game(variant, seed=3)
    for _ in range(5):
        game.play_random()
    before = snapshot(game)
    legal = set(game.legal_actions())
    view = game.view_json("white")
    for _ in range(300):
        text = rng.choice(texts)
        i = rng.randrange(len(text) + 1)
        junk = rng.choice([
            text[:i] + chr(rng.randrange(32, 0x2FF)) + text[i:],
            text[:i] + text[i + 1 :],
            text.upper(),
            " ".join(rng.sample(texts, 2)),
            "setup " + "".join(rng.choice("PNBRQKS/=@12345678abcdefgh ") for _ in range(rng.randrange(40))),
        ])
        if junk.strip() in legal or junk.strip().lower() in legal or game.to_act == "chance":
            continue
        try:
            game.apply(junk)
        except bluffchess.RulesError:
            pass
        else:
            # Accepted (a text the rules read, such as upper-case UCI): undo by starting again.
            game = bluffchess.Game(variant, seed=3)
            for _ in range(5):
                game.play_random()
        assert snapshot(game) == before
        j = rng.randrange(len(view))
        mangled = view[:j] + rng.choice(['"', "}", "0", "x", "[", ""]) + view[j + 1 :]
        try:
            bluffchess.Belief.from_view(mangled).sample(1)
        except bluffchess.RulesError:
            pass
