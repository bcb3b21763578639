import {
  synthesizeTraced,
  type SynthesisOptions,
} from '../server/src/engines/builtin/quilting/synthesize.js';
import { cutEnergy, wrapRatio } from '../server/src/engines/builtin/quilting/seam-metrics.js';
import { seamReferences } from '../server/src/engines/builtin/test-references.js';
import { FORM_DEFAULTS } from '../server/src/testing/generate-params.js';
import { printHeadline } from './headline.js';
import { machineLine } from './machine.js';
import { ms, ratio, verdict } from './stats.js';

/**
 * Seams of the builtin engine's LD synthesis (issue 17, part 4), on six generated references of
 * 1024×1024 (bricks, planks, pebbles, stone tiles, fabric, photo-like noise, each with a lighting
 * drift) at Square 1024×1024, the form's defaults: the gradient energy across the cuts against
 * the inside, the wrap-around edges against the inside (seamless), and the synthesis time
 * (in-process, one thread; the engine adds its worker start, decode and PNG encode, see
 * generation.ts). Baseline: plain quilting (colour-only cuts, feathered: today's output),
 * measured in the same run.
 */
const SIZE = 1024;
const CUT_GOAL = 1.15;
const WRAP_GOAL = 1.1;
const TIME_GOAL_MS = 3000;

function main(): void {
  console.log(machineLine());
  console.log(
    `LD seams, builtin engine, ${SIZE}x${SIZE} references -> Square 1024x1024, defaults, seed 10; ` +
      'plain quilting (today) against the repaired joins, one run each',
  );
  const references = seamReferences(SIZE);
  let worstCut = 0;
  let worstWrap = 0;
  let slowest = 0;
  for (const [name, reference] of Object.entries(references)) {
    for (const seamless of [false, true]) {
      const options: SynthesisOptions = {
        ...FORM_DEFAULTS,
        width: 1024,
        height: 1024,
        seed: 10,
        seamless,
      };
      const measure = (repair: boolean) => {
        const start = performance.now();
        const { image, source } = synthesizeTraced(reference, options, undefined, { repair });
        const time = performance.now() - start;
        return {
          time,
          cut: cutEnergy(image, source, reference.width, seamless).ratio,
          wrap: wrapRatio(image),
        };
      };
      const plain = measure(false);
      const repaired = measure(true);
      worstCut = Math.max(worstCut, repaired.cut);
      if (seamless) worstWrap = Math.max(worstWrap, repaired.wrap);
      slowest = Math.max(slowest, repaired.time);
      console.log(
        `${name.padEnd(11)} ${seamless ? 'seamless' : 'plain   '} | cut/inside ${plain.cut.toFixed(2).padStart(5)} -> ${repaired.cut.toFixed(2).padStart(4)}` +
          (seamless
            ? ` | wrap/inside ${plain.wrap.toFixed(2)} -> ${repaired.wrap.toFixed(2)}`
            : ' |                     ') +
          ` | time ${ms(plain.time).padStart(8)} -> ${ms(repaired.time).padStart(8)} (${ratio(repaired.time / plain.time)})`,
      );
    }
  }
  console.log(
    `worst cut/inside ${worstCut.toFixed(2)} | goal <= ${CUT_GOAL}: ${verdict(worstCut <= CUT_GOAL)}; ` +
      `worst seamless wrap/inside ${worstWrap.toFixed(2)} | goal <= ${WRAP_GOAL}: ${verdict(worstWrap <= WRAP_GOAL)}; ` +
      `slowest ${ms(slowest)} | goal < ${TIME_GOAL_MS / 1000} s: ${verdict(slowest < TIME_GOAL_MS)}`,
  );
  printHeadline({
    figure: 'worst cut / inside energy after the seam repair',
    value: worstCut.toFixed(2),
    goal: `≤ ${CUT_GOAL}`,
    met: worstCut <= CUT_GOAL,
  });
  printHeadline({
    figure: 'slowest 1024² synthesis with the repair',
    value: ms(slowest),
    goal: `< ${TIME_GOAL_MS / 1000} s`,
    met: slowest < TIME_GOAL_MS,
  });
}

main();
