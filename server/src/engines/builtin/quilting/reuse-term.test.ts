import { describe, expect, it } from 'vitest';
import { placedCopies, reuseCost, type ReuseTerm } from './reuse-term.js';

const P = 40;

function term(copies: number[]): ReuseTerm {
  return { copies, weight: 100, P, spacing: 5 };
}

describe('reuse term', () => {
  it('charges the share of a placed patch’s source copied again elsewhere', () => {
    // A patch copied from (100, 100); its continuation at the searched cell would be (130, 100).
    const t = term([100, 100, 130, 100]);
    expect(reuseCost(t, 100, 100)).toBeCloseTo(100);
    expect(reuseCost(t, 120, 100)).toBeCloseTo(50);
    expect(reuseCost(t, 120, 120)).toBeCloseTo(25);
    expect(reuseCost(t, 140, 100)).toBe(0);
  });

  it('charges nothing for continuing a placed patch’s copy, nor with no weight', () => {
    expect(reuseCost(term([100, 100, 130, 100]), 132, 98)).toBe(0);
    expect(reuseCost({ ...term([100, 100, 130, 100]), weight: 0 }, 100, 100)).toBe(0);
    expect(reuseCost(undefined, 100, 100)).toBe(0);
  });

  it('lists the placed cells with their continuations, across the torus when seamless', () => {
    const grid = { xs: Int32Array.of(0, 30), ys: Int32Array.of(0), W: 60, H: 40, seamless: true };
    const srcX = Int32Array.of(7, -1);
    const srcY = Int32Array.of(9, -1);
    expect(placedCopies(grid, srcX, srcY, 1, 0)).toEqual([7, 9, 37, 9]);
    expect(placedCopies(grid, srcX, srcY, 0, 0)).toEqual([]);
  });
});
