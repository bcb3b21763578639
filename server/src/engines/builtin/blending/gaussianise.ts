/**
 * The histogram transformation of Heitz & Neyret (2018, §5): a channel's values mapped, by
 * their rank, to a standard Gaussian (so that a variance-preserving blend of them is again a
 * standard Gaussian), and the inverse — from a Gaussian value back to the channel's value with
 * the same quantile — as a look-up table, so that the blend's output has the reference's
 * histogram.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction. */
import { errorFunction, probit } from 'simple-statistics';

/** The inverse table covers Gaussian values in ±RANGE (beyond it: the extremes). */
const RANGE = 4;
const LUT_SIZE = 4096;
/** Histogram bins over a channel's range. */
const BINS = 65536;

/** A channel's inverse transformation: Gaussian value → channel value. */
export interface InverseTable {
  values: Float32Array;
}

/**
 * Each value of `values` replaced by the standard-Gaussian quantile of its rank among the
 * included ones (`included[i] === 1`, all when undefined); excluded values get 0. Also the
 * inverse table. Ranks are counted on a histogram of {@link BINS} bins over the values' range
 * (values in one bin share its middle rank: at most 1/65536 of the range apart), which makes it
 * linear in the pixels.
 */
export function gaussianise(
  values: Float32Array,
  included?: Uint8Array,
): { gaussian: Float32Array; inverse: InverseTable } {
  const n = values.length;
  let lo = Infinity;
  let hi = -Infinity;
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (included && included[i] !== 1) continue;
    lo = Math.min(lo, values[i]!);
    hi = Math.max(hi, values[i]!);
    count++;
  }
  const gaussian = new Float32Array(n);
  // A constant channel (a grey reference's chroma) stays constant.
  if (!(hi - lo > 1e-6))
    return { gaussian, inverse: { values: new Float32Array(LUT_SIZE).fill(count > 0 ? lo : 0) } };
  const scale = BINS / (hi - lo);
  const bins = new Uint16Array(n);
  const counts = new Uint32Array(BINS);
  for (let i = 0; i < n; i++) {
    if (included && included[i] !== 1) continue;
    const k = Math.min(BINS - 1, Math.floor((values[i]! - lo) * scale));
    bins[i] = k;
    counts[k]!++;
  }
  // Each bin's middle rank, as a Gaussian value; below[k]: the values in the bins before k.
  const below = new Float64Array(BINS + 1);
  const binGaussian = new Float32Array(BINS);
  for (let k = 0; k < BINS; k++) {
    below[k + 1] = below[k]! + counts[k]!;
    if (counts[k]! > 0) binGaussian[k] = probit((below[k]! + counts[k]! / 2) / count);
  }
  for (let i = 0; i < n; i++) {
    if (!included || included[i] === 1) gaussian[i] = binGaussian[bins[i]!]!;
  }
  return { gaussian, inverse: inverseTable(below, counts, count, lo, hi) };
}

/** The channel value whose quantile is the Gaussian value `g`'s, linearly interpolated. */
export function fromGaussian(table: InverseTable, g: number): number {
  const { values } = table;
  const t = ((g + RANGE) / (2 * RANGE)) * (LUT_SIZE - 1);
  if (!(t > 0)) return values[0]!;
  if (t >= LUT_SIZE - 1) return values[LUT_SIZE - 1]!;
  const k = Math.floor(t);
  const f = t - k;
  return values[k]! * (1 - f) + values[k + 1]! * f;
}

/**
 * The value at quantile Φ(g), for g on a regular grid over ±RANGE: the rank Φ(g) · n found in
 * the histogram, placed linearly within its bin (the forward map's middle rank maps back to the
 * bin's middle).
 */
function inverseTable(
  below: Float64Array,
  counts: Uint32Array,
  n: number,
  lo: number,
  hi: number,
): InverseTable {
  const values = new Float32Array(LUT_SIZE);
  const width = (hi - lo) / BINS;
  let k = 0;
  for (let e = 0; e < LUT_SIZE; e++) {
    const g = -RANGE + (2 * RANGE * e) / (LUT_SIZE - 1);
    const rank = 0.5 * (1 + errorFunction(g / Math.SQRT2)) * n;
    while (k < BINS - 1 && below[k + 1]! <= rank) k++;
    const within = counts[k]! > 0 ? Math.min(1, Math.max(0, (rank - below[k]!) / counts[k]!)) : 0.5;
    values[e] = lo + (k + within) * width;
  }
  return { values };
}
