import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../prng.js';
import { principalAxes, project, unproject } from './colour-space.js';
import { fromGaussian, gaussianise } from './gaussianise.js';
import { locate, triangleLattice, vertexKey, vertexPixel } from './lattice.js';

describe('blending parts', () => {
  it('the lattice is periodic over the output: copies of a vertex share its key, a whole output apart', () => {
    const lattice = triangleLattice(1448, 724, 150);
    expect(lattice.rows % 2).toBe(0);
    expect(lattice.a * lattice.columns).toBeCloseTo(1448, 9);
    for (const [i, j] of [
      [0, 0],
      [3, 1],
      [-2, 5],
      [7, -3],
    ] as const) {
      const [x, y] = vertexPixel(lattice, i, j);
      expect(vertexKey(lattice, i + lattice.columns, j)).toBe(vertexKey(lattice, i, j));
      expect(vertexPixel(lattice, i + lattice.columns, j)).toEqual([x + 1448, y]);
      // A whole height down: rows further, shifted back by half as many steps.
      const down = [i - lattice.rows / 2, j + lattice.rows] as const;
      expect(vertexKey(lattice, ...down)).toBe(vertexKey(lattice, i, j));
      expect(vertexPixel(lattice, ...down)).toEqual([x, y + 724]);
    }
    // Every point has three non-negative weights summing to 1.
    const tri = new Float64Array(9);
    for (const [x, y] of [
      [0, 0],
      [75.3, 20.1],
      [1447, 723],
      [700, 400],
    ] as const) {
      locate(lattice, x, y, tri);
      const w = [tri[2] ?? -1, tri[5] ?? -1, tri[8] ?? -1];
      for (const v of w) expect(v).toBeGreaterThanOrEqual(0);
      expect(w.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 9);
    }
  });

  it('Gaussianises a channel to mean 0, deviation 1, and its inverse gives the values back', () => {
    const rng = mulberry32(3);
    // A skewed, lumpy distribution: most values low, a few far out.
    const values = Float32Array.from(
      { length: 20000 },
      () => 40 * rng.next() ** 3 + (rng.next() < 0.1 ? 200 : 0),
    );
    const { gaussian, inverse } = gaussianise(values);
    let sum = 0;
    let squares = 0;
    for (const g of gaussian) {
      sum += g;
      squares += g * g;
    }
    expect(Math.abs(sum / values.length)).toBeLessThan(0.01);
    expect(Math.sqrt(squares / values.length)).toBeCloseTo(1, 1);
    // Back within a level, but for a few values at the ends of the gap between the two lumps
    // (the table's resolution there).
    let close = 0;
    values.forEach((v, i) => {
      if (Math.abs(fromGaussian(inverse, gaussian[i] ?? 0) - v) <= 1) close++;
    });
    expect(close / values.length).toBeGreaterThan(0.995);
  });

  it('the colour axes are orthonormal and decorrelate the channels', () => {
    const rng = mulberry32(5);
    const n = 5000;
    const data = new Uint8Array(n * 4);
    for (let i = 0; i < n; i++) {
      const t = rng.next() * 200;
      data.set([t + rng.next() * 20, 0.8 * t + rng.next() * 30, 0.3 * t + 40, 255], i * 4);
    }
    const basis = principalAxes(data, n);
    const { axes } = basis;
    for (let k = 0; k < 3; k++) {
      for (let l = 0; l < 3; l++) {
        let dot = 0;
        for (let c = 0; c < 3; c++) dot += (axes[3 * k + c] ?? 0) * (axes[3 * l + c] ?? 0);
        expect(dot).toBeCloseTo(k === l ? 1 : 0, 9);
      }
    }
    const coords = new Float64Array(3);
    const back = new Float64Array(3);
    let cross = 0;
    let first = 0;
    for (let i = 0; i < n; i++) {
      project(basis, data[i * 4] ?? 0, data[i * 4 + 1] ?? 0, data[i * 4 + 2] ?? 0, coords);
      cross += (coords[0] ?? 0) * (coords[1] ?? 0);
      first += (coords[0] ?? 0) ** 2;
      unproject(basis, coords, back);
      expect(back[0]).toBeCloseTo(data[i * 4] ?? 0, 6);
    }
    expect(Math.abs(cross / first)).toBeLessThan(1e-9);
  });
});
