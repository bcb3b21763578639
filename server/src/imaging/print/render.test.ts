/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * Pixel reads of images the test made itself, at indices inside them. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { printPixelSize } from '@tessera/contract';
import { differenceCiede2000 } from 'culori';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testCmykProfile } from '../../testing/icc-profile.js';
import { readTiffTags, TIFF_COMPRESSION, TIFF_TAG } from '../../testing/tiff-tags.js';
import { renderPrintFile, type PrintRenderTask } from './render.js';

// Issue 26, part 1: a print TIFF of every kind, checked for its pixel size, density, embedded
// profile, compression, bit depth, colour (ΔE 2000 against the HD's patches) and bleed.

const HD = { width: 1200, height: 900 };
/** The HD prints 20 × 15 cm (its ordered size), at 150 dpi here: a small print, a quick test. */
const PRINT = { widthCm: 20, heightCm: 15 };
const DPI = 150;
const BLEED_MM = 3;

/** Colour patches in the HD's middle, away from the bleed: sRGB 0–255. */
const PATCHES: { x: number; y: number; rgb: [number, number, number] }[] = [
  [128, 128, 128],
  [200, 40, 40],
  [40, 160, 60],
  [30, 60, 200],
  [230, 200, 150],
  [40, 40, 40],
  [245, 245, 240],
  [90, 60, 30],
].map((rgb, i) => ({
  x: 200 + (i % 4) * 200,
  y: 250 + Math.floor(i / 4) * 250,
  rgb: rgb as [number, number, number],
}));
const PATCH_SIDE = 120;

/** A texture of whole periods (so it tiles), out of phase at the edges, with the patches on it. */
function hdPixels(): Buffer {
  const { width, height } = HD;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const u = Math.sin((2 * Math.PI * 3 * x) / width + 0.9);
      const v = Math.sin((2 * Math.PI * 2 * y) / height + 0.4);
      pixels.set(
        [128 + 90 * u, 128 + 90 * v, 128 + 45 * (u + v)].map(Math.round),
        (y * width + x) * 3,
      );
    }
  }
  for (const { x, y, rgb } of PATCHES) {
    for (let dy = 0; dy < PATCH_SIDE; dy++) {
      for (let dx = 0; dx < PATCH_SIDE; dx++) pixels.set(rgb, ((y + dy) * width + x + dx) * 3);
    }
  }
  return pixels;
}

let dir: string;
let hdPath: string;
let cmykProfile: Buffer;
let cmykPath: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-print-render-'));
  hdPath = path.join(dir, 'tile_20x15.png');
  await sharp(hdPixels(), { raw: { ...HD, channels: 3 } })
    .png()
    .toFile(hdPath);
  cmykProfile = testCmykProfile();
  cmykPath = path.join(dir, 'test-press.icc');
  fs.writeFileSync(cmykPath, cmykProfile);
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function render(name: string, fields: Partial<PrintRenderTask> = {}): Promise<string> {
  const outputPath = path.join(dir, `${name}.tif`);
  const workDir = fs.mkdtempSync(path.join(dir, 'work-'));
  await renderPrintFile({
    sourcePath: hdPath,
    outputPath,
    workDir,
    print: PRINT,
    dpi: DPI,
    bleedMm: BLEED_MM,
    compression: 'lzw',
    bitDepth: 8,
    bleed: 'wrap',
    ...fields,
  });
  return outputPath;
}

/** libvips' own sRGB profile, as it embeds it. */
async function srgbProfile(): Promise<Buffer> {
  const tiny = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } })
    .withIccProfile('srgb')
    .tiff()
    .toBuffer();
  return (await sharp(tiny).metadata()).icc!;
}

/**
 * The file's pixels as sRGB, 0–65535: an RGB file's as they are (its embedded profile is checked
 * to be sRGB), a CMYK file's through its embedded profile.
 */
async function srgbPixels(file: string, cmyk: boolean) {
  const image = cmyk ? sharp(file) : sharp(file, { ignoreIcc: true });
  const { data, info } = await image
    .toColourspace('rgb16')
    .raw({ depth: 'ushort' })
    .toBuffer({ resolveWithObject: true });
  return { samples: new Uint16Array(data.buffer, data.byteOffset, data.length / 2), info };
}

const deltaE = differenceCiede2000();
const rgbColour = ([r, g, b]: number[]) => ({ mode: 'rgb' as const, r: r!, g: g!, b: b! });

/** ΔE 2000 of each patch: its mean in the file (a window in its middle) against its sRGB. */
async function patchErrors(file: string, cmyk: boolean): Promise<number[]> {
  const { samples, info } = await srgbPixels(file, cmyk);
  const layout = printPixelSize(PRINT, DPI, BLEED_MM);
  return PATCHES.map(({ x, y, rgb }) => {
    const cx = layout.bleedLeft + Math.round(((x + PATCH_SIDE / 2) * layout.cutWidth) / HD.width);
    const cy = layout.bleedTop + Math.round(((y + PATCH_SIDE / 2) * layout.cutHeight) / HD.height);
    const sum = [0, 0, 0];
    let n = 0;
    for (let dy = -20; dy <= 20; dy++) {
      for (let dx = -20; dx <= 20; dx++) {
        const at = ((cy + dy) * info.width + cx + dx) * info.channels;
        for (let c = 0; c < 3; c++) sum[c]! += samples[at + c]! / 65535;
        n++;
      }
    }
    return deltaE(rgbColour(sum.map((s) => s / n)), rgbColour(rgb.map((v) => v / 255)));
  });
}

describe('a print TIFF of every kind', () => {
  const layout = printPixelSize(PRINT, DPI, BLEED_MM);

  it('has the exact pixel size (cm + 2 × bleed) ÷ 2.54 × dpi', () => {
    expect(layout.width).toBe(Math.round(((20 + 0.6) / 2.54) * DPI));
    expect(layout.height).toBe(Math.round(((15 + 0.6) / 2.54) * DPI));
  });

  for (const kind of [
    { name: 'srgb-8-lzw', bitDepth: 8, compression: 'lzw', cmyk: false },
    { name: 'srgb-16-deflate', bitDepth: 16, compression: 'deflate', cmyk: false },
    { name: 'cmyk-8-lzw', bitDepth: 8, compression: 'lzw', cmyk: true },
    { name: 'cmyk-16-deflate', bitDepth: 16, compression: 'deflate', cmyk: true },
  ] as const) {
    it(`${kind.name}: size, density, profile, compression, depth and colour within ΔE 2`, async () => {
      const file = await render(kind.name, {
        bitDepth: kind.bitDepth,
        compression: kind.compression,
        ...(kind.cmyk && { profilePath: cmykPath }),
      });
      const meta = await sharp(file).metadata();
      expect([meta.width, meta.height]).toEqual([layout.width, layout.height]);
      expect(meta.density).toBe(DPI);
      expect(meta.resolutionUnit).toBe('inch');
      expect(meta.icc!.equals(kind.cmyk ? cmykProfile : await srgbProfile())).toBe(true);
      expect(meta.space).toBe(kind.cmyk ? 'cmyk' : kind.bitDepth === 16 ? 'rgb16' : 'srgb');
      expect(meta.channels).toBe(kind.cmyk ? 4 : 3);
      expect(meta.depth).toBe(kind.bitDepth === 16 ? 'ushort' : 'uchar');
      const tags = await readTiffTags(file);
      expect(tags.get(TIFF_TAG.compression)).toBe(TIFF_COMPRESSION[kind.compression]);
      expect(tags.get(TIFF_TAG.predictor)).toBe(2); // horizontal differencing
      expect(tags.get(TIFF_TAG.bitsPerSample)).toBe(kind.bitDepth);
      expect(tags.get(TIFF_TAG.resolutionUnit)).toBe(2); // inch
      expect(tags.get(TIFF_TAG.xResolution)).toBeCloseTo(DPI, 3);
      const errors = await patchErrors(file, kind.cmyk);
      expect(Math.max(...errors), errors.map((e) => e.toFixed(2)).join(' ')).toBeLessThan(2);
    }, 30_000);
  }
});

describe('the bleed', () => {
  const {
    bleedLeft: left,
    bleedTop: top,
    cutWidth: cw,
    cutHeight: ch,
    width,
    height,
  } = printPixelSize(PRINT, DPI, BLEED_MM);
  const right = width - cw - left;
  const bottom = height - ch - top;

  /** Where each bleed pixel comes from in the cut image, wrapped or mirrored (per axis). */
  const sourceOf = (mode: 'wrap' | 'mirror', at: number, bleed: number, cut: number) => {
    const inCut = at - bleed; // <0: before the cut, ≥cut: after it
    if (inCut >= 0 && inCut < cut) return at;
    if (mode === 'wrap') return bleed + ((inCut + cut) % cut);
    return bleed + (inCut < 0 ? -1 - inCut : 2 * cut - 1 - inCut);
  };

  /** Mean difference (0–255) between each bleed pixel and the image pixel it should repeat. */
  async function bleedError(file: string, mode: 'wrap' | 'mirror', region: 'sides' | 'rows') {
    const { data } = await sharp(file, { ignoreIcc: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    let sum = 0;
    let n = 0;
    const compare = (x: number, y: number) => {
      const sx = sourceOf(mode, x, left, cw);
      const sy = sourceOf(mode, y, top, ch);
      for (let c = 0; c < 3; c++) {
        sum += Math.abs(data[(y * width + x) * 3 + c]! - data[(sy * width + sx) * 3 + c]!);
      }
      n += 3;
    };
    for (let y = 0; y < height; y++) {
      const rowInBleed = y < top || y >= height - bottom;
      for (let x = 0; x < width; x++) {
        const columnInBleed = x < left || x >= width - right;
        if (region === 'sides' ? columnInBleed : rowInBleed) compare(x, y);
      }
    }
    return sum / n;
  }

  it('continues a seamless texture across the edge: each bleed pixel repeats the opposite edge', async () => {
    const file = await render('bleed-wrap', { bleed: 'wrap' });
    // The sides come from the same resample as the image: equal. The top and bottom rows are
    // the same resample continued across the cut line: equal but where the kernel reaches it.
    expect(await bleedError(file, 'wrap', 'sides')).toBeLessThan(0.5);
    expect(await bleedError(file, 'wrap', 'rows')).toBeLessThan(1.5);
    expect(await bleedError(file, 'mirror', 'sides')).toBeGreaterThan(4);
    expect(await bleedError(file, 'mirror', 'rows')).toBeGreaterThan(4);
  }, 30_000);

  it('mirrors any other image at its edges', async () => {
    const file = await render('bleed-mirror', { bleed: 'mirror' });
    expect(await bleedError(file, 'mirror', 'sides')).toBeLessThan(0.5);
    expect(await bleedError(file, 'mirror', 'rows')).toBeLessThan(1.5);
    expect(await bleedError(file, 'wrap', 'sides')).toBeGreaterThan(4);
    expect(await bleedError(file, 'wrap', 'rows')).toBeGreaterThan(4);
  }, 30_000);

  it('makes a file of the cut size alone without bleed', async () => {
    const file = await render('no-bleed', { bleedMm: 0 });
    const size = printPixelSize(PRINT, DPI, 0);
    const meta = await sharp(file).metadata();
    expect([meta.width, meta.height]).toEqual([size.cutWidth, size.cutHeight]);
  });
});
