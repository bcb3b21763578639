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
 * detail, values − blur. A blur that wide is smooth: it is computed on a grid `radius / 8`
 * times coarser (block means) and interpolated back bilinearly.
 */
export function splitBands(
  values: Float32Array,
  W: number,
  H: number,
  radius: number,
  included?: Uint8Array,
): { low: Float32Array; high: Float32Array } {
  const f = Math.max(1, Math.floor(radius / 8));
  const w = Math.ceil(W / f);
  const h = Math.ceil(H / f);
  // Block sums of the included values and their counts.
  const sums = new Float32Array(w * h);
  const counts = new Float32Array(w * h);
  for (let y = 0; y < H; y++) {
    const row = Math.floor(y / f) * w;
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      if (included && included[i] !== 1) continue;
      const k = row + Math.floor(x / f);
      sums[k]! += values[i]!;
      counts[k]!++;
    }
  }
  const r = Math.max(1, Math.round(radius / f));
  const sum = boxBlur(boxBlur(sums, w, h, r), w, h, r);
  const count = boxBlur(boxBlur(counts, w, h, r), w, h, r);
  for (let k = 0; k < w * h; k++) sum[k] = count[k]! > 1e-6 ? sum[k]! / count[k]! : 0;
  const low = upsample(sum, w, h, f, W, H);
  const high = new Float32Array(W * H);
  for (let i = 0; i < W * H; i++) high[i] = values[i]! - low[i]!;
  return { low, high };
}

/** A w × h grid of block means (blocks of f × f) interpolated bilinearly to W × H. */
function upsample(
  grid: Float32Array,
  w: number,
  h: number,
  f: number,
  W: number,
  H: number,
): Float32Array {
  if (f === 1) return grid;
  const out = new Float32Array(W * H);
  for (let y = 0; y < H; y++) {
    // Block k's mean sits at its centre, (k + ½) · f − ½.
    const gy = Math.min(h - 1, Math.max(0, (y + 0.5) / f - 0.5));
    const y0 = Math.floor(gy);
    const y1 = Math.min(h - 1, y0 + 1);
    const ty = gy - y0;
    for (let x = 0; x < W; x++) {
      const gx = Math.min(w - 1, Math.max(0, (x + 0.5) / f - 0.5));
      const x0 = Math.floor(gx);
      const x1 = Math.min(w - 1, x0 + 1);
      const tx = gx - x0;
      const top = grid[y0 * w + x0]! * (1 - tx) + grid[y0 * w + x1]! * tx;
      const bottom = grid[y1 * w + x0]! * (1 - tx) + grid[y1 * w + x1]! * tx;
      out[y * W + x] = top * (1 - ty) + bottom * ty;
    }
  }
  return out;
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
