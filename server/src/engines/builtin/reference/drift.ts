/**
 * The reference's lighting drift on its luminance, fitted with the engine's own model
 * (quilting/lighting.ts: a quadratic) on the local means (the luminance blurred well beyond the
 * texture's features), and robustly: local means far from a round's fit (an object, a deep
 * shadow) are left out of the next, so a dark disc is not taken for a vignette. What is left out
 * in the end is also what the object rule measures against the rest.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * Numeric kernels over typed arrays: every index is in bounds by construction. */
import { fitLighting, lightingAt, type LightingField } from '../quilting/lighting.js';
import { blur, quantile, type Grey } from './grey.js';

/** Local means beyond this many robust standard deviations are left out of the next fit. */
const OUTLIER_SIGMAS = 3;
const ROUNDS = 3;

export interface Drift {
  /** The luminance with the drift taken out (its mean kept). */
  flat: Grey;
  /** The local means with the drift taken out. */
  localMeans: Grey;
  /** 1 where a local mean agreed with the final fit (the texture itself), 0 where it stood out. */
  inlier: Uint8Array;
  /** Max − min of the fitted drift over the picture, in 8-bit levels. */
  range: number;
  /** The share of the local means' variance the drift explains (0..1). */
  explained: number;
}

/** The drift of `grey`, its local means taken over a blur of radius `radius`. */
export function removeDrift(grey: Grey, radius: number): Drift {
  const { data, width: W, height: H } = grey;
  const means = blur(grey, radius);
  // lighting.ts fits RGBA pixels; alpha < 128 marks the pixels a round leaves out.
  const rgba = new Uint8Array(W * H * 4);
  for (let p = 0; p < W * H; p++) {
    const v = Math.round(means.data[p]!);
    rgba.set([v, v, v, 255], p * 4);
  }
  const image = { data: rgba, width: W, height: H };
  let field: LightingField = fitLighting(image, true);
  const residual = new Float32Array(W * H);
  for (let round = 1; round < ROUNDS; round++) {
    residualOf(means, field, residual);
    const centre = quantile(residual, 0.5);
    const spread =
      1.4826 *
      quantile(
        residual.map((r) => Math.abs(r - centre)),
        0.5,
      );
    const limit = Math.max(2, OUTLIER_SIGMAS * spread);
    for (let p = 0; p < W * H; p++) {
      rgba[p * 4 + 3] = Math.abs(residual[p]! - centre) > limit ? 0 : 255;
    }
    field = fitLighting(image, true);
  }
  const flat = new Float32Array(W * H);
  const localMeans = new Float32Array(W * H);
  let min = Infinity;
  let max = -Infinity;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const p = y * W + x;
      const drift = lightingAt(field, 0, x, y, W, H);
      flat[p] = data[p]! - drift;
      localMeans[p] = means.data[p]! - drift;
      if (drift < min) min = drift;
      if (drift > max) max = drift;
    }
  }
  const inlier = Uint8Array.from({ length: W * H }, (_, p) => (rgba[p * 4 + 3]! > 0 ? 1 : 0));
  const before = variance(means.data);
  const explained = before > 0 ? Math.max(0, 1 - variance(localMeans) / before) : 0;
  return {
    flat: { data: flat, width: W, height: H },
    localMeans: { data: localMeans, width: W, height: H },
    inlier,
    range: max - min,
    explained,
  };
}

function residualOf(means: Grey, field: LightingField, out: Float32Array): void {
  const { data, width: W, height: H } = means;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++)
      out[y * W + x] = data[y * W + x]! - lightingAt(field, 0, x, y, W, H);
  }
}

function variance(values: Float32Array): number {
  let sum = 0;
  let sum2 = 0;
  for (const v of values) {
    sum += v;
    sum2 += v * v;
  }
  const mean = sum / values.length;
  return Math.max(0, sum2 / values.length - mean * mean);
}
