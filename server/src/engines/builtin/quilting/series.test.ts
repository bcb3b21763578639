import { describe, expect, it } from 'vitest';
import type { RawImage } from '../../../imaging/raw-image.js';
import { FORM_DEFAULTS } from '../../../testing/generate-params.js';
import { marble, terrazzo } from '../test-references-surfaces.js';
import { bricks, photoNoise, planks, stoneTiles, valueNoise } from '../test-references.js';
import { autocorrelation, layFloor } from './floor.js';
import { cutEnergy, joinRatio, wrapRatio } from './seam-metrics.js';
import { faceSeed, synthesizeSeries } from './series.js';
import { synthesize, type SynthesisOptions } from './synthesize.js';

/** Four faces at a small size, the form's defaults: fast enough under load. */
const FACES = 4;
const OPTIONS: SynthesisOptions = {
  ...FORM_DEFAULTS,
  width: 160,
  height: 160,
  seed: 25,
  seamless: true,
};
const SIZE = 192;
const REFERENCES: Record<string, () => RawImage> = {
  bricks: () => bricks(SIZE, SIZE, 5),
  stone: () => stoneTiles(SIZE, SIZE),
  marble: () => marble(SIZE, SIZE),
  wood: () => planks(SIZE, SIZE),
  terrazzo: () => terrazzo(SIZE, SIZE),
  noise: () => photoNoise(SIZE, SIZE),
};

function channel(image: RawImage, at: number): number {
  return image.data[at] ?? 0;
}

/** The k-th element, which the test knows is there. */
function nth<T>(items: readonly T[], k: number): T {
  const item = items[k];
  if (item === undefined) throw new Error(`no item ${k}`);
  return item;
}

/**
 * How much two faces differ: the mean absolute RGB difference over their interiors (inside a
 * quarter of the side from each edge, away from the shared ring), against the texture's own
 * spread there (the mean absolute difference of face a's interior from its mean colour). Two
 * unrelated samples of one texture score about 1.4; identical faces 0.
 */
function difference(a: RawImage, b: RawImage): number {
  const { width: W, height: H } = a;
  const x0 = Math.floor(W / 4);
  const y0 = Math.floor(H / 4);
  let diff = 0;
  let n = 0;
  const mean = [0, 0, 0];
  const each = (visit: (p: number) => void) => {
    for (let y = y0; y < H - y0; y++) for (let x = x0; x < W - x0; x++) visit((y * W + x) * 4);
  };
  each((p) => {
    for (let c = 0; c < 3; c++) {
      diff += Math.abs(channel(a, p + c) - channel(b, p + c));
      mean[c] = (mean[c] ?? 0) + channel(a, p + c);
    }
    n++;
  });
  let spread = 0;
  each((p) => {
    for (let c = 0; c < 3; c++) spread += Math.abs(channel(a, p + c) - (mean[c] ?? 0) / n);
  });
  return diff / spread;
}

/**
 * Figures at this size (4 faces of 160 × 160, seed 25): worst join ÷ inside 0.11 (stone) to 0.82
 * (noise); least difference between two faces 0.75 (bricks) to 1.25 (marble); every face's
 * cut ÷ inside 0.08–0.62; the random floor's autocorrelation at the face period 0.38 (marble)
 * to 0.71 (bricks, wood) against 1.00 for one face tiled (faces of independent seeds, sharing
 * no edges, give 0.2–0.55 on the same references). Regular textures keep more: their lines must
 * meet the shared edges, so every face's mortar or plank joints lie in phase (as on a real tile
 * series) while the content between them differs.
 */
describe('series of faces (issue 25)', { timeout: 90_000 }, () => {
  it.each(Object.keys(REFERENCES))(
    '%s: every face joins every face; faces differ; a random floor repeats less than one face',
    (name) => {
      const reference = nth(Object.values(REFERENCES), Object.keys(REFERENCES).indexOf(name))();
      const traced = synthesizeSeries(reference, OPTIONS, FACES);
      const faces = traced.map((f) => f.image);
      expect(faces).toHaveLength(FACES);

      // The seam is not moved inside: every face's cuts (its kept ring's edge included) are as
      // smooth as a single image's (the 1.15 of the seam tests).
      for (const { image, source } of traced) {
        expect(cutEnergy(image, source, reference.width, true).ratio).toBeLessThanOrEqual(1.15);
      }

      // a) Any face beside and below any face (itself included): the join within 1.2 × inside.
      let worstJoin = 0;
      for (const a of faces) {
        for (const b of faces) {
          worstJoin = Math.max(worstJoin, joinRatio(a, b, 'right'), joinRatio(a, b, 'below'));
        }
      }
      expect(worstJoin).toBeLessThanOrEqual(1.2);

      // b) Every pair of faces differs.
      let leastDifference = Infinity;
      for (let i = 0; i < FACES; i++) {
        for (let j = i + 1; j < FACES; j++) {
          leastDifference = Math.min(leastDifference, difference(nth(faces, i), nth(faces, j)));
        }
      }
      expect(leastDifference).toBeGreaterThanOrEqual(0.5);

      // c) A 6 × 6 floor laid at random against face 1 tiled with itself, at the face period.
      const { width: W, height: H } = OPTIONS;
      const random = layFloor(faces, 6, 6, 7).floor;
      const tiled = layFloor([nth(faces, 0)], 6, 6, 7).floor;
      const randomRepeat = Math.max(autocorrelation(random, W, 0), autocorrelation(random, 0, H));
      const tiledRepeat = Math.min(autocorrelation(tiled, W, 0), autocorrelation(tiled, 0, H));
      expect(tiledRepeat).toBeGreaterThan(0.99);
      expect(randomRepeat).toBeLessThanOrEqual(0.8 * tiledRepeat);
    },
    120_000,
  );

  it('face 1 is the single image of the same options and seed, seamless or not', () => {
    const reference = valueNoise(128, 128, 12);
    for (const seamless of [true, false]) {
      const options = { ...OPTIONS, width: 96, height: 96, seamless };
      const first = nth(synthesizeSeries(reference, options, 2), 0);
      const single = synthesize(reference, options);
      expect(Buffer.from(first.image.data).equals(Buffer.from(single.data))).toBe(true);
    }
  });

  it('without seamless: faces of one design with their own seeds (no joining promised)', () => {
    const reference = bricks(128, 128, 5);
    const options = { ...OPTIONS, width: 96, height: 96, seamless: false };
    const faces = synthesizeSeries(reference, options, 3).map((f) => f.image);
    faces.forEach((face, k) => {
      const alone = synthesize(reference, { ...options, seed: faceSeed(options.seed, k + 1) });
      expect(Buffer.from(face.data).equals(Buffer.from(alone.data))).toBe(true);
    });
    expect(difference(nth(faces, 0), nth(faces, 1))).toBeGreaterThan(0.5);
  });

  it('the same seed gives the same series; faces keep face 1 tiling with itself', () => {
    const reference = terrazzo(128, 128);
    const options = { ...OPTIONS, width: 96, height: 96 };
    const once = synthesizeSeries(reference, options, 3);
    const again = synthesizeSeries(reference, options, 3);
    once.forEach((face, k) => {
      expect(Buffer.from(face.image.data).equals(Buffer.from(nth(again, k).image.data))).toBe(true);
      expect(wrapRatio(face.image)).toBeLessThanOrEqual(1.2);
    });
  });

  it('reports rising progress over all faces; the work is about that of single images', () => {
    const reference = valueNoise(128, 128, 12);
    const options = { ...OPTIONS, width: 96, height: 96 };
    const seen: number[] = [];
    const finished: number[] = [];
    synthesizeSeries(
      reference,
      options,
      3,
      (f) => seen.push(f),
      (face) => finished.push(face),
    );
    let single = 0;
    synthesize(reference, options, () => single++);
    expect(finished).toEqual([1, 2, 3]);
    expect(seen[0]).toBe(0);
    expect(seen.at(-1)).toBe(1);
    for (let k = 1; k < seen.length; k++)
      expect(nth(seen, k)).toBeGreaterThanOrEqual(nth(seen, k - 1));
    // Patches placed (one progress call each, plus a start per face): within 2 × three singles.
    expect(seen.length).toBeLessThanOrEqual(2 * 3 * single);
  });
});
