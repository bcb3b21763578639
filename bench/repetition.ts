import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SYNTHESIS_USED_METADATA_KEY, type SynthesisMode } from '@tessera/contract';
import { repetition } from '../server/src/engines/builtin/blending/repetition.js';
import { BuiltinEngine } from '../server/src/engines/builtin/builtin-engine.js';
import type { GenerateParams } from '../server/src/engines/engine.js';
import { stochasticReferences } from '../server/src/engines/builtin/test-references-stochastic.js';
import { FORM_DEFAULTS } from '../server/src/testing/generate-params.js';
import { printHeadline } from './headline.js';
import { machineLine } from './machine.js';
import { readRawImage, writeRawPng } from './raw-png.js';
import { ms, ratio, verdict } from './stats.js';

/**
 * Repetition of stochastic materials (issue 27, part 3): per generated reference (granite, sand,
 * terrazzo, moss, concrete), today's quilting against blending at Square 1024×1024, seamless,
 * the form's defaults, seed 10, each one job of the builtin engine (worker start, decode,
 * resize, the classifier for 'auto', synthesis and PNG encoding included). Repetition is
 * blending/repetition.ts's: the strongest peak of the normalised autocorrelation of the output
 * tiled 4 × 4, away from the tiling's lattice (and the mean of the 8 strongest). Blending is
 * asked as 'auto', so the line also shows that the classifier chose it.
 * REPETITION_BENCH_SIZES=512,1024 sets the references' sizes (a reference smaller than the
 * output is worked on at its own size, so the output must reuse it).
 */
const SIZES = (process.env.REPETITION_BENCH_SIZES ?? '512,1024').split(',').map(Number);
const TIME_GOAL_MS = 3000;

async function main(): Promise<void> {
  console.log(machineLine());
  console.log(
    'repetition, builtin engine, Square 1024x1024, seamless, defaults, seed 10: ' +
      "quilting ('quilting') against blending ('auto'), one job each",
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-bench-rep-'));
  const engine = new BuiltinEngine();
  let worstRatio = 0;
  let slowest = 0;
  try {
    for (const size of SIZES) {
      for (const [name, reference] of Object.entries(stochasticReferences(size))) {
        const referencePath = path.join(dir, `${name}-${size}.png`);
        await writeRawPng(reference, referencePath);
        const run = async (synthesis: SynthesisMode) => {
          const params: GenerateParams = {
            ...FORM_DEFAULTS,
            referencePath,
            outputPath: path.join(dir, `out-${synthesis}.png`),
            width: 1024,
            height: 1024,
            seed: 10,
            seamless: true,
            synthesis,
            positivePrompt: name,
            negativePrompt: '',
          };
          const start = performance.now();
          const result = await engine.generate(
            params,
            () => undefined,
            new AbortController().signal,
          );
          const time = performance.now() - start;
          const image = await readRawImage(params.outputPath);
          return {
            time,
            used: result.metadata?.[SYNTHESIS_USED_METADATA_KEY],
            ...repetition(image),
          };
        };
        const quilted = await run('quilting');
        const blended = await run('auto');
        worstRatio = Math.max(worstRatio, blended.peak / quilted.peak);
        slowest = Math.max(slowest, blended.time);
        console.log(
          `${`${name} ${size}²`.padEnd(14)} | repetition quilting ${quilted.peak.toFixed(3)} ` +
            `(top 8 ${quilted.top.toFixed(3)}) -> blending ${blended.peak.toFixed(3)} ` +
            `(top 8 ${blended.top.toFixed(3)}), ratio ${ratio(blended.peak / quilted.peak)} | ` +
            `time quilting ${ms(quilted.time).padStart(8)}, blending ${ms(blended.time).padStart(8)} ` +
            `| auto chose ${String(blended.used)}`,
        );
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    `worst blending/quilting repetition ratio ${ratio(worstRatio)}; ` +
      `slowest blending job ${ms(slowest)} | goal < ${TIME_GOAL_MS / 1000} s per LD image: ` +
      verdict(slowest < TIME_GOAL_MS),
  );
  printHeadline({
    figure: 'worst repetition peak, blending / quilting',
    value: ratio(worstRatio),
  });
  printHeadline({
    figure: 'slowest blending LD job',
    value: ms(slowest),
    goal: `< ${TIME_GOAL_MS / 1000} s`,
    met: slowest < TIME_GOAL_MS,
  });
}

await main();
