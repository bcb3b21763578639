import { describe, expect, it } from 'vitest';
import type { RawImage } from '../../../imaging/raw-image.js';
import { FORM_DEFAULTS } from '../../../testing/generate-params.js';
import { structuredReferences } from '../test-references-stochastic.js';
import { pebbles, photoNoise } from '../test-references.js';
import { shuffledBlocks } from '../../../testing/shuffled-blocks.js';
import { runLengths, runLengthsLike, type RunLengths } from './run-lengths.js';
import { readStructure } from './structure.js';
import { synthesizeTraced, type SynthesisOptions } from './synthesize.js';

const REFERENCES = structuredReferences(256);
const MARGIN = 0.25;

function options(seamless: boolean, side = 320): SynthesisOptions {
  return { ...FORM_DEFAULTS, width: side, height: side, seed: 10, seamless };
}

/**
 * The output side for `name`: 320, except seamless stripes. Their diagonal period (26 px at 256²)
 * does not divide 320, so a 320-px torus must break every stripe once across each wrap, which
 * cuts the runs whatever the synthesis does; 312 holds twelve periods.
 */
function side(name: string, seamless: boolean): number {
  return name === 'stripes' && seamless ? 312 : 320;
}

function reference(name: string): RawImage {
  const image = REFERENCES[name];
  if (!image) throw new Error(`no reference ${name}`);
  return image;
}

/** The larger of the median's and the 75th percentile's relative distance from the reference's. */
function worstDeviation(out: RunLengths, ref: RunLengths): number {
  return Math.max(Math.abs(out.median / ref.median - 1), Math.abs(out.p75 / ref.p75 - 1));
}

describe('run lengths', () => {
  it('reads the planks’ board length (width / 1.7 ≈ 150 px at 256²) along the boards', () => {
    const runs = runLengths(reference('planks'));
    expect(Math.abs(runs.orientation.tx)).toBeGreaterThan(0.99); // horizontal boards
    expect(runs.complete).toBe(true);
    expect(runs.median).toBeGreaterThan(135);
    expect(runs.median).toBeLessThan(165);
  });

  it('fails an image with the same pixels and broken runs (planks shuffled in 64 px blocks)', () => {
    const ref = runLengths(reference('planks'));
    const broken = runLengthsLike(shuffledBlocks(reference('planks'), 64), ref);
    expect(worstDeviation(broken, ref)).toBeGreaterThan(MARGIN);
  });
});

describe('structure-following synthesis', () => {
  it('reads planks and stripes as oriented, marble, pebbles and photo noise not', () => {
    expect(readStructure(reference('planks')).oriented).toBe(true);
    expect(readStructure(reference('stripes')).oriented).toBe(true);
    // Marble's veins wander (coherence ≈ 0.04): quilting keeps them as today, and they pass.
    expect(readStructure(reference('marble')).oriented).toBe(false);
    expect(readStructure(pebbles(256, 256)).oriented).toBe(false);
    expect(readStructure(photoNoise(256, 256)).oriented).toBe(false);
  });

  for (const name of ['planks', 'marble', 'stripes']) {
    for (const seamless of [false, true]) {
      it(`keeps ${name}' run lengths within 25 % (${seamless ? 'seamless' : 'plain'})`, () => {
        const ref = runLengths(reference(name));
        const { image } = synthesizeTraced(
          reference(name),
          options(seamless, side(name, seamless)),
        );
        const out = runLengthsLike(image, ref);
        expect(worstDeviation(out, ref)).toBeLessThanOrEqual(MARGIN);
      });
    }
  }

  it('keeps seamless planks whole where a torus row holds 1.7 boards (256² → 256², as at 1024²)', () => {
    // The bench's 1024² case at the tests' size: the torus cannot hold whole boards, and with
    // patches capped at half the side the columns slipped phase at different heights (gap lines
    // ended in stubs, 0.43–0.70× median over seeds 10–14); 3/4 of the side and the phase held
    // across the grain: 0.78–0.90×.
    const ref = runLengths(reference('planks'));
    const { image } = synthesizeTraced(reference('planks'), options(true, 256));
    expect(worstDeviation(runLengthsLike(image, ref), ref)).toBeLessThanOrEqual(MARGIN);
  });

  it('leaves references without strong orientation byte for byte as today', () => {
    for (const image of [pebbles(256, 256), photoNoise(256, 256)]) {
      const today = synthesizeTraced(image, options(true), undefined, {
        repair: true,
        followStructure: false,
      });
      const now = synthesizeTraced(image, options(true));
      expect(Buffer.from(now.image.data).equals(Buffer.from(today.image.data))).toBe(true);
    }
  });
});
