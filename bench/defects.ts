import {
  FINE_STRIPE_BOUND,
  STRIPE_BOUND,
} from '../server/src/engines/builtin/quilting/defect-repair.js';
import { defectScales, stripeMeasure } from '../server/src/engines/builtin/quilting/defects.js';
import {
  patchSize,
  synthesizeTraced,
  type SynthesisOptions,
} from '../server/src/engines/builtin/quilting/synthesize.js';
import { seamReferences } from '../server/src/engines/builtin/test-references.js';
import { FORM_DEFAULTS } from '../server/src/testing/generate-params.js';
import { printHeadline } from './headline.js';
import { machineLine } from './machine.js';
import { ms, ratio, verdict } from './stats.js';

/**
 * Cut defects of the builtin engine's LD synthesis (issue 27, part 4): on the six generated seam
 * references of 1024×1024 at Square 1024×1024, the form's defaults, seed 10 (or DEFECTS_SEEDS), plain and seamless,
 * the stripe measure (the worst defect score, quilting/defects.ts; the wrap-around included when
 * seamless) over half a patch and, fine, over a quarter, and the number of defects above the
 * bounds, before (the output without the defect
 * repair: `{ repair: true, defects: false }`, measured in the same run) and after, with the
 * synthesis time (in-process, one thread). For scale, the stripe measure of plain quilting
 * (`{ repair: false }`) and its defect count come first.
 */
const SIZE = 1024;
/** The seeds (DEFECTS_SEEDS=10,11,12,13 for several; the headline is then over all of them). */
const SEEDS = (process.env['DEFECTS_SEEDS'] ?? '10').split(',').map(Number);
const TIME_GOAL_MS = 3000;

function main(): void {
  console.log(machineLine());
  console.log(
    `LD cut defects, builtin engine, ${SIZE}x${SIZE} references -> Square 1024x1024, defaults, seed ${SEEDS.join(', ')}; ` +
      `stripe measure over half a patch / a quarter (defects above ${STRIPE_BOUND} / ${FINE_STRIPE_BOUND}) ` +
      'before the defect repair -> after, one run each',
  );
  let worst = 0;
  let worstFine = 0;
  let slowest = 0;
  let outputs = 0;
  let above = 0;
  for (const [name, reference] of Object.entries(seamReferences(SIZE))) {
    for (const [seed, seamless] of SEEDS.flatMap((s) =>
      [false, true].map((t) => [s, t] as const),
    )) {
      const options: SynthesisOptions = {
        ...FORM_DEFAULTS,
        width: 1024,
        height: 1024,
        seed,
        seamless,
      };
      const P = patchSize(reference, { ...options, promptAdherence: options.promptAdherence });
      const measure = (repair: boolean, defects: boolean) => {
        const start = performance.now();
        const { image, source } = synthesizeTraced(reference, options, undefined, {
          repair,
          defects,
        });
        const time = performance.now() - start;
        const scales = defectScales(P, STRIPE_BOUND, FINE_STRIPE_BOUND);
        const found = stripeMeasure(image, source, reference, seamless, scales);
        const [stripe = 0, fine = 0] = found.worst;
        return { time, stripe, fine, count: found.defects.length };
      };
      const plain = measure(false, false);
      const before = measure(true, false);
      const after = measure(true, true);
      outputs++;
      if (after.stripe > STRIPE_BOUND || after.fine > FINE_STRIPE_BOUND) above++;
      worst = Math.max(worst, after.stripe);
      worstFine = Math.max(worstFine, after.fine);
      slowest = Math.max(slowest, after.time);
      const figures = (m: { stripe: number; fine: number }) =>
        `${m.stripe.toFixed(2).padStart(5)} / ${m.fine.toFixed(2).padStart(6)}`;
      console.log(
        `${name.padEnd(11)} ${seamless ? 'seamless' : 'plain   '}${SEEDS.length > 1 ? ` seed ${seed}` : ''} | plain quilting ${figures(plain)} (${plain.count})` +
          ` | stripe ${figures(before)} -> ${figures(after)}` +
          ` | defects ${String(before.count).padStart(2)} -> ${String(after.count).padStart(2)}` +
          ` | time ${ms(before.time).padStart(8)} -> ${ms(after.time).padStart(8)} (${ratio(after.time / before.time)})`,
      );
    }
  }
  console.log(`outputs above a bound after repair: ${above} of ${outputs}`);
  console.log(
    `worst stripe measure ${worst.toFixed(2)} | bound <= ${STRIPE_BOUND}: ${verdict(worst <= STRIPE_BOUND)}; ` +
      `fine ${worstFine.toFixed(2)} | bound <= ${FINE_STRIPE_BOUND}: ${verdict(worstFine <= FINE_STRIPE_BOUND)}; ` +
      `slowest ${ms(slowest)} | goal < ${TIME_GOAL_MS / 1000} s: ${verdict(slowest < TIME_GOAL_MS)}`,
  );
  printHeadline({
    figure: 'worst stripe measure after repair, half / quarter patch',
    value: `${worst.toFixed(2)} / ${worstFine.toFixed(2)}`,
    goal: `≤ ${STRIPE_BOUND} / ≤ ${FINE_STRIPE_BOUND}`,
    met: worst <= STRIPE_BOUND && worstFine <= FINE_STRIPE_BOUND,
  });
}

main();
