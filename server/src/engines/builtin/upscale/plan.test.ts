import { HD_SIZES, OUTPUT_FORMATS, hdSizesForFormat, hdTargetSize } from '@tessera/contract';
import { describe, expect, it } from 'vitest';
import {
  detailWidthFor,
  encodingFor,
  modelScaleFor,
  padIndex,
  splitEvenly,
  tileGrid,
  upscaleFactor,
  wrapExtension,
} from './plan.js';

describe('upscaler plan', () => {
  it('uses the ×2 model below a factor of 4 and the ×4 model from 4 on, for every HD size', () => {
    expect(modelScaleFor(2.1)).toBe(2);
    expect(modelScaleFor(3.99)).toBe(2);
    expect(modelScaleFor(4)).toBe(4);
    expect(modelScaleFor(14.04)).toBe(4);
    const models: Record<string, number> = {};
    for (const format of OUTPUT_FORMATS) {
      for (const label of hdSizesForFormat(format.name)) {
        const size = hdTargetSize(format.width, format.height, label);
        models[`${format.name} ${label}`] = modelScaleFor(upscaleFactor(format, size));
      }
    }
    expect(models['Square 30x30']).toBe(2);
    expect(models['Rectangle 30x60']).toBe(2);
    expect(models['Plank 120x20']).toBe(2);
    expect(models['Square 60x60']).toBe(4);
    expect(models['Rectangle 120x240']).toBe(4);
    expect(models['Slab 320x140']).toBe(4);
    expect(Object.keys(models).length).toBe(HD_SIZES.length);
  });

  it("counts the network's output as the detail, never wider than the target (issue 26)", () => {
    // Square 30x30: 1024 px through ×2 is 2048 px of the HD's 2150.
    expect(detailWidthFor(1024, 2150, modelScaleFor(2150 / 1024))).toBe(2048);
    // Square 60x60 (factor 4.05): ×4, 4096 px of the HD's 4147; Plank 120x20 (3.4): ×2, 5012 of 8520.
    expect(detailWidthFor(1024, 4147, modelScaleFor(4147 / 1024))).toBe(4096);
    expect(detailWidthFor(2506, 8520, modelScaleFor(8520 / 2506))).toBe(5012);
    // A network output wider than the target is resampled down: only the target's pixels remain.
    expect(detailWidthFor(1000, 1900, 2)).toBe(1900);
    // Lanczos alone: the LD's own width.
    expect(detailWidthFor(1024, 2150, 1)).toBe(1024);
  });

  it('cuts a side into the fewest even parts', () => {
    expect(splitEvenly(1024, 296)).toEqual([
      { start: 0, size: 256 },
      { start: 256, size: 256 },
      { start: 512, size: 256 },
      { start: 768, size: 256 },
    ]);
    expect(splitEvenly(160, 56).map((span) => span.size)).toEqual([54, 53, 53]);
    expect(splitEvenly(10, 100)).toEqual([{ start: 0, size: 10 }]);
  });

  it('covers the image with tiles exactly once', () => {
    const width = 1448;
    const height = 724;
    const covered = new Uint8Array(width * height);
    const tiles = tileGrid(width, height, 296);
    expect(tiles.length).toBe(5 * 3);
    for (const tile of tiles) {
      expect(tile.width).toBeLessThanOrEqual(296);
      for (let y = tile.y; y < tile.y + tile.height; y++) {
        for (let x = tile.x; x < tile.x + tile.width; x++) {
          const at = y * width + x;
          covered[at] = (covered[at] ?? 0) + 1;
        }
      }
    }
    expect(covered.every((count) => count === 1)).toBe(true);
  });

  it('reads beyond the edges around the torus (wrap) or mirrored (mirror)', () => {
    expect([-2, -1, 0, 4, 5, 6, 11].map((i) => padIndex(i, 5, 'wrap'))).toEqual([
      3, 4, 0, 4, 0, 1, 1,
    ]);
    expect([-3, -2, -1, 0, 4, 5, 6, 7].map((i) => padIndex(i, 5, 'mirror'))).toEqual([
      2, 1, 0, 0, 4, 4, 3, 2,
    ]);
    expect(padIndex(-1, 1, 'mirror')).toBe(0);
  });

  it('extends a seamless image so that the resize keeps the exact scale', () => {
    // Rectangle 120x240 after the ×4 model: 5792 → 16333.
    const x = wrapExtension(5792, 16333, 3);
    expect(x.pad).toBeGreaterThanOrEqual(3);
    expect(x.error).toBeLessThan(0.01);
    expect(x.cut).toBe(Math.round((x.pad * 16333) / 5792));
    // A whole factor needs no search.
    expect(wrapExtension(100, 300, 3)).toEqual({ pad: 3, cut: 9, error: 0 });
    for (const size of HD_SIZES) {
      const target = hdTargetSize(1448, 724, size.label);
      expect(wrapExtension(1448 * 2, target.width, 3).error).toBeLessThan(0.02);
    }
  });

  it('encodes by the extension: .png, .jpg or .jpeg, nothing else', () => {
    expect(encodingFor('/x/a.png')).toBe('png');
    expect(encodingFor('/x/a.JPG')).toBe('jpeg');
    expect(encodingFor('/x/a.jpeg')).toBe('jpeg');
    expect(() => encodingFor('/x/a.tiff')).toThrow(/\.png or \.jpg/);
  });
});
