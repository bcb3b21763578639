import { describe, expect, it } from 'vitest';
import { photoNoise, fabric, pebbles } from '../test-references.js';
import { stochasticReferences, structuredReferences } from '../test-references-stochastic.js';
import { isStochastic, STOCHASTIC_THRESHOLDS, type StochasticFigures } from './stochastic.js';

const names = Object.keys(STOCHASTIC_THRESHOLDS) as (keyof StochasticFigures)[];

/** The largest figure-to-threshold ratio: below 1 for a stochastic reference. */
function worst(figures: StochasticFigures): number {
  return Math.max(...names.map((name) => (figures[name] ?? 0) / STOCHASTIC_THRESHOLDS[name]));
}

describe('isStochastic', () => {
  for (const size of [256, 512]) {
    it.each(Object.entries(stochasticReferences(size)))(
      `says stochastic for %s (${size}²), every figure under 0.8 × its threshold`,
      (_name, reference) => {
        const { stochastic, figures } = isStochastic(reference);
        expect(stochastic).toBe(true);
        expect(worst(figures)).toBeLessThan(0.8);
      },
    );
    it.each(Object.entries(structuredReferences(size)))(
      `says structured for %s (${size}²), a figure over 1.5 × its threshold`,
      (_name, reference) => {
        const { stochastic, figures } = isStochastic(reference);
        expect(stochastic).toBe(false);
        expect(worst(figures)).toBeGreaterThan(1.5);
      },
    );
  }

  it('the other references: photo-like noise is stochastic, a weave and pebbles are not', () => {
    expect(isStochastic(photoNoise(256, 256)).stochastic).toBe(true);
    expect(isStochastic(fabric(256, 256)).stochastic).toBe(false);
    expect(isStochastic(pebbles(256, 256)).stochastic).toBe(false);
  });
});
