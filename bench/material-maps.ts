// PBR material maps (issue 17, part 5): the whole maps job's work (worker thread, luminance to
// libvips' own format, strips, five PNGs streamed, previews) per megapixel of the image, against
// a plain sharp blur of the same image to a grey PNG, measured in the same run. Each
// measurement runs in its own child process, so its peak memory (maximum resident set, worker
// included) is its own. MAPS_BENCH_MP=200 adds a 200 MP image (several minutes).
// Run: node --import tsx material-maps.ts
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_HEIGHT_SETTINGS } from '@tessera/contract';
import sharp from 'sharp';
import { WorkerMaterialMapsMaker } from '../server/src/imaging/material-maps/maker.js';
import { LocalFileStore } from '../server/src/files/local-file-store.js';
import { measureInChild, printMeasurement, type ChildMeasurement } from './child-measurement.js';
import { printHeadline } from './headline.js';
import { machineLine } from './machine.js';
import { makeSeamlessTexture } from './seamless-texture.js';
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
  printMeasurement((performance.now() - start) / 1000);
}

function inChild(mode: Mode, sourcePath: string): ChildMeasurement {
  return measureInChild(import.meta.url, [mode, sourcePath]);
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
      const source = await makeSeamlessTexture(dir, 'texture', width, height);
      const maps: ChildMeasurement[] = [];
      const blur: ChildMeasurement[] = [];
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
      printHeadline({
        figure: `material maps ${width}×${height} / blur baseline`,
        value: `${mapsSeconds.toFixed(1)} s, ${ratio(mapsSeconds / blurSeconds)}`,
      });
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
