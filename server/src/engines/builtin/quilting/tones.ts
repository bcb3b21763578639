/**
 * The colour passes around the synthesis: the style pass on the reference before, and the
 * write-back of the blended colours after (lighting drift put back, re-posterised when stylised).
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction (see options.ts). */
import type { RawImage } from '../../../imaging/raw-image.js';
import { lightingAt, type LightingField } from './lighting.js';
import { clamp, luma } from './numeric.js';

/**
 * The style pass, applied to the reference before synthesis: colours pushed towards a flat,
 * painted look (saturation up to ×1.8, contrast up to ×1.5 around the mean luminance, channels
 * posterised from 256 levels down to 6), all scaled by `style`. Per pixel, so nothing bleeds
 * across the mask's edge. Alpha is kept.
 */
export function stylise(image: RawImage, style: number): RawImage {
  const s = clamp(style, 0, 1);
  if (!(s > 0)) return image;
  const { data, width, height } = image;
  const n = width * height;
  let sumY = 0;
  for (let p = 0; p < n * 4; p += 4) sumY += luma(data[p]!, data[p + 1]!, data[p + 2]!);
  const meanY = n > 0 ? sumY / n : 128;
  const saturation = 1 + 0.8 * s;
  const contrast = 1 + 0.5 * s;
  const levels = posterLevels(s);
  const step = 255 / (levels - 1);
  const out = new Uint8Array(data.length);
  const tone = (c: number, y: number): number => {
    const v = clamp(meanY + (y + (c - y) * saturation - meanY) * contrast, 0, 255);
    return Math.round(Math.round(v / step) * step);
  };
  for (let p = 0; p < n * 4; p += 4) {
    const r = data[p]!;
    const g = data[p + 1]!;
    const b = data[p + 2]!;
    const y = luma(r, g, b);
    out[p] = tone(r, y);
    out[p + 1] = tone(g, y);
    out[p + 2] = tone(b, y);
    out[p + 3] = data[p + 3]!;
  }
  return { data: out, width, height };
}

/**
 * The blended colours into `data` (RGBA), with the lighting drift put back, stretched over the
 * output (a seamless result gets none: a drift cannot tile), and re-posterised when stylised.
 */
export function writeBack(
  data: Uint8Array,
  channels: Float32Array[],
  W: number,
  H: number,
  lighting: LightingField | undefined,
  style: number,
): void {
  const step = style > 0 ? 255 / (posterLevels(style) - 1) : 0;
  for (let c = 0; c < 3; c++) {
    const values = channels[c]!;
    for (let y = 0, i = 0; y < H; y++) {
      for (let x = 0; x < W; x++, i++) {
        let v = values[i]! + (lighting ? lightingAt(lighting, c, x, y, W, H) : 0);
        if (step > 0) v = Math.round(v / step) * step;
        data[i * 4 + c] = v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
      }
    }
  }
}

/** Posterisation levels per channel at style strength `s` (256 at 0, 6 at 1). */
function posterLevels(s: number): number {
  return Math.max(2, Math.min(256, Math.round(2 ** (8 - 5.5 * s))));
}
