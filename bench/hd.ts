// HD upscaling with the builtin engine (issue 5, part 3): the ESRGAN-slim network in worker
// threads then libvips to the exact size, against the floor of a plain sharp Lanczos resize of the
// same LD image to the same size and encoding, in the same run. Wall time, peak memory (the
// process's maximum resident set, workers included: each measurement runs in its own child
// process) and output megapixels per second.
// Run: node --import tsx hd.ts
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hdFactorsFor, hdTargetSize, type HdSizeLabel } from '@tessera/contract';
import sharp from 'sharp';
import { BuiltinEngine } from '../server/src/engines/builtin/builtin-engine.js';
import { bricks } from '../server/src/engines/builtin/test-references.js';
import { encodingFor } from '../server/src/engines/builtin/upscale/plan.js';
import { encode } from '../server/src/engines/builtin/upscale/resample.js';
import type { UpscaleParams } from '../server/src/engines/engine.js';
import { machineLine } from './machine.js';
import { median, ratio, verdict } from './stats.js';

interface Case {
  format: string;
  ldWidth: number;
  ldHeight: number;
  size: HdSizeLabel;
  /** Time goal in seconds; none for the memory check at the largest size. */
  goalSeconds?: number;
  runs: number;
}

const CASES: Case[] = [
  { format: 'Square', ldWidth: 1024, ldHeight: 1024, size: '30x30', goalSeconds: 30, runs: 3 },
  { format: 'Rectangle', ldWidth: 1448, ldHeight: 724, size: '120x240', goalSeconds: 90, runs: 3 },
  // The largest HD size: only its memory has a goal.
  { format: 'Slab', ldWidth: 677, ldHeight: 1548, size: '320x140', runs: 1 },
];
const MEMORY_GOAL_BYTES = 2 * 2 ** 30;
/** The HD service's choice: PNG up to 25 MP, JPEG above. */
const PNG_MAX_PIXELS = 25_000_000;

interface Measurement {
  seconds: number;
  peakBytes: number;
}

type Mode = 'esrgan' | 'floor';

/** One measurement, in this (child) process: prints it as JSON on the last line. */
async function measure(mode: Mode, sourcePath: string, params: UpscaleParams): Promise<void> {
  const start = performance.now();
  if (mode === 'esrgan') {
    await new BuiltinEngine({ upscaler: 'esrgan' }).upscale(
      params,
      () => undefined,
      new AbortController().signal,
    );
  } else {
    const pipeline = sharp(sourcePath)
      .removeAlpha()
      .resize(params.width, params.height, { fit: 'fill', kernel: 'lanczos3' });
    await encode(pipeline, encodingFor(params.outputPath)).toFile(params.outputPath);
  }
  const seconds = (performance.now() - start) / 1000;
  const info = await sharp(params.outputPath).metadata();
  if (info.width !== params.width || info.height !== params.height) {
    throw new Error(`${mode}: ${info.width}x${info.height}, not ${params.width}x${params.height}`);
  }
  fs.rmSync(params.outputPath, { force: true });
  const result: Measurement = { seconds, peakBytes: process.resourceUsage().maxRSS * 1024 };
  console.log(JSON.stringify(result));
}

function inChild(mode: Mode, sourcePath: string, params: UpscaleParams): Measurement {
  const child = spawnSync(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), mode, sourcePath, JSON.stringify(params)],
    { encoding: 'utf8', maxBuffer: 16 * 2 ** 20 },
  );
  if (child.status !== 0) throw new Error(`${mode} run failed: ${child.stderr}`);
  const last = child.stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(last) as Measurement;
}

function seconds(value: number): string {
  return `${value.toFixed(value < 10 ? 2 : 1)} s`;
}

function megabytes(bytes: number): string {
  return `${Math.round(bytes / 2 ** 20)} MB`;
}

async function main(): Promise<void> {
  console.log(machineLine());
  console.log(
    'HD upscale, builtin engine (ESRGAN-slim on tfjs-wasm in worker threads, then libvips), ' +
      'seamless LD bricks; peak = max resident set of the process',
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-bench-hd-'));
  try {
    for (const c of CASES) {
      const sourcePath = path.join(dir, `ld-${c.format}.png`);
      const image = bricks(c.ldWidth, c.ldHeight, 9);
      await sharp(image.data, { raw: { width: c.ldWidth, height: c.ldHeight, channels: 4 } })
        .removeAlpha()
        .png()
        .toFile(sourcePath);
      const target = hdTargetSize(c.ldWidth, c.ldHeight, c.size);
      const pixels = target.width * target.height;
      const extension = pixels <= PNG_MAX_PIXELS ? 'png' : 'jpg';
      const params: UpscaleParams = {
        sourcePath,
        outputPath: path.join(dir, `hd-${c.format}.${extension}`),
        width: target.width,
        height: target.height,
        factors: hdFactorsFor(c.size) ?? ({} as never),
        seed: 1,
        seamless: true,
      };

      const engineRuns: Measurement[] = [];
      const floorRuns: Measurement[] = [];
      for (let run = 0; run < c.runs; run++) {
        floorRuns.push(inChild('floor', sourcePath, params));
        engineRuns.push(inChild('esrgan', sourcePath, params));
      }
      const time = median(engineRuns.map((m) => m.seconds));
      const floor = median(floorRuns.map((m) => m.seconds));
      const peak = Math.max(...engineRuns.map((m) => m.peakBytes));
      const floorPeak = Math.max(...floorRuns.map((m) => m.peakBytes));
      const mp = pixels / 1e6;
      const goals = [
        c.goalSeconds === undefined
          ? undefined
          : `goal < ${c.goalSeconds} s: ${verdict(time < c.goalSeconds)}`,
        `peak < 2 GB: ${verdict(peak < MEMORY_GOAL_BYTES)}`,
      ].filter((goal) => goal !== undefined);
      console.log(
        `${`${c.format} ${c.size}`.padEnd(17)} ${`${target.width}x${target.height}`.padEnd(11)} ` +
          `(${mp.toFixed(1)} MP ${extension}, ${c.runs === 1 ? '1 run' : `median of ${c.runs}`}): ` +
          `${seconds(time)}, peak ${megabytes(peak)}, ${(mp / time).toFixed(2)} MP/s | ` +
          `floor (sharp Lanczos + ${extension}) ${seconds(floor)}, peak ${megabytes(floorPeak)}, ` +
          `${(mp / floor).toFixed(2)} MP/s | ratio ${ratio(time / floor)} | ${goals.join(', ')}`,
      );
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const [mode, sourcePath, params] = process.argv.slice(2);
if (mode === 'esrgan' || mode === 'floor') {
  await measure(mode, sourcePath ?? '', JSON.parse(params ?? '{}') as UpscaleParams);
} else {
  await main();
}
