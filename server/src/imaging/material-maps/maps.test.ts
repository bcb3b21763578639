/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * Pixel reads of images the test made itself, at indices inside them. */
import { PassThrough } from 'node:stream';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PLAIN_ROUGHNESS } from '../finishes.js';
import { marginRows, settingsFor, type MapSettings } from './map-settings.js';
import { MATERIAL_MAP_NAMES, unitToByte } from './maps.js';
import { greyImage as image, heightAt, mapsOf, normalAt } from '../../testing/material-maps.js';
import { memoryWatch } from '../../testing/memory.js';
import { PngStreamWriter } from './png-stream.js';
import { processInStrips, type RowSource } from './strips.js';

describe('normal maps of a known slope', () => {
  const strength = 25;
  const settings = (width: number, height: number): MapSettings => ({
    width,
    height,
    edges: 'clamp',
    normalStrength: strength,
    occlusionRadius: 2,
    occlusionStrength: 5,
    invertHeight: false,
    roughness: PLAIN_ROUGHNESS,
  });
  // Luminance rising 4 levels per pixel: a height slope of 4/255 per pixel.
  const slope = 4 / 255;
  const length = Math.hypot(strength * slope, 1);
  const lean = unitToByte((strength * slope) / length);
  const away = unitToByte(-(strength * slope) / length);
  const up = unitToByte(1 / length);

  it('leans a surface rising to the right towards the left, alike in both conventions', async () => {
    const maps = await mapsOf(
      image(40, 20, (x) => 40 + 4 * x),
      settings(40, 20),
    );
    // Red below the middle: the normal points left, away from the rise.
    expect(normalAt(maps['normal-opengl'], 20, 10)).toEqual([away, 128, up]);
    expect(normalAt(maps['normal-directx'], 20, 10)).toEqual([away, 128, up]);
    expect(away).toBeLessThan(100);
  });

  it('leans a surface rising down the image up it: green high in OpenGL, low in DirectX', async () => {
    const maps = await mapsOf(
      image(20, 40, (_x, y) => 40 + 4 * y),
      settings(20, 40),
    );
    expect(normalAt(maps['normal-opengl'], 10, 20)).toEqual([128, lean, up]);
    expect(normalAt(maps['normal-directx'], 10, 20)).toEqual([128, away, up]);
    expect(lean).toBeGreaterThan(156);
  });

  it('gives a flat surface a normal straight out of it', async () => {
    const maps = await mapsOf(
      image(16, 16, () => 120),
      settings(16, 16),
    );
    for (const y of [0, 8, 15])
      expect(normalAt(maps['normal-opengl'], 8, y)).toEqual([128, 128, 255]);
    // Nothing is below its surroundings: no occlusion.
    expect(maps['ambient-occlusion'][8]![8]).toBe(255);
  });

  it('shades a pit in the occlusion map and keeps the heights in 16 bits', async () => {
    const pit = image(48, 48, (x, y) => (Math.hypot(x - 24, y - 24) < 4 ? 40 : 200));
    const maps = await mapsOf(pit, settingsFor(48, 48, 'clamp'));
    expect(maps['ambient-occlusion'][24]![24]).toBeLessThan(200);
    expect(maps['ambient-occlusion'][2]![2]).toBe(255);
    const height = (x: number, y: number) => heightAt(maps.height, x, y);
    expect(height(2, 2)).toBe(Math.round((200 / 255) * 65535));
    expect(height(24, 24)).toBeLessThan(height(2, 2));
  });
});

describe('seamless textures', () => {
  const width = 96;
  const height = 64;
  // Tileable: whole periods across the image, plus fixed noise.
  const noise = image(width, height, (x, y) => ((x * 7919 + y * 104729) % 41) - 20);
  const texture = image(
    width,
    height,
    (x, y) =>
      128 +
      50 * Math.sin((2 * Math.PI * 3 * x) / width) * Math.cos((2 * Math.PI * 2 * y) / height) +
      noise[y * width + x]! * 0.5,
  );

  /** The texture shifted by (dx, dy) with wrap-around: a tile's seam moved into its middle. */
  function rolled(pixels: Uint8Array, dx: number, dy: number): Uint8Array {
    return image(
      width,
      height,
      (x, y) => pixels[((y + dy) % height) * width + ((x + dx) % width)]!,
    );
  }

  /** Mean difference across the left/right seam against that of the column pairs beside it. */
  function seamRatio(rows: Uint8Array[], channels: number): number {
    let seam = 0;
    let beside = 0;
    for (const row of rows) {
      for (let c = 0; c < channels; c++) {
        const at = (x: number) => row[x * channels + c]!;
        seam += Math.abs(at(width - 1) - at(0));
        beside += (Math.abs(at(1) - at(0)) + Math.abs(at(width - 1) - at(width - 2))) / 2;
      }
    }
    return seam / beside;
  }

  it('makes maps that tile: the same maps wherever the tile is cut', async () => {
    const settings = settingsFor(width, height, 'wrap');
    const whole = await mapsOf(texture, settings);
    const shifted = await mapsOf(rolled(texture, 40, 25), settings);
    for (const map of MATERIAL_MAP_NAMES) {
      const bytesPerPixel = whole[map][0]!.length / width;
      for (let y = 0; y < height; y++) {
        const expected = whole[map][(y + 25) % height]!;
        const row = shifted[map][y]!;
        const wrapped = Uint8Array.from({ length: row.length }, (_, i) => {
          return expected[(i + 40 * bytesPerPixel) % expected.length]!;
        });
        expect(row, `${map}, row ${y}`).toEqual(wrapped);
      }
    }
  });

  it('continues across the left/right edge as it does between neighbours; clamped edges do not', async () => {
    const wrap = await mapsOf(texture, settingsFor(width, height, 'wrap'));
    const clamp = await mapsOf(texture, settingsFor(width, height, 'clamp'));
    for (const map of ['normal-opengl', 'ambient-occlusion', 'roughness'] as const) {
      const channels = map === 'normal-opengl' ? 3 : 1;
      expect(seamRatio(wrap[map], channels), map).toBeLessThan(1.5);
    }
    expect(seamRatio(clamp['normal-opengl'], 3)).toBeGreaterThan(2);
  });

  it('gives the same maps whatever the strip height', async () => {
    const settings = settingsFor(width, height, 'wrap');
    const oneStrip = await mapsOf(texture, settings);
    for (const stripRows of [1, 7, 50]) {
      expect(await mapsOf(texture, settings, stripRows)).toEqual(oneStrip);
    }
    const clamped = settingsFor(width, height, 'clamp');
    expect(await mapsOf(texture, clamped, 5)).toEqual(await mapsOf(texture, clamped));
  });
});

describe('large images', () => {
  it('makes the maps of a 24 MP image holding one strip and its margins, never the image', async () => {
    const width = 8_000;
    const height = 3_000;
    // Procedural rows: the test holds no image either.
    let reads = 0;
    const source: RowSource = {
      width,
      height,
      readRows: (top, count) => {
        reads++;
        const rows = new Uint8Array(count * width);
        for (let r = 0; r < count; r++) {
          const y = top + r;
          for (let x = 0; x < width; x++)
            rows[r * width + x] = (x * 13 + y * 7 + ((x * y) >> 6)) & 0xff;
        }
        return Promise.resolve(rows);
      },
    };
    const settings = settingsFor(width, height, 'wrap');
    const memory = memoryWatch();
    let rowsSeen = 0;
    const stats = await processInStrips(source, settings, {
      row: () => {
        rowsSeen++;
      },
      flush: () => {
        // A strip's maps are done: its planes and window are all alive now.
        memory.sample();
        return Promise.resolve();
      },
    });
    memory.stop();
    expect(rowsSeen).toBe(height);
    expect(reads).toBeGreaterThan(1);
    const stripRows = Math.floor(1_000_000 / width);
    expect(stats.maxRowsHeld).toBe(stripRows + 2 * marginRows(settings));
    expect(stats.maxRowsHeld).toBeLessThan(height / 10);
    // The filters work on four float planes: 384 MB for the whole image, one plane alone 96 MB.
    // What the strips hold alive stays under half of one plane.
    const floatPlane = width * height * 4;
    expect(memory.liveGrowth()).toBeLessThan(floatPlane * 0.5);
  }, 120_000);
});

describe('PNG written row by row', () => {
  it('decodes to the rows written, 8-bit RGB and 16-bit grey alike', async () => {
    const width = 37;
    const height = 23;
    const settings = settingsFor(width, height, 'clamp');
    const pixels = image(width, height, (x, y) => (x * 9 + y * 5) % 256);
    const expected = await mapsOf(pixels, settings);
    for (const map of ['normal-opengl', 'height', 'roughness'] as const) {
      const channels = map === 'normal-opengl' ? 3 : 1;
      const bitDepth = map === 'height' ? 16 : 8;
      const out = new PassThrough();
      const chunks: Buffer[] = [];
      out.on('data', (c: Buffer) => chunks.push(c));
      const writer = new PngStreamWriter({ width, height, channels, bitDepth }, out);
      for (const row of expected[map]) writer.writeRow(row);
      await writer.end();
      const png = sharp(Buffer.concat(chunks));
      const meta = await png.metadata();
      expect([meta.width, meta.height, meta.channels, meta.depth]).toEqual([
        width,
        height,
        channels,
        bitDepth === 16 ? 'ushort' : 'uchar',
      ]);
      if (bitDepth === 8) {
        const raw = await (channels === 1 ? png.toColourspace('b-w') : png).raw().toBuffer();
        expect(new Uint8Array(raw)).toEqual(Uint8Array.from(expected[map].flatMap((r) => [...r])));
      } else {
        // sharp turns 16-bit grey into 8-bit sRGB on output: the samples are read back here.
        expect(pngRows(Buffer.concat(chunks), width * 2)).toEqual(expected[map]);
      }
    }
  });
});

/** The unfiltered rows of a PNG written with the Sub filter (2 bytes a pixel). */
function pngRows(png: Buffer, rowBytes: number): Uint8Array[] {
  const data: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT')
      data.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = zlib.inflateSync(Buffer.concat(data));
  const rows: Uint8Array[] = [];
  for (let at = 0; at < raw.length; at += rowBytes + 1) {
    expect(raw[at]).toBe(1);
    const row = Uint8Array.from(raw.subarray(at + 1, at + 1 + rowBytes));
    for (let i = 2; i < rowBytes; i++) row[i] = (row[i]! + row[i - 2]!) & 0xff;
    rows.push(row);
  }
  return rows;
}
