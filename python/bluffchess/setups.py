"""Hidden setups as sequences of small choices, for OpenSpiel's chance nodes.

A whole setup of BS Chess or Reality Check is one of millions of arrangements, too many for a
list of chance outcomes. The OpenSpiel game draws it one square at a time instead: each step
places one piece (``place K``, ``place NB``: face up first) or, in a free Reality Check setup,
leaves a square empty (``place -``); BS Chess with spies first draws whether a pawn is a spy
(``spy``/``no spy``, even odds, as the rules' own random setup does). Each step's
probabilities are proportional to the number of whole setups that remain possible after it, so
the setup drawn is uniform among the valid ones: the distribution of the rules' ``setup
random``. The finished setup is played as one ``setup ...`` action.

A variant whose spec says Chance takes part (``chance`` in ``bluffchess.variants()``) needs its
chance outcomes here, and its setup steps if its setup is hidden: without them its OpenSpiel game
refuses to load (and the tests fail).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Dict, List, Optional, Sequence, Tuple

from . import _bluffchess as bc

FACES = "PNBR"
# Reality Check's ten two-faced pieces, as unordered pairs of faces.
KINDS: Tuple[str, ...] = tuple(
    FACES[i] + FACES[j] for i in range(4) for j in range(i, 4)
)
KIND_INDEX = {k: i for i, k in enumerate(KINDS)}

BS_SLOTS = 16
BS_SET = {"K": 1, "Q": 1, "R": 2, "B": 2, "N": 2, "P": 8}
BS_LETTERS = "PNBRQKS"


def kind_of(up: str, down: str) -> int:
    """The index of the piece with these two faces."""
    a, b = sorted((up, down), key=FACES.index)
    return KIND_INDEX[a + b]


def chance_texts(variant: str) -> List[str]:
    """Every chance outcome of the variant's OpenSpiel game, by index."""
    if variant == "bs":
        return ["no spy", "spy"] + [f"place {c}" for c in BS_LETTERS]
    if variant == "reality-check":
        pieces = [f"place {u}{d}" for u in FACES for d in FACES]
        return ["place -"] + pieces + [f"die {n}" for n in range(1, 7)]
    if any(v["id"] == variant and v["chance"] for v in bc.variants()):
        raise bc.RulesError(
            f"Chance takes part in {variant}, but bluffchess/setups.py has no chance outcomes for it"
        )
    return []


def _rc_square(file: int, rank: int) -> str:
    return "abcdefg"[file] + str(rank + 1)


def _on_board(file: int, rank: int) -> bool:
    """Whether a cell of the 9x7 grid is one of the basic board's 39 squares."""
    widths = [1, 3, 5, 7, 7, 7, 5, 3, 1]
    half = widths[rank] // 2
    return 0 <= rank < 9 and abs(file - 3) <= half


def _order(square: Tuple[int, int]) -> Tuple[int, int]:
    file, rank = square
    return (min(rank, 8 - rank), file)


# The Advanced board (option board=advanced): White's ten setup squares, d1 e1 f1 g1 e2 f2 g2 f3
# g3 g4, as (file, rank); Black's are their half turn. Nine of the ten are filled.
_ADVANCED_WHITE_REGION = [
    (3, 0),
    (4, 0),
    (5, 0),
    (6, 0),
    (4, 1),
    (5, 1),
    (6, 1),
    (5, 2),
    (6, 2),
    (6, 3),
]

_WHITE_DIAGRAM = [
    ((3, 0), "R"),
    ((2, 1), "N"),
    ((3, 1), "B"),
    ((4, 1), "N"),
    ((1, 2), "P"),
    ((2, 2), "P"),
    ((3, 2), "B"),
    ((4, 2), "P"),
    ((5, 2), "P"),
]


class Slots:
    """One side's setup as a sequence of steps."""

    def __init__(self, variant: str, options: Dict[str, str], color: str):
        if variant not in ("bs", "reality-check"):
            raise bc.RulesError(f"bluffchess/setups.py has no setup steps for {variant}")
        self.variant = variant
        self.color = color
        if variant == "bs":
            self.spy = options.get("spy") == "true"
            self.squares: List[str] = []
            self.faces: List[Optional[str]] = []
            self.steps = BS_SLOTS + (1 if self.spy else 0)
            return
        advanced = options.get("board") == "advanced"
        # A free setup (Flexibility, the Advanced board): any faces, and squares left empty.
        self.free = advanced or options.get("flexible-setup") == "true"
        if advanced:
            cells = [
                (f, r) if color == "white" else (6 - f, 6 - r)
                for f, r in _ADVANCED_WHITE_REGION
            ]
            # From the owner's back rank forward, then by file.
            cells.sort(key=lambda c: (c[1] if color == "white" else 6 - c[1], c[0]))
            self.squares = [_rc_square(f, r) for f, r in cells]
            self.faces = [None] * len(cells)
        elif self.free:
            cells = [
                (f, r)
                for r in range(9)
                for f in range(7)
                if _on_board(f, r) and (r <= 3 if color == "white" else r >= 5)
            ]
            cells.sort(key=_order)
            self.squares = [_rc_square(f, r) for f, r in cells]
            self.faces = [None] * len(cells)
        else:
            diagram = [
                ((f, r if color == "white" else 8 - r), face)
                for (f, r), face in _WHITE_DIAGRAM
            ]
            diagram.sort(key=lambda item: _order(item[0]))
            self.squares = [_rc_square(f, r) for (f, r), _ in diagram]
            self.faces = [face for _, face in diagram]
        self.steps = len(self.squares)

    # -- BS Chess -------------------------------------------------------------------------

    def _bs_pool(self, tokens: Sequence[str]) -> Dict[str, int]:
        spy = self.spy and tokens[:1] == ["spy"]
        pool = dict(BS_SET)
        if spy:
            pool["P"] -= 1
            pool["S"] = 1
        for token in tokens[1 if self.spy else 0 :]:
            pool[token.split()[1]] -= 1
        return pool

    # -- Reality Check --------------------------------------------------------------------

    def _used(self, tokens: Sequence[str]) -> int:
        used = 0
        for token in tokens:
            piece = token.split()[1]
            if piece != "-":
                used |= 1 << kind_of(piece[0], piece[1])
        return used

    def _count(self, i: int, used: int) -> int:
        return _rc_count(self.free, tuple(self.faces), i, used)

    # -- both ------------------------------------------------------------------------------

    def outcomes(self, tokens: Sequence[str]) -> List[Tuple[str, float]]:
        """The next step's tokens with their probabilities."""
        tokens = list(tokens)
        if self.variant == "bs":
            if self.spy and not tokens:
                return [("no spy", 0.5), ("spy", 0.5)]
            pool = self._bs_pool(tokens)
            total = sum(pool.values())
            return [
                (f"place {c}", pool[c] / total)
                for c in BS_LETTERS
                if pool.get(c, 0) > 0
            ]
        i = len(tokens)
        used = self._used(tokens)
        total = self._count(i, used)
        out = []
        if self.free:
            n = self._count(i + 1, used)
            if n:
                out.append(("place -", n / total))
        for up in FACES:
            if self.faces[i] is not None and up != self.faces[i]:
                continue
            for down in FACES:
                k = kind_of(up, down)
                if used >> k & 1:
                    continue
                n = self._count(i + 1, used | 1 << k)
                if n:
                    out.append((f"place {up}{down}", n / total))
        return out

    def text(self, tokens: Sequence[str]) -> str:
        """The setup action of a complete sequence of tokens."""
        if self.variant == "bs":
            letters = "".join(t.split()[1] for t in tokens[1 if self.spy else 0 :])
            return f"setup {letters[:8]}/{letters[8:]}"
        words = []
        used = 0
        for square, token in zip(self.squares, tokens):
            piece = token.split()[1]
            if piece != "-":
                words.append(f"{square}={piece}")
                used |= 1 << kind_of(piece[0], piece[1])
        hand = [k for i, k in enumerate(KINDS) if not used >> i & 1]
        return "setup " + " ".join(words) + f" hand={hand[0]}"

    def tokens(self, text: str) -> List[str]:
        """The tokens of a setup action (its canonical text)."""
        words = text.split()
        if self.variant == "bs":
            letters = words[1].replace("/", "")
            prefix = (["spy" if "S" in letters else "no spy"]) if self.spy else []
            return prefix + [f"place {c}" for c in letters]
        placed = dict(w.split("=", 1) for w in words[1:] if not w.startswith("hand="))
        return [f"place {placed.get(sq, '-')}" for sq in self.squares]


@lru_cache(maxsize=None)
def _rc_count(free: bool, faces: Tuple[Optional[str], ...], i: int, used: int) -> int:
    """How many whole setups complete the slots from `i` on, with the kinds in `used` taken."""
    placed = bin(used).count("1")
    if i == len(faces):
        return 1 if placed == 9 else 0
    if placed + (len(faces) - i) < 9:
        return 0
    total = 0
    if free:
        total += _rc_count(free, faces, i + 1, used)
    if placed == 9:
        return total
    for up in FACES:
        if faces[i] is not None and up != faces[i]:
            continue
        for down in FACES:
            k = kind_of(up, down)
            if used >> k & 1:
                continue
            # A piece with two faces shows either; count each orientation once.
            total += _rc_count(free, faces, i + 1, used | 1 << k)
    return total
