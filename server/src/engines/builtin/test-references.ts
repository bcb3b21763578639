/**
 * Procedural reference images for the builtin engine's tests: bricks (which do not tile),
 * value noise and stripes, as RGBA {@link RawImage}s. Deterministic.
 */
import type { RawImage } from '../engine.js';
import { mulberry32 } from './prng.js';

/**
 * Running-bond bricks with light mortar lines, each brick its own shade of red, plus a gentle
 * left-to-right and top-to-bottom tint: the sizes are not divisors of the image, so the image
 * does not tile (its opposite edges do not match).
 */
export function bricks(width: number, height: number, seed = 1): RawImage {
  const rng = mulberry32(seed);
  const data = new Uint8Array(width * height * 4);
  const rowHeight = Math.max(6, Math.round(height / 7.3));
  const brickWidth = Math.max(10, Math.round(width / 4.4));
  const mortar = Math.max(2, Math.round(rowHeight / 8));
  const shades = Array.from({ length: 4096 }, () => rng.next());
  for (let y = 0; y < height; y++) {
    const row = Math.floor(y / rowHeight);
    const shift = row % 2 === 0 ? 0 : Math.floor(brickWidth / 2);
    for (let x = 0; x < width; x++) {
      const col = Math.floor((x + shift) / brickWidth);
      const inMortar = y % rowHeight < mortar || (x + shift) % brickWidth < mortar;
      const grain = rng.next() * 24 - 12;
      const tint = (x / width) * 40 + (y / height) * 30;
      const p = (y * width + x) * 4;
      if (inMortar) {
        data[p] = clamp8(190 + grain + tint / 2);
        data[p + 1] = clamp8(185 + grain + tint / 2);
        data[p + 2] = clamp8(175 + grain);
      } else {
        const shade = (shades[(row * 131 + col * 17) & 4095] ?? 0) * 60;
        data[p] = clamp8(130 + shade + grain + tint);
        data[p + 1] = clamp8(50 + shade / 3 + grain);
        data[p + 2] = clamp8(40 + grain + tint / 3);
      }
      data[p + 3] = 255;
    }
  }
  return { data, width, height };
}

/** Smooth coloured value noise: random colours on a `cell`-pixel grid, bilinearly blended. */
export function valueNoise(width: number, height: number, cell = 16, seed = 2): RawImage {
  const rng = mulberry32(seed);
  const gw = Math.ceil(width / cell) + 2;
  const gh = Math.ceil(height / cell) + 2;
  const grid = Float64Array.from({ length: gw * gh * 3 }, () => rng.next() * 255);
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const gy = Math.floor(y / cell);
    const fy = smooth((y % cell) / cell);
    for (let x = 0; x < width; x++) {
      const gx = Math.floor(x / cell);
      const fx = smooth((x % cell) / cell);
      const p = (y * width + x) * 4;
      for (let c = 0; c < 3; c++) {
        const a = grid[(gy * gw + gx) * 3 + c] ?? 0;
        const b = grid[(gy * gw + gx + 1) * 3 + c] ?? 0;
        const d = grid[((gy + 1) * gw + gx) * 3 + c] ?? 0;
        const e = grid[((gy + 1) * gw + gx + 1) * 3 + c] ?? 0;
        data[p + c] = clamp8((a * (1 - fx) + b * fx) * (1 - fy) + (d * (1 - fx) + e * fx) * fy);
      }
      data[p + 3] = 255;
    }
  }
  return { data, width, height };
}

/** Diagonal stripes of three colours, `period` pixels wide. */
export function stripes(width: number, height: number, period = 24): RawImage {
  const colours = [
    [200, 60, 40],
    [240, 220, 120],
    [40, 80, 160],
  ] as const;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const band = Math.floor((x + y) / (period / 3)) % 3;
      const colour = colours[band] ?? colours[0];
      const p = (y * width + x) * 4;
      data[p] = colour[0];
      data[p + 1] = colour[1];
      data[p + 2] = colour[2];
      data[p + 3] = 255;
    }
  }
  return { data, width, height };
}

function smooth(t: number): number {
  return t * t * (3 - 2 * t);
}

function clamp8(v: number): number {
  return v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
}
