import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { blendSynthesize } from '../server/src/engines/builtin/blending/blend.js';
import { synthesize } from '../server/src/engines/builtin/quilting/synthesize.js';
import type { SynthesisOptions } from '../server/src/engines/builtin/quilting/synthesize.js';
import { granite } from '../server/src/engines/builtin/test-references-stochastic.js';
import { terrazzo } from '../server/src/engines/builtin/test-references-surfaces.js';
import type { RawImage } from '../server/src/imaging/raw-image.js';
import { FORM_DEFAULTS } from '../server/src/testing/generate-params.js';

/**
 * The pictures of docs/engines.md's "Stochastic materials: blending" (not a benchmark; run by
 * hand: `cd bench && node --import tsx blending-pictures.ts`): granite and terrazzo, each a
 * seamless 320 × 320 result from a 256² generated reference (seed 10, defaults), tiled 2 × 2
 * as the 3×3 preview shows it, quilting on the left and blending on the right. Deterministic;
 * palette PNGs so each stays a few hundred KB.
 */
const IMAGES = fileURLToPath(new URL('../docs/images/', import.meta.url));
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
    await save(
      sharp({ create: { width, height: 2 * SIDE, channels: 4, background: '#ffffff' } }).composite(
        panels.map((panel, k) => ({
          input: Buffer.from(panel.data.buffer, panel.data.byteOffset, panel.data.byteLength),
          raw: { width: panel.width, height: panel.height, channels: 4 as const },
          left: k * (2 * SIDE + GAP),
          top: 0,
        })),
      ),
      `blending-${name}.png`,
    );
  }
}

/** The image laid 2 × 2, as tiles are. */
function tile2x2(image: RawImage): RawImage {
  const { width: W, height: H } = image;
  const data = new Uint8Array(W * H * 16);
  for (let y = 0; y < 2 * H; y++) {
    for (let k = 0; k < 2; k++) {
      const row = image.data.subarray((y % H) * W * 4, ((y % H) + 1) * W * 4);
      data.set(row, (y * 2 * W + k * W) * 4);
    }
  }
  return { data, width: 2 * W, height: 2 * H };
}

async function save(image: sharp.Sharp, name: string): Promise<void> {
  const flat = await image.png().toBuffer();
  const info = await sharp(flat)
    .removeAlpha()
    .png({ palette: true, colours: 256, effort: 10 })
    .toFile(path.join(IMAGES, name));
  console.log(`${name}: ${info.width}x${info.height}, ${Math.round(info.size / 1024)} KB`);
}

await main();
