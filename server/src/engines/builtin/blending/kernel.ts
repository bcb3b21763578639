/**
 * The blend itself, pixel by pixel: each output pixel's triangle, its three windows, the two
 * bands' variance-preserving sums, and the inverse histogram transformation back to RGB. The
 * hot loop of blending; kept free of allocation.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction. */
import type { RawImage } from '../../../imaging/raw-image.js';
import { writeBack } from '../quilting/tones.js';
import type { PreparedReference } from './blend.js';
import { fromGaussian, type InverseTable } from './gaussianise.js';
import { vertexKey, vertexPixel, type Lattice } from './lattice.js';
import type { BlendPlan } from './plan.js';
import type { VertexDraws } from './vertices.js';

/**
 * The broad band's share of the variance below which it is blended as crisply as the detail
 * (one band: objects such as terrazzo's chips are not split across two blends), and above
 * which it is blended linearly (cloudy tones larger than a triangle); in between, in step.
 */
const LOW_SHARE_CRISP = 0.05;
const LOW_SHARE_SOFT = 0.15;

/** Entries of the tables of w^γ (interpolated linearly). */
const POWER_STEPS = 1024;

/** The blend itself, over the whole output, with the vertices' draws. */
export function blendWith(
  prepared: PreparedReference,
  plan: BlendPlan,
  draws: VertexDraws,
  onProgress?: (fraction: number) => void,
): RawImage {
  const { lattice, sharpness } = plan;
  const t = (prepared.lowShare - LOW_SHARE_CRISP) / (LOW_SHARE_SOFT - LOW_SHARE_CRISP);
  const lowSharpness = sharpness - (sharpness - 1) * Math.min(1, Math.max(0, t));
  const { W, H, Wr, seamless } = plan.checked;
  const { bands } = prepared;
  const [i0, i1, i2] = prepared.inverse as [InverseTable, InverseTable, InverseTable];
  const r = new Float32Array(W * H);
  const g = new Float32Array(W * H);
  const b = new Float32Array(W * H);
  const tri = new Float64Array(9);
  const invA = 1 / lattice.a;
  const table = vertexTable(lattice, draws, Wr);
  const lowPowers = powers(lowSharpness);
  const highPowers = powers(sharpness);
  const { axes, mean } = prepared.basis;
  const { palette, colours } = prepared;
  onProgress?.(0);
  for (let y = 0; y < H; y++) {
    const v = y / lattice.b;
    const bv = Math.floor(v);
    const fv = v - bv;
    for (let x = 0; x < W; x++) {
      // The triangle (lattice.ts's locate, inlined): skewed coordinates u, v.
      const u = (x + lattice.shift) * invA - v / 2;
      const bu = Math.floor(u);
      const fu = u - bu;
      const lower = fu + fv < 1;
      tri[0] = lower ? bu : bu + 1;
      tri[1] = lower ? bv : bv + 1;
      tri[2] = lower ? 1 - fu - fv : fu + fv - 1;
      tri[3] = bu + 1;
      tri[4] = bv;
      tri[5] = lower ? fu : 1 - fv;
      tri[6] = bu;
      tri[7] = bv + 1;
      tri[8] = lower ? fv : 1 - fu;
      let low0 = 0;
      let low1 = 0;
      let low2 = 0;
      let lowNorm = 0;
      let high0 = 0;
      let high1 = 0;
      let high2 = 0;
      let highNorm = 0;
      let dominant = 0;
      let dominantWeight = -1;
      for (let k = 0; k < 3; k++) {
        const w = tri[3 * k + 2]!;
        if (!(w > 0)) continue;
        const at = (tri[3 * k + 1]! - table.jMin) * table.span + tri[3 * k]! - table.iMin;
        // The window's pixel for this one: its centre plus the offset from the vertex, turned.
        const s =
          (table.base[at]! +
            (x - table.vx[at]!) * table.xStep[at]! +
            (y - table.vy[at]!) * table.yStep[at]!) *
          6;
        if (w > dominantWeight) {
          dominantWeight = w;
          dominant = s / 6;
        }
        const wl = power(lowPowers, w);
        low0 += wl * bands[s]!;
        low1 += wl * bands[s + 1]!;
        low2 += wl * bands[s + 2]!;
        lowNorm += wl * wl;
        const wh = power(highPowers, w);
        high0 += wh * bands[s + 3]!;
        high1 += wh * bands[s + 4]!;
        high2 += wh * bands[s + 5]!;
        highNorm += wh * wh;
      }
      // Variance-preserving: a sum of independent Gaussians weighted w_i / √(Σ w_j²) has the
      // variance of each, whatever the weights; so has each band, and so their sum.
      const ls = lowNorm > 0 ? 1 / Math.sqrt(lowNorm) : 0;
      const hs = highNorm > 0 ? 1 / Math.sqrt(highNorm) : 0;
      const c0 = fromGaussian(i0, low0 * ls + high0 * hs);
      const c1 = fromGaussian(i1, low1 * ls + high1 * hs);
      const c2 = fromGaussian(i2, low2 * ls + high2 * hs);
      // Back to RGB (colour-space.ts's unproject, inlined: the basis is orthonormal).
      const p = y * W + x;
      const rv = mean[0] + axes[0]! * c0 + axes[3]! * c1 + axes[6]! * c2;
      const gv = mean[1] + axes[1]! * c0 + axes[4]! * c1 + axes[7]! * c2;
      const bv2 = mean[2] + axes[2]! * c0 + axes[5]! * c1 + axes[8]! * c2;
      if (palette[colourBin(rv, gv, bv2)] === 1) {
        r[p] = rv;
        g[p] = gv;
        b[p] = bv2;
      } else {
        // A colour the reference has (almost) nowhere: the dominant window's pixel instead.
        r[p] = colours[dominant * 4]!;
        g[p] = colours[dominant * 4 + 1]!;
        b[p] = colours[dominant * 4 + 2]!;
      }
    }
    if ((y & 15) === 15) onProgress?.((y + 1) / H);
  }
  const data = new Uint8Array(W * H * 4);
  writeBack(data, [r, g, b], W, H, seamless ? undefined : prepared.lighting, prepared.style);
  for (let p = 3; p < data.length; p += 4) data[p] = 255;
  onProgress?.(1);
  return { data, width: W, height: H };
}

/** w^γ for w = k / POWER_STEPS, k = 0..POWER_STEPS (and one more, for the interpolation). */
function powers(gamma: number): Float64Array {
  return Float64Array.from(
    { length: POWER_STEPS + 2 },
    (_, k) => Math.min(1, k / POWER_STEPS) ** gamma,
  );
}

/** w^γ (0 ≤ w ≤ 1) from its table. */
function power(table: Float64Array, w: number): number {
  const t = w * POWER_STEPS;
  const k = Math.floor(t);
  return table[k]! + (table[k + 1]! - table[k]!) * (t - k);
}

/**
 * Per lattice vertex (i, j) that a pixel of the output can meet (i from −rows/2 − 1 to
 * columns + 1, j from 0 to rows + 1), at index (j − jMin) · span + i − iMin: its pixel position
 * (not wrapped), and where its window reads: source index = base + dx · xStep + dy · yStep for
 * an offset (dx, dy) from the vertex, the turn (vertices.ts: bit 0 swaps x and y, bit 1 mirrors
 * x, bit 2 mirrors y) folded into the steps.
 */
function vertexTable(lattice: Lattice, draws: VertexDraws, Wr: number) {
  const iMin = -Math.ceil(lattice.rows / 2) - 1;
  const jMin = 0;
  const span = lattice.columns + 2 - iMin;
  const n = span * (lattice.rows + 2);
  const table = {
    iMin,
    jMin,
    span,
    vx: new Int32Array(n),
    vy: new Int32Array(n),
    base: new Int32Array(n),
    xStep: new Int32Array(n),
    yStep: new Int32Array(n),
  };
  for (let j = jMin; j < jMin + lattice.rows + 2; j++) {
    for (let i = iMin; i < iMin + span; i++) {
      const at = (j - jMin) * span + i - iMin;
      const key = vertexKey(lattice, i, j);
      [table.vx[at], table.vy[at]] = vertexPixel(lattice, i, j);
      table.base[at] = draws.cy[key]! * Wr + draws.cx[key]!;
      const t = draws.transform[key]!;
      const sx = t & 2 ? -1 : 1;
      const sy = t & 4 ? -Wr : Wr;
      // Unturned, dx moves along x and dy along y; swapped, the other way round.
      table.xStep[at] = t & 1 ? sy : sx;
      table.yStep[at] = t & 1 ? sx : sy;
    }
  }
  return table;
}

/** The bin of a colour in the palette (16 levels per channel), values clamped to 0..255. */
export function colourBin(r: number, g: number, b: number): number {
  return (level16(r) * 16 + level16(g)) * 16 + level16(b);
}

function level16(v: number): number {
  return v <= 0 ? 0 : v >= 255 ? 15 : Math.floor(v / 16);
}
