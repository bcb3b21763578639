// HD upscaling with the builtin engine (issue 5, part 3; issue 17, part 2): the ESRGAN-slim
// network in worker threads then libvips to the exact size, with the network on onnxruntime (the
// default) against the same on tfjs-wasm (the path before issue 17), and against the floor of a
// plain sharp Lanczos resize of the same LD image to the same size and encoding, all in the same
// run, interleaved. Wall time, CPU time (all threads), peak memory (the process's maximum
// resident set, workers included: each measurement runs in its own child process) and output
// megapixels per second. Issue 28, part 3: the default against the network and the encode alone
// (network + encode: the network's time, plus the encode of a full-size image already in
// memory), the floor of any enlargement after the network.
// Run: node --import tsx hd.ts
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hdFactorsFor, hdTargetSize, type HdSizeLabel } from '@tessera/contract';
import sharp from 'sharp';
// The built server, as it runs (its workers start from plain JavaScript, not through tsx).
import { BuiltinEngine } from '../server/dist/engines/builtin/builtin-engine.js';
import { bricks } from '../server/src/engines/builtin/test-references.js';
import type { UpscaleParams } from '../server/src/engines/engine.js';
import { runNetwork } from '../server/dist/engines/builtin/upscale/network.js';
import { modelScaleFor, upscaleFactor } from '../server/dist/engines/builtin/upscale/plan.js';
import { HD_ENCODINGS, hdEncodingFor } from '../server/src/imaging/hd-encodings.js';
import { measureInChild, printMeasurement, type ChildMeasurement } from './child-measurement.js';
import { printHeadline } from './headline.js';
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
  { format: 'Slab', ldWidth: 677, ldHeight: 1548, size: '320x140', runs: 3 },
];
/** HD_BENCH_RUNS=n runs every size n times (a quicker or steadier run). */
const RUNS_OVERRIDE = Number(process.env['HD_BENCH_RUNS']) || undefined;
/** HD_BENCH_FORMATS=Slab,... measures only those formats. */
const FORMATS = process.env['HD_BENCH_FORMATS']?.split(',');
const MEMORY_GOAL_BYTES = 2 * 2 ** 30;
/** Issue 17: onnxruntime at least 1.5× as fast as tfjs-wasm on the largest size. */
const SPEEDUP_GOAL = 1.5;

/** Issue 28: the default within 1.5× of network + encode at the largest size. */
const NETWORK_ENCODE_GOAL = 1.5;

/**
 * onnx: the default (ESRGAN-slim, onnxruntime); medium: ESRGAN-medium on onnxruntime; floor: a
 * plain Lanczos resize; parts: the network, then the encode of a full-size image (timed apart).
 */
type Mode = 'onnx' | 'tfjs' | 'medium' | 'floor' | 'parts';
const MODES: readonly Mode[] = ['onnx', 'tfjs', 'medium', 'floor', 'parts'];
/** HD_BENCH_MODES=onnx,parts measures only those (the others print as not measured). */
const MEASURED = (process.env['HD_BENCH_MODES']?.split(',') ?? MODES) as readonly string[];

/** One measurement, in this (child) process: prints it as JSON on the last line. */
async function measure(mode: Mode, sourcePath: string, params: UpscaleParams): Promise<void> {
  if (mode === 'parts') return measureParts(sourcePath, params);
  const start = performance.now();
  if (mode !== 'floor') {
    const engine =
      mode === 'medium'
        ? new BuiltinEngine({ upscaler: 'esrgan-medium', runtime: 'onnx' })
        : new BuiltinEngine({ upscaler: 'esrgan', runtime: mode });
    await engine.upscale(params, () => undefined, new AbortController().signal);
  } else {
    const pipeline = sharp(sourcePath)
      .removeAlpha()
      .resize(params.width, params.height, { fit: 'fill', kernel: 'lanczos3' });
    await HD_ENCODINGS[params.encoding].encode(pipeline, 'streamed').toFile(params.outputPath);
  }
  const seconds = (performance.now() - start) / 1000;
  const info = await sharp(params.outputPath).metadata();
  if (info.width !== params.width || info.height !== params.height) {
    throw new Error(`${mode}: ${info.width}x${info.height}, not ${params.width}x${params.height}`);
  }
  fs.rmSync(params.outputPath, { force: true });
  printMeasurement(seconds);
}

/**
 * The network as the engine runs it, then the encode of a full-size image made of its output
 * (repeated row by row, outside the timing): what no enlargement can go below.
 */
async function measureParts(sourcePath: string, params: UpscaleParams): Promise<void> {
  const { data, info } = await sharp(sourcePath)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const source = { data, width: info.width, height: info.height };
  const start = performance.now();
  const output = await runNetwork(
    source,
    { scale: modelScaleFor(upscaleFactor(source, params)), padding: 'wrap' },
    () => undefined,
    new AbortController().signal,
  );
  const network = (performance.now() - start) / 1000;
  const { width, height } = params;
  const row = output.width * 3;
  const full = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    const from = (y % output.height) * row;
    for (let x = 0; x < width * 3; x += row) {
      full.set(output.data.subarray(from, from + Math.min(row, width * 3 - x)), y * width * 3 + x);
    }
  }
  const encodeStart = performance.now();
  const pipeline = sharp(full, { raw: { width, height, channels: 3 } });
  await HD_ENCODINGS[params.encoding].encode(pipeline, 'streamed').toFile(params.outputPath);
  const encode = (performance.now() - encodeStart) / 1000;
  fs.rmSync(params.outputPath, { force: true });
  printMeasurement(network + encode, { network, encode });
}

function inChild(mode: Mode, sourcePath: string, params: UpscaleParams): ChildMeasurement {
  return measureInChild(import.meta.url, [mode, sourcePath, JSON.stringify(params)]);
}

function seconds(value: number): string {
  return `${value.toFixed(value < 10 ? 2 : 1)} s`;
}

function megabytes(bytes: number): string {
  return `${Math.round(bytes / 2 ** 20)} MB`;
}

interface Summary {
  seconds: number;
  cpuSeconds: number;
  peakBytes: number;
}

function summarise(runs: readonly ChildMeasurement[]): Summary {
  if (runs.length === 0) return { seconds: NaN, cpuSeconds: NaN, peakBytes: NaN };
  return {
    seconds: median(runs.map((m) => m.seconds)),
    cpuSeconds: median(runs.map((m) => m.cpuSeconds)),
    peakBytes: Math.max(...runs.map((m) => m.peakBytes)),
  };
}

function describe(s: Summary, mp: number): string {
  return (
    `${seconds(s.seconds)} (CPU ${seconds(s.cpuSeconds)}), peak ${megabytes(s.peakBytes)}, ` +
    `${(mp / s.seconds).toFixed(2)} MP/s`
  );
}

async function main(): Promise<void> {
  console.log(machineLine());
  console.log(
    'HD upscale, builtin engine (ESRGAN-slim in worker threads, then libvips), seamless LD ' +
      'bricks: onnxruntime (default) against tfjs-wasm (before issue 17) and a plain Lanczos ' +
      'resize, interleaved; peak = max resident set of the process, CPU = all its threads',
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-bench-hd-'));
  try {
    for (const c of CASES.filter((c) => !FORMATS || FORMATS.includes(c.format))) {
      const sourcePath = path.join(dir, `ld-${c.format}.png`);
      const image = bricks(c.ldWidth, c.ldHeight, 9);
      await sharp(image.data, { raw: { width: c.ldWidth, height: c.ldHeight, channels: 4 } })
        .removeAlpha()
        .png()
        .toFile(sourcePath);
      const target = hdTargetSize(c.ldWidth, c.ldHeight, c.size);
      const pixels = target.width * target.height;
      const encoding = hdEncodingFor(pixels);
      const { extension } = HD_ENCODINGS[encoding];
      const params: UpscaleParams = {
        sourcePath,
        outputPath: path.join(dir, `hd-${c.format}.${extension}`),
        encoding,
        width: target.width,
        height: target.height,
        factors: hdFactorsFor(c.size) ?? ({} as never),
        seed: 1,
        seamless: true,
      };

      const runs: Record<Mode, ChildMeasurement[]> = {
        onnx: [],
        tfjs: [],
        medium: [],
        floor: [],
        parts: [],
      };
      const count = RUNS_OVERRIDE ?? c.runs;
      for (let run = 0; run < count; run++) {
        for (const mode of MODES.filter((m) => MEASURED.includes(m))) {
          runs[mode].push(inChild(mode, sourcePath, params));
        }
      }
      const onnx = summarise(runs.onnx);
      const tfjs = summarise(runs.tfjs);
      const medium = summarise(runs.medium);
      const floor = summarise(runs.floor);
      const parts = summarise(runs.parts);
      const part = (name: string) =>
        runs.parts.length === 0 ? NaN : median(runs.parts.map((m) => m.parts?.[name] ?? NaN));
      const overParts = onnx.seconds / parts.seconds;
      const mp = pixels / 1e6;
      const speedup = tfjs.seconds / onnx.seconds;
      const goals = [
        c.goalSeconds === undefined
          ? undefined
          : `goal < ${c.goalSeconds} s: ${verdict(onnx.seconds < c.goalSeconds)}`,
        `peak < 2 GB: ${verdict(onnx.peakBytes < MEMORY_GOAL_BYTES)}`,
        `peak not above tfjs': ${verdict(onnx.peakBytes <= tfjs.peakBytes)}`,
        `≤ ${NETWORK_ENCODE_GOAL}× network + encode: ${verdict(overParts <= NETWORK_ENCODE_GOAL)}`,
        c.goalSeconds === undefined
          ? `speed-up ≥ ${SPEEDUP_GOAL}×: ${verdict(speedup >= SPEEDUP_GOAL)}`
          : undefined,
      ].filter((goal) => goal !== undefined);
      console.log(
        `${`${c.format} ${c.size}`.padEnd(17)} ${`${target.width}x${target.height}`.padEnd(11)} ` +
          `(${mp.toFixed(1)} MP ${extension}, ${count === 1 ? '1 run' : `median of ${count}`}):\n` +
          `  onnxruntime ${describe(onnx, mp)}\n` +
          `  tfjs-wasm   ${describe(tfjs, mp)}\n` +
          `  ESRGAN-medium (onnxruntime) ${describe(medium, mp)}` +
          (c.goalSeconds === undefined
            ? '\n'
            : `, goal < ${c.goalSeconds} s: ${verdict(medium.seconds < c.goalSeconds)}\n`) +
          `  floor (sharp Lanczos + ${extension}) ${describe(floor, mp)}\n` +
          `  network + encode ${seconds(parts.seconds)} (network ${seconds(part('network'))}, ` +
          `encode ${seconds(part('encode'))}); onnxruntime ${ratio(overParts)} of it\n` +
          `  speed-up onnxruntime vs tfjs ${ratio(speedup)} (CPU time ` +
          `${ratio(tfjs.cpuSeconds / onnx.cpuSeconds)}), peak ${ratio(onnx.peakBytes / tfjs.peakBytes)} ` +
          `of tfjs' | onnxruntime vs floor ${ratio(onnx.seconds / floor.seconds)} | ${goals.join(', ')}`,
      );
      printHeadline({
        figure: `HD ${c.format} ${c.size}, onnxruntime / (network + encode)`,
        value: `${onnx.seconds.toFixed(1)} s, ${ratio(overParts)}`,
        goal: `≤ ${NETWORK_ENCODE_GOAL}×`,
        met: overParts <= NETWORK_ENCODE_GOAL,
      });
      printHeadline({
        figure: `HD ${c.format} ${c.size} (${mp.toFixed(0)} MP), onnxruntime / Lanczos floor`,
        value: `${onnx.seconds.toFixed(1)} s, ${ratio(onnx.seconds / floor.seconds)}`,
        ...(c.goalSeconds !== undefined && {
          goal: `< ${c.goalSeconds} s`,
          met: onnx.seconds < c.goalSeconds,
        }),
      });
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const [mode, sourcePath, params] = process.argv.slice(2);
if (MODES.includes(mode as Mode)) {
  await measure(mode as Mode, sourcePath ?? '', JSON.parse(params ?? '{}') as UpscaleParams);
} else {
  await main();
}
