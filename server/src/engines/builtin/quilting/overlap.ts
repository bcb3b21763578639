/**
 * The overlap: the pixels of a patch window that earlier patches already filled, with their
 * colours (all of them, and a sparse sample for the first, coarse scoring of candidates), and
 * the per-pixel error of a chosen source patch against them.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction (see options.ts). */
import type { Canvas, PatchWindow } from './canvas.js';

/** Overlap pixels sampled for the first, coarse scoring of the candidates. */
const COARSE_SAMPLES = 384;

/** Weight (× the structure weight) of the gradient energy under a cut, steering cuts off edges. */
const EDGE_AVOIDANCE = 0.1;

/** Values per overlap sample: RGB and the structure (luminance gradient x, y). */
export const SAMPLE_VALUES = 5;

/** Overlap pixels as offsets into the reference (v · Wr + u) and their values. */
export interface OverlapSamples {
  offs: Int32Array;
  vals: Int16Array;
  n: number;
}

export class Overlap {
  readonly full: OverlapSamples;
  readonly coarse: OverlapSamples;
  constructor(
    readonly P: number,
    private readonly Wr: number,
  ) {
    this.full = { offs: new Int32Array(P * P), vals: new Int16Array(P * P * SAMPLE_VALUES), n: 0 };
    this.coarse = {
      offs: new Int32Array(P * P),
      vals: new Int16Array(P * P * SAMPLE_VALUES),
      n: 0,
    };
  }

  /** Collects the window's filled pixels. */
  gather(canvas: Canvas, window: PatchWindow): void {
    const { P, Wr, full, coarse } = this;
    const { W, data, filled, grad } = canvas;
    let nFull = 0;
    for (let v = 0; v < P; v++) {
      const cy = window.rowMap[v]!;
      if (cy < 0) continue;
      for (let u = 0; u < P; u++) {
        const cx = window.colMap[u]!;
        if (cx < 0 || filled[cy * W + cx] === 0) continue;
        const c = (cy * W + cx) * 4;
        const q = nFull * SAMPLE_VALUES;
        full.offs[nFull] = v * Wr + u;
        full.vals[q] = data[c]!;
        full.vals[q + 1] = data[c + 1]!;
        full.vals[q + 2] = data[c + 2]!;
        full.vals[q + 3] = grad[(cy * W + cx) * 2]!;
        full.vals[q + 4] = grad[(cy * W + cx) * 2 + 1]!;
        nFull++;
      }
    }
    full.n = nFull;
    const stride = Math.max(1, Math.floor(Math.sqrt(nFull / COARSE_SAMPLES)));
    let nCoarse = 0;
    if (stride === 1) {
      coarse.offs.set(full.offs.subarray(0, nFull));
      coarse.vals.set(full.vals.subarray(0, nFull * SAMPLE_VALUES));
      nCoarse = nFull;
    } else {
      for (let k = 0; k < nFull; k++) {
        const off = full.offs[k]!;
        const v = Math.floor(off / Wr);
        const u = off - v * Wr;
        if (u % stride !== 0 || v % stride !== 0) continue;
        coarse.offs[nCoarse] = off;
        coarse.vals.set(
          full.vals.subarray(k * SAMPLE_VALUES, (k + 1) * SAMPLE_VALUES),
          nCoarse * SAMPLE_VALUES,
        );
        nCoarse++;
      }
    }
    coarse.n = nCoarse;
  }
}

/**
 * The error of the source patch at (sx, sy) against the canvas, per window pixel (0 where the
 * canvas is not filled), into `err` (P × P): the squared RGB difference plus, weighted by
 * `structureWeight`, the squared difference of the luminance gradients (`refGrad`: the
 * reference's, x and y per pixel).
 */
export function overlapError(
  err: Float64Array,
  ref: Uint8Array,
  refGrad: Int16Array,
  structureWeight: number,
  Wr: number,
  sx: number,
  sy: number,
  canvas: Canvas,
  window: PatchWindow,
): void {
  const { P } = window;
  const { W, data, filled, grad } = canvas;
  err.fill(0);
  for (let v = 0; v < P; v++) {
    const cy = window.rowMap[v]!;
    if (cy < 0) continue;
    for (let u = 0; u < P; u++) {
      const cx = window.colMap[u]!;
      if (cx < 0 || filled[cy * W + cx] === 0) continue;
      const c = (cy * W + cx) * 4;
      const p = ((sy + v) * Wr + sx + u) * 4;
      const dr = ref[p]! - data[c]!;
      const dg = ref[p + 1]! - data[c + 1]!;
      const db = ref[p + 2]! - data[c + 2]!;
      const s = (sy + v) * Wr + sx + u;
      const at = cy * W + cx;
      const gx = refGrad[s * 2]! - grad[at * 2]!;
      const gy = refGrad[s * 2 + 1]! - grad[at * 2 + 1]!;
      // Along an edge (strong gradients on both sides) a cut is hidden from the eye but leaves
      // a seam that Poisson blending cannot smooth: cuts are steered across flat parts instead.
      const ax = refGrad[s * 2]!;
      const ay = refGrad[s * 2 + 1]!;
      const bx = grad[at * 2]!;
      const by = grad[at * 2 + 1]!;
      err[v * P + u] =
        dr * dr +
        dg * dg +
        db * db +
        structureWeight *
          (gx * gx + gy * gy + EDGE_AVOIDANCE * (ax * ax + ay * ay + bx * bx + by * by));
    }
  }
}
