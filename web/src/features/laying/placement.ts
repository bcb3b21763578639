// Which face lies on each tile, and how it is turned: at random, but the same for the same seed.
import type { Quad, Vec } from './patterns';

/** The turns a design allows: none, half turns, or quarter turns (square tiles only). */
export const ROTATION_MODES = ['none', 'half', 'quarter'] as const;
export type RotationMode = (typeof ROTATION_MODES)[number];

export interface PlacedTile extends Quad {
  /** Index into the series' faces (0 for a single image). */
  face: number;
  /** Quarter turns of the picture inside its tile: 0..3 (2 is 180°). */
  turns: number;
}

/** mulberry32: a small, fast PRNG whose whole state is the seed, so a seed replays a floor. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TURN_CHOICES: Record<RotationMode, readonly number[]> = {
  none: [0],
  half: [0, 2],
  quarter: [0, 1, 2, 3],
};

/** Draws a face and a turn for every tile, in the tiles' order. */
export function assignFaces(
  tiles: readonly Quad[],
  faces: number,
  rotation: RotationMode,
  seed: number,
): PlacedTile[] {
  const random = seededRandom(seed);
  const turns = TURN_CHOICES[rotation];
  const count = Math.max(1, Math.floor(faces));
  return tiles.map((tile) => ({
    ...tile,
    face: Math.floor(random() * count),
    turns: turns[Math.floor(random() * turns.length)] ?? 0,
  }));
}

/**
 * The tile's frame with its picture turned: each quarter turn moves the picture's corner to the
 * next corner of the tile. Quarter turns keep the tile's shape only when its sides are equal.
 */
export function turnedFrame(tile: PlacedTile): Quad {
  let { origin, u, v } = tile;
  for (let turn = 0; turn < tile.turns % 4; turn++) {
    const next: Vec = { x: origin.x + v.x, y: origin.y + v.y };
    [origin, u, v] = [next, { x: -v.x, y: -v.y }, u];
  }
  return { origin, u, v };
}
