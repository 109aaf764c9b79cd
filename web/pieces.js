// Self-drawn pieces in a 100x100 box (see LICENSES.md).
const BASE = 'M30 87H70L66 75H34Z';
const SHAPES = {
  P: '<circle cx="50" cy="31" r="12"/><path d="M36 78C38 60 43 51 50 46C57 51 62 60 64 78Z"/><rect x="28" y="76" width="44" height="10" rx="3"/>',
  R: '<path d="M30 87H70V79H64L61 43H68V23H60V30H54V23H46V30H40V23H32V43H39L36 79H30Z"/>',
  B: `<circle cx="50" cy="15" r="5"/><path d="M50 21C63 32 67 46 60 61L65 76H35L40 61C33 46 37 32 50 21Z"/><path d="${BASE}"/><path class="line" d="M54 33L45 46"/>`,
  N: '<path d="M33 87H72C73 61 67 40 54 26L53 14L45 23C37 26 29 38 25 51L30 58L41 53C43 60 36 70 33 87Z"/><circle class="dot" cx="43" cy="35" r="3"/>',
  Q: `<path d="${BASE}"/><path d="M34 75L27 35L40 55L44 27L50 51L56 27L60 55L73 35L66 75Z"/><circle cx="27" cy="31" r="5"/><circle cx="44" cy="23" r="5"/><circle cx="56" cy="23" r="5"/><circle cx="73" cy="31" r="5"/>`,
  K: `<path d="${BASE}"/><path d="M34 75C25 55 33 40 50 49C67 40 75 55 66 75Z"/><path d="M47 15H53V24H61V30H53V44H47V30H39V24H47Z"/>`,
  S: '<circle cx="50" cy="31" r="12"/><path d="M36 78C38 60 43 51 50 46C57 51 62 60 64 78Z"/><rect x="28" y="76" width="44" height="10" rx="3"/><path class="line" d="M38 29H62"/>',
  '?': '<circle cx="50" cy="52" r="32"/><text x="50" y="66" class="mark">?</text>',
};

export const NAMES = { P: 'pawn', N: 'knight', B: 'bishop', R: 'rook', Q: 'queen', K: 'king', S: 'spy', '?': 'piece' };

// The inner SVG of one piece: color 'w' | 'b', type a letter or '?'.
export function pieceSvg(color, type) {
  const shape = SHAPES[type] || SHAPES['?'];
  return `<g class="pc ${color === 'w' ? 'pw' : 'pb'}">${shape}</g>`;
}

// A standalone SVG icon of a piece (hand, pool, chooser).
export function pieceIcon(color, type, label) {
  return `<svg class="icon" viewBox="0 0 100 100" role="img" aria-label="${label || ''}">${pieceSvg(color, type)}</svg>`;
}
