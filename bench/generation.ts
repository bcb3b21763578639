import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { OUTPUT_FORMATS } from '@tessera/contract';
import sharp from 'sharp';
// The built engine, as the server runs it: from the TypeScript sources its worker threads would
// compile every module as they start (npm run bench builds first).
import { BuiltinEngine } from '../server/dist/engines/builtin/builtin-engine.js';
import type { GenerateParams } from '../server/src/engines/engine.js';
import { FORM_DEFAULTS } from '../server/src/testing/generate-params.js';
import { bricksPng } from '../server/src/testing/http.js';
import { printHeadline } from './headline.js';
import { machineLine } from './machine.js';
import { median, ms, ratio, verdict } from './stats.js';

/**
 * Preview generation time per output format with the builtin engine, from a 1024x1024 reference,
 * against the floor of a plain sharp resize + PNG encode to the same size, in the same run; and
 * the event loop's worst delay while the engine works in its worker thread.
 */
const RUNS = 3;
const GOAL_MS = 3000;
const LOOP_GOAL_MS = 50;

async function main(): Promise<void> {
  console.log(machineLine());
  console.log(
    `preview generation, builtin engine, 1024x1024 reference, median of ${RUNS} runs each`,
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-bench-gen-'));
  let engine: BuiltinEngine | undefined;
  try {
    const referencePath = path.join(dir, 'reference.png');
    // Bricks with mortar and grain: a texture with structure, as an artist would upload.
    fs.writeFileSync(referencePath, await bricksPng(1024, 1024, 64));
    engine = new BuiltinEngine();
    const loop = monitorEventLoopDelay({ resolution: 5 });
    let worstLoopMs = 0;
    let slowest = 0;

    for (const format of OUTPUT_FORMATS) {
      const floor: number[] = [];
      const engineTimes: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const floorStart = performance.now();
        await sharp(referencePath)
          .resize(format.width, format.height, { fit: 'cover' })
          .png()
          .toFile(path.join(dir, 'floor.png'));
        floor.push(performance.now() - floorStart);

        const params: GenerateParams = {
          referencePath,
          outputPath: path.join(dir, `out-${format.name}-${run}.png`),
          width: format.width,
          height: format.height,
          seed: 1000 + run,
          ...FORM_DEFAULTS,
          seamless: true,
          positivePrompt: 'brick wall',
          negativePrompt: 'blurry',
        };
        loop.reset();
        loop.enable();
        const start = performance.now();
        await engine.generate(params, () => undefined, new AbortController().signal);
        engineTimes.push(performance.now() - start);
        loop.disable();
        worstLoopMs = Math.max(worstLoopMs, loop.max / 1e6);
      }
      const generation = median(engineTimes);
      const base = median(floor);
      slowest = Math.max(slowest, generation);
      console.log(
        `${format.name.padEnd(9)} ${`${format.width}x${format.height}`.padEnd(9)}: ${ms(generation).padStart(9)} | ` +
          `floor (sharp resize + PNG) ${ms(base).padStart(8)} | ratio ${ratio(generation / base)} | ` +
          `goal < ${GOAL_MS / 1000} s: ${verdict(generation < GOAL_MS)}`,
      );
    }
    console.log(
      `event loop worst delay while generating: ${ms(worstLoopMs)} | goal < ${LOOP_GOAL_MS} ms: ${verdict(worstLoopMs < LOOP_GOAL_MS)}`,
    );
    printHeadline({
      figure: 'LD preview job, slowest format (1024² bricks, seamless)',
      value: ms(slowest),
      goal: `< ${GOAL_MS / 1000} s`,
      met: slowest < GOAL_MS,
    });
    printHeadline({
      figure: 'event loop worst delay while generating',
      value: ms(worstLoopMs),
      goal: `< ${LOOP_GOAL_MS} ms`,
      met: worstLoopMs < LOOP_GOAL_MS,
    });
  } finally {
    engine?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
