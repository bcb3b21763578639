/**
 * Procedural references of stochastic materials (issue 27, part 3): granite, sand, moss and
 * concrete — textures without structure, for the blending tests, the classifier's tests and the
 * repetition benchmark — as RGBA {@link RawImage}s. Deterministic; every feature's size is a
 * fraction of the width, so a reference looks the same at any size. Import them from here.
 */
import type { RawImage } from '../../imaging/raw-image.js';
import { mulberry32 } from './prng.js';
import { marble, terrazzo } from './test-references-surfaces.js';
import { bricks, clamp8, planks, stoneTiles, stripes, valueNoise } from './test-references.js';

/** Granite: interlocked grains (a jittered Voronoi) of black mica, white quartz, pink feldspar. */
export function granite(width: number, height: number, seed = 11): RawImage {
  const rng = mulberry32(seed);
  const cell = Math.max(3, width / 56);
  const gw = Math.ceil(width / cell) + 1;
  const gh = Math.ceil(height / cell) + 1;
  const palette = [
    { weight: 0.3, rgb: [38, 36, 38] },
    { weight: 0.35, rgb: [214, 210, 204] },
    { weight: 0.25, rgb: [196, 150, 140] },
    { weight: 0.1, rgb: [128, 124, 122] },
  ];
  const grains = Array.from({ length: gw * gh }, (_, k) => {
    let pick = rng.next();
    const colour = palette.find((p) => (pick -= p.weight) < 0) ?? palette[0];
    return {
      x: ((k % gw) + rng.next()) * cell,
      y: (Math.floor(k / gw) + rng.next()) * cell,
      rgb: colour?.rgb ?? [0, 0, 0],
      shade: rng.next() * 36 - 18,
    };
  });
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const gx = Math.floor(x / cell);
      const gy = Math.floor(y / cell);
      let best = grains[0];
      let d1 = Infinity;
      for (let j = Math.max(0, gy - 1); j <= Math.min(gh - 1, gy + 1); j++) {
        for (let i = Math.max(0, gx - 1); i <= Math.min(gw - 1, gx + 1); i++) {
          const g = grains[j * gw + i];
          const d = g ? (x - g.x) ** 2 + (y - g.y) ** 2 : Infinity;
          if (d < d1) [d1, best] = [d, g];
        }
      }
      const grain = rng.next() * 16 - 8 + (best?.shade ?? 0);
      const [r = 0, g = 0, b = 0] = best?.rgb ?? [];
      data.set([clamp8(r + grain), clamp8(g + grain), clamp8(b + grain), 255], (y * width + x) * 4);
    }
  }
  return { data, width, height };
}

/** Sand: fine grains of many tones on a beige ground, a few dark and bright grains between. */
export function sand(width: number, height: number, seed = 12): RawImage {
  const rng = mulberry32(seed);
  const soft = valueNoise(width, height, Math.max(2, Math.round(width / 90)), seed + 1);
  const broad = valueNoise(width, height, Math.max(4, Math.round(width / 24)), seed + 2);
  const data = new Uint8Array(width * height * 4);
  for (let p = 0; p < data.length; p += 4) {
    const s = (soft.data[p] ?? 128) - 128;
    const b = (broad.data[p + 1] ?? 128) - 128;
    let v = 186 + 0.25 * s + 0.1 * b + rng.next() * 30 - 15;
    const speck = rng.next();
    if (speck < 0.03) v -= 70;
    else if (speck > 0.985) v += 40;
    data[p] = clamp8(v + 8);
    data[p + 1] = clamp8(v * 0.86);
    data[p + 2] = clamp8(v * 0.62);
    data[p + 3] = 255;
  }
  return { data, width, height };
}

/** Moss: clumps of dark and bright green at three scales, with yellow-green tips here and there. */
export function moss(width: number, height: number, seed = 13): RawImage {
  const rng = mulberry32(seed);
  const octaves = [14, 40, 110].map((parts, k) =>
    valueNoise(width, height, Math.max(2, Math.round(width / parts)), seed + k),
  );
  const weights = [0.45, 0.35, 0.2];
  const data = new Uint8Array(width * height * 4);
  for (let p = 0; p < data.length; p += 4) {
    let n = 0;
    for (let k = 0; k < octaves.length; k++)
      n += (weights[k] ?? 0) * ((octaves[k]?.data[p] ?? 128) - 128);
    const t = Math.max(-1, Math.min(1, n / 45)) + rng.next() * 0.3 - 0.15;
    const tip = rng.next() < 0.02 ? 40 : 0;
    data[p] = clamp8(70 + 45 * t + tip);
    data[p + 1] = clamp8(105 + 60 * t + tip);
    data[p + 2] = clamp8(38 + 20 * t);
    data[p + 3] = 255;
  }
  return { data, width, height };
}

/** Concrete: a grey cement of soft cloudy tones, fine grit, small dark pores and aggregate. */
export function concrete(width: number, height: number, seed = 14): RawImage {
  const rng = mulberry32(seed);
  const octaves = [8, 24, 70].map((parts, k) =>
    valueNoise(width, height, Math.max(2, Math.round(width / parts)), seed + k),
  );
  const weights = [0.5, 0.3, 0.2];
  const data = new Uint8Array(width * height * 4);
  for (let p = 0; p < data.length; p += 4) {
    let n = 0;
    for (let k = 0; k < octaves.length; k++)
      n += (weights[k] ?? 0) * ((octaves[k]?.data[p + 2] ?? 128) - 128);
    const v = 150 + 0.45 * n + rng.next() * 16 - 8;
    data[p] = clamp8(v);
    data[p + 1] = clamp8(v - 2);
    data[p + 2] = clamp8(v - 6);
    data[p + 3] = 255;
  }
  // Pores (dark) and aggregate (light or dark specks), round, of many small sizes.
  const spots = Math.round((width * height) / 160);
  for (let k = 0; k < spots; k++) {
    const cx = rng.next() * width;
    const cy = rng.next() * height;
    const r = (0.6 + rng.next() ** 2 * 2.4) * Math.max(1, width / 512);
    const pore = rng.next() < 0.6;
    const tone = pore ? 70 + rng.next() * 30 : 110 + rng.next() * 90;
    for (let y = Math.floor(cy - r); y <= cy + r; y++) {
      for (let x = Math.floor(cx - r); x <= cx + r; x++) {
        if (x < 0 || y < 0 || x >= width || y >= height) continue;
        if ((x - cx) ** 2 + (y - cy) ** 2 > r * r) continue;
        const p = (y * width + x) * 4;
        data[p] = clamp8(tone);
        data[p + 1] = clamp8(tone - 2);
        data[p + 2] = clamp8(tone - 5);
      }
    }
  }
  return { data, width, height };
}

/** The stochastic references the issue names, at `size`²: blending's materials. */
export function stochasticReferences(size: number): Record<string, RawImage> {
  return {
    granite: granite(size, size),
    sand: sand(size, size),
    terrazzo: terrazzo(size, size),
    moss: moss(size, size),
    concrete: concrete(size, size),
  };
}

/** The structured references the issue names, at `size`²: quilting's materials. */
export function structuredReferences(size: number): Record<string, RawImage> {
  return {
    bricks: bricks(size, size, 5),
    planks: planks(size, size),
    stripes: stripes(size, size, Math.max(12, Math.round(size / 10))),
    marble: marble(size, size),
    'stone tiles': stoneTiles(size, size),
  };
}
