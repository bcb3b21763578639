/**
 * Test images and pixel measures for the upscaler's tests: a tileable texture, and the seam
 * measures of the generation issue (mean absolute difference across the wrap-around edges
 * against the mean difference between neighbours inside the image).
 */
import sharp from 'sharp';
import type { RawImage } from '../../../imaging/raw-image.js';
import { mulberry32 } from '../prng.js';

/** 8-bit pixels with any number of channels, row by row. */
export interface Pixels {
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
}

/**
 * A texture that tiles exactly: value noise on a grid that wraps around (`cell` must divide both
 * sides), two octaves, plus per-pixel grain. Opaque RGBA.
 */
export function tileableNoise(width: number, height: number, cell = 16, seed = 7): RawImage {
  const rng = mulberry32(seed);
  const octave = (size: number) => {
    const gw = width / size;
    const gh = height / size;
    if (!Number.isInteger(gw) || !Number.isInteger(gh)) throw new Error('cell must divide sides');
    const grid = Float64Array.from({ length: gw * gh * 3 }, () => rng.next() * 255);
    const at = (gx: number, gy: number, c: number) =>
      grid[(((gy + gh) % gh) * gw + ((gx + gw) % gw)) * 3 + c] ?? 0;
    return (x: number, y: number, c: number) => {
      const gx = Math.floor(x / size);
      const gy = Math.floor(y / size);
      const fx = smooth((x % size) / size);
      const fy = smooth((y % size) / size);
      const top = at(gx, gy, c) * (1 - fx) + at(gx + 1, gy, c) * fx;
      const bottom = at(gx, gy + 1, c) * (1 - fx) + at(gx + 1, gy + 1, c) * fx;
      return top * (1 - fy) + bottom * fy;
    };
  };
  const coarse = octave(cell);
  const fine = octave(cell / 4);
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const grain = rng.next() * 16 - 8;
      const p = (y * width + x) * 4;
      for (let c = 0; c < 3; c++) {
        data[p + c] = clamp8(0.7 * coarse(x, y, c) + 0.3 * fine(x, y, c) + grain);
      }
      data[p + 3] = 255;
    }
  }
  return { data, width, height };
}

/**
 * Stationary noise: random colours per pixel smoothed by a 3×3 binomial filter (wrapping), so
 * that no row or column differs from another on average: no grid, unlike value noise.
 */
export function stationaryNoise(width: number, height: number, seed = 5): RawImage {
  const rng = mulberry32(seed);
  const white = Float64Array.from({ length: width * height * 3 }, () => rng.next() * 255);
  const at = (x: number, y: number, c: number) =>
    white[(((y + height) % height) * width + ((x + width) % width)) * 3 + c] ?? 0;
  const weights = [1, 2, 1];
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * 4;
      for (let c = 0; c < 3; c++) {
        let sum = 0;
        for (let j = -1; j <= 1; j++) {
          for (let i = -1; i <= 1; i++)
            sum += (weights[i + 1] ?? 0) * (weights[j + 1] ?? 0) * at(x + i, y + j, c);
        }
        data[p + c] = clamp8(sum / 16);
      }
      data[p + 3] = 255;
    }
  }
  return { data, width, height };
}

export function writePng(image: RawImage, file: string): Promise<sharp.OutputInfo> {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } })
    .png()
    .toFile(file);
}

export async function readPixels(file: string): Promise<Pixels> {
  const { data, info } = await sharp(file).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/** Mean absolute difference between (x1, y1) and (x2, y2) over the colour channels. */
function difference(image: Pixels, x1: number, y1: number, x2: number, y2: number): number {
  const { data, width, channels } = image;
  const p = (y1 * width + x1) * channels;
  const q = (y2 * width + x2) * channels;
  let sum = 0;
  for (let c = 0; c < Math.min(3, channels); c++)
    sum += Math.abs((data[p + c] ?? 0) - (data[q + c] ?? 0));
  return sum / Math.min(3, channels);
}

/** Mean absolute difference between horizontal and vertical neighbours inside the image. */
export function insideGradient(image: Pixels): number {
  let sum = 0;
  let count = 0;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if (x + 1 < image.width) {
        sum += difference(image, x, y, x + 1, y);
        count++;
      }
      if (y + 1 < image.height) {
        sum += difference(image, x, y, x, y + 1);
        count++;
      }
    }
  }
  return sum / count;
}

/** Mean absolute difference across the wrap-around edges (last column to first, last row to first). */
export function wrapGradient(image: Pixels): number {
  let sum = 0;
  for (let y = 0; y < image.height; y++) sum += difference(image, image.width - 1, y, 0, y);
  for (let x = 0; x < image.width; x++) sum += difference(image, x, image.height - 1, x, 0);
  return sum / (image.width + image.height);
}

/** The seam measure: wrap-around gradient over inside gradient (≤ 1.2 for a tileable image). */
export function seamRatio(image: Pixels): number {
  return wrapGradient(image) / insideGradient(image);
}

/** Mean absolute horizontal difference between columns x and x + 1, over all rows. */
export function columnStep(image: Pixels, x: number): number {
  let sum = 0;
  for (let y = 0; y < image.height; y++) sum += difference(image, x, y, x + 1, y);
  return sum / image.height;
}

/** Mean absolute vertical difference between rows y and y + 1, over all columns. */
export function rowStep(image: Pixels, y: number): number {
  let sum = 0;
  for (let x = 0; x < image.width; x++) sum += difference(image, x, y, x, y + 1);
  return sum / image.width;
}

/** Mean absolute difference between two images of the same size and channels. */
export function meanAbsDifference(a: Pixels, b: Pixels): number {
  if (a.data.length !== b.data.length) throw new Error('images differ in size');
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) sum += Math.abs((a.data[i] ?? 0) - (b.data[i] ?? 0));
  return sum / a.data.length;
}

export function maxAbsDifference(a: Pixels, b: Pixels): number {
  if (a.data.length !== b.data.length) throw new Error('images differ in size');
  let max = 0;
  for (let i = 0; i < a.data.length; i++) {
    max = Math.max(max, Math.abs((a.data[i] ?? 0) - (b.data[i] ?? 0)));
  }
  return max;
}

function smooth(t: number): number {
  return t * t * (3 - 2 * t);
}

function clamp8(v: number): number {
  return v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
}

/**
 * Pebbles: a wrapping Voronoi pattern of rounded stones, each its own shade, darker towards its
 * rim, in grey-brown mortar, plus grain. Isotropic on average (no preferred direction), opaque
 * RGBA.
 */
export function pebbles(width: number, height: number, stone = 14, seed = 11): RawImage {
  const rng = mulberry32(seed);
  const gw = Math.max(1, Math.round(width / stone));
  const gh = Math.max(1, Math.round(height / stone));
  const cellW = width / gw;
  const cellH = height / gh;
  const centres = Array.from({ length: gw * gh }, (_, k) => ({
    x: ((k % gw) + 0.15 + 0.7 * rng.next()) * cellW,
    y: (Math.floor(k / gw) + 0.15 + 0.7 * rng.next()) * cellH,
    colour: [90 + rng.next() * 110, 80 + rng.next() * 90, 70 + rng.next() * 70],
  }));
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const gx = Math.floor(x / cellW);
      const gy = Math.floor(y / cellH);
      // Nearest and second-nearest centres around the torus: their distance gap is the rim.
      let first = Infinity;
      let second = Infinity;
      let nearest = centres[0];
      for (let j = -2; j <= 2; j++) {
        for (let i = -2; i <= 2; i++) {
          const cx = (gx + i + gw) % gw;
          const cy = (gy + j + gh) % gh;
          const centre = centres[cy * gw + cx];
          if (!centre) continue;
          let dx = Math.abs(x - centre.x);
          let dy = Math.abs(y - centre.y);
          dx = Math.min(dx, width - dx);
          dy = Math.min(dy, height - dy);
          const d = Math.hypot(dx, dy);
          if (d < first) {
            second = first;
            first = d;
            nearest = centre;
          } else if (d < second) second = d;
        }
      }
      const gap = (second - first) / 2;
      const grain = rng.next() * 14 - 7;
      const p = (y * width + x) * 4;
      const rim = Math.min(1, gap / 3);
      const shade = 0.75 + 0.25 * Math.min(1, gap / (stone * 0.4));
      for (let c = 0; c < 3; c++) {
        const stoneValue = (nearest?.colour[c] ?? 128) * shade;
        data[p + c] = clamp8(stoneValue * rim + 60 * (1 - rim) + grain);
      }
      data[p + 3] = 255;
    }
  }
  return { data, width, height };
}

/** The image turned by 90° clockwise (its rows become columns). */
export function rotate90(image: RawImage): RawImage {
  const { width, height } = image;
  const data = new Uint8Array(image.data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      // (x, y) goes to (height − 1 − y, x) in the width-for-height image.
      const from = (y * width + x) * 4;
      const to = (x * height + (height - 1 - y)) * 4;
      for (let c = 0; c < 4; c++) data[to + c] = image.data[from + c] ?? 0;
    }
  }
  return { data, width: height, height: width };
}
