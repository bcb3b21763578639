/**
 * mulberry32 (Tommy Ettinger, public domain): a tiny, fast 32-bit PRNG with a full 2^32 period,
 * plenty for choosing patches. The same seed always gives the same sequence.
 */
export interface Prng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n), n ≥ 1. */
  int(n: number): number;
}

export function mulberry32(seed: number): Prng {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n) => Math.floor(next() * n) };
}
