/**
 * How visible the joins of a quilted image are, measured on its pixels: the cut pairs (two
 * neighbouring pixels not copied from neighbouring reference pixels, i.e. lying on either side
 * of a patch cut) against the pairs inside the patches, the wrap-around edges of a seamless
 * result against its inside, and the join of two images laid side by side (a series' faces).
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction (see options.ts). */
import type { RawImage } from '../../../imaging/raw-image.js';

export interface CutEnergy {
  /** Mean squared RGB difference (summed over channels) across the cuts. */
  cut: number;
  /** The same between neighbours inside the patches. */
  inside: number;
  /** cut ÷ inside: 1 when the cuts are as smooth as the texture itself. */
  ratio: number;
  /** Neighbour pairs across a cut. */
  cutPairs: number;
}

/**
 * The gradient energy along the cut paths against the image's inside. `source` gives each
 * pixel's reference pixel (y · referenceWidth + x); across the wrap-around edges only when
 * `seamless` (there they are cuts like any other).
 */
export function cutEnergy(
  image: RawImage,
  source: Int32Array,
  referenceWidth: number,
  seamless: boolean,
): CutEnergy {
  const { data, width: W, height: H } = image;
  let cutSum = 0;
  let cutN = 0;
  let inSum = 0;
  let inN = 0;
  const pair = (p: number, q: number, step: number, sameRow: boolean) => {
    let e = 0;
    for (let c = 0; c < 3; c++) {
      const d = data[p * 4 + c]! - data[q * 4 + c]!;
      e += d * d;
    }
    const sp = source[p]!;
    const continuous =
      sp >= 0 &&
      source[q] === sp + step &&
      (!sameRow || Math.floor(sp / referenceWidth) === Math.floor((sp + 1) / referenceWidth));
    if (continuous) {
      inSum += e;
      inN++;
    } else {
      cutSum += e;
      cutN++;
    }
  };
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const p = y * W + x;
      if (x + 1 < W || seamless) pair(p, y * W + ((x + 1) % W), 1, true);
      if (y + 1 < H || seamless) pair(p, ((y + 1) % H) * W + x, referenceWidth, false);
    }
  }
  const cut = cutN > 0 ? cutSum / cutN : 0;
  const inside = inN > 0 ? inSum / inN : 0;
  return { cut, inside, ratio: inside > 0 ? cut / inside : 1, cutPairs: cutN };
}

/**
 * Mean absolute RGB difference across the wrap-around edges against that between neighbours
 * inside the image: about 1 for an image that tiles.
 */
export function wrapRatio(image: RawImage): number {
  const { width: W, height: H } = image;
  const wrap =
    joinDifference(image, image, 'right') * H + joinDifference(image, image, 'below') * W;
  return wrap / (W + H) / insideDifference(image);
}

/**
 * Two images of one size laid side by side (`b` to the right of `a`) or one above the other
 * (`b` below `a`): the mean absolute RGB difference (summed over channels) between the
 * neighbours across the join against that inside the two images. About 1 for a seamless join.
 */
export function joinRatio(a: RawImage, b: RawImage, side: 'right' | 'below'): number {
  return joinDifference(a, b, side) / ((insideDifference(a) + insideDifference(b)) / 2);
}

/** Mean absolute RGB difference across the join of `b` laid on `side` of `a`. */
function joinDifference(a: RawImage, b: RawImage, side: 'right' | 'below'): number {
  const { width: W, height: H } = a;
  if (b.width !== W || b.height !== H) throw new Error('join: the images differ in size');
  const diff = (p: number, q: number) =>
    Math.abs(a.data[p * 4]! - b.data[q * 4]!) +
    Math.abs(a.data[p * 4 + 1]! - b.data[q * 4 + 1]!) +
    Math.abs(a.data[p * 4 + 2]! - b.data[q * 4 + 2]!);
  let sum = 0;
  if (side === 'right') for (let y = 0; y < H; y++) sum += diff(y * W + W - 1, y * W);
  else for (let x = 0; x < W; x++) sum += diff((H - 1) * W + x, x);
  return sum / (side === 'right' ? H : W);
}

/** Mean absolute RGB difference between horizontal and vertical neighbours inside the image. */
function insideDifference(image: RawImage): number {
  const { data, width: W, height: H } = image;
  const diff = (p: number, q: number) =>
    Math.abs(data[p * 4]! - data[q * 4]!) +
    Math.abs(data[p * 4 + 1]! - data[q * 4 + 1]!) +
    Math.abs(data[p * 4 + 2]! - data[q * 4 + 2]!);
  let inside = 0;
  let n = 0;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      if (x + 1 < W) inside += diff(y * W + x, y * W + x + 1);
      if (y + 1 < H) inside += diff(y * W + x, (y + 1) * W + x);
      n += (x + 1 < W ? 1 : 0) + (y + 1 < H ? 1 : 0);
    }
  }
  return inside / n;
}
