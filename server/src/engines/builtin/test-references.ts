/**
 * Procedural reference images for the builtin engine's tests: bricks (which do not tile),
 * value noise, stripes, planks, pebbles, stone tiles, fabric, photo-like noise, marble and
 * terrazzo, as RGBA {@link RawImage}s. Deterministic.
 */
import type { RawImage } from '../../imaging/raw-image.js';
import { mulberry32 } from './prng.js';

// Marble and terrazzo, for the series tests, live beside, in test-references-surfaces.ts.

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

export function clamp8(v: number): number {
  return v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
}

/**
 * The seam references: six textures of the kinds artists upload (bricks, planks, pebbles,
 * stone tiles, fabric, a photo-like noise), each with a gentle lighting drift as a photo has,
 * none of which tiles. Used by the seam tests and the seam benchmark.
 */
export function seamReferences(size: number): Record<string, RawImage> {
  return {
    bricks: bricks(size, size, 5),
    planks: planks(size, size),
    pebbles: pebbles(size, size),
    'stone tiles': stoneTiles(size, size),
    fabric: fabric(size, size),
    'photo noise': photoNoise(size, size),
  };
}

/** A lighting drift: brighter towards one corner, as a photo lit from the side. */
function drift(x: number, y: number, width: number, height: number): number {
  return 28 * (x / width - 0.5) + 18 * (y / height - 0.5);
}

/** Horizontal wooden planks with grain, dark gaps and staggered end joints, each its own tone. */
export function planks(width: number, height: number, seed = 3): RawImage {
  const rng = mulberry32(seed);
  const data = new Uint8Array(width * height * 4);
  const plankHeight = Math.max(8, Math.round(height / 6.5));
  const plankLength = Math.max(20, Math.round(width / 1.7));
  const tones = Array.from({ length: 256 }, () => rng.next());
  const phases = Array.from({ length: 256 }, () => rng.next() * 100);
  const noise = valueNoise(width, height, Math.max(4, Math.round(width / 40)), seed + 7);
  for (let y = 0; y < height; y++) {
    const row = Math.floor(y / plankHeight);
    const shift = Math.floor(((row * 0.37) % 1) * plankLength);
    for (let x = 0; x < width; x++) {
      const piece = Math.floor((x + shift) / plankLength);
      const gap = y % plankHeight < 2 || (x + shift) % plankLength < 2;
      const p = (y * width + x) * 4;
      const n = (noise.data[p] ?? 128) / 255 - 0.5;
      const k = (row * 31 + piece * 7) & 255;
      const grain = Math.sin((y + n * 6) * 1.9 + (phases[k] ?? 0) + Math.sin(x / 23) * 1.5);
      const tone = (tones[k] ?? 0) * 40 + grain * 14 + n * 20 + drift(x, y, width, height);
      if (gap) {
        data.set([50, 34, 22, 255], p);
      } else {
        data[p] = clamp8(160 + tone);
        data[p + 1] = clamp8(112 + tone * 0.8);
        data[p + 2] = clamp8(66 + tone * 0.5);
        data[p + 3] = 255;
      }
    }
  }
  return { data, width, height };
}

/** Rounded pebbles of many shades, packed, with dark gaps and soft shading. */
export function pebbles(width: number, height: number, seed = 4): RawImage {
  const rng = mulberry32(seed);
  const cell = Math.max(8, Math.round(width / 9));
  const gw = Math.ceil(width / cell) + 1;
  const gh = Math.ceil(height / cell) + 1;
  const centres = Array.from({ length: gw * gh }, (_, k) => ({
    x: ((k % gw) + 0.2 + 0.6 * rng.next()) * cell,
    y: (Math.floor(k / gw) + 0.2 + 0.6 * rng.next()) * cell,
    shade: rng.next(),
    hue: rng.next(),
  }));
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const gx = Math.floor(x / cell);
      const gy = Math.floor(y / cell);
      let d1 = Infinity;
      let d2 = Infinity;
      let best = centres[0];
      for (let j = Math.max(0, gy - 1); j <= Math.min(gh - 1, gy + 1); j++) {
        for (let i = Math.max(0, gx - 1); i <= Math.min(gw - 1, gx + 1); i++) {
          const c = centres[j * gw + i];
          if (!c) continue;
          const d = Math.hypot(x - c.x, y - c.y);
          if (d < d1) {
            d2 = d1;
            d1 = d;
            best = c;
          } else if (d < d2) d2 = d;
        }
      }
      const edge = d2 - d1;
      const p = (y * width + x) * 4;
      const lift = drift(x, y, width, height);
      if (edge < cell * 0.12 || !best) {
        data.set([clamp8(60 + lift), clamp8(55 + lift), clamp8(50 + lift), 255], p);
        continue;
      }
      const round = Math.min(1, edge / (cell * 0.45));
      const light = 0.6 + 0.4 * Math.sqrt(round) + ((best.x - x + best.y - y) / cell) * 0.15;
      const base = 110 + best.shade * 90;
      data[p] = clamp8(base * light + best.hue * 25 + lift);
      data[p + 1] = clamp8(base * light * 0.95 + lift);
      data[p + 2] = clamp8(base * light * 0.85 - best.hue * 15 + lift);
      data[p + 3] = 255;
    }
  }
  return { data, width, height };
}

/** Square stone tiles, each mottled in its own shade, with straight grout lines. */
export function stoneTiles(width: number, height: number, seed = 5): RawImage {
  const rng = mulberry32(seed);
  const tile = Math.max(12, Math.round(width / 3.6));
  const grout = Math.max(2, Math.round(tile / 14));
  const shades = Array.from({ length: 256 }, () => rng.next());
  const mottle = valueNoise(width, height, Math.max(3, Math.round(tile / 6)), seed + 11);
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * 4;
      const lift = drift(x, y, width, height);
      if (x % tile < grout || y % tile < grout) {
        data.set([clamp8(170 + lift), clamp8(165 + lift), clamp8(155 + lift), 255], p);
        continue;
      }
      const k = (Math.floor(y / tile) * 13 + Math.floor(x / tile) * 5) & 255;
      const m = ((mottle.data[p] ?? 128) + (mottle.data[p + 1] ?? 128)) / 510 - 0.5;
      const v = 95 + (shades[k] ?? 0) * 45 + m * 50 + lift;
      data[p] = clamp8(v);
      data[p + 1] = clamp8(v * 0.97);
      data[p + 2] = clamp8(v * 0.92);
      data[p + 3] = 255;
    }
  }
  return { data, width, height };
}

/** A plain weave: warp and weft threads passing over and under each other, slightly irregular. */
export function fabric(width: number, height: number, seed = 6): RawImage {
  const rng = mulberry32(seed);
  const thread = Math.max(4, Math.round(width / 40));
  const warpTone = Array.from({ length: 1024 }, () => rng.next() * 30 - 15);
  const weftTone = Array.from({ length: 1024 }, () => rng.next() * 30 - 15);
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const cx = Math.floor(x / thread);
      const cy = Math.floor(y / thread);
      const warpOnTop = (cx + cy) % 2 === 0;
      const fx = (x % thread) / thread;
      const fy = (y % thread) / thread;
      // Round threads: brightest along their middle.
      const across = warpOnTop ? fx : fy;
      const bulge = Math.sin(Math.PI * across);
      const tone = warpOnTop ? (warpTone[cx & 1023] ?? 0) : (weftTone[cy & 1023] ?? 0);
      const v = 70 + 90 * bulge + tone + drift(x, y, width, height) + (rng.next() * 10 - 5);
      const p = (y * width + x) * 4;
      data[p] = clamp8(warpOnTop ? v * 0.55 : v * 0.9);
      data[p + 1] = clamp8(warpOnTop ? v * 0.7 : v * 0.85);
      data[p + 2] = clamp8(warpOnTop ? v * 1.05 : v * 0.6);
      data[p + 3] = 255;
    }
  }
  return { data, width, height };
}

/** Fractal value noise (four octaves) with grain and a lighting drift, like a photo of rock. */
export function photoNoise(width: number, height: number, seed = 7): RawImage {
  const rng = mulberry32(seed);
  const octaves = [48, 20, 8, 3].map((cell, k) =>
    valueNoise(width, height, Math.max(2, Math.round((cell * width) / 256)), seed + k),
  );
  const weights = [0.5, 0.28, 0.15, 0.07];
  const data = new Uint8Array(width * height * 4);
  for (let p = 0; p < data.length; p += 4) {
    const x = (p / 4) % width;
    const y = Math.floor(p / 4 / width);
    let v = 0;
    for (let k = 0; k < octaves.length; k++) {
      const o = octaves[k]?.data;
      v += (weights[k] ?? 0) * (((o?.[p] ?? 0) + (o?.[p + 1] ?? 0) + (o?.[p + 2] ?? 0)) / 3);
    }
    v = 128 + (v - 128) * 2.2 + drift(x, y, width, height) + (rng.next() * 12 - 6);
    data[p] = clamp8(v * 1.02);
    data[p + 1] = clamp8(v * 0.96);
    data[p + 2] = clamp8(v * 0.88);
    data[p + 3] = 255;
  }
  return { data, width, height };
}
