import { describe, expect, it } from 'vitest';
import { layTiles, PATTERNS_BY_FORMAT, type LayingPattern, type Quad, type Vec } from './patterns';
import { assignFaces, turnedFrame } from './placement';

/** Where a point lies in a tile's frame: s along u, t along v (inside: both in 0..1). */
function frameCoordinates(quad: Quad, p: Vec): { s: number; t: number } {
  const { origin, u, v } = quad;
  const det = u.x * v.y - u.y * v.x;
  const dx = p.x - origin.x;
  const dy = p.y - origin.y;
  return { s: (dx * v.y - dy * v.x) / det, t: (u.x * dy - u.y * dx) / det };
}

function distanceToSegment(p: Vec, a: Vec, b: Vec): number {
  const abx = b.x - a.x;
  const aby = b.y - a.y;
  const along = Math.max(
    0,
    Math.min(1, ((p.x - a.x) * abx + (p.y - a.y) * aby) / (abx ** 2 + aby ** 2)),
  );
  return Math.hypot(p.x - (a.x + along * abx), p.y - (a.y + along * aby));
}

function distanceToQuad(quad: Quad, p: Vec): number {
  const { s, t } = frameCoordinates(quad, p);
  if (s >= 0 && s <= 1 && t >= 0 && t <= 1) return 0;
  const { origin: o, u, v } = quad;
  const c = [
    o,
    { x: o.x + u.x, y: o.y + u.y },
    { x: o.x + u.x + v.x, y: o.y + u.y + v.y },
    { x: o.x + v.x, y: o.y + v.y },
  ];
  return Math.min(...c.map((a, i) => distanceToSegment(p, a, c[(i + 1) % 4] ?? a)));
}

interface Survey {
  /** Share of the sample points that lie on a tile. */
  tiled: number;
  /** Points inside two tiles at once (well inside: a shared edge does not count). */
  overlaps: number;
  /** The largest distance from a point to its nearest tile: the widest gap. */
  widestGap: number;
}

/** Samples the room on a fine grid (offset so points do not sit on tile edges). */
function survey(tiles: readonly Quad[], widthCm: number, depthCm: number, stepCm: number): Survey {
  let inside = 0;
  let points = 0;
  let overlaps = 0;
  let widestGap = 0;
  // Each tile's bounding box, widened by a centimetre: tiles further off neither cover nor matter.
  const boxes = tiles.map((tile) => {
    const { origin: o, u, v } = tile;
    const xs = [o.x, o.x + u.x, o.x + v.x, o.x + u.x + v.x];
    const ys = [o.y, o.y + u.y, o.y + v.y, o.y + u.y + v.y];
    return {
      tile,
      x0: Math.min(...xs) - 1,
      x1: Math.max(...xs) + 1,
      y0: Math.min(...ys) - 1,
      y1: Math.max(...ys) + 1,
    };
  });
  for (let y = stepCm * 0.37; y < depthCm; y += stepCm) {
    for (let x = stepCm * 0.61; x < widthCm; x += stepCm) {
      points++;
      const p = { x, y };
      let covering = 0;
      let nearest = Infinity;
      for (const { tile, x0, x1, y0, y1 } of boxes) {
        if (x < x0 || x > x1 || y < y0 || y > y1) continue;
        const { s, t } = frameCoordinates(tile, p);
        if (s > 1e-6 && s < 1 - 1e-6 && t > 1e-6 && t < 1 - 1e-6) covering++;
        else nearest = Math.min(nearest, distanceToQuad(tile, p));
      }
      if (covering > 0) inside++;
      else widestGap = Math.max(widestGap, nearest);
      if (covering > 1) overlaps++;
    }
  }
  return { tiled: inside / points, overlaps, widestGap };
}

const CASES: { format: keyof typeof PATTERNS_BY_FORMAT; tileCm: [number, number] }[] = [
  { format: 'Square', tileCm: [60, 60] },
  { format: 'Rectangle', tileCm: [60, 120] },
  { format: 'Plank', tileCm: [120, 20] },
  { format: 'Slab', tileCm: [160, 70] },
];

describe('layTiles', () => {
  for (const { format, tileCm } of CASES) {
    for (const pattern of PATTERNS_BY_FORMAT[format]) {
      it(`${pattern} of ${format} ${tileCm.join('x')} covers the room, joints only between tiles`, () => {
        const jointMm = 5;
        const room = { width: 4.1, depth: 3.3 };
        const tiles = layTiles({ tileCm, jointMm, pattern, roomM: room });
        const [a, b] = tileCm;
        const expectedShare = (a * b) / ((a + jointMm / 10) * (b + jointMm / 10));
        const result = survey(tiles, room.width * 100, room.depth * 100, 1.9);
        expect(result.overlaps).toBe(0);
        // Tiles and joints fill the room: no point lies further than a joint from a tile.
        expect(result.widestGap).toBeLessThanOrEqual(jointMm / 10 + 1e-6);
        expect(result.tiled).toBeGreaterThan(expectedShare - 0.02);
        expect(result.tiled).toBeLessThanOrEqual(1);
        // Every tile touches the room.
        for (const tile of tiles)
          expect(distanceToQuad(tile, { x: 205, y: 165 })).toBeLessThan(400);
      });
    }
  }

  it('with no joint the tiles meet edge to edge and fill the room', () => {
    const tiles = layTiles({
      tileCm: [60, 120],
      jointMm: 0,
      pattern: 'herringbone',
      roomM: { width: 3, depth: 3 },
    });
    const result = survey(tiles, 300, 300, 2.3);
    expect(result.overlaps).toBe(0);
    expect(result.tiled).toBe(1);
  });

  it.each<[LayingPattern, number]>([
    ['running-half', 1 / 2],
    ['running-third', 1 / 3],
  ])('%s shifts each row by %f of the tile length plus joint', (pattern, fraction) => {
    const tiles = layTiles({
      tileCm: [60, 120],
      jointMm: 3,
      pattern,
      roomM: { width: 5, depth: 2 },
    });
    const rowOf = (tile: Quad) => Math.round(tile.origin.y / 60.3);
    const startsIn = (row: number) =>
      tiles.filter((tile) => rowOf(tile) === row).map((tile) => tile.origin.x);
    const pitch = 120.3;
    const shift = ((((startsIn(1)[0] ?? 0) - (startsIn(0)[0] ?? 0)) % pitch) + pitch) % pitch;
    expect(shift).toBeCloseTo(fraction * pitch, 6);
    expect(tiles.every((tile) => tile.u.y === 0 && tile.u.x === 120)).toBe(true);
  });

  it('a diagonal floor turns its squares by 45°', () => {
    const tiles = layTiles({
      tileCm: [60, 60],
      jointMm: 2,
      pattern: 'diagonal',
      roomM: { width: 2, depth: 2 },
    });
    for (const tile of tiles) expect(Math.atan2(tile.u.y, tile.u.x)).toBeCloseTo(Math.PI / 4, 9);
  });

  it('a herringbone has as many standing tiles as lying ones', () => {
    const tiles = layTiles({
      tileCm: [20, 120],
      jointMm: 2,
      pattern: 'herringbone',
      roomM: { width: 6, depth: 6 },
    });
    const lying = tiles.filter((tile) => tile.u.y === 0).length;
    expect(Math.abs(lying * 2 - tiles.length) / tiles.length).toBeLessThan(0.1);
  });
});

describe('assignFaces', () => {
  const tiles = layTiles({
    tileCm: [60, 60],
    jointMm: 3,
    pattern: 'stack',
    roomM: { width: 6, depth: 6 },
  });

  it('lays the same faces for the same seed, and others for another seed', () => {
    const first = assignFaces(tiles, 6, 'quarter', 42);
    expect(assignFaces(tiles, 6, 'quarter', 42)).toEqual(first);
    const other = assignFaces(tiles, 6, 'quarter', 43);
    const differing = other.filter((tile, i) => tile.face !== first[i]?.face).length;
    expect(differing / tiles.length).toBeGreaterThan(0.5);
  });

  it('uses every face of a series, and only those', () => {
    const faces = new Set(assignFaces(tiles, 4, 'none', 7).map((tile) => tile.face));
    expect([...faces].sort()).toEqual([0, 1, 2, 3]);
    expect(new Set(assignFaces(tiles, 1, 'none', 7).map((tile) => tile.face))).toEqual(
      new Set([0]),
    );
  });

  it.each([
    ['none', [0]],
    ['half', [0, 2]],
    ['quarter', [0, 1, 2, 3]],
  ] as const)('turns the pictures as %s allows', (mode, allowed) => {
    const turns = new Set(assignFaces(tiles, 3, mode, 11).map((tile) => tile.turns));
    expect([...turns].sort()).toEqual(allowed);
  });

  it('a turned picture keeps to its tile: the same corners, not mirrored', () => {
    const [tile] = assignFaces(
      layTiles({
        tileCm: [60, 60],
        jointMm: 0,
        pattern: 'stack',
        roomM: { width: 0.6, depth: 0.6 },
      }),
      1,
      'quarter',
      1,
    );
    if (!tile) throw new Error('no tile');
    for (const turns of [1, 2, 3]) {
      const frame = turnedFrame({ ...tile, turns });
      const area = frame.u.x * frame.v.y - frame.u.y * frame.v.x;
      expect(area).toBeCloseTo(3600, 9);
      const centre = (q: Quad) => ({
        x: q.origin.x + (q.u.x + q.v.x) / 2,
        y: q.origin.y + (q.u.y + q.v.y) / 2,
      });
      expect(centre(frame)).toEqual(centre(tile));
    }
    const half = turnedFrame({ ...tile, turns: 2 });
    expect(half.origin).toEqual({ x: 60, y: 60 });
  });
});
