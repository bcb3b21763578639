import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { BuiltinEngine } from '../server/src/engines/builtin/builtin-engine.js';
import { pebbles } from '../server/src/engines/builtin/test-references.js';
import { FORM_DEFAULTS } from '../server/src/testing/generate-params.js';

/**
 * The picture of docs/engines.md's "Prompts" (not a benchmark; run by hand:
 * `cd bench && node --import tsx prompt-pictures.ts`): one generated reference (pebbles) and the
 * builtin engine's previews of it with the same seed and settings, the prompt alone changing —
 * no colour word, "terracotta", "sage", "large", then "polished", "weathered", "fine". Made
 * through the engine (its worker, resize included), so it shows what a user gets. Deterministic.
 */
const IMAGES = fileURLToPath(new URL('../docs/images/', import.meta.url));
const SIDE = 256;
const GAP = 8;
const PROMPTS = [
  'pebbles',
  'terracotta pebbles',
  'sage pebbles',
  'large pebbles',
  'polished pebbles',
  'weathered pebbles',
  'fine pebbles',
];

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-prompt-pictures-'));
  try {
    const reference = pebbles(SIDE, SIDE);
    const referencePath = path.join(dir, 'reference.png');
    await sharp(reference.data, { raw: { width: SIDE, height: SIDE, channels: 4 } })
      .png()
      .toFile(referencePath);
    const engine = new BuiltinEngine({ upscaler: 'lanczos' });
    const outputs: string[] = [];
    for (const [k, positivePrompt] of PROMPTS.entries()) {
      const outputPath = path.join(dir, `out-${k}.png`);
      const started = performance.now();
      await engine.generate(
        {
          ...FORM_DEFAULTS,
          referencePath,
          outputPath,
          width: SIDE,
          height: SIDE,
          seed: 27,
          positivePrompt,
          negativePrompt: 'blurry',
        },
        () => undefined,
        new AbortController().signal,
      );
      console.log(`"${positivePrompt}": ${Math.round(performance.now() - started)} ms`);
      outputs.push(outputPath);
    }

    // The reference, then the previews: two rows of four.
    const tiles = [referencePath, ...outputs];
    const columns = 4;
    const rows = Math.ceil(tiles.length / columns);
    const width = columns * SIDE + (columns - 1) * GAP;
    const height = rows * SIDE + (rows - 1) * GAP;
    const sheet = await sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
      .composite(
        tiles.map((input, k) => ({
          input,
          left: (k % columns) * (SIDE + GAP),
          top: Math.floor(k / columns) * (SIDE + GAP),
        })),
      )
      .png()
      .toBuffer();
    const info = await sharp(sheet)
      .png({ palette: true, colours: 256, effort: 10 })
      .toFile(path.join(IMAGES, 'prompts.png'));
    console.log(`prompts.png: ${info.width}x${info.height}, ${Math.round(info.size / 1024)} KB`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
