/**
 * Vein continuity: how far the thin dark lines of a veined texture (marble) go before they end.
 * The straight-run measure (run-lengths.ts) cannot see it: veins wander, so a straight line
 * leaves a vein within a few pixels whether the vein goes on or stops in a stub.
 *
 * What is measured, exactly:
 * 1. The luminance (Rec. 601), box-blurred 3 × 3 twice.
 * 2. Vein pixels: darker than the ground (the histogram's main mode) by more than `threshold`;
 *    by default 2.5 times the mode's spread (half width at half height) and at least 12 levels.
 *    Closed over one pixel (dilated, eroded), so a speckled vein is one line.
 * 3. Thinned to one-pixel curves (Zhang & Suen 1984).
 * 4. Ends: curve pixels with exactly one 8-neighbour on the curve, at least {@link BORDER} px
 *    from the image's border (a vein cut off by the border does not end there).
 * 5. The figure: the mean vein length, twice the curve length over the ends (each piece of
 *    curve has two ends), in pixels. A stub-broken output has more ends on as much curve.
 *
 * An output measured `like` its reference uses its threshold and ground.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction. */
import type { RawImage } from '../../../imaging/raw-image.js';
import { boxBlur3, luma } from './numeric.js';

/** Ends within this many pixels of the border are not counted. */
export const BORDER = 3;
/** Spurs up to this long (the speckle along a vein's edge) are pruned before ends are counted. */
export const PRUNE = 8;

export interface VeinContinuity {
  /** The share of the pixels that are vein pixels (closed, before thinning). */
  cover: number;
  /** Curve pixels after thinning, and the ends counted on them. */
  curve: number;
  ends: number;
  /** Mean vein length, px: 2 · curve / ends (the curve length when there is no end). */
  length: number;
  /** The ground's luminance and the darkness below it that makes a vein pixel. */
  ground: number;
  threshold: number;
}

/** The histogram's main mode and its half width at half height. */
function groundOf(L: Float32Array): { ground: number; spread: number } {
  const hist = new Float64Array(256);
  for (const v of L) hist[Math.max(0, Math.min(255, Math.round(v)))]!++;
  let mode = 0;
  for (let v = 1; v < 256; v++) if (hist[v]! > hist[mode]!) mode = v;
  let lo = mode;
  while (lo > 0 && hist[lo]! > hist[mode]! / 2) lo--;
  let hi = mode;
  while (hi < 255 && hist[hi]! > hist[mode]! / 2) hi++;
  return { ground: mode, spread: Math.max(1, (hi - lo) / 2) };
}

/** One pass of 3 × 3 dilation (`grow`) or erosion of a binary mask: a row pass, then a column pass. */
function morph(mask: Uint8Array, W: number, H: number, grow: boolean): Uint8Array {
  const rows = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) {
    const r = y * W;
    for (let x = 0; x < W; x++) {
      const l = mask[r + Math.max(0, x - 1)]!;
      const c = mask[r + x]!;
      const rt = mask[r + Math.min(W - 1, x + 1)]!;
      rows[r + x] = grow ? l | c | rt : l & c & rt;
    }
  }
  const out = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) {
    const up = Math.max(0, y - 1) * W;
    const r = y * W;
    const down = Math.min(H - 1, y + 1) * W;
    for (let x = 0; x < W; x++) {
      const a = rows[up + x]!;
      const c = rows[r + x]!;
      const d = rows[down + x]!;
      out[r + x] = grow ? a | c | d : a & c & d;
    }
  }
  return out;
}

/** The set pixels of `m` off the image's one-pixel border (thinning and pruning leave it alone). */
function innerPixels(m: Uint8Array, W: number, H: number): Int32Array {
  let n = 0;
  for (let y = 1; y + 1 < H; y++) for (let x = 1; x + 1 < W; x++) n += m[y * W + x]!;
  const list = new Int32Array(n);
  let k = 0;
  for (let y = 1; y + 1 < H; y++) {
    for (let x = 1; x + 1 < W; x++) if (m[y * W + x]) list[k++] = y * W + x;
  }
  return list;
}

/** Zhang–Suen thinning, in place; only the set pixels are visited. */
function thin(m: Uint8Array, W: number, H: number): void {
  let live = innerPixels(m, W, H);
  const del = new Int32Array(live.length);
  for (let changed = true; changed;) {
    changed = false;
    for (let pass = 0; pass < 2; pass++) {
      let n = 0;
      for (const i of live) {
        if (!m[i]) continue;
        // Neighbours clockwise from north: p2..p9.
        const p2 = m[i - W]!;
        const p3 = m[i - W + 1]!;
        const p4 = m[i + 1]!;
        const p5 = m[i + W + 1]!;
        const p6 = m[i + W]!;
        const p7 = m[i + W - 1]!;
        const p8 = m[i - 1]!;
        const p9 = m[i - W - 1]!;
        const b = p2 + p3 + p4 + p5 + p6 + p7 + p8 + p9;
        if (b < 2 || b > 6) continue;
        const a =
          (!p2 && p3 ? 1 : 0) +
          (!p3 && p4 ? 1 : 0) +
          (!p4 && p5 ? 1 : 0) +
          (!p5 && p6 ? 1 : 0) +
          (!p6 && p7 ? 1 : 0) +
          (!p7 && p8 ? 1 : 0) +
          (!p8 && p9 ? 1 : 0) +
          (!p9 && p2 ? 1 : 0);
        if (a !== 1) continue;
        if (pass === 0 ? p2 * p4 * p6 || p4 * p6 * p8 : p2 * p4 * p8 || p2 * p6 * p8) continue;
        del[n++] = i;
      }
      for (let k = 0; k < n; k++) m[del[k]!] = 0;
      if (n) changed = true;
    }
    if (changed) live = live.filter((i) => m[i] === 1);
  }
}

/** Neighbours of curve pixel `i` on the curve (itself excluded); `i` is not on the border. */
function neighbours(m: Uint8Array, W: number, i: number): number {
  let n = 0;
  for (let j = -1; j <= 1; j++) for (let k = -1; k <= 1; k++) n += m[i + j * W + k]!;
  return n - 1;
}

/** Takes every curve's end pixel off, `times` times over: spurs that short vanish. */
function prune(m: Uint8Array, W: number, H: number, times: number): void {
  let live = innerPixels(m, W, H);
  const ends = new Int32Array(live.length);
  for (let t = 0; t < times; t++) {
    let n = 0;
    for (const i of live) if (neighbours(m, W, i) <= 1) ends[n++] = i;
    if (n === 0) break;
    for (let k = 0; k < n; k++) m[ends[k]!] = 0;
    live = live.filter((i) => m[i] === 1);
  }
}

/** The thinned, pruned vein curves of `image` (1 on a curve), and how they were found. */
interface VeinCurves {
  mask: Uint8Array;
  /** Vein pixels (closed, before thinning). */
  covered: number;
  ground: number;
  threshold: number;
}

/** Steps 1–3 of the module comment, and the pruning of step 4. */
function veinCurves(
  image: RawImage,
  like?: Pick<VeinContinuity, 'ground' | 'threshold'>,
): VeinCurves {
  const { data, width: W, height: H } = image;
  const lum = new Float32Array(W * H);
  for (let i = 0; i < W * H; i++) lum[i] = luma(data[i * 4]!, data[i * 4 + 1]!, data[i * 4 + 2]!);
  const L = boxBlur3(boxBlur3(lum, W, H), W, H);
  const own = like ? undefined : groundOf(L);
  const ground = like?.ground ?? own!.ground;
  const threshold = like?.threshold ?? Math.max(12, 2.5 * own!.spread);
  let mask: Uint8Array = new Uint8Array(W * H);
  for (let i = 0; i < W * H; i++) mask[i] = ground - L[i]! > threshold ? 1 : 0;
  mask = morph(morph(mask, W, H, true), W, H, false);
  let covered = 0;
  for (const v of mask) covered += v;
  thin(mask, W, H);
  prune(mask, W, H, PRUNE);
  return { mask, covered, ground, threshold };
}

/**
 * The vein continuity of `image` (see the module comment), optionally measured `like` another;
 * `endsAt` receives the ends' pixel indices (y · W + x), to look at where veins stop.
 */
export function veinContinuity(
  image: RawImage,
  like?: Pick<VeinContinuity, 'ground' | 'threshold'>,
  endsAt?: number[],
): VeinContinuity {
  const { width: W, height: H } = image;
  const { mask, covered, ground, threshold } = veinCurves(image, like);
  let curve = 0;
  let ends = 0;
  for (let y = 1; y + 1 < H; y++) {
    for (let x = 1; x + 1 < W; x++) {
      const i = y * W + x;
      if (!mask[i]) continue;
      curve++;
      if (x < BORDER || y < BORDER || x >= W - BORDER || y >= H - BORDER) continue;
      if (neighbours(mask, W, i) === 1) {
        ends++;
        endsAt?.push(i);
      }
    }
  }
  return {
    cover: covered / (W * H),
    curve,
    ends,
    length: ends ? (2 * curve) / ends : curve,
    ground,
    threshold,
  };
}
