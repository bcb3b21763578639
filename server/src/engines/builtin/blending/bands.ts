/**
 * The two bands the blend treats apart: a Gaussianised channel split into its broad variations
 * (a blur) and its detail (the rest). The detail is blended crisply, so grains and stones stay
 * whole; the broad tones softly, so that cloudy shades (concrete, moss) do not end along the
 * triangles' edges as hexagonal cells.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction. */

/**
 * `values` (W × H) blurred by two passes of a (2·radius + 1)² box (a tent, near a Gaussian),
 * edges clamped; with `included`, a normalised blur of the included pixels only. Also the
 * detail, values − blur.
 */
export function splitBands(
  values: Float32Array,
  W: number,
  H: number,
  radius: number,
  included?: Uint8Array,
): { low: Float32Array; high: Float32Array } {
  let low: Float32Array;
  if (!included) {
    low = boxBlur(boxBlur(values, W, H, radius), W, H, radius);
  } else {
    const weights = new Float32Array(W * H);
    const masked = new Float32Array(W * H);
    for (let i = 0; i < W * H; i++) {
      if (included[i] !== 1) continue;
      weights[i] = 1;
      masked[i] = values[i]!;
    }
    low = boxBlur(boxBlur(masked, W, H, radius), W, H, radius);
    const norm = boxBlur(boxBlur(weights, W, H, radius), W, H, radius);
    for (let i = 0; i < W * H; i++) low[i] = norm[i]! > 1e-6 ? low[i]! / norm[i]! : 0;
  }
  const high = new Float32Array(W * H);
  for (let i = 0; i < W * H; i++) high[i] = values[i]! - low[i]!;
  return { low, high };
}

/** A separable (2·radius + 1)² box mean, edges clamped; running sums, row by row. */
function boxBlur(src: Float32Array, W: number, H: number, radius: number): Float32Array {
  const span = 2 * radius + 1;
  const tmp = new Float32Array(W * H);
  for (let y = 0; y < H; y++) {
    const row = y * W;
    let acc = 0;
    for (let k = -radius; k <= radius; k++) acc += src[row + clampIndex(k, W)]!;
    for (let x = 0; x < W; x++) {
      tmp[row + x] = acc / span;
      acc += src[row + clampIndex(x + radius + 1, W)]! - src[row + clampIndex(x - radius, W)]!;
    }
  }
  // Vertically, a running sum per column, advanced a whole row at a time (cache-friendly).
  const out = new Float32Array(W * H);
  const acc = new Float64Array(W);
  for (let k = -radius; k <= radius; k++) {
    const row = clampIndex(k, H) * W;
    for (let x = 0; x < W; x++) acc[x]! += tmp[row + x]!;
  }
  for (let y = 0; y < H; y++) {
    const row = y * W;
    const enter = clampIndex(y + radius + 1, H) * W;
    const leave = clampIndex(y - radius, H) * W;
    for (let x = 0; x < W; x++) {
      out[row + x] = acc[x]! / span;
      acc[x]! += tmp[enter + x]! - tmp[leave + x]!;
    }
  }
  return out;
}

function clampIndex(v: number, n: number): number {
  return v < 0 ? 0 : v >= n ? n - 1 : v;
}
