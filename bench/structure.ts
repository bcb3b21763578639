import { synthesizeTraced } from '../server/src/engines/builtin/quilting/synthesize.js';
import type { SynthesisOptions } from '../server/src/engines/builtin/quilting/synthesize.js';
import {
  runLengths,
  seamlessRunLengthsLike,
  type RunLengths,
} from '../server/src/engines/builtin/quilting/run-lengths.js';
import { readStructure } from '../server/src/engines/builtin/quilting/structure.js';
import {
  veinContinuity,
  type VeinContinuity,
} from '../server/src/engines/builtin/quilting/vein-continuity.js';
import { repetition } from '../server/src/engines/builtin/blending/repetition.js';
import type { RawImage } from '../server/src/imaging/raw-image.js';
import { structuredReferences } from '../server/src/engines/builtin/test-references-stochastic.js';
import { FORM_DEFAULTS } from '../server/src/testing/generate-params.js';
import { printHeadline } from './headline.js';
import { machineLine } from './machine.js';
import { ms, ratio, verdict } from './stats.js';

/**
 * Structured materials (issue 27, part 6): per generated reference (planks, marble, stripes,
 * bricks) at 1024², Square 1024×1024, plain and seamless, the form's defaults, seed 10: the
 * straight-run lengths (quilting/run-lengths.ts: median and 75th percentile along the dominant
 * orientation) of the reference, of today's quilting (before: structure not followed) and of
 * structure-following quilting (after), each with its ratio to the reference's; and the
 * synthesis time (synthesizeTraced in this process, the structure reading included) before ->
 * after. Goal: run lengths within 25 % of the reference's, and < 3 s per LD image. A seamless
 * output is also measured as laid 2 × 2 ("tiled"), where a run crossing the tile's edge counts
 * whole instead of being left out as cut off by the border; the verdict stays on the plain one.
 * Marble also gets its vein continuity (quilting/vein-continuity.ts: the mean vein length, twice
 * the thinned veins' length over their ends, and the ends) and the within-tile repetition
 * (blending/repetition.ts: the mean of the 8 strongest autocorrelation peaks off the tiling's
 * lattice), reference -> before -> after; not in the verdict (not met, docs/engines.md).
 * STRUCTURE_BENCH_SIZE (default 1024) and STRUCTURE_BENCH_NAMES (comma-separated) narrow it.
 */
const SIZE = Number(process.env.STRUCTURE_BENCH_SIZE ?? 1024);
const NAMES = (process.env.STRUCTURE_BENCH_NAMES ?? 'planks,marble,stripes,bricks').split(',');
const TIME_GOAL_MS = 3000;
const MARGIN = 0.25;

function within(r: RunLengths, ref: RunLengths): boolean {
  const ok = (a: number, b: number) => Math.abs(a / b - 1) <= MARGIN;
  return ok(r.median, ref.median) && ok(r.p75, ref.p75);
}

function figures(r: RunLengths, ref: RunLengths): string {
  return (
    `${r.median.toFixed(0)}/${r.p75.toFixed(0)} px ` +
    `(${ratio(r.median / ref.median)}/${ratio(r.p75 / ref.p75)})`
  );
}

/** An output's veins against the reference's: the printed figures, and the length's share. */
function veinLine(image: RawImage, ref: VeinContinuity): { text: string; share: number } {
  const v = veinContinuity(image, ref);
  const share = v.length / ref.length;
  return {
    text: `${v.length.toFixed(0)} px, ${v.ends} ends (${ratio(share)}), repetition ${repetition(image).top.toFixed(3)}`,
    share,
  };
}

function main(): void {
  console.log(machineLine());
  console.log(
    `structure, builtin engine quilting, ${SIZE}² references -> Square 1024x1024, defaults, seed 10: ` +
      'run length median/p75 (ratio to the reference), before (today) -> after (structure followed)',
  );
  const references = structuredReferences(SIZE);
  let allMet = true;
  let slowest = 0;
  let metCount = 0;
  let cases = 0;
  /** Marble's mean vein length after, as a share of the reference's, per output kind. */
  const veinShares: number[] = [];
  for (const name of NAMES) {
    const reference = references[name];
    if (!reference) throw new Error(`no reference ${name}`);
    const ref = runLengths(reference);
    const reading = readStructure(reference);
    for (const seamless of [false, true]) {
      const options: SynthesisOptions = {
        ...FORM_DEFAULTS,
        width: 1024,
        height: 1024,
        seed: 10,
        seamless,
      };
      const run = (followStructure: boolean) => {
        const start = performance.now();
        const { image } = synthesizeTraced(reference, options, undefined, {
          repair: true,
          followStructure,
        });
        const time = performance.now() - start;
        return {
          time,
          image,
          runs: runLengths(image, ref),
          tiled: seamlessRunLengthsLike(image, ref),
        };
      };
      const before = run(false);
      const after = run(true);
      const met = within(after.runs, ref);
      allMet &&= met;
      cases += 1;
      if (met) metCount += 1;
      slowest = Math.max(slowest, after.time);
      console.log(
        `${name.padEnd(8)} ${seamless ? 'seamless' : 'plain   '} | coherence ` +
          `${reading.orientation.coherence.toFixed(2)} | reference ${ref.median.toFixed(0)}/${ref.p75.toFixed(0)} px | ` +
          `${figures(before.runs, ref)} -> ${figures(after.runs, ref)}: ${verdict(met)} | ` +
          `time ${ms(before.time)} -> ${ms(after.time)} (${ratio(after.time / before.time)})` +
          (seamless
            ? ` | tiled 2x2 ${figures(before.tiled, ref)} -> ${figures(after.tiled, ref)}`
            : ''),
      );
      if (name === 'marble') {
        const veins = veinContinuity(reference);
        const afterVeins = veinLine(after.image, veins);
        veinShares.push(afterVeins.share);
        console.log(
          `  veins: reference ${veins.length.toFixed(0)} px, ${veins.ends} ends, repetition ` +
            `${repetition(reference).top.toFixed(3)} | before ${veinLine(before.image, veins).text} -> ` +
            `after ${afterVeins.text}`,
        );
      }
    }
  }
  console.log(
    `run lengths within ${MARGIN * 100} % of the reference's: ${verdict(allMet)}; ` +
      `slowest after ${ms(slowest)} | goal < ${TIME_GOAL_MS / 1000} s per LD image: ` +
      verdict(slowest < TIME_GOAL_MS),
  );
  printHeadline({
    figure: 'outputs with run lengths (median, p75) within 25 % of the reference',
    value: `${metCount} of ${cases}`,
    goal: 'all',
    met: allMet,
  });
  const worstVeins = Math.min(...veinShares);
  printHeadline({
    figure: "marble's mean vein length / the reference's, worst of plain and seamless",
    value: ratio(worstVeins),
    goal: `within ${MARGIN * 100} %`,
    met: Math.abs(worstVeins - 1) <= MARGIN,
  });
}

main();
