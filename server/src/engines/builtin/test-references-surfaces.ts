/**
 * Procedural references of printed tile surfaces for the series tests (issue 25): marble veins
 * and terrazzo, as RGBA {@link RawImage}s. Deterministic. Import them from test-references.ts.
 */
import type { RawImage } from '../../imaging/raw-image.js';
import { mulberry32 } from './prng.js';
import { clamp8, photoNoise } from './test-references.js';

/** White marble: grey veins along a turbulent diagonal (noise-displaced), a few darker ones. */
export function marble(width: number, height: number, seed = 8): RawImage {
  const turbulence = photoNoise(width, height, seed);
  const data = new Uint8Array(width * height * 4);
  for (let p = 0; p < data.length; p += 4) {
    const x = (p / 4) % width;
    const y = Math.floor(p / 4 / width);
    const t = ((turbulence.data[p] ?? 128) - 128) / 64;
    const phase = ((x + 0.6 * y) / width) * 9 + 2.4 * t;
    const vein = Math.pow(1 - Math.abs(Math.sin(phase)), 10);
    const fine = Math.pow(1 - Math.abs(Math.sin(phase * 3.1 + t)), 24);
    const v = 236 - 120 * vein - 50 * fine + 6 * t;
    data[p] = clamp8(v);
    data[p + 1] = clamp8(v - 3);
    data[p + 2] = clamp8(v - 8 + 10 * vein);
    data[p + 3] = 255;
  }
  return { data, width, height };
}

/** Terrazzo: chips of stone in five colours and many sizes set in a speckled cream matrix. */
export function terrazzo(width: number, height: number, seed = 9): RawImage {
  const rng = mulberry32(seed);
  const data = new Uint8Array(width * height * 4);
  for (let p = 0; p < data.length; p += 4) {
    const v = 222 + rng.next() * 14 - 7;
    data[p] = clamp8(v);
    data[p + 1] = clamp8(v - 8);
    data[p + 2] = clamp8(v - 22);
    data[p + 3] = 255;
  }
  const colours = [
    [60, 60, 64],
    [170, 70, 55],
    [120, 140, 150],
    [235, 235, 228],
    [150, 120, 80],
  ];
  const chips = Math.round((width * height) / 90);
  for (let k = 0; k < chips; k++) {
    const cx = rng.next() * width;
    const cy = rng.next() * height;
    const r = 1.5 + rng.next() ** 3 * 9;
    const [cr, cg, cb] = colours[rng.int(colours.length)] ?? [0, 0, 0];
    const shade = rng.next() * 30 - 15;
    const squash = 0.6 + rng.next() * 0.8;
    for (let y = Math.floor(cy - r); y <= cy + r; y++) {
      for (let x = Math.floor(cx - r); x <= cx + r; x++) {
        if (x < 0 || y < 0 || x >= width || y >= height) continue;
        if ((x - cx) ** 2 * squash + (y - cy) ** 2 / squash > r * r) continue;
        const p = (y * width + x) * 4;
        data[p] = clamp8((cr ?? 0) + shade);
        data[p + 1] = clamp8((cg ?? 0) + shade);
        data[p + 2] = clamp8((cb ?? 0) + shade);
      }
    }
  }
  return { data, width, height };
}
