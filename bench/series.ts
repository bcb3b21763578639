import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BuiltinEngine } from '../server/src/engines/builtin/builtin-engine.js';
import { autocorrelation, layFloor } from '../server/src/engines/builtin/quilting/floor.js';
import { joinRatio } from '../server/src/engines/builtin/quilting/seam-metrics.js';
import type { GenerateParams } from '../server/src/engines/engine.js';
import { FORM_DEFAULTS } from '../server/src/testing/generate-params.js';
import { bricksPng } from '../server/src/testing/http.js';
import { printHeadline } from './headline.js';
import { machineLine } from './machine.js';
import { readRawImage } from './raw-png.js';
import { ms, ratio, verdict } from './stats.js';

/**
 * A series of faces with the builtin engine (issue 25): six faces at Square 1024x1024 in one
 * job against six single images at Square, one after the other, in the same run (both through
 * BuiltinEngine, in its worker threads, seamless, from a 1024x1024 bricks reference). Also the
 * series' joins (every ordered pair of faces, both ways, against the faces' inside) and the
 * repetition of a random 6x6 floor of its faces at the face period (one face tiled: 1).
 */
const FACES = 6;
const SIDE = 1024;
const TIME_GOAL = 2;
const JOIN_GOAL = 1.2;

async function main(): Promise<void> {
  console.log(machineLine());
  console.log(
    `series of ${FACES} faces, builtin engine, Square ${SIDE}x${SIDE}, seamless, defaults, ` +
      `against ${FACES} single images, one run each`,
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-bench-series-'));
  try {
    const referencePath = path.join(dir, 'reference.png');
    fs.writeFileSync(referencePath, await bricksPng(1024, 1024, 64));
    const engine = new BuiltinEngine();
    const base = (outputPath: string, seed: number): GenerateParams => ({
      referencePath,
      outputPath,
      width: SIDE,
      height: SIDE,
      seed,
      ...FORM_DEFAULTS,
      seamless: true,
      positivePrompt: 'brick wall',
      negativePrompt: 'blurry',
    });
    const never = new AbortController().signal;

    const ignore = (): void => undefined;
    let start = performance.now();
    for (let k = 0; k < FACES; k++) {
      await engine.generate(base(path.join(dir, `single-${k}.png`), 500 + k), ignore, never);
    }
    const singles = performance.now() - start;

    const seriesPaths = Array.from({ length: FACES }, (_, k) =>
      path.join(dir, `face-${k + 1}.png`),
    );
    start = performance.now();
    await engine.generate({ ...base(seriesPaths[0] ?? '', 500), seriesPaths }, ignore, never);
    const series = performance.now() - start;

    console.log(
      `${FACES} single images: ${ms(singles)} | series of ${FACES}: ${ms(series)} | ` +
        `ratio ${ratio(series / singles)} | goal < ${TIME_GOAL}×: ${verdict(series / singles < TIME_GOAL)}`,
    );
    printHeadline({
      figure: `series of ${FACES} / ${FACES} single images`,
      value: ratio(series / singles),
      goal: `< ${TIME_GOAL}×`,
      met: series / singles < TIME_GOAL,
    });

    const faces = await Promise.all(seriesPaths.map(readRawImage));
    let worstJoin = 0;
    for (const a of faces) {
      for (const b of faces) {
        worstJoin = Math.max(worstJoin, joinRatio(a, b, 'right'), joinRatio(a, b, 'below'));
      }
    }
    const floor = layFloor(faces, 6, 6, 7).floor;
    const repeat = Math.max(autocorrelation(floor, SIDE, 0), autocorrelation(floor, 0, SIDE));
    console.log(
      `joins (every ordered pair, both ways): worst ${worstJoin.toFixed(2)}× the inside | ` +
        `goal <= ${JOIN_GOAL}×: ${verdict(worstJoin <= JOIN_GOAL)} | random 6x6 floor's ` +
        `autocorrelation at the face period ${repeat.toFixed(2)} (one face tiled: 1.00)`,
    );
    printHeadline({
      figure: 'worst join between faces / inside',
      value: `${worstJoin.toFixed(2)}×`,
      goal: `≤ ${JOIN_GOAL}×`,
      met: worstJoin <= JOIN_GOAL,
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
