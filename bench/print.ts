// Print files (issue 26, part 1): the print job's render (the bleed cut out and joined, the side
// and bottom layers, the one streamed resize, the colour conversion, the TIFF coded strip by
// strip, the progress poll) per output megapixel, against a plain sharp TIFF write of the same
// size (the same HD resized to the same pixels, LZW, no bleed, no profile), measured in the same
// run. Each measurement runs in its own child process, so its peak memory (maximum resident
// set) is its own. The large case is the issue's: 120x240 cm at 360 dpi, about 580 MP, from the
// largest HD image of that size (133 MP); PRINT_BENCH_LARGE=0 leaves it out.
// Run: node --import tsx print.ts
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hdPixelSize, printPixelSize } from '@tessera/contract';
import sharp from 'sharp';
import { renderWithProgress } from '../server/src/imaging/print/progress.js';
import type { PrintWorkerTask } from '../server/src/imaging/print/protocol.js';
import { testCmykProfile } from '../server/src/testing/icc-profile.js';
import { measureInChild, printMeasurement, type ChildMeasurement } from './child-measurement.js';
import { printHeadline } from './headline.js';
import { machineLine } from './machine.js';
import { makeSeamlessTexture } from './seamless-texture.js';
import { ratio } from './stats.js';

interface Case {
  label: string;
  /** The HD image: its pixels and the centimetres it prints at. */
  hd: { width: number; height: number; widthCm: number; heightCm: number };
  dpi: number;
  bitDepth: 8 | 16;
  compression: 'lzw' | 'deflate';
  cmyk: boolean;
}

const large = hdPixelSize('120x240');
const CASES: Case[] = [
  {
    label: 'sRGB 8-bit LZW',
    hd: { width: 4773, height: 4773, widthCm: 60, heightCm: 60 },
    dpi: 360,
    bitDepth: 8,
    compression: 'lzw',
    cmyk: false,
  },
  {
    label: 'CMYK 16-bit Deflate',
    hd: { width: 4773, height: 4773, widthCm: 60, heightCm: 60 },
    dpi: 360,
    bitDepth: 16,
    compression: 'deflate',
    cmyk: true,
  },
];
if (process.env['PRINT_BENCH_LARGE'] !== '0' && large) {
  CASES.push({
    label: 'sRGB 8-bit LZW, 120x240 cm',
    hd: { ...large, widthCm: 240, heightCm: 120 },
    dpi: 360,
    bitDepth: 8,
    compression: 'lzw',
    cmyk: false,
  });
}

type Mode = 'print' | 'plain';

async function measure(mode: Mode, task: PrintWorkerTask): Promise<void> {
  sharp.cache(false);
  const start = performance.now();
  if (mode === 'print') {
    await renderWithProgress(task, () => undefined);
  } else {
    const { width, height } = printPixelSize(task.print, task.dpi, task.bleedMm);
    await sharp(task.sourcePath, { limitInputPixels: false, sequentialRead: true })
      .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
      .tiff({ compression: 'lzw', predictor: 'horizontal' })
      .toFile(task.outputPath);
  }
  printMeasurement((performance.now() - start) / 1000);
}

function inChild(mode: Mode, task: PrintWorkerTask): ChildMeasurement {
  const measured = measureInChild(import.meta.url, [mode, JSON.stringify(task)]);
  fs.rmSync(task.outputPath, { force: true });
  return measured;
}

async function main(): Promise<void> {
  console.log(machineLine());
  console.log(
    'Print file render (3 mm bleed, wrapped; profile; TIFF with the horizontal predictor), ' +
      'against a plain sharp resize to a TIFF (LZW) of the same pixels',
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-bench-print-'));
  try {
    const profilePath = path.join(dir, 'press.icc');
    fs.writeFileSync(profilePath, testCmykProfile());
    for (const c of CASES) {
      const sourcePath = await makeSeamlessTexture(dir, 'hd', c.hd.width, c.hd.height);
      const task: PrintWorkerTask = {
        sourcePath,
        outputPath: path.join(dir, 'out.tif'),
        workDir: dir,
        print: { widthCm: c.hd.widthCm, heightCm: c.hd.heightCm },
        dpi: c.dpi,
        bleedMm: 3,
        compression: c.compression,
        bitDepth: c.bitDepth,
        bleed: 'wrap',
        colourSpace: c.cmyk ? 'cmyk' : 'rgb',
        ...(c.cmyk && { profilePath }),
      };
      const size = printPixelSize(task.print, c.dpi, 3);
      const megapixels = (size.width * size.height) / 1e6;
      const plain = inChild('plain', task);
      const print = inChild('print', task);
      const uncompressed = size.width * size.height * (c.cmyk ? 4 : 3) * (c.bitDepth / 8);
      console.log(
        `${c.label}, ${size.width}×${size.height} at ${c.dpi} dpi (${megapixels.toFixed(0)} MP) ` +
          `from a ${c.hd.width}×${c.hd.height} HD: print ${((print.seconds / megapixels) * 1000).toFixed(0)} ms/MP ` +
          `(${print.seconds.toFixed(1)} s), plain TIFF ${((plain.seconds / megapixels) * 1000).toFixed(0)} ms/MP ` +
          `(${plain.seconds.toFixed(1)} s), ${ratio(print.seconds / plain.seconds)} the baseline; ` +
          `peak memory ${Math.round(print.peakBytes / 2 ** 20)} MB (plain ` +
          `${Math.round(plain.peakBytes / 2 ** 20)} MB; the pixels uncompressed: ` +
          `${Math.round(uncompressed / 2 ** 20)} MB)`,
      );
      printHeadline({
        figure: `print file, ${c.label} (${megapixels.toFixed(0)} MP) / plain TIFF`,
        value: `${print.seconds.toFixed(1)} s, ${ratio(print.seconds / plain.seconds)}`,
      });
      fs.rmSync(sourcePath);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const [mode, json] = process.argv.slice(2);
if (mode === 'print' || mode === 'plain') {
  await measure(mode, JSON.parse(json ?? '{}') as PrintWorkerTask);
} else {
  await main();
}
