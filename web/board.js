// One SVG board over a list of cells: 8x8, Reality Check's 39-square diamond and its Advanced
// board (a 7x7 frame whose ten holes are absent squares).
import { pieceSvg, NAMES } from './pieces.js';

const SVGNS = 'http://www.w3.org/2000/svg';
const FILES = 'abcdefghi';
// The Advanced board's holes (RULINGS.md, Reality Check rule 8): not squares.
const RC_HOLES = new Set(['d6', 'c5', 'e5', 'b4', 'c4', 'e4', 'f4', 'c3', 'e3', 'd2']);

export function cellsOf(shape) {
  const cells = [];
  if (shape === 'rc') {
    const rows = [[3, 3], [2, 4], [1, 5], [0, 6], [0, 6], [0, 6], [1, 5], [2, 4], [3, 3]];
    rows.forEach(([a, b], r) => { for (let f = a; f <= b; f++) cells.push({ f, r, sq: FILES[f] + (r + 1) }); });
    return { cells, cols: 7, rows: 9 };
  }
  if (shape === 'rc-advanced') {
    const holes = [];
    for (let r = 0; r < 7; r++) {
      for (let f = 0; f < 7; f++) (RC_HOLES.has(FILES[f] + (r + 1)) ? holes : cells).push({ f, r, sq: FILES[f] + (r + 1) });
    }
    return { cells, cols: 7, rows: 7, holes };
  }
  for (let r = 0; r < 8; r++) for (let f = 0; f < 8; f++) cells.push({ f, r, sq: FILES[f] + (r + 1) });
  return { cells, cols: 8, rows: 8 };
}

const el = (name, attrs = {}) => {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
};

export class Board {
  // onChoose(actions, square) is called with the actions a gesture picked; onNone(square) with a
  // press that picked nothing (a premove is cancelled by it).
  constructor(host, { onChoose, onNone, label }) {
    this.host = host;
    this.onChoose = onChoose;
    this.onNone = onNone || (() => {});
    this.label = label || 'board';
    this.shape = null;
    this.orientation = 'white';
    this.model = { pieces: {} };
    this.inter = { moves: { normal: new Map(), bluff: new Map() }, targets: new Map() };
    this.selected = null;
    this.selMode = 'normal';
    this.bluffMode = false;
    this.focusSq = null;
    this.lastKey = null;
  }

  setup(shape, orientation) {
    if (shape === this.shape && orientation === this.orientation) return;
    this.shape = shape;
    this.orientation = orientation;
    const { cells, cols, rows, holes = [] } = cellsOf(shape);
    this.cells = cells;
    this.bySq = new Map(cells.map((c) => [c.sq, c]));
    this.cols = cols;
    this.rows = rows;
    const svg = el('svg', { viewBox: `0 0 ${cols * 100} ${rows * 100}`, class: `board shape-${shape}`, role: 'group', 'aria-label': this.label });
    this.layers = {};
    for (const name of ['sqs', 'marks', 'coords', 'pieces', 'links', 'hits', 'drag']) {
      this.layers[name] = el('g', { class: name });
      svg.append(this.layers[name]);
    }
    // A hole is no square: hatched, never a target, so that it does not read as an empty square.
    if (holes.length) {
      const hatch = el('pattern', { id: `hatch-${this.label.replace(/\W/g, '')}`, width: 20, height: 20, patternUnits: 'userSpaceOnUse' });
      hatch.append(el('path', { d: 'M-5 5 L5 -5 M0 20 L20 0 M15 25 L25 15', class: 'hatch' }));
      this.layers.sqs.append(hatch);
      for (const c of holes) {
        const { x, y } = this.posOf(c);
        this.layers.sqs.append(el('rect', { x, y, width: 100, height: 100, class: 'hole', fill: `url(#${hatch.id})`, 'data-hole': c.sq }));
      }
    }
    for (const c of cells) {
      const { x, y } = this.pos(c.sq);
      this.layers.sqs.append(el('rect', { x, y, width: 100, height: 100, class: (c.f + c.r) % 2 ? 'light' : 'dark' }));
      const hit = el('rect', { x, y, width: 100, height: 100, class: 'hit', 'data-sq': c.sq, role: 'button', tabindex: -1 });
      this.layers.hits.append(hit);
    }
    this.drawCoords();
    this.host.replaceChildren(svg);
    this.svg = svg;
    this.focusSq = null;
    svg.addEventListener('pointerdown', (e) => this.down(e));
    svg.addEventListener('pointermove', (e) => this.move(e));
    svg.addEventListener('pointerup', (e) => this.up(e));
    svg.addEventListener('pointercancel', () => this.cancelDrag());
    svg.addEventListener('contextmenu', (e) => e.preventDefault());
    svg.addEventListener('keydown', (e) => this.key(e));
    svg.addEventListener('focusin', (e) => { const sq = e.target.dataset?.sq; if (sq) this.focusSq = sq; });
    this.prevLast = undefined;
  }

  pos(sq) {
    return this.posOf(this.bySq.get(sq));
  }

  // Where a cell of the grid is drawn (a square's, or a hole's).
  posOf(c) {
    const white = this.orientation === 'white';
    const col = white ? c.f : this.cols - 1 - c.f;
    const row = white ? this.rows - 1 - c.r : c.r;
    return { x: col * 100, y: row * 100 };
  }

  drawCoords() {
    const g = this.layers.coords;
    const white = this.orientation === 'white';
    const byRank = new Map();
    const byFile = new Map();
    for (const c of this.cells) {
      const left = byRank.get(c.r);
      if (!left || (white ? c.f < left.f : c.f > left.f)) byRank.set(c.r, c);
      const low = byFile.get(c.f);
      if (!low || (white ? c.r < low.r : c.r > low.r)) byFile.set(c.f, c);
    }
    for (const c of byRank.values()) {
      const { x, y } = this.pos(c.sq);
      const t = el('text', { x: x + 4, y: y + 20, class: 'coord' });
      t.textContent = c.r + 1;
      g.append(t);
    }
    for (const c of byFile.values()) {
      const { x, y } = this.pos(c.sq);
      const t = el('text', { x: x + 96, y: y + 95, class: 'coord end' });
      t.textContent = FILES[c.f];
      g.append(t);
    }
  }

  // model: {pieces: {sq: {color, type, down, badge, faded}}, last: [from, to], check, marks: {sq: class}, links: [[a, b]]}
  render(model, inter) {
    this.model = model;
    if (inter) this.inter = inter;
    if (this.selected && !this.movesOf(this.selected, this.selMode)) this.selected = null;
    const g = this.layers.pieces;
    g.replaceChildren();
    for (const [sq, p] of Object.entries(model.pieces)) {
      if (!this.bySq.has(sq)) continue;
      const { x, y } = this.pos(sq);
      const pg = el('g', { class: 'piece' + (p.faded ? ' faded' : ''), 'data-sq': sq, 'data-piece': (p.color || '') + (p.type || '') });
      pg.style.transform = `translate(${x}px, ${y}px)`;
      let inner = pieceSvg(p.color, p.type);
      if (p.down) inner += `<g class="down"><circle cx="18" cy="82" r="16"/><text x="18" y="89">${p.down}</text></g>`;
      if (p.badge) inner += `<g class="badge ${p.badgeClass || ''}"><circle cx="82" cy="18" r="14"/><text x="82" y="25">${p.badge}</text></g>`;
      if (p.badgeClass) pg.classList.add(p.badgeClass);
      pg.innerHTML = inner;
      g.append(pg);
    }
    const last = model.last ? model.last.join('') : null;
    if (this.prevLast !== undefined && last && last !== this.prevLast && model.animate !== false) this.animate(model.last);
    this.prevLast = last;
    this.drawMarks();
    this.drawLinks();
    this.labelHits();
  }

  animate([from, to]) {
    const pg = this.layers.pieces.querySelector(`[data-sq="${to}"]`);
    if (!pg || !this.bySq.has(from) || matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    const a = this.pos(from);
    const b = this.pos(to);
    pg.style.transition = 'none';
    pg.style.transform = `translate(${a.x}px, ${a.y}px)`;
    pg.getBoundingClientRect();
    pg.style.transition = 'transform 180ms ease-out';
    pg.style.transform = `translate(${b.x}px, ${b.y}px)`;
  }

  drawMarks() {
    const g = this.layers.marks;
    g.replaceChildren();
    const add = (sq, cls) => {
      if (!this.bySq.has(sq)) return;
      const { x, y } = this.pos(sq);
      g.append(el('rect', { x, y, width: 100, height: 100, class: cls }));
    };
    const m = this.model;
    if (m.last) m.last.forEach((sq) => add(sq, 'm-last'));
    for (const [sq, cls] of Object.entries(m.marks || {})) add(sq, cls);
    if (m.check) add(m.check, 'm-check');
    // a bluff's selection and destinations look unlike an ordinary move's
    const bluff = this.selMode === 'bluff' ? ' bluff' : '';
    if (this.selected && this.bySq.has(this.selected)) add(this.selected, 'm-sel' + bluff);
    const dests = this.selected ? this.movesOf(this.selected, this.selMode) : null;
    if (dests) {
      for (const to of dests.keys()) {
        if (!this.bySq.has(to)) continue;
        const { x, y } = this.pos(to);
        const occupied = m.pieces[to];
        g.append(occupied
          ? el('circle', { cx: x + 50, cy: y + 50, r: 46, class: 'm-dest cap' + bluff })
          : el('circle', { cx: x + 50, cy: y + 50, r: 14, class: 'm-dest' + bluff }));
      }
    } else {
      for (const sq of this.inter.targets.keys()) {
        if (!this.bySq.has(sq)) continue;
        const { x, y } = this.pos(sq);
        g.append(el('rect', { x: x + 5, y: y + 5, width: 90, height: 90, rx: 10, class: 'm-target' }));
      }
    }
  }

  drawLinks() {
    const g = this.layers.links;
    g.replaceChildren();
    for (const [a, b] of this.model.links || []) {
      if (!this.bySq.has(a) || !this.bySq.has(b)) continue;
      const p = this.pos(a);
      const q = this.pos(b);
      g.append(el('line', { x1: p.x + 50, y1: p.y + 50, x2: q.x + 50, y2: q.y + 50, class: 'link' }));
    }
  }

  labelHits() {
    const dests = this.selected ? this.movesOf(this.selected, this.selMode) : null;
    for (const hit of this.layers.hits.children) {
      const sq = hit.dataset.sq;
      const p = this.model.pieces[sq];
      let label = sq + ', ' + (p ? `${p.color === 'w' ? 'white' : p.color === 'b' ? 'black' : ''} ${NAMES[p.type] || p.type}${p.down ? ' (' + NAMES[p.down] + ' below)' : ''}${p.desc ? ', ' + p.desc : ''}` : 'empty');
      if (sq === this.selected) label += ', selected';
      if (dests && dests.has(sq)) label += ', destination';
      else if (!dests && this.inter.targets.has(sq)) label += ', ' + this.inter.targets.get(sq).map((a) => a.text).join(' or ');
      hit.setAttribute('aria-label', label);
      hit.classList.toggle('movable', this.isFrom(sq) || this.inter.targets.has(sq));
    }
    const focus = this.focusSq && this.bySq.has(this.focusSq) ? this.focusSq : this.cells[0].sq;
    for (const hit of this.layers.hits.children) hit.setAttribute('tabindex', hit.dataset.sq === focus ? 0 : -1);
  }

  movesOf(sq, mode) {
    const m = this.inter.moves[mode] && this.inter.moves[mode].get(sq);
    return m && m.size ? m : null;
  }

  isFrom(sq) {
    return !!(this.movesOf(sq, this.bluffMode ? 'bluff' : 'normal'));
  }

  select(sq, mode) {
    this.selected = sq;
    this.selMode = mode;
    this.drawMarks();
    this.labelHits();
  }

  // Selects a square outside the board (a piece in hand).
  selectExternal(key) {
    this.select(key, 'normal');
  }

  sqAt(e) {
    const pt = this.svg.createSVGPoint();
    pt.x = e.clientX;
    pt.y = e.clientY;
    const p = pt.matrixTransform(this.svg.getScreenCTM().inverse());
    for (const c of this.cells) {
      const { x, y } = this.pos(c.sq);
      if (p.x >= x && p.x < x + 100 && p.y >= y && p.y < y + 100) return c.sq;
    }
    return null;
  }

  // A press or a key on a square: choose, select or target.
  press(sq, mode) {
    const dests = this.selected ? this.movesOf(this.selected, this.selMode) : null;
    if (dests && dests.has(sq)) {
      const actions = dests.get(sq);
      this.selected = null;
      this.drawMarks();
      this.labelHits();
      this.onChoose(actions, sq);
      return 'chose';
    }
    if (this.movesOf(sq, mode)) {
      if (this.selected === sq && this.selMode === mode) return 'again';
      this.select(sq, mode);
      return 'selected';
    }
    if (!this.selected && this.inter.targets.has(sq)) {
      this.onChoose(this.inter.targets.get(sq), sq);
      return 'chose';
    }
    this.select(null, 'normal');
    this.onNone(sq);
    return 'none';
  }

  down(e) {
    const sq = e.target.dataset?.sq || this.sqAt(e);
    if (!sq) return;
    e.preventDefault();
    const mode = e.button === 2 || this.bluffMode ? 'bluff' : 'normal';
    if (e.button === 2 && !this.movesOf(sq, 'bluff')) return;
    const result = this.press(sq, mode);
    if (result === 'selected' || result === 'again') {
      this.drag = { from: sq, mode, start: [e.clientX, e.clientY], moved: false, again: result === 'again', id: e.pointerId };
      this.svg.setPointerCapture(e.pointerId);
      // touch has no right button: a long press starts a bluff
      if (e.pointerType !== 'mouse' && mode === 'normal' && this.movesOf(sq, 'bluff')) {
        const d = this.drag;
        d.timer = setTimeout(() => {
          if (this.drag !== d || d.moved) return;
          d.mode = 'bluff';
          d.again = false;
          this.select(sq, 'bluff');
          if (navigator.vibrate) navigator.vibrate(30);
        }, 500);
      }
    }
  }

  move(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    if (!d.moved && Math.hypot(e.clientX - d.start[0], e.clientY - d.start[1]) < 4) return;
    if (!d.moved) {
      d.moved = true;
      clearTimeout(d.timer);
      const pg = this.layers.pieces.querySelector(`[data-sq="${d.from}"]`);
      if (pg) {
        d.ghost = pg.cloneNode(true);
        d.ghost.classList.add('ghost');
        if (d.mode === 'bluff') d.ghost.classList.add('bluffing');
        pg.classList.add('lifted');
        d.piece = pg;
        this.layers.drag.append(d.ghost);
      }
    }
    if (d.ghost) {
      const pt = this.svg.createSVGPoint();
      pt.x = e.clientX;
      pt.y = e.clientY;
      const p = pt.matrixTransform(this.svg.getScreenCTM().inverse());
      d.ghost.style.transition = 'none';
      d.ghost.style.transform = `translate(${p.x - 50}px, ${p.y - 50}px)`;
    }
  }

  up(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    this.cancelDrag();
    const sq = this.sqAt(e);
    if (d.moved) {
      if (sq && sq !== d.from) this.press(sq, d.mode);
    } else if (d.again && sq === d.from) {
      this.select(null, 'normal');
    }
  }

  cancelDrag() {
    const d = this.drag;
    if (!d) return;
    clearTimeout(d.timer);
    if (d.ghost) d.ghost.remove();
    if (d.piece) d.piece.classList.remove('lifted');
    this.drag = null;
  }

  key(e) {
    const sq = e.target.dataset?.sq;
    if (!sq) return;
    const c = this.bySq.get(sq);
    const sign = this.orientation === 'white' ? 1 : -1;
    const step = { ArrowUp: [0, sign], ArrowDown: [0, -sign], ArrowLeft: [-sign, 0], ArrowRight: [sign, 0] }[e.key];
    if (step) {
      e.preventDefault();
      let f = c.f + step[0];
      let r = c.r + step[1];
      while (f >= 0 && r >= 0 && f < this.cols && r < this.rows) {
        const next = FILES[f] + (r + 1);
        if (this.bySq.has(next)) { this.focus(next); break; }
        f += step[0];
        r += step[1];
      }
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.press(sq, this.bluffMode ? 'bluff' : 'normal');
    } else if (e.key === 'Escape') {
      this.select(null, 'normal');
    }
  }

  focus(sq) {
    this.focusSq = sq;
    for (const hit of this.layers.hits.children) hit.setAttribute('tabindex', hit.dataset.sq === sq ? 0 : -1);
    const hit = this.layers.hits.querySelector(`[data-sq="${sq}"]`);
    if (hit) hit.focus();
  }
}
