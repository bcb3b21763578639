import sharp from 'sharp';
import {
  DEFECT_BOUND,
  FINE_DEFECT_BOUND,
} from '../server/src/engines/builtin/quilting/defect-repair.js';
import { defectScales, stripeMeasure } from '../server/src/engines/builtin/quilting/defects.js';
import {
  patchSize,
  synthesizeTraced,
  type SynthesisOptions,
} from '../server/src/engines/builtin/quilting/synthesize.js';
import { seamReferences } from '../server/src/engines/builtin/test-references.js';
import type { RawImage } from '../server/src/imaging/raw-image.js';
import { FORM_DEFAULTS } from '../server/src/testing/generate-params.js';
import { rawInput, savePicture, tile2x2 } from './doc-pictures.js';

/**
 * The pictures of docs/engines.md's "Defects that repeat" (not a benchmark; run by hand:
 * `cd bench && node --import tsx defect-pictures.ts`): bricks, planks and stone tiles, each a
 * seamless 320 × 320 result from a 256² seam reference (seed 10, defaults), tiled 2 × 2 as a
 * floor repeats it; before (without the defect repair) and after. The stretches of cut the
 * stripe measure scores above the repair's bounds (half a patch and a quarter) are marked with a red line beside them.
 */
const SIDE = 320;
const GAP = 12;
const NAMES = ['bricks', 'planks', 'stone tiles'] as const;

async function main(): Promise<void> {
  const references = seamReferences(256);
  for (const [file, defects] of [
    ['ld-defects-before.png', false],
    ['ld-defects-after.png', true],
  ] as const) {
    const panels = NAMES.map((name) => {
      const reference = references[name];
      if (!reference) throw new Error(`no reference ${name}`);
      const options: SynthesisOptions = {
        ...FORM_DEFAULTS,
        width: SIDE,
        height: SIDE,
        seed: 10,
        seamless: true,
      };
      const P = patchSize(reference, { ...options, promptAdherence: options.promptAdherence });
      const { image, source } = synthesizeTraced(reference, options, undefined, {
        repair: true,
        defects,
      });
      const scales = defectScales(P, DEFECT_BOUND, FINE_DEFECT_BOUND);
      const found = stripeMeasure(image, source, reference, true, scales);
      const [stripe = 0, fine = 0] = found.worst;
      console.log(
        `${file} ${name}: stripe ${stripe.toFixed(2)} / fine ${fine.toFixed(2)}, ${found.defects.length} marked`,
      );
      for (const d of found.defects) mark(image, d.x, d.y, d.direction === 'vertical', d.length);
      return tile2x2(image);
    });
    const width = NAMES.length * 2 * SIDE + (NAMES.length - 1) * GAP;
    await savePicture(
      sharp({ create: { width, height: 2 * SIDE, channels: 4, background: '#ffffff' } }).composite(
        panels.map((panel, k) => ({
          input: rawInput(panel),
          raw: { width: panel.width, height: panel.height, channels: 4 as const },
          left: k * (2 * SIDE + GAP),
          top: 0,
        })),
      ),
      file,
    );
  }
}

/** A red line 3 pixels beside the stretch (so the defect itself stays visible). */
function mark(image: RawImage, x: number, y: number, vertical: boolean, length: number): void {
  const { width: W, height: H } = image;
  for (let t = 0; t < length; t++) {
    const px = vertical ? (x + 4) % W : (x + t) % W;
    const py = vertical ? (y + t) % H : (y + 4) % H;
    image.data.set([230, 20, 20, 255], (py * W + px) * 4);
  }
}

await main();
