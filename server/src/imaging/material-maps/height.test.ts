/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * Pixel reads of maps the test made itself, at indices inside them. */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { DEFAULT_HEIGHT_SETTINGS, type HeightSettings } from '@tessera/contract';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../testing/fixtures.js';
import {
  greyImage,
  heightAt,
  mapsOf,
  normalAt,
  type MapsInMemory,
} from '../../testing/material-maps.js';
import { WorkerMaterialMapsMaker } from './maker.js';
import { settingsFor, type EdgeMode } from './map-settings.js';
import { MATERIAL_MAP_NAMES, unitToByte } from './maps.js';

// How the height is read (issue 26, part 4): inverted (dark high) and its relief's strength.

const INVERTED: HeightSettings = { invert: true, strength: 1 };
const at = (strength: number, invert = false): HeightSettings => ({ invert, strength });

/** A texture with relief in both directions and a fine grain, at a size no filter divides. */
const texture = greyImage(300, 200, (x, y) => {
  const wave = Math.sin((2 * Math.PI * 3 * x) / 300) * Math.cos((2 * Math.PI * 2 * y) / 200);
  return 128 + 70 * wave + (((x * 7919 + y * 104729) % 23) - 11);
});

const mapsOfTexture = (edges: EdgeMode, height?: HeightSettings) =>
  mapsOf(texture, settingsFor(300, 200, edges, height), 64);

/** One digest of every map's rows, in the order the maps are written. */
function digest(maps: MapsInMemory): string {
  const hash = createHash('sha256');
  for (const map of MATERIAL_MAP_NAMES) for (const row of maps[map]) hash.update(row);
  return hash.digest('hex');
}

/** Every pixel's value of a one-byte-a-sample map (roughness, occlusion, a normal's bytes). */
const bytes = (rows: Uint8Array[]) => rows.flatMap((row) => [...row]);

describe('the height as it always was', () => {
  // Digests of the maps made before the height settings existed (the commit before them).
  const BEFORE: Record<EdgeMode, string> = {
    wrap: '7fb04b31cd4c3dcca31fe9375db7de6cdd0f5da49a09ecbe5c255d5de50af9a6',
    clamp: '0d08949b568a37afb98b19a2f746f6c942ea3bdeee251c3dc5e59c6d962d6f40',
  };

  it('makes, at strength 1 and not inverted, the very maps it made before, byte for byte', async () => {
    for (const edges of ['wrap', 'clamp'] as const) {
      expect(digest(await mapsOfTexture(edges, DEFAULT_HEIGHT_SETTINGS)), edges).toBe(
        BEFORE[edges],
      );
      expect(digest(await mapsOfTexture(edges)), edges).toBe(BEFORE[edges]);
    }
  });
});

describe('an inverted height', () => {
  it('is the complement of the plain one: 1 − height, in every 16-bit level', async () => {
    const plain = await mapsOfTexture('wrap');
    const inverted = await mapsOfTexture('wrap', INVERTED);
    for (let y = 0; y < 200; y++) {
      for (let x = 0; x < 300; x++) {
        const level = heightAt(inverted.height, x, y);
        if (level !== 65535 - heightAt(plain.height, x, y)) {
          throw new Error(`(${x}, ${y}): ${level} against ${heightAt(plain.height, x, y)}`);
        }
      }
    }
  });

  it('turns every normal the other way and keeps the roughness, which reads brightness', async () => {
    const plain = await mapsOfTexture('clamp');
    const inverted = await mapsOfTexture('clamp', INVERTED);
    for (const map of ['normal-opengl', 'normal-directx'] as const) {
      const before = bytes(plain[map]);
      const after = bytes(inverted[map]);
      let worst = 0;
      for (let i = 0; i < before.length; i++) {
        // x and y mirror about 127.5 (a byte apart at most where rounding meets a half); z stays.
        const expected = i % 3 === 2 ? before[i]! : 255 - before[i]!;
        worst = Math.max(worst, Math.abs(after[i]! - expected));
      }
      expect(worst, map).toBeLessThanOrEqual(1);
    }
    expect(bytes(inverted.roughness)).toEqual(bytes(plain.roughness));
  });

  it('lays light mortar between dark bricks low: the mortar is shaded, the bricks are not', async () => {
    // Bricks 40 × 20 px, value 70, in 4 px mortar of value 220.
    const wall = greyImage(88, 48, (x, y) => {
      const row = Math.floor(y / 24);
      const shifted = (x + (row % 2) * 22) % 44;
      return y % 24 < 4 || shifted < 4 ? 220 : 70;
    });
    const settings = (height?: HeightSettings) => settingsFor(88, 48, 'wrap', height);
    const plain = await mapsOf(wall, settings());
    const inverted = await mapsOf(wall, settings(INVERTED));
    const [brick, mortar] = [
      [26, 14],
      [26, 1],
    ] as const;
    // As luminance reads it, the mortar stands proud and the bricks sink, shaded.
    expect(heightAt(plain.height, ...mortar)).toBeGreaterThan(heightAt(plain.height, ...brick));
    expect(plain['ambient-occlusion'][brick[1]]![brick[0]]).toBeLessThan(255);
    expect(plain['ambient-occlusion'][mortar[1]]![mortar[0]]).toBe(255);
    // Inverted, as a wall is built.
    expect(heightAt(inverted.height, ...mortar)).toBeLessThan(heightAt(inverted.height, ...brick));
    expect(inverted['ambient-occlusion'][mortar[1]]![mortar[0]]).toBeLessThan(255);
    expect(inverted['ambient-occlusion'][brick[1]]![brick[0]]).toBe(255);
  });
});

describe('the height’s strength', () => {
  // Luminance rising 4 levels a pixel to the right: a slope of 4/255 a pixel (maps.test.ts).
  const ramp = greyImage(40, 20, (x) => 40 + 4 * x);
  const rampMaps = (height: HeightSettings) => mapsOf(ramp, settingsFor(40, 20, 'clamp', height));
  /** The OpenGL normal of the ramp at strength s: the filters' strength 6 at 1024 px and below. */
  const expectedNormal = (s: number) => {
    const lean = 6 * s * (4 / 255);
    const length = Math.hypot(lean, 1);
    return [unitToByte(-lean / length), 128, unitToByte(1 / length)];
  };

  it('tilts the normals of a slope more at 2 than at 1, and less at 0.5, as the maths says', async () => {
    const tilts: number[] = [];
    for (const strength of [0.5, 1, 2]) {
      const normal = normalAt((await rampMaps(at(strength)))['normal-opengl'], 20, 10);
      expect(normal, `strength ${strength}`).toEqual(expectedNormal(strength));
      tilts.push(128 - normal[0]!);
    }
    expect(tilts[0]).toBeLessThan(tilts[1]!);
    expect(tilts[1]).toBeLessThan(tilts[2]!);
  });

  it('leaves a flat image flat at any strength, inverted or not', async () => {
    const flat = greyImage(24, 24, () => 140);
    for (const height of [at(0.25), at(4), at(4, true), at(1, true)]) {
      const maps = await mapsOf(flat, settingsFor(24, 24, 'clamp', height));
      for (const [x, y] of [
        [0, 0],
        [12, 12],
        [23, 23],
      ] as const) {
        expect(normalAt(maps['normal-opengl'], x, y), JSON.stringify(height)).toEqual([
          128, 128, 255,
        ]);
        expect(maps['ambient-occlusion'][y]![x]).toBe(255);
      }
    }
  });

  it('deepens the shade of a crevice with it, and keeps the height map itself', async () => {
    const pit = greyImage(48, 48, (x, y) => (Math.hypot(x - 24, y - 24) < 4 ? 180 : 200));
    const shade: number[] = [];
    let heights: string | undefined;
    for (const strength of [0.5, 1, 2]) {
      const maps = await mapsOf(pit, settingsFor(48, 48, 'clamp', at(strength)));
      shade.push(maps['ambient-occlusion'][24]![24]!);
      expect(maps['ambient-occlusion'][2]![2]).toBe(255);
      // The strength is the relief's scale (recorded for a displacement), not the map's levels.
      const levels = maps.height.map((row) => Buffer.from(row).toString('hex')).join();
      heights ??= levels;
      expect(levels).toBe(heights);
    }
    expect(shade[0]).toBeGreaterThan(shade[1]!);
    expect(shade[1]).toBeGreaterThan(shade[2]!);
  });
});

describe('the worker', () => {
  const { dir, remove } = tempDir('tessera-height-');
  afterAll(remove);
  let runs = 0;

  /** The 16-bit height map the maker writes of a PNG, read back. */
  async function heightMap(png: Buffer, height: HeightSettings): Promise<Uint16Array> {
    const folder = path.join(dir, String(runs++));
    fs.mkdirSync(folder);
    let files = 0;
    const maker = new WorkerMaterialMapsMaker(() =>
      Promise.resolve({
        newFile: (extension: string) => ({ path: path.join(folder, `${files++}.${extension}`) }),
        dispose: () => fs.promises.rm(folder, { recursive: true, force: true }),
      }),
    );
    const made = await maker.make(Readable.from(png), {
      seamless: false,
      height,
      onProgress: () => undefined,
      signal: new AbortController().signal,
    });
    try {
      const map = made.maps.find((m) => m.map === 'height')!;
      const chunks: Buffer[] = [];
      for await (const chunk of map.open()) chunks.push(chunk as Buffer);
      const raw = await sharp(Buffer.concat(chunks))
        .toColourspace('grey16')
        .raw({ depth: 'ushort' })
        .toBuffer();
      return new Uint16Array(raw.buffer, raw.byteOffset, raw.length / 2);
    } finally {
      await made.dispose();
    }
  }

  it('reads the height as the order says', async () => {
    const png = await sharp(Buffer.from(greyImage(64, 48, (x, y) => 60 + 2 * x + y)), {
      raw: { width: 64, height: 48, channels: 1 },
    })
      .png()
      .toBuffer();
    const plain = await heightMap(png, DEFAULT_HEIGHT_SETTINGS);
    const inverted = await heightMap(png, INVERTED);
    expect(plain.length).toBe(64 * 48);
    expect(plain[40 * 64 + 50]).toBeGreaterThan(plain[2 * 64 + 2]!);
    expect(Array.from(inverted, (level) => 65535 - level)).toEqual(Array.from(plain));
  }, 30_000);
});
