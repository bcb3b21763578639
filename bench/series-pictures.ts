import sharp from 'sharp';
import { layFloor } from '../server/src/engines/builtin/quilting/floor.js';
import { synthesizeSeries } from '../server/src/engines/builtin/quilting/series.js';
import type { SynthesisOptions } from '../server/src/engines/builtin/quilting/synthesize.js';
import { marble, terrazzo } from '../server/src/engines/builtin/test-references-surfaces.js';
import { stoneTiles } from '../server/src/engines/builtin/test-references.js';
import { FORM_DEFAULTS } from '../server/src/testing/generate-params.js';
import { rawInput, savePicture } from './doc-pictures.js';

/**
 * The pictures of docs/engines.md's "Series of faces" (not a benchmark; run by hand:
 * `cd bench && node --import tsx series-pictures.ts`): a seamless series of six faces from
 * three generated references, and a 6 × 6 floor laid at random from one series beside one face
 * tiled 6 × 6. Deterministic; palette PNGs so each stays a few hundred KB.
 */
const FACES = 6;
const SIDE = 160;
const GAP = 8;
const OPTIONS: SynthesisOptions = {
  ...FORM_DEFAULTS,
  width: SIDE,
  height: SIDE,
  seed: 25,
  seamless: true,
};

async function main(): Promise<void> {
  const references = [terrazzo(192, 192), stoneTiles(192, 192), marble(192, 192)];
  const series = references.map((reference) =>
    synthesizeSeries(reference, OPTIONS, FACES).map((face) => face.image),
  );

  // Each series in a row, its faces apart.
  const width = FACES * SIDE + (FACES - 1) * GAP;
  const height = series.length * SIDE + (series.length - 1) * GAP;
  await savePicture(
    sharp({ create: { width, height, channels: 4, background: '#ffffff' } }).composite(
      series.flatMap((faces, row) =>
        faces.map((face, k) => ({
          input: rawInput(face),
          raw: { width: SIDE, height: SIDE, channels: 4 as const },
          left: k * (SIDE + GAP),
          top: row * (SIDE + GAP),
        })),
      ),
    ),
    'series-faces.png',
  );

  // Terrazzo: the floor laid at random from the six faces, beside face 1 alone tiled.
  const [faces = []] = series;
  const random = layFloor(faces, 6, 6, 7).floor;
  const tiled = layFloor(faces.slice(0, 1), 6, 6, 7).floor;
  const side = 6 * SIDE;
  await savePicture(
    sharp({
      create: { width: 2 * side + 2 * GAP, height: side, channels: 4, background: '#ffffff' },
    }).composite([
      { input: rawInput(random), raw: { width: side, height: side, channels: 4 }, left: 0, top: 0 },
      {
        input: rawInput(tiled),
        raw: { width: side, height: side, channels: 4 },
        left: side + 2 * GAP,
        top: 0,
      },
    ]),
    'series-floor.png',
    { maxWidth: 960 },
  );
}

await main();
