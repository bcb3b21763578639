// PBR material maps (issue 17, part 5): the whole maps job's work (worker thread, luminance to
// libvips' own format, strips, five PNGs streamed, previews) per megapixel of the image, against
// a plain sharp blur of the same image to a grey PNG, measured in the same run. Each
// measurement runs in its own child process, so its peak memory (maximum resident set, worker
// included) is its own. MAPS_BENCH_MP=200 adds a 200 MP image (several minutes).
// Run: node --import tsx material-maps.ts
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_HEIGHT_SETTINGS } from '@tessera/contract';
import sharp from 'sharp';
import { WorkerMaterialMapsMaker } from '../server/src/imaging/material-maps/maker.js';
import { LocalFileStore } from '../server/src/files/local-file-store.js';
import { machineLine } from './machine.js';
import { median, ratio } from './stats.js';

interface Case {
  width: number;
  height: number;
  runs: number;
}

const CASES: Case[] = [
  { width: 1024, height: 1024, runs: 3 },
  { width: 4096, height: 4096, runs: 1 },
  { width: 8192, height: 8192, runs: 1 },
];
const extraMegapixels = Number(process.env['MAPS_BENCH_MP'] ?? 0);
if (extraMegapixels > 0) {
  const side = Math.round(Math.sqrt(extraMegapixels * 1e6));
  CASES.push({ width: side, height: side, runs: 1 });
}

type Mode = 'maps' | 'blur';

interface Measurement {
  seconds: number;
  peakBytes: number;
}

async function measure(mode: Mode, sourcePath: string): Promise<void> {
  const start = performance.now();
  if (mode === 'maps') {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-bench-maps-run-'));
    try {
      // The server's own scratch folders (a local file store's), in a folder of this run.
      const files = new LocalFileStore(path.join(scratch, 'files'), path.join(scratch, 'tmp'));
      const made = await new WorkerMaterialMapsMaker(() => files.openScratch()).make(
        fs.createReadStream(sourcePath),
        {
          seamless: true,
          height: DEFAULT_HEIGHT_SETTINGS,
          onProgress: () => undefined,
          signal: new AbortController().signal,
        },
      );
      await made.dispose();
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  } else {
    const out = `${sourcePath}.blur.png`;
    await sharp(sourcePath, { limitInputPixels: false, sequentialRead: true })
      .greyscale()
      .blur(2)
      .png({ compressionLevel: 3 })
      .toFile(out);
    fs.rmSync(out);
  }
  const seconds = (performance.now() - start) / 1000;
  const result: Measurement = { seconds, peakBytes: process.resourceUsage().maxRSS * 1024 };
  console.log(JSON.stringify(result));
}

function inChild(mode: Mode, sourcePath: string): Measurement {
  const child = spawnSync(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), mode, sourcePath],
    { encoding: 'utf8', maxBuffer: 16 * 2 ** 20 },
  );
  if (child.status !== 0) throw new Error(`${mode} run failed: ${child.stderr}`);
  const last = child.stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(last) as Measurement;
}

/** A seamless texture of the size, as the HD service stores it: PNG to 25 MP, JPEG above. */
async function makeImage(dir: string, width: number, height: number): Promise<string> {
  const tile = 512;
  const pixels = Buffer.alloc(tile * tile * 3);
  for (let y = 0; y < tile; y++) {
    for (let x = 0; x < tile; x++) {
      const wave = Math.sin((2 * Math.PI * 3 * x) / tile) * Math.cos((2 * Math.PI * 2 * y) / tile);
      const v = Math.round(128 + 60 * wave + (((x * 7919 + y * 104729) % 41) - 20));
      pixels.set([v, Math.round(v * 0.8), Math.round(v * 0.6)], (y * tile + x) * 3);
    }
  }
  const tilePng = await sharp(pixels, { raw: { width: tile, height: tile, channels: 3 } })
    .png()
    .toBuffer();
  const jpeg = width * height > 25_000_000;
  const file = path.join(dir, `texture-${width}x${height}.${jpeg ? 'jpg' : 'png'}`);
  const canvas = sharp({
    create: { width, height, channels: 3, background: '#808080' },
    limitInputPixels: false,
  }).composite([{ input: tilePng, tile: true, left: 0, top: 0 }]);
  await (jpeg ? canvas.jpeg({ quality: 92 }) : canvas.png()).toFile(file);
  return file;
}

async function main(): Promise<void> {
  console.log(machineLine());
  console.log(
    'Material maps (height 16-bit, normals OpenGL + DirectX, roughness, occlusion; previews) ' +
      'of a seamless texture, against a sharp greyscale blur(2) to PNG of the same image',
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-bench-maps-'));
  try {
    for (const { width, height, runs } of CASES) {
      const megapixels = (width * height) / 1e6;
      const source = await makeImage(dir, width, height);
      const maps: Measurement[] = [];
      const blur: Measurement[] = [];
      for (let run = 0; run < runs; run++) {
        blur.push(inChild('blur', source));
        maps.push(inChild('maps', source));
      }
      const mapsSeconds = median(maps.map((m) => m.seconds));
      const blurSeconds = median(blur.map((m) => m.seconds));
      const peak = Math.max(...maps.map((m) => m.peakBytes));
      console.log(
        `${width}×${height} (${megapixels.toFixed(1)} MP, ${runs} run${runs > 1 ? 's' : ''}): ` +
          `maps ${(mapsSeconds / megapixels).toFixed(2)} s/MP (${mapsSeconds.toFixed(1)} s), ` +
          `blur baseline ${(blurSeconds / megapixels).toFixed(3)} s/MP (${blurSeconds.toFixed(1)} s), ` +
          `${ratio(mapsSeconds / blurSeconds)} the baseline; ` +
          `maps peak memory ${Math.round(peak / 2 ** 20)} MB ` +
          `(the image as one float plane: ${Math.round((width * height * 4) / 2 ** 20)} MB)`,
      );
      fs.rmSync(source);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const [mode, sourcePath] = process.argv.slice(2);
if (mode === 'maps' || mode === 'blur') {
  await measure(mode, sourcePath ?? '');
} else {
  await main();
}
