import { describe, expect, it } from 'vitest';
import type { RawImage } from '../../../imaging/raw-image.js';
import { FORM_DEFAULTS } from '../../../testing/generate-params.js';
import type { SynthesisOptions } from '../quilting/options.js';
import { joinRatio } from '../quilting/seam-metrics.js';
import { bricks } from '../test-references.js';
import { concrete, granite } from '../test-references-stochastic.js';
import { terrazzo } from '../test-references-surfaces.js';
import { blendSynthesize } from './blend.js';
import { chooseSynthesis, synthesizeFaces } from './dispatch.js';
import { blendSeries } from './series.js';

/** As quilting/series.test.ts: four faces of 160 × 160 from 192² references, seed 25. */
const OPTIONS: SynthesisOptions = {
  ...FORM_DEFAULTS,
  width: 160,
  height: 160,
  seed: 25,
  seamless: true,
};
const REFERENCES = {
  granite: granite(192, 192),
  terrazzo: terrazzo(192, 192),
  concrete: concrete(192, 192),
};

/**
 * How much two faces differ (quilting/series.test.ts's measure): the mean absolute RGB
 * difference over their interiors (inside a quarter of the side from each edge) against face
 * a's spread there. Two unrelated samples of one texture score about 1.4; identical faces 0.
 */
function difference(a: RawImage, b: RawImage): number {
  const { width: W, height: H } = a;
  const inside: number[] = [];
  for (let y = H / 4; y < (3 * H) / 4; y++) {
    for (let x = W / 4; x < (3 * W) / 4; x++) inside.push((y * W + x) * 4);
  }
  let diff = 0;
  const mean = [0, 0, 0];
  for (const p of inside) {
    for (let c = 0; c < 3; c++) {
      diff += Math.abs((a.data[p + c] ?? 0) - (b.data[p + c] ?? 0));
      mean[c] = (mean[c] ?? 0) + (a.data[p + c] ?? 0) / inside.length;
    }
  }
  let spread = 0;
  for (const p of inside) {
    for (let c = 0; c < 3; c++) spread += Math.abs((a.data[p + c] ?? 0) - (mean[c] ?? 0));
  }
  return diff / spread;
}

describe('a series of faces by blending', () => {
  it.each(Object.entries(REFERENCES))(
    '%s: any face joins any face (join ÷ inside ≤ 1.2), the faces differ inside (≥ 0.5), face 1 is the single image',
    (_name, reference) => {
      const faces = blendSeries(reference, OPTIONS, 4) ?? [];
      expect(faces).toHaveLength(4);
      const single = blendSynthesize(reference, OPTIONS);
      expect(Buffer.from(faces[0]?.data ?? []).equals(Buffer.from(single?.data ?? [1]))).toBe(true);
      for (const a of faces) {
        for (const b of faces) {
          expect(joinRatio(a, b, 'right')).toBeLessThanOrEqual(1.2);
          expect(joinRatio(a, b, 'below')).toBeLessThanOrEqual(1.2);
          if (a !== b) expect(difference(a, b)).toBeGreaterThanOrEqual(0.5);
        }
      }
    },
  );

  it('not seamless: faces of their own seeds, which differ everywhere', () => {
    const faces = blendSeries(REFERENCES.granite, { ...OPTIONS, seamless: false }, 3) ?? [];
    expect(faces).toHaveLength(3);
    const [a, b] = faces;
    if (!a || !b) return;
    // The insides differ, and so do the edges (the top rows here).
    expect(difference(a, b)).toBeGreaterThanOrEqual(0.5);
    let same = 0;
    for (let x = 0; x < 160; x++) if (a.data[x * 4] === b.data[x * 4]) same++;
    expect(same).toBeLessThan(80);
  });
});

describe('the synthesis chosen', () => {
  it("'auto' (or none) blends stochastic references, quilts structured ones; a choice is obeyed", () => {
    const stone = bricks(192, 192, 5);
    const rock = REFERENCES.granite;
    expect(chooseSynthesis(rock, OPTIONS).used).toBe('blending');
    expect(chooseSynthesis(rock, { ...OPTIONS, synthesis: 'auto' }).figures).toBeDefined();
    expect(chooseSynthesis(stone, OPTIONS).used).toBe('quilting');
    expect(chooseSynthesis(rock, { ...OPTIONS, synthesis: 'quilting' })).toEqual({
      used: 'quilting',
    });
    expect(chooseSynthesis(stone, { ...OPTIONS, synthesis: 'blending' }).used).toBe('blending');
  });

  it('quilts when the mask leaves blending no room, and makes every face either way', () => {
    const rock = granite(128, 128);
    for (let p = 0; p < rock.data.length; p += 4) {
      const x = (p / 4) % 128;
      rock.data[p + 3] = x < 14 ? 255 : 0;
    }
    const masked = { ...OPTIONS, mask: true, synthesis: 'blending' as const };
    expect(chooseSynthesis(rock, masked).used).toBe('quilting');
    for (const used of ['quilting', 'blending'] as const) {
      const made: number[] = [];
      const progress: number[] = [];
      synthesizeFaces(
        REFERENCES.granite,
        { ...OPTIONS, width: 96, height: 96 },
        2,
        used,
        (f) => progress.push(f),
        (face, image) => {
          made.push(face);
          expect([image.width, image.height]).toEqual([96, 96]);
        },
      );
      expect(made).toEqual([1, 2]);
      expect(progress.at(-1)).toBe(1);
    }
  });
});
