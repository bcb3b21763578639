import { describe, expect, it } from 'vitest';
import type { RawImage } from '../../../imaging/raw-image.js';
import { FORM_DEFAULTS } from '../../../testing/generate-params.js';
import { mulberry32 } from '../prng.js';
import type { SynthesisOptions } from '../quilting/options.js';
import { synthesize } from '../quilting/synthesize.js';
import { stochasticReferences } from '../test-references-stochastic.js';
import { blendSynthesize } from './blend.js';
import { circularAutocorrelation } from './fft2d.js';
import { repetition } from './repetition.js';

function grey(width: number, height: number, value: (x: number, y: number) => number): RawImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = value(x, y);
      data.set([v, v, v, 255], (y * width + x) * 4);
    }
  }
  return { data, width, height };
}

describe('repetition', () => {
  it('the 4 × 4 tiling autocorrelates as its tile does: computed on one tile', () => {
    const rng = mulberry32(1);
    const tile = Float64Array.from({ length: 32 * 32 }, () => rng.next());
    const tiled = Float64Array.from(
      { length: 128 * 128 },
      (_, i) => tile[((i >> 7) % 32) * 32 + ((i & 127) % 32)] ?? 0,
    );
    const gain = (fx: number, fy: number) => Math.min(1, 8 * Math.hypot(fx, fy));
    const small = circularAutocorrelation(tile, 32, 32, gain);
    const large = circularAutocorrelation(tiled, 128, 128, gain);
    for (const [dx, dy] of [
      [0, 0],
      [5, 0],
      [33, 7],
      [64, 96],
      [100, 31],
    ] as const) {
      expect(large[dy * 128 + dx]).toBeCloseTo(small[(dy % 32) * 32 + (dx % 32)] ?? NaN, 9);
    }
  });

  it('finds a copied block where it was copied to, and nothing in plain noise', () => {
    const rng = mulberry32(2);
    const noise = Float64Array.from({ length: 128 * 128 }, () => rng.next() * 255);
    const plain = grey(128, 128, (x, y) => noise[y * 128 + x] ?? 0);
    // A 48 × 48 block copied 50 pixels right and 30 down: about 14 % of the image repeats.
    const copied = grey(128, 128, (x, y) =>
      x >= 60 && x < 108 && y >= 40 && y < 88
        ? (noise[(y - 30) * 128 + x - 50] ?? 0)
        : (noise[y * 128 + x] ?? 0),
    );
    const found = repetition(copied);
    expect(found.peak).toBeGreaterThan(0.1);
    expect(found.shift.map(Math.abs)).toEqual([50, 30]);
    expect(repetition(plain).peak).toBeLessThan(0.05);
  });

  // Today's quilting against blending, seamless (as tiled floors are), 128² references at
  // 256 × 256: the reference is worked on at its own size, so the output must reuse it.
  const options: SynthesisOptions = {
    ...FORM_DEFAULTS,
    width: 256,
    height: 256,
    seed: 27,
    seamless: true,
  };
  it.each(Object.entries(stochasticReferences(128)))(
    '%s: blending repeats less than half as strongly as quilting',
    (_name, reference) => {
      const quilted = repetition(synthesize(reference, options));
      const blended = blendSynthesize(reference, options);
      expect(blended).toBeDefined();
      if (!blended) return;
      expect(repetition(blended).peak).toBeLessThan(0.5 * quilted.peak);
    },
  );
});
