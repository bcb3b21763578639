// The geometry of a laid floor (issue 25, part 5): where each tile of a pattern lies in a room,
// in centimetres, x to the right and y down (as a canvas draws), the room's corner at 0,0.
import type { OutputFormatName } from '@tessera/contract';

export interface Vec {
  x: number;
  y: number;
}

/**
 * One tile as an affine frame: the picture's top-left corner goes to `origin`, its top edge (the
 * long side) along `u`, its left edge along `v`. A rotated rectangle has u ⟂ v; a chevron's
 * angled cut makes a parallelogram. u × v is positive: a tile is never mirrored.
 */
export interface Quad {
  origin: Vec;
  u: Vec;
  v: Vec;
}

export const LAYING_PATTERNS = [
  'stack',
  'running-half',
  'running-third',
  'diagonal',
  'herringbone',
  'chevron',
  'basketweave',
] as const;
export type LayingPattern = (typeof LAYING_PATTERNS)[number];

/** The patterns that suit a format's tiles: squares turn, long tiles interlock. */
export const PATTERNS_BY_FORMAT: Readonly<Record<OutputFormatName, readonly LayingPattern[]>> = {
  Square: ['stack', 'diagonal'],
  Rectangle: ['stack', 'running-half', 'running-third', 'herringbone', 'chevron', 'basketweave'],
  Plank: ['stack', 'running-half', 'running-third', 'herringbone', 'chevron', 'basketweave'],
  Slab: ['stack', 'running-half', 'running-third'],
};

export interface LayoutInput {
  /** The tile's two sides in cm, in either order (the long side is the picture's long side). */
  tileCm: readonly [number, number];
  jointMm: number;
  pattern: LayingPattern;
  roomM: { width: number; depth: number };
}

/** A repeating motif: its tiles placed again at every i·t1 + k·t2. */
interface Lattice {
  motif: Quad[];
  t1: Vec;
  t2: Vec;
}

const add = (a: Vec, b: Vec): Vec => ({ x: a.x + b.x, y: a.y + b.y });
const scale = (a: Vec, s: number): Vec => ({ x: a.x * s, y: a.y * s });

/** An axis-aligned tile of w × h at x, y; upright (long side down) when h > w, turned clockwise. */
function rectTile(x: number, y: number, w: number, h: number): Quad {
  return h > w
    ? { origin: { x: x + w, y }, u: { x: 0, y: h }, v: { x: -w, y: 0 } }
    : { origin: { x, y }, u: { x: w, y: 0 }, v: { x: 0, y: h } };
}

/** The chevron's cut: 45°, as most chevron tiles are made. */
const CHEVRON_ANGLE = Math.PI / 4;

function latticeOf(pattern: LayingPattern, long: number, short: number, joint: number): Lattice {
  const a = long + joint;
  const b = short + joint;
  const half = joint / 2;
  switch (pattern) {
    case 'stack':
      return { motif: [rectTile(half, half, long, short)], t1: { x: a, y: 0 }, t2: { x: 0, y: b } };
    case 'running-half':
    case 'running-third': {
      const offset = pattern === 'running-half' ? a / 2 : a / 3;
      return {
        motif: [rectTile(half, half, long, short)],
        t1: { x: a, y: 0 },
        t2: { x: offset, y: b },
      };
    }
    case 'diagonal': {
      // The stack grid turned 45°: r turns a vector of the square grid onto the diagonal.
      const c = Math.SQRT1_2;
      const r = (p: Vec): Vec => ({ x: c * (p.x - p.y), y: c * (p.x + p.y) });
      return {
        motif: [
          { origin: r({ x: half, y: half }), u: r({ x: long, y: 0 }), v: r({ x: 0, y: short }) },
        ],
        t1: r({ x: a, y: 0 }),
        t2: r({ x: 0, y: b }),
      };
    }
    case 'herringbone':
      // A staircase of a lying and a standing tile, each step (b, b); the stairs repeat at (a, -a).
      return {
        motif: [rectTile(half, half, long, short), rectTile(a + half, b - a + half, short, long)],
        t1: { x: b, y: b },
        t2: { x: a, y: -a },
      };
    case 'chevron': {
      // Strips of parallelograms cut at 45°, rising on the left strip and falling on the right, so
      // they meet at the strips' joint as a V.
      const c = long * Math.cos(CHEVRON_ANGLE);
      const rise = c * Math.tan(CHEVRON_ANGLE);
      const height = short / Math.cos(CHEVRON_ANGLE);
      const pitch = b / Math.cos(CHEVRON_ANGLE);
      return {
        motif: [
          { origin: { x: half, y: rise }, u: { x: c, y: -rise }, v: { x: 0, y: height } },
          { origin: { x: c + 1.5 * joint, y: 0 }, u: { x: c, y: rise }, v: { x: 0, y: height } },
        ],
        t1: { x: 2 * c + 2 * joint, y: 0 },
        t2: { x: 0, y: pitch },
      };
    }
    case 'basketweave': {
      // Blocks of n tiles side by side (n the sides' ratio), lying and standing in a checkerboard.
      const n = Math.max(1, Math.round(long / short));
      const step = a / n;
      const motif: Quad[] = [];
      for (let k = 0; k < n; k++) {
        motif.push(rectTile(half, half + k * step, long, short));
        motif.push(rectTile(a + half + k * step, half, short, long));
      }
      return { motif, t1: { x: 2 * a, y: 0 }, t2: { x: a, y: a } };
    }
  }
}

function corners(quad: Quad): Vec[] {
  const { origin, u, v } = quad;
  return [origin, add(origin, u), add(add(origin, u), v), add(origin, v)];
}

/** Whether a parallelogram and the room's rectangle overlap (separating axis test). */
function touchesRoom(quad: Quad, width: number, depth: number): boolean {
  const points = corners(quad);
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  if (Math.max(...xs) <= 0 || Math.min(...xs) >= width) return false;
  if (Math.max(...ys) <= 0 || Math.min(...ys) >= depth) return false;
  const room = [
    { x: 0, y: 0 },
    { x: width, y: 0 },
    { x: width, y: depth },
    { x: 0, y: depth },
  ];
  for (const edge of [quad.u, quad.v]) {
    const normal = { x: -edge.y, y: edge.x };
    const project = (p: Vec) => p.x * normal.x + p.y * normal.y;
    const own = points.map(project);
    const other = room.map(project);
    if (Math.max(...own) <= Math.min(...other) || Math.max(...other) <= Math.min(...own))
      return false;
  }
  return true;
}

/** The tiles of a pattern that show in the room (the drawing clips them at its walls). */
export function layTiles(input: LayoutInput): Quad[] {
  const [first, second] = input.tileCm;
  const long = Math.max(first, second);
  const short = Math.min(first, second);
  const joint = Math.max(0, input.jointMm) / 10;
  const width = input.roomM.width * 100;
  const depth = input.roomM.depth * 100;
  const { motif, t1, t2 } = latticeOf(input.pattern, long, short, joint);

  // The lattice indices that can reach the room: its corners in lattice coordinates, widened by
  // the motif's own reach.
  const det = t1.x * t2.y - t1.y * t2.x;
  const toLattice = (p: Vec) => ({
    i: (p.x * t2.y - p.y * t2.x) / det,
    k: (t1.x * p.y - t1.y * p.x) / det,
  });
  const reach = Math.max(...motif.flatMap(corners).map((p) => Math.hypot(p.x, p.y)));
  const margin = reach / Math.min(Math.hypot(t1.x, t1.y), Math.hypot(t2.x, t2.y)) + 2;
  const box = [
    { x: 0, y: 0 },
    { x: width, y: 0 },
    { x: 0, y: depth },
    { x: width, y: depth },
  ].map(toLattice);
  const iFrom = Math.floor(Math.min(...box.map((p) => p.i)) - margin);
  const iTo = Math.ceil(Math.max(...box.map((p) => p.i)) + margin);
  const kFrom = Math.floor(Math.min(...box.map((p) => p.k)) - margin);
  const kTo = Math.ceil(Math.max(...box.map((p) => p.k)) + margin);

  const tiles: Quad[] = [];
  for (let k = kFrom; k <= kTo; k++) {
    for (let i = iFrom; i <= iTo; i++) {
      const shift = add(scale(t1, i), scale(t2, k));
      for (const tile of motif) {
        const placed = { origin: add(tile.origin, shift), u: tile.u, v: tile.v };
        if (touchesRoom(placed, width, depth)) tiles.push(placed);
      }
    }
  }
  return tiles;
}
