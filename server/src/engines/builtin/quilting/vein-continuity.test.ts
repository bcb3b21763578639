import { describe, expect, it } from 'vitest';
import { shuffledBlocks } from '../../../testing/shuffled-blocks.js';
import { structuredReferences } from '../test-references-stochastic.js';
import { pebbles } from '../test-references.js';
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
});
