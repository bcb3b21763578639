import sharp from 'sharp';
import { synthesizeTraced } from '../server/src/engines/builtin/quilting/synthesize.js';
import type { SynthesisOptions } from '../server/src/engines/builtin/quilting/synthesize.js';
import { planks } from '../server/src/engines/builtin/test-references.js';
import { marble } from '../server/src/engines/builtin/test-references-surfaces.js';
import type { RawImage } from '../server/src/imaging/raw-image.js';
import { FORM_DEFAULTS } from '../server/src/testing/generate-params.js';
import { rawInput, savePicture } from './doc-pictures.js';

/**
 * The pictures of docs/engines.md's "Structured materials" (not a benchmark; run by hand:
 * `cd bench && node --import tsx structure-pictures.ts`): planks and marble, each a seamless
 * 320 × 320 result from a 256² generated reference (seed 10, form defaults), the reference on
 * the left; ld-structure-before.png is today's quilting (structure not followed),
 * ld-structure-after.png follows the structure. Deterministic; palette PNGs.
 * STRUCTURE_PICTURES_DIR writes elsewhere (to look without touching docs/).
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
  const references = [planks(256, 256), marble(256, 256)];
  for (const followStructure of [false, true]) {
    const panels: { image: RawImage; left: number; top: number }[] = [];
    references.forEach((reference, row) => {
      const out = synthesizeTraced(reference, OPTIONS, undefined, {
        repair: true,
        followStructure,
      });
      panels.push({ image: reference, left: 0, top: row * (SIDE + GAP) });
      panels.push({ image: out.image, left: 256 + GAP, top: row * (SIDE + GAP) });
    });
    const width = 256 + GAP + SIDE;
    const height = 2 * SIDE + GAP;
    await savePicture(
      sharp({ create: { width, height, channels: 4, background: '#ffffff' } }).composite(
        panels.map(({ image, left, top }) => ({
          input: rawInput(image),
          raw: { width: image.width, height: image.height, channels: 4 as const },
          left,
          top,
        })),
      ),
      `ld-structure-${followStructure ? 'after' : 'before'}.png`,
      { dir: process.env.STRUCTURE_PICTURES_DIR },
    );
  }
}

await main();
