/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction (see options.ts). */
import { MASK_ALPHA_THRESHOLD } from '../../engine.js';
import type { RawImage } from '../../../imaging/raw-image.js';

/** Patch origins allowed by the mask, as a bitmap over the (W−P+1)×(H−P+1) origins and a list. */
export interface MaskRegion {
  allowed: Uint8Array;
  list: Uint32Array;
  count: number;
  total: number;
}

/**
 * Patch origins whose whole P×P window lies where alpha ≥ {@link MASK_ALPHA_THRESHOLD}, as a
 * bitmap over the (W−P+1)×(H−P+1) origins and as a list.
 */
export function maskRegion(image: RawImage, P: number): MaskRegion {
  const { data, width: Wr, height: Hr } = image;
  const iw = Wr + 1;
  const integral = new Int32Array(iw * (Hr + 1));
  for (let y = 0; y < Hr; y++) {
    let rowSum = 0;
    for (let x = 0; x < Wr; x++) {
      if (data[(y * Wr + x) * 4 + 3]! < MASK_ALPHA_THRESHOLD) rowSum++;
      integral[(y + 1) * iw + x + 1] = integral[y * iw + x + 1]! + rowSum;
    }
  }
  const nvx = Math.max(0, Wr - P + 1);
  const nvy = Math.max(0, Hr - P + 1);
  const allowed = new Uint8Array(nvx * nvy);
  let count = 0;
  for (let y = 0; y < nvy; y++) {
    for (let x = 0; x < nvx; x++) {
      const masked =
        integral[(y + P) * iw + x + P]! -
        integral[y * iw + x + P]! -
        integral[(y + P) * iw + x]! +
        integral[y * iw + x]!;
      if (masked === 0) {
        allowed[y * nvx + x] = 1;
        count++;
      }
    }
  }
  const list = new Uint32Array(count);
  for (let k = 0, n = 0; k < allowed.length; k++) if (allowed[k] === 1) list[n++] = k;
  return { allowed, list, count, total: nvx * nvy };
}
