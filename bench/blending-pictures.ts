import sharp from 'sharp';
import { blendSynthesize } from '../server/src/engines/builtin/blending/blend.js';
import { synthesize } from '../server/src/engines/builtin/quilting/synthesize.js';
import type { SynthesisOptions } from '../server/src/engines/builtin/quilting/synthesize.js';
import { granite } from '../server/src/engines/builtin/test-references-stochastic.js';
import { terrazzo } from '../server/src/engines/builtin/test-references-surfaces.js';
import { FORM_DEFAULTS } from '../server/src/testing/generate-params.js';
import { rawInput, savePicture, tile2x2 } from './doc-pictures.js';

/**
 * The pictures of docs/engines.md's "Stochastic materials: blending" (not a benchmark; run by
 * hand: `cd bench && node --import tsx blending-pictures.ts`): granite and terrazzo, each a
 * seamless 320 × 320 result from a 256² generated reference (seed 10, defaults), tiled 2 × 2
 * as the 3×3 preview shows it, quilting on the left and blending on the right. Deterministic;
 * palette PNGs so each stays a few hundred KB.
 */
const SIDE = 320;
const GAP = 12;
const OPTIONS: SynthesisOptions = {
  ...FORM_DEFAULTS,
  width: SIDE,
  height: SIDE,
  seed: 10,
  seamless: true,
};

async function main(): Promise<void> {
  for (const [name, reference] of [
    ['granite', granite(256, 256)],
    ['terrazzo', terrazzo(256, 256)],
  ] as const) {
    const blended = blendSynthesize(reference, OPTIONS);
    if (!blended) throw new Error(`${name}: no room to blend`);
    const panels = [tile2x2(synthesize(reference, OPTIONS)), tile2x2(blended)];
    const width = 2 * 2 * SIDE + GAP;
    await savePicture(
      sharp({ create: { width, height: 2 * SIDE, channels: 4, background: '#ffffff' } }).composite(
        panels.map((panel, k) => ({
          input: rawInput(panel),
          raw: { width: panel.width, height: panel.height, channels: 4 as const },
          left: k * (2 * SIDE + GAP),
          top: 0,
        })),
      ),
      `blending-${name}.png`,
    );
  }
}

await main();
