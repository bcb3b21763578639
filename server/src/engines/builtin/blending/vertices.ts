/**
 * What each lattice vertex samples: the centre of its window in the reference (a seeded random
 * position, hashed from the vertex's key, so the same key always draws the same) and, with a
 * chance set by the imagination weight, one of the seven turns and mirrors of the square that
 * leave the pixel grid as it is (the output stays an exact copy of reference pixels, no
 * resampling).
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction. */
import { mulberry32 } from '../prng.js';
import { keyCount, type Lattice } from './lattice.js';

/** Where the windows may lie: every point within `radius` of a centre is in the reference. */
export interface SourceRegion {
  Wr: number;
  Hr: number;
  radius: number;
  /** With a mask: the allowed centres (y · Wr + x); else any centre `radius` from the edges. */
  centres?: Uint32Array;
}

/** Per vertex key: its window's centre in the reference and its transform (0: none, 1–7). */
export interface VertexDraws {
  cx: Int32Array;
  cy: Int32Array;
  transform: Uint8Array;
}

/**
 * The draws of every key of `lattice`; `seedOf(key)` is the seed a key draws with (the job's,
 * or for a series' inner vertices the face's), `turnChance` the chance of a transform.
 */
export function drawVertices(
  lattice: Lattice,
  region: SourceRegion,
  seedOf: (key: number) => number,
  turnChance: number,
): VertexDraws {
  const n = keyCount(lattice);
  const draws: VertexDraws = {
    cx: new Int32Array(n),
    cy: new Int32Array(n),
    transform: new Uint8Array(n),
  };
  const { Wr, Hr, radius, centres } = region;
  for (let key = 0; key < n; key++) {
    const rng = mulberry32(mix(seedOf(key), key));
    if (centres) {
      const at = centres[rng.int(centres.length)]!;
      draws.cx[key] = at % Wr;
      draws.cy[key] = Math.floor(at / Wr);
    } else {
      draws.cx[key] = radius + rng.int(Wr - 2 * radius);
      draws.cy[key] = radius + rng.int(Hr - 2 * radius);
    }
    draws.transform[key] = rng.next() < turnChance ? 1 + rng.int(7) : 0;
  }
  return draws;
}

/**
 * The offset (dx, dy) from a vertex turned by `transform`: bit 0 swaps x and y, bit 1 mirrors
 * x, bit 2 mirrors y. Into `out`.
 */
export function turn(transform: number, dx: number, dy: number, out: Int32Array): void {
  let x = transform & 1 ? dy : dx;
  let y = transform & 1 ? dx : dy;
  if (transform & 2) x = -x;
  if (transform & 4) y = -y;
  out[0] = x;
  out[1] = y;
}

/** A 32-bit hash of a seed and a key (murmur3's finaliser): neighbouring keys draw unrelated. */
function mix(seed: number, key: number): number {
  let h = (seed ^ Math.imul(key + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
