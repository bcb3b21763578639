/**
 * A series' shared frame (issue 25): the later faces of a seamless series keep face 1's outer
 * ring of pixels, so that every face has face 1's edges and joins any face as face 1 joins
 * itself. Here: the ring's widths, the grid of patches inside it, the ring put on the canvas
 * before quilting (pixels and their sources, so patches cut against it), and the blended inside
 * fitted to it afterwards.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction (see options.ts). */
import type { RawImage } from '../../../imaging/raw-image.js';
import type { Canvas } from './canvas.js';
import { gridPositions } from './torus.js';

/** Face 1 of a seamless series, as synthesizeTraced returned it. */
export interface SharedFrame {
  image: RawImage;
  /** Per pixel, its reference pixel (y · Wr + x). */
  source: Int32Array;
  /** The source maps of the series' faces made since face 1: a new face copies none of theirs. */
  earlier?: readonly Int32Array[];
}

/**
 * The kept ring's width: the joins compare only the outermost pixels, and the narrower the ring
 * the less of face 1 every face repeats (measured: the random floor's repetition at the face
 * period falls, the cuts inside the faces stay as smooth as with a ring of half an overlap).
 */
const KEEP = 2;
/** Pixels along the ring that set the residual at one place (a box along the side). */
const RESIDUAL_RADIUS = 2;

/**
 * `keep`: the outer ring every face shares exactly; `band`: the ring put on the canvas, its
 * inner `O` pixels being where the inside's patches cut against it.
 */
export function frameWidths(O: number): { keep: number; band: number } {
  return { keep: KEEP, band: KEEP + O };
}

/** Throws unless the frame is a seamless face of this size. */
export function checkFrame(frame: SharedFrame, W: number, H: number, seamless: boolean): void {
  if (!seamless) throw new Error('a shared frame needs seamless synthesis');
  const { width, height, data } = frame.image;
  if (width !== W || height !== H || data.length < W * H * 4 || frame.source.length < W * H)
    throw new Error('the shared frame is not the size of the face');
}

/** Patch origins along one axis, on a plane, inside the kept ring of width `keep`. */
export function insetGrid(length: number, P: number, S: number, keep: number): Int32Array {
  return gridPositions(length - 2 * keep, P, S, false).map((v) => v + keep);
}

/** The frame's ring of width `band` onto the empty canvas: colours, sources and structure. */
export function prefillFrame(
  canvas: Canvas,
  frame: SharedFrame,
  band: number,
  refGrad: Int16Array,
): void {
  const { W, H, data, filled, source, grad } = canvas;
  const from = frame.image.data;
  for (let y = 0; y < H; y++) {
    const inRow = y < band || y >= H - band;
    for (let x = 0; x < W; x++) {
      if (!inRow && x >= band && x < W - band) continue;
      const at = y * W + x;
      const s = frame.source[at]!;
      data[at * 4] = from[at * 4]!;
      data[at * 4 + 1] = from[at * 4 + 1]!;
      data[at * 4 + 2] = from[at * 4 + 2]!;
      data[at * 4 + 3] = 255;
      filled[at] = 1;
      source[at] = s;
      if (s >= 0) {
        grad[at * 2] = refGrad[s * 2]!;
        grad[at * 2 + 1] = refGrad[s * 2 + 1]!;
      }
    }
  }
}

/**
 * The blended inside (per channel, as poissonBlend gives it) fitted to the frame: the difference
 * between the frame's colours and the blend along the kept ring's inner edge is carried inwards,
 * each side weighted by its nearness, fading out smoothly over `reach` pixels, so the inside
 * meets the kept ring without a step.
 */
export function fitToFrame(
  channels: Float32Array[],
  frame: RawImage,
  keep: number,
  reach: number,
): void {
  const { width: W, height: H, data } = frame;
  for (let c = 0; c < 3; c++) {
    const v = channels[c]!;
    const residual = (x: number, y: number) => data[(y * W + x) * 4 + c]! - v[y * W + x]!;
    const left = smoothed(H, (y) => residual(keep - 1, y));
    const right = smoothed(H, (y) => residual(W - keep, y));
    const top = smoothed(W, (x) => residual(x, keep - 1));
    const bottom = smoothed(W, (x) => residual(x, H - keep));
    for (let y = keep; y < H - keep; y++) {
      const dt = y - keep + 1;
      const db = H - keep - y;
      for (let x = keep; x < W - keep; x++) {
        const dl = x - keep + 1;
        const dr = W - keep - x;
        const near = Math.min(dl, dr, dt, db);
        if (near >= reach) continue;
        const wl = 1 / (dl * dl);
        const wr = 1 / (dr * dr);
        const wt = 1 / (dt * dt);
        const wb = 1 / (db * db);
        const r =
          (wl * left[y]! + wr * right[y]! + wt * top[x]! + wb * bottom[x]!) / (wl + wr + wt + wb);
        const fade = 0.5 * (1 + Math.cos((Math.PI * (near - 1)) / reach));
        v[y * W + x] = v[y * W + x]! + r * fade;
      }
    }
  }
}

/** The kept ring of the frame copied exactly into `data` (RGBA). */
export function restoreKeep(data: Uint8Array, frame: RawImage, keep: number): void {
  const { width: W, height: H } = frame;
  for (let y = 0; y < H; y++) {
    const inRow = y < keep || y >= H - keep;
    for (let x = 0; x < W; x++) {
      if (!inRow && x >= keep && x < W - keep) continue;
      const p = (y * W + x) * 4;
      data[p] = frame.data[p]!;
      data[p + 1] = frame.data[p + 1]!;
      data[p + 2] = frame.data[p + 2]!;
      data[p + 3] = 255;
    }
  }
}

/** `n` values of `at`, each averaged with its neighbours within RESIDUAL_RADIUS. */
function smoothed(n: number, at: (k: number) => number): Float64Array {
  const raw = Float64Array.from({ length: n }, (_, k) => at(k));
  const out = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    let sum = 0;
    let count = 0;
    for (let d = -RESIDUAL_RADIUS; d <= RESIDUAL_RADIUS; d++) {
      if (k + d >= 0 && k + d < n) {
        sum += raw[k + d]!;
        count++;
      }
    }
    out[k] = sum / count;
  }
  return out;
}
