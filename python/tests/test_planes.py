"""The observation planes say what their names say."""

import numpy as np

import bluffchess


def plane(game, seat, name):
    planes = game.observation_planes
    return game.observation(seat)[planes.index(name)]


def squares(board):
    """The names of the cells set on an 8x8 plane."""
    return sorted("abcdefgh"[f] + str(r + 1) for r, f in zip(*np.nonzero(board)))


def test_chess_planes_are_seat_relative():
    game = bluffchess.Game("chess", seed=1)
    assert squares(plane(game, "white", "own pawn")) == [f + "2" for f in "abcdefgh"]
    assert squares(plane(game, "black", "own pawn")) == [f + "7" for f in "abcdefgh"]
    assert squares(plane(game, "black", "enemy king")) == ["e1"]
    assert plane(game, "white", "seat to act").all() and not plane(game, "black", "seat to act").any()
    assert plane(game, "white", "own castling queen side").all()
    game.apply("e2e4")
    assert squares(plane(game, "black", "last move to")) == ["e4"]
    assert squares(plane(game, "spectator", "own pawn"))[:4] == ["a2", "b2", "c2", "d2"]


def test_alter_ego_sealed_decision():
    game = bluffchess.Game("alter-ego", seed=1)
    for text in ["e2e4", "d7d5", "transfer d8"]:
        game.apply(text)
    white = "enemy ego sealed (on the turn piece or transferred)"
    assert squares(plane(game, "white", white)) == ["d5"]
    assert not plane(game, "white", "enemy ego").any()
    assert squares(plane(game, "black", "own ego")) == ["d8"]
    assert squares(plane(game, "black", "bound piece (must move)")) == []
    game.apply("g1f3")  # White's move reveals the decision
    assert squares(plane(game, "white", "enemy ego")) == ["d8"]


def test_bs_identities_stay_hidden_until_shown():
    game = bluffchess.Game("bs", seed=1)
    game.apply("setup RNBQKBNR/PPPPPPPP")
    game.apply("setup RNBQKBNR/PPPPPPPP")
    assert plane(game, "black", "enemy piece, identity unknown").sum() == 16
    assert squares(plane(game, "white", "own king")) == ["e1"]
    game.apply("b1c3")
    assert plane(game, "black", "step: answer (call or accept)").all()
    assert squares(plane(game, "black", "pending move to")) == ["c3"]
    game.apply("call")
    assert squares(plane(game, "black", "enemy knight (shown)")) == ["c3"]


def test_bluff_move_knows_its_own_bluffs():
    game = bluffchess.Game("bluff-move", seed=1)
    game.apply("bluff e2e4")
    assert squares(plane(game, "white", "known bluff")) == ["e4"]
    assert squares(plane(game, "white", "real piece of a known bluff")) == ["e2"]
    enemy_pawns = squares(plane(game, "black", "enemy pawn image"))
    assert "e4" in enemy_pawns and "e2" not in enemy_pawns
    assert not plane(game, "black", "known bluff").any()


def test_reality_check_hands_and_hidden_faces():
    game = bluffchess.Game("reality-check", seed=1)
    game.apply("setup d1=RR c2=NB e2=NR d2=BB d3=BR b3=PP c3=PN e3=PB f3=PR hand=NN")
    assert plane(game, "white", "own hand holds NN (known)").all()
    assert plane(game, "white", "own piece with B face down (known)")[1, 2] == 1  # c2
    game.apply("setup d9=RR c8=NB e8=NR d8=BB d7=BR b7=PP c7=PN e7=PB f7=PR hand=NN")
    black = game.observation("black")
    planes = game.observation_planes
    assert black[planes.index("enemy piece showing N")][1, 2] == 1  # c2 shows N
    assert black[planes.index("enemy piece, face down unknown")].sum() == 9
    assert black[planes.index("enemy hand: pieces never seen / 10")].max() == np.float32(0.1)
    assert black[planes.index("on the board")].sum() == 39
