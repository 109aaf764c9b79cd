// Move sounds made with Web Audio; muted by a stored setting.
let ctx = null;
export const sound = {
  muted: localStorage.getItem('bc-muted') === '1',
  setMuted(m) { this.muted = m; localStorage.setItem('bc-muted', m ? '1' : '0'); },
  play(kind) {
    if (this.muted) return;
    try {
      ctx = ctx || new AudioContext();
      const t = ctx.currentTime;
      const o = ctx.createOscillator();
      const g = ctx.createGain();
      const f = { move: 520, capture: 330, end: 220, notify: 700, low: 880 }[kind] || 520;
      o.type = kind === 'capture' ? 'triangle' : 'sine';
      o.frequency.setValueAtTime(f, t);
      o.frequency.exponentialRampToValueAtTime(f * 0.7, t + 0.12);
      g.gain.setValueAtTime(0.0001, t);
      g.gain.exponentialRampToValueAtTime(0.25, t + 0.01);
      g.gain.exponentialRampToValueAtTime(0.0001, t + (kind === 'end' ? 0.5 : 0.15));
      o.connect(g).connect(ctx.destination);
      o.start(t);
      o.stop(t + 0.6);
    } catch { /* no audio */ }
  },
};
