import { describe, expect, it } from 'vitest';
import { FORM_DEFAULTS } from '../../../testing/generate-params.js';
import { shuffledBlocks } from '../../../testing/shuffled-blocks.js';
import { structuredReferences } from '../test-references-stochastic.js';
import { pebbles } from '../test-references.js';
import { synthesizeTraced } from './synthesize.js';
import { veinContinuity } from './vein-continuity.js';

// At 512² marble's veins are lines (at 256² they are mostly speckle, 18 ends in all).
const MARBLE = structuredReferences(512).marble;

describe('vein continuity', () => {
  it('reads marble’s veins as long curves (mean length above the side) and pebbles as none', () => {
    if (!MARBLE) throw new Error('no marble');
    const ref = veinContinuity(MARBLE);
    expect(ref.curve / (512 * 512)).toBeGreaterThan(0.015);
    expect(ref.length).toBeGreaterThan(512);
    expect(veinContinuity(pebbles(256, 256)).curve).toBeLessThan(100);
  });

  it('fails the same veins cut into 64 px blocks, shuffled (measured 0.44 × the length)', () => {
    if (!MARBLE) throw new Error('no marble');
    const ref = veinContinuity(MARBLE);
    const cut = veinContinuity(shuffledBlocks(MARBLE, 64), ref);
    expect(cut.length / ref.length).toBeLessThan(0.75);
  });

  it('keeps marble’s veins in quilting at 0.55× the reference’s length or more (goal 0.75×, not met)', () => {
    // A guard, not the goal: 512² → 512², plain and seamless, seeds 10 and 11, the mean ratio
    // (0.63× with the reuse term, 0.67× without; with 21 ends in the reference one output
    // varies by ±0.15, so only the mean is held). The goal, within 25 % of the reference's, is
    // not met at 1024² either (docs/engines.md, "Marble: vein continuity").
    if (!MARBLE) throw new Error('no marble');
    const ref = veinContinuity(MARBLE);
    const ratios: number[] = [];
    for (const seamless of [false, true]) {
      for (const seed of [10, 11]) {
        const options = { ...FORM_DEFAULTS, width: 512, height: 512, seed, seamless };
        const { image } = synthesizeTraced(MARBLE, options);
        ratios.push(veinContinuity(image, ref).length / ref.length);
      }
    }
    const mean = ratios.reduce((a, b) => a + b, 0) / ratios.length;
    expect(mean).toBeGreaterThanOrEqual(0.55);
  });
});
