import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { printUncompressedBytes } from '@tessera/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testCmykProfile } from '../../testing/icc-profile.js';
import { printLayout } from './layout.js';
import type { PrintWorkerTask } from './protocol.js';

// Issue 26, part 1: the print render streams. A print of 67 MP in 16-bit CMYK (536 MB of pixels)
// is rendered in a process of its own, whose peak resident memory must stay far below the image:
// under half of it, and within 160 MB of the same process that only loaded the same modules
// (libvips holds a few strips per thread, each a few hundred rows of the width, and the decoder's
// and the encoder's buffers; the whole image would be 536 MB more).

const ENTRY = fileURLToPath(new URL('../../testing/print-render-process.ts', import.meta.url));
const HD = { width: 4000, height: 3000 };
const PRINT = { widthCm: 60, heightCm: 45 };
const DPI = 400;

interface Measured {
  width?: number;
  height?: number;
  seconds: number;
  peakRssBytes: number;
  /** The last progress the render reported before it ended (0–1). */
  lastFraction: number;
}

function inChild(argument: string): Measured {
  const child = spawnSync(process.execPath, ['--import', 'tsx', ENTRY, argument], {
    encoding: 'utf8',
    maxBuffer: 2 ** 20,
  });
  if (child.status !== 0) throw new Error(`render process failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '') as Measured;
}

let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-print-memory-'));
  // A textured HD as the HD service stores large ones: JPEG.
  const tile = 500;
  const pixels = Buffer.alloc(tile * tile * 3);
  for (let y = 0; y < tile; y++) {
    for (let x = 0; x < tile; x++) {
      const wave = Math.sin((2 * Math.PI * 3 * x) / tile) * Math.cos((2 * Math.PI * 2 * y) / tile);
      const v = 128 + 60 * wave + (((x * 7919 + y * 104729) % 41) - 20);
      pixels.set([v, v * 0.8, v * 0.6].map(Math.round), (y * tile + x) * 3);
    }
  }
  const png = await sharp(pixels, { raw: { width: tile, height: tile, channels: 3 } })
    .png()
    .toBuffer();
  await sharp({ create: { ...HD, channels: 3, background: '#808080' } })
    .composite([{ input: png, tile: true }])
    .jpeg({ quality: 92 })
    .toFile(path.join(dir, 'hd.jpg'));
  fs.writeFileSync(path.join(dir, 'press.icc'), testCmykProfile());
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the print render’s memory and progress', () => {
  it('stays bounded on a print of tens of megapixels (the image is never whole in memory), and reports progress', () => {
    const layout = printLayout(HD, PRINT, DPI, 3);
    const uncompressed = printUncompressedBytes(layout, 4, 16);
    const task: PrintWorkerTask = {
      sourcePath: path.join(dir, 'hd.jpg'),
      outputPath: path.join(dir, 'print.tif'),
      workDir: dir,
      print: PRINT,
      dpi: DPI,
      bleedMm: 3,
      compression: 'lzw',
      bitDepth: 16,
      bleed: 'wrap',
      profilePath: path.join(dir, 'press.icc'),
      colourSpace: 'cmyk',
    };
    const baseline = inChild('baseline');
    const render = inChild(JSON.stringify(task));
    const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
    console.log(
      `print ${render.width}x${render.height} (${((layout.width * layout.height) / 1e6).toFixed(1)} MP, ` +
        `${mb(uncompressed)} uncompressed) in ${render.seconds.toFixed(1)} s: peak RSS ` +
        `${mb(render.peakRssBytes)}, baseline ${mb(baseline.peakRssBytes)}`,
    );
    expect([render.width, render.height]).toEqual([layout.width, layout.height]);
    expect(uncompressed).toBeGreaterThan(500 * 2 ** 20);
    expect(render.peakRssBytes).toBeLessThan(uncompressed / 2);
    expect(render.peakRssBytes - baseline.peakRssBytes).toBeLessThan(160 * 2 ** 20);
    // Progress followed the file as it grew (the output's size against the estimate), short of
    // the end until the render was done.
    expect(render.lastFraction).toBeGreaterThan(0.5);
    expect(render.lastFraction).toBeLessThan(1);
  }, 120_000);
});
