/**
 * A finish's effect on the colours (imaging/finishes.ts has the table): contrast around the mean
 * lightness, chroma, lifted blacks, seeded low-frequency mottling and local contrast, in OKLab.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction. */
import type { FinishEffect } from '../../../imaging/finishes.js';
import { mulberry32 } from '../prng.js';
import type { OklabPlanes } from './oklab.js';

/** Radius in pixels of the blur local contrast is measured against (the grain's scale). */
const GRAIN_RADIUS = 2;

/**
 * Applies `effect` to `planes` in place. The mean lightness is that of the pixels `counted`
 * marks (all when undefined); the mottling is drawn from `seed`.
 */
export function applyFinish(
  planes: OklabPlanes,
  effect: FinishEffect,
  seed: number,
  counted?: Uint8Array,
): void {
  const { l, a, b, width, height } = planes;
  const n = l.length;
  if (effect.localContrast !== 0) {
    const blurred = boxBlur(l, width, height, GRAIN_RADIUS);
    for (let i = 0; i < n; i++) l[i] = l[i]! + effect.localContrast * (l[i]! - blurred[i]!);
  }
  let sum = 0;
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (counted && counted[i] !== 1) continue;
    sum += l[i]!;
    count++;
  }
  const mean = count > 0 ? sum / count : 0.5;
  const mottle = effect.mottle > 0 ? mottling(width, height, seed) : undefined;
  const { contrast, saturation, lift } = effect;
  for (let i = 0; i < n; i++) {
    let v = mean + (l[i]! - mean) * contrast;
    v = lift + (1 - lift) * v;
    if (mottle) v += effect.mottle * mottle[i]!;
    l[i] = v < 0 ? 0 : v > 1 ? 1 : v;
    a[i] = a[i]! * saturation;
    b[i] = b[i]! * saturation;
  }
}

/**
 * Seeded value noise in −1..1: blotches about a fifth of the short side across, with a finer
 * octave at half strength, smoothly interpolated.
 */
export function mottling(width: number, height: number, seed: number): Float32Array {
  const out = new Float32Array(width * height);
  const rng = mulberry32((seed ^ 0x5eed_f1e1) >>> 0);
  const octaves = [
    { cell: Math.max(8, Math.min(width, height) / 5), weight: 2 / 3 },
    { cell: Math.max(4, Math.min(width, height) / 12), weight: 1 / 3 },
  ];
  for (const { cell, weight } of octaves) {
    const gw = Math.ceil(width / cell) + 2;
    const gh = Math.ceil(height / cell) + 2;
    const grid = Float32Array.from({ length: gw * gh }, () => rng.next() * 2 - 1);
    for (let y = 0; y < height; y++) {
      const gy = Math.floor(y / cell);
      const fy = smooth(y / cell - gy);
      for (let x = 0; x < width; x++) {
        const gx = Math.floor(x / cell);
        const fx = smooth(x / cell - gx);
        const top = grid[gy * gw + gx]! * (1 - fx) + grid[gy * gw + gx + 1]! * fx;
        const bottom = grid[(gy + 1) * gw + gx]! * (1 - fx) + grid[(gy + 1) * gw + gx + 1]! * fx;
        out[y * width + x] = out[y * width + x]! + weight * (top * (1 - fy) + bottom * fy);
      }
    }
  }
  return out;
}

/** A box blur of radius `r` (edges repeated), horizontal then vertical, by running sums. */
function boxBlur(plane: Float32Array, width: number, height: number, r: number): Float32Array {
  const span = 2 * r + 1;
  const across = new Float32Array(plane.length);
  const at = (i: number, size: number) => (i < 0 ? 0 : i >= size ? size - 1 : i);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let sum = 0;
    for (let k = -r; k <= r; k++) sum += plane[row + at(k, width)]!;
    for (let x = 0; x < width; x++) {
      across[row + x] = sum / span;
      sum += plane[row + at(x + r + 1, width)]! - plane[row + at(x - r, width)]!;
    }
  }
  const out = new Float32Array(plane.length);
  for (let x = 0; x < width; x++) {
    let sum = 0;
    for (let k = -r; k <= r; k++) sum += across[at(k, height) * width + x]!;
    for (let y = 0; y < height; y++) {
      out[y * width + x] = sum / span;
      sum += across[at(y + r + 1, height) * width + x]! - across[at(y - r, height) * width + x]!;
    }
  }
  return out;
}

function smooth(t: number): number {
  return t * t * (3 - 2 * t);
}
