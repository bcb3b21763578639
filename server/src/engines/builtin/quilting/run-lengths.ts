/**
 * Straight-run lengths: how far an image's linear structure (boards, veins, stripes) goes on,
 * in a straight line along its dominant orientation, before it is broken.
 *
 * What is measured, exactly:
 * 1. The luminance (Rec. 601), box-blurred 3 × 3.
 * 2. The dominant orientation: the image-wide structure tensor (the sums of gx², gx·gy, gy² of
 *    central-difference gradients); the grain runs across its main eigenvector. Its coherence
 *    (λ1 − λ2) / (λ1 + λ2) says how strongly oriented the image is (1: all lines one way).
 * 3. Straight lines along the grain, one pixel apart, sampled at nearest pixels. A break is where
 *    the luminance changes by more than `threshold` over 4 px along the line (|L(k+2) − L(k−2)|):
 *    an end joint of a board, a vein's end, a cut that does not continue the line. The default
 *    threshold is half the 99th percentile of that change across the grain (the contrast of the
 *    lines themselves), so a break is a jump as strong as the structure.
 * 4. A run is the stretch between two breaks, its length in pixels along the line, when at least
 *    {@link MIN_LENGTH} (a shorter one is the inside of a joint). Runs cut off by
 *    the image border are left out, unless fewer than {@link MIN_RUNS} runs are complete (perfect
 *    stripes have no breaks), then all are counted. Summary: median and 75th percentile.
 *
 * An output measured `like` its reference counts its runs the same way (complete or all).
 * Compare two images on equal windows (a crop of the larger one): clipped runs depend on size.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction. */
import type { RawImage } from '../../../imaging/raw-image.js';
import { boxBlur3, luma } from './numeric.js';

/** Below this many complete runs, the runs cut off by the border are counted too. */
export const MIN_RUNS = 20;

/** Shorter stretches are the inside of a break (the middle of a 2 px joint), not runs. */
export const MIN_LENGTH = 6;

export interface Orientation {
  /** Unit vector along the grain (the lines' direction). */
  tx: number;
  ty: number;
  /** (λ1 − λ2) / (λ1 + λ2) of the image-wide structure tensor, 0..1. */
  coherence: number;
}

export interface RunLengths {
  median: number;
  p75: number;
  /** Runs counted, and whether they were complete ones (false: border-clipped ones included). */
  count: number;
  complete: boolean;
  orientation: Orientation;
  threshold: number;
  /** The measured image's size. */
  width: number;
  height: number;
}

/** Luminance box-blurred 3 × 3, as floats. */
export function smoothLuminance(image: RawImage): Float32Array {
  const { data, width: W, height: H } = image;
  const lum = new Float32Array(W * H);
  for (let i = 0, p = 0; i < W * H; i++, p += 4) {
    lum[i] = luma(data[p]!, data[p + 1]!, data[p + 2]!);
  }
  return boxBlur3(lum, W, H);
}

/** The dominant orientation of a W × H luminance image (the image-wide structure tensor). */
export function dominantOrientation(lum: Float32Array, W: number, H: number): Orientation {
  let a = 0;
  let b = 0;
  let c = 0;
  for (let y = 1; y + 1 < H; y++) {
    for (let x = 1; x + 1 < W; x++) {
      const i = y * W + x;
      const gx = lum[i + 1]! - lum[i - 1]!;
      const gy = lum[i + W]! - lum[i - W]!;
      a += gx * gx;
      b += gx * gy;
      c += gy * gy;
    }
  }
  const trace = a + c;
  if (!(trace > 1e-9)) return { tx: 1, ty: 0, coherence: 0 };
  // The gradients' main direction is at angle θ; the grain runs at θ + 90°.
  const theta = 0.5 * Math.atan2(2 * b, a - c);
  const coherence = Math.sqrt((a - c) ** 2 + 4 * b * b) / trace;
  return { tx: -Math.sin(theta), ty: Math.cos(theta), coherence };
}

/** Calls `visit(xs, ys, n)` for every straight line along (tx, ty) through the image, 1 px apart. */
function eachLine(
  W: number,
  H: number,
  o: Orientation,
  visit: (idx: Int32Array, n: number, step: number) => void,
): void {
  const horizontal = Math.abs(o.tx) >= Math.abs(o.ty);
  // Step one pixel along the long axis; the other coordinate moves by `slope`.
  const slope = horizontal ? o.ty / o.tx : o.tx / o.ty;
  const along = horizontal ? W : H;
  const across = horizontal ? H : W;
  const step = Math.sqrt(1 + slope * slope);
  const reach = Math.ceil(Math.abs(slope) * along);
  const idx = new Int32Array(along);
  for (let c0 = -reach; c0 < across + reach; c0++) {
    let n = 0;
    for (let k = 0; k < along; k++) {
      const c = Math.round(c0 + slope * k);
      if (c < 0 || c >= across) {
        if (n > 0) break;
        continue;
      }
      idx[n++] = horizontal ? c * W + k : k * W + c;
    }
    if (n > 0) visit(idx, n, step);
  }
}

/** Half the 99th percentile of the luminance change over 4 px across the grain. */
function defaultThreshold(lum: Float32Array, W: number, H: number, o: Orientation): number {
  const across: Orientation = { tx: -o.ty, ty: o.tx, coherence: o.coherence };
  const hist = new Float64Array(256);
  let total = 0;
  eachLine(W, H, across, (idx, n) => {
    for (let k = 2; k + 2 < n; k++) {
      hist[Math.min(255, Math.round(Math.abs(lum[idx[k + 2]!]! - lum[idx[k - 2]!]!)))]!++;
      total++;
    }
  });
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += hist[v]!;
    if (seen >= 0.99 * total) return Math.max(8, v / 2);
  }
  return 128;
}

/**
 * The straight-run lengths of `image` (see the module comment). `like` measures with another
 * measurement's orientation and threshold (an output against its reference); by default the
 * image's own. `smoothed` and `own`: its smoothed luminance and orientation, when already known.
 */
export function runLengths(
  image: RawImage,
  like?: Pick<RunLengths, 'orientation' | 'threshold' | 'complete'>,
  smoothed?: Float32Array,
  own?: Orientation,
): RunLengths {
  const { width: W, height: H } = image;
  const lum = smoothed ?? smoothLuminance(image);
  const orientation = like?.orientation ?? own ?? dominantOrientation(lum, W, H);
  const threshold = like?.threshold ?? defaultThreshold(lum, W, H, orientation);
  const complete: number[] = [];
  const clipped: number[] = [];
  eachLine(W, H, orientation, (idx, n, step) => {
    let start = 0; // the run's first sample
    let opened = false; // whether it began at a break (not at the border)
    let inBreak = false;
    for (let k = 0; k < n; k++) {
      const jump =
        k >= 2 && k + 2 < n && Math.abs(lum[idx[k + 2]!]! - lum[idx[k - 2]!]!) > threshold;
      if (jump && !inBreak) {
        const length = (k - start) * step;
        if (length >= MIN_LENGTH) (opened ? complete : clipped).push(length);
        inBreak = true;
      } else if (!jump && inBreak) {
        start = k;
        opened = true;
        inBreak = false;
      }
    }
    if (!inBreak && (n - start) * step >= MIN_LENGTH) clipped.push((n - start) * step);
  });
  // Measured like another image: counted the same way (complete runs or all).
  const useAll = like ? !like.complete : complete.length < MIN_RUNS;
  const runs = useAll ? [...complete, ...clipped] : complete;
  runs.sort((p, q) => p - q);
  const at = (f: number) =>
    runs.length ? runs[Math.min(runs.length - 1, Math.floor(f * runs.length))]! : 0;
  return {
    median: at(0.5),
    p75: at(0.75),
    count: runs.length,
    complete: !useAll,
    orientation,
    threshold,
    width: W,
    height: H,
  };
}

/** The top-left `w × h` window of an image (to compare images of different sizes fairly). */
export function crop(image: RawImage, w: number, h: number): RawImage {
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    data.set(image.data.subarray(y * image.width * 4, (y * image.width + w) * 4), y * w * 4);
  }
  return { data, width: w, height: h };
}

/**
 * An output's runs measured like its reference's. Complete runs do not depend on the window, so
 * they are measured on the whole output (more boards, a steadier figure); when the reference's
 * count includes border-clipped runs, the output is cropped to the reference's size first.
 */
export function runLengthsLike(output: RawImage, reference: RunLengths): RunLengths {
  const w = Math.min(output.width, reference.width);
  const h = Math.min(output.height, reference.height);
  return runLengths(reference.complete ? output : crop(output, w, h), reference);
}

/** `image` laid `nx × ny` times side by side, as a seamless tile is laid on a floor. */
export function tiled(image: RawImage, nx: number, ny: number): RawImage {
  const { width: W, height: H } = image;
  const w = W * nx;
  const data = new Uint8Array(w * H * ny * 4);
  for (let y = 0; y < H * ny; y++) {
    const row = image.data.subarray((y % H) * W * 4, ((y % H) + 1) * W * 4);
    for (let i = 0; i < nx; i++) data.set(row, (y * w + i * W) * 4);
  }
  return { data, width: w, height: H * ny };
}

/**
 * A seamless output's runs measured as it is used: laid 2 × 2, so that a board or vein that
 * crosses the tile's edge is measured whole (it continues on the next tile) rather than left
 * out as cut off by the border. Measured like its reference otherwise.
 */
export function seamlessRunLengthsLike(output: RawImage, reference: RunLengths): RunLengths {
  return runLengthsLike(tiled(output, 2, 2), reference);
}
