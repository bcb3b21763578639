/**
 * How good an enlargement is (issue 28, part 3), on luminance: an original is reduced by the
 * enlargement's factor, enlarged back, and the result compared with the original.
 *
 * - sharpness: the enlarged image's gradient energy as a share of the original's (1: all the
 *   original's detail; an enlargement can only guess what the reduction threw away, so below 1);
 * - ringing: how far the enlarged pixels overshoot the range of the four source pixels around
 *   them (the halos a sharpening kernel draws beside edges), beyond one grey level (8-bit
 *   rounding), mean in grey levels;
 * - error: the root mean square difference to the original, in grey levels.
 */

/** Overshoot up to this many grey levels is 8-bit rounding, not a halo. */
const ROUNDING = 1;

/** Luminance, 0–255, row by row. */
export interface GreyImage {
  data: Float32Array;
  width: number;
  height: number;
}

export interface EnlargementQuality {
  sharpness: number;
  ringing: number;
  error: number;
}

/** Rec. 709 luma of interleaved 8-bit pixels with `channels` samples each (RGB first). */
export function greyOf(
  pixels: Uint8Array,
  width: number,
  height: number,
  channels: number,
): GreyImage {
  const data = new Float32Array(width * height);
  for (let i = 0; i < data.length; i++) {
    const p = i * channels;
    data[i] =
      0.2126 * (pixels[p] as number) +
      0.7152 * (pixels[p + 1] as number) +
      0.0722 * (pixels[p + 2] as number);
  }
  return { data, width, height };
}

/** Mean squared difference between pixels `step` apart, over both axes. */
export function gradientEnergy(image: GreyImage, step = 1): number {
  const { data, width, height } = image;
  let sum = 0;
  for (let y = 0; y < height - step; y++) {
    for (let x = 0; x < width - step; x++) {
      const i = y * width + x;
      const dx = (data[i + step] as number) - (data[i] as number);
      const dy = (data[i + step * width] as number) - (data[i] as number);
      sum += dx * dx + dy * dy;
    }
  }
  return sum / ((width - step) * (height - step));
}

/**
 * Mean overshoot of `enlarged` beyond the range of the 2×2 pixels of `small` around each pixel's
 * position (pixel centres mapped as libvips maps them when enlarging: x_small = (x + ½)/s − ½).
 */
export function ringing(small: GreyImage, enlarged: GreyImage): number {
  const sx = enlarged.width / small.width;
  const sy = enlarged.height / small.height;
  let sum = 0;
  for (let y = 0; y < enlarged.height; y++) {
    const fy = Math.min(Math.max((y + 0.5) / sy - 0.5, 0), small.height - 1);
    const y0 = Math.floor(fy);
    const y1 = Math.min(y0 + 1, small.height - 1);
    for (let x = 0; x < enlarged.width; x++) {
      const fx = Math.min(Math.max((x + 0.5) / sx - 0.5, 0), small.width - 1);
      const x0 = Math.floor(fx);
      const x1 = Math.min(x0 + 1, small.width - 1);
      const a = small.data[y0 * small.width + x0] as number;
      const b = small.data[y0 * small.width + x1] as number;
      const c = small.data[y1 * small.width + x0] as number;
      const d = small.data[y1 * small.width + x1] as number;
      const v = enlarged.data[y * enlarged.width + x] as number;
      const over = v - Math.max(a, b, c, d);
      const under = Math.min(a, b, c, d) - v;
      sum += Math.max(0, over - ROUNDING, under - ROUNDING);
    }
  }
  return sum / (enlarged.width * enlarged.height);
}

/** The three figures of `enlarged`, made from `small`, against `original` (same size). */
export function enlargementQuality(
  original: GreyImage,
  small: GreyImage,
  enlarged: GreyImage,
): EnlargementQuality {
  if (original.width !== enlarged.width || original.height !== enlarged.height) {
    throw new RangeError('The enlarged image and the original differ in size');
  }
  // Differences over half the factor: the detail the small image can carry, not the finest
  // pixels, which no enlargement can bring back.
  const step = Math.max(1, Math.round(original.width / small.width / 2));
  let squares = 0;
  for (let i = 0; i < original.data.length; i++) {
    const d = (enlarged.data[i] as number) - (original.data[i] as number);
    squares += d * d;
  }
  return {
    sharpness: gradientEnergy(enlarged, step) / gradientEnergy(original, step),
    ringing: ringing(small, enlarged),
    error: Math.sqrt(squares / original.data.length),
  };
}
